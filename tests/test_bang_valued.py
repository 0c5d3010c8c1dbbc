"""The `valued` Bang! bot: its features hold only what the seat knows, its network file is checked
when loaded, it plays legal games and its targets follow the estimate; train.bang_value writes a
network it reads."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.bang_dice import ExpectimaxHeuristic, ValuedExpectimax, make
from agents.bang_dice.valued import (
    FEATURE_SIZE,
    MAX_SEATS,
    PER_SEAT,
    VALUE_NET_FILES,
    MeanWinProbability,
    WinProbability,
    position_features,
    states_features,
)
from agents.base import LazyObservation
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.game import BangConfig, BangGame
from granujas_env.bang_dice.view import seat_view
from train import bang_value

TAIL = MAX_SEATS * PER_SEAT  # where this seat's role, the pile and the table size start


def _decide(bot, game):
    observation = LazyObservation(game.legal_actions(), A.NUM_ACTIONS, lambda: None)
    return bot.act(observation, view=seat_view(game, game.decision.player))


def _midgame(n: int, seed: int, steps: int = 60) -> BangGame:
    game = BangGame(BangConfig(n), seed)
    bots = [make("heuristic", seed=s) for s in range(n)]
    for _ in range(steps):
        if game.game_over:
            break
        game.apply(_decide(bots[game.decision.player], game))
    return game


def _table(arrows: list[int]) -> BangGame:
    return BangGame.from_position({
        "roles": ["sheriff", "outlaw", "renegade", "outlaw", "deputy"],
        "characters": ["slab_the_killer", "black_jack", "lucky_duke", "sid_ketchum", "paul_regret"],
        "life": [6, 1, 8, 2, 9], "arrows": arrows, "turn": 0,
    })


def test_features_lay_out_the_table_from_the_seat_and_refuse_three_players():
    game = _table([0, 2, 0, 1, 0])
    view = seat_view(game, 2)  # the Renegade
    marginals = {s: {"sheriff": 0.0, "deputy": 0.25, "outlaw": 0.5, "renegade": 0.0} for s in range(5)}
    x = position_features(view, marginals)
    assert x.shape == (FEATURE_SIZE,)
    seat = {k: x[k * PER_SEAT:(k + 1) * PER_SEAT] for k in range(MAX_SEATS)}
    # offset 0 is the Renegade himself: his role known, 8 life of 8
    assert list(seat[0][:8]) == [1, 1, 0.8, 0.0, 0, 0, 0, 0] and list(seat[0][8:]) == [0, 0, 0, 1]
    # offset 4 is seat 1 (the Outlaw at 1 life with 2 arrows), hidden: the posterior's numbers
    assert list(seat[4][:8]) == pytest.approx([1, 1, 0.1, (game.max_life[1] - 1) / 10, 2 / 9, 1, 0, 0])
    assert list(seat[4][8:]) == [0.0, 0.25, 0.5, 0.0]
    # offset 3 is the Sheriff (face up), whose turn it is
    assert seat[3][7] == 1 and list(seat[3][8:]) == [1, 0, 0, 0]
    assert not seat[5].any() and not seat[7].any()  # no seats 5..7 at a 5-player table
    assert list(x[TAIL:TAIL + 4]) == [0, 0, 0, 1]  # the role: renegade (ROLES order)
    assert x[TAIL + 4] == pytest.approx(6 / 9)  # the pile
    assert list(x[TAIL + 5:]) == [0, 1, 0, 0, 0]  # 5 players
    with pytest.raises(ValueError, match="4 to 8 players, got 3"):
        position_features(seat_view(BangGame(BangConfig(3), 0), 0), {})


@pytest.mark.parametrize("n,seed", [(5, 3), (7, 11), (8, 5)])
def test_what_the_bot_computes_does_not_change_when_hidden_roles_are_permuted(n, seed):
    game = _midgame(n, seed)
    assert not game.game_over
    seat = next(s for s in range(n) if game.alive[s] and s != game.sheriff)
    view = seat_view(game, seat)
    hidden = [s for s in range(n) if s != seat and view.players[s].role is None]
    assert len(hidden) >= 2
    bot = ValuedExpectimax(seed=0)
    x = position_features(view, bot.posterior(view))
    seen_leak = False
    for shift in range(1, len(hidden)):
        roles = list(game.roles)
        for i, s in enumerate(hidden):
            roles[s] = game.roles[hidden[(i + shift) % len(hidden)]]
        other = game.with_roles(roles)
        other_view = seat_view(other, seat)
        other_bot = ValuedExpectimax(seed=0)
        assert np.array_equal(position_features(other_view, other_bot.posterior(other_view)), x)
        if roles != game.roles:
            # the control: features told the true roles would differ, and the test would see it
            leak = position_features(other_view, other_bot.posterior(other_view), roles=roles)
            seen_leak |= not np.array_equal(leak, position_features(view, bot.posterior(view), roles=game.roles))
    assert seen_leak


def test_states_features_replace_lives_arrows_and_who_plays_next():
    game = _table([3, 0, 0, 0, 0])
    view = seat_view(game, 0)
    marginals = ValuedExpectimax().posterior(view)
    base = position_features(view, marginals)
    rows = states_features(view, marginals, [([6, 1, 8, 2, 9], 3), ([6, 0, 8, 2, 9], 0)])
    nxt = [rows[i][[k * PER_SEAT + 7 for k in range(5)]].tolist() for i in range(2)]
    assert nxt == [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0]]  # seat 1 out: seat 2 plays next
    assert np.array_equal(np.delete(rows[0], [k * PER_SEAT + 7 for k in range(5)]),
                          np.delete(base, [k * PER_SEAT + 7 for k in range(5)]))
    assert list(rows[1][PER_SEAT:PER_SEAT + 7]) == [1, 0, 0, 0, 0, 0, 0]  # seat 1: out of play
    assert rows[1][4] == 0 and rows[0][4] == pytest.approx(3 / 9)  # the arrows a Gatling discards


def _net_file(path, **changes):
    arrays = {"w0": np.zeros((FEATURE_SIZE, 4), np.float32), "b0": np.zeros(4, np.float32),
              "w1": np.ones((4, 1), np.float32), "b1": np.zeros(1, np.float32),
              "meta": np.array(json.dumps({"feature_version": 1}))}
    arrays.update(changes)
    arrays = {k: v for k, v in arrays.items() if v is not None}
    np.savez(path, **arrays)
    return path


@pytest.mark.parametrize("changes,message", [
    ({"w0": np.zeros((10, 4), np.float32)}, "layer 0: weights"),
    ({"b1": np.zeros(2, np.float32)}, "layer 1: weights"),
    ({"w1": np.ones((4, 2), np.float32), "b1": np.zeros(2, np.float32)}, "1 output, has 2"),
    ({"w0": np.full((FEATURE_SIZE, 4), np.nan, np.float32)}, "not finite"),
    ({"meta": np.array(json.dumps({"feature_version": 7}))}, "feature_version must be 1"),
    ({"meta": np.array("{not json")}, "meta is not JSON"),
    ({"b1": None}, "expected arrays w0..wK"),
])
def test_a_bad_network_file_is_refused_with_what_is_wrong(tmp_path, changes, message):
    with pytest.raises(ValueError, match=message):
        WinProbability(_net_file(tmp_path / "net.npz", **changes))


def test_a_missing_or_unreadable_network_file_is_refused(tmp_path):
    with pytest.raises(ValueError, match="cannot read the value network"):
        WinProbability(tmp_path / "absent.npz")
    (tmp_path / "junk.npz").write_text("not a zip")
    with pytest.raises(ValueError, match="cannot read the value network"):
        ValuedExpectimax(net=tmp_path / "junk.npz")


def test_a_hand_made_network_computes_its_logistic_output(tmp_path):
    net = WinProbability(_net_file(tmp_path / "net.npz", b0=np.array([1, -1, 2, 0], np.float32)))
    # ReLU(0 + b0) = [1, 0, 2, 0]; summed by w1 = 3; logistic(3)
    assert net(np.zeros((2, FEATURE_SIZE))) == pytest.approx([1 / (1 + np.exp(-3))] * 2)


@pytest.mark.parametrize("path", VALUE_NET_FILES)
def test_the_shipped_networks_load_say_how_they_were_trained_and_estimate_probabilities(path):
    net = WinProbability(path)
    assert net.meta["command"].startswith("python -m train.bang_value")
    assert net.meta["held_out_loss"] < net.meta["constant_guess_loss"]
    game = _midgame(6, 2)
    view = seat_view(game, 1)
    p = net(position_features(view, make("heuristic").posterior(view))[None, :])
    assert p.shape == (1,) and 0 < p[0] < 1


def test_the_bot_plays_by_the_mean_of_its_networks(tmp_path):
    low = _net_file(tmp_path / "low.npz", b0=np.array([1, -1, 2, 0], np.float32))  # logistic(3)
    high = _net_file(tmp_path / "high.npz")  # logistic(0) = 0.5 (every weight and bias zero)
    x = np.zeros((3, FEATURE_SIZE))
    mean = MeanWinProbability([low, high])
    assert mean(x) == pytest.approx([(1 / (1 + np.exp(-3)) + 0.5) / 2] * 3)
    # the same networks by a list, by '+' in one string (a bot spec's :net=a+b), and the default
    for net in ([low, high], f"{low}+{high}"):
        assert ValuedExpectimax(net=net).net(x) == pytest.approx(mean(x))
    assert [n.meta for n in ValuedExpectimax().net.nets] == [WinProbability(f).meta for f in VALUE_NET_FILES]
    one = ValuedExpectimax(net=low).net  # one network: its own estimate, unchanged
    assert np.array_equal(one(x), WinProbability(low)(x))


@pytest.mark.parametrize("net", ["", "+", "a.npz+", []])
def test_an_empty_network_list_is_refused(net):
    with pytest.raises(ValueError, match="network file"):
        ValuedExpectimax(net=net)


@pytest.mark.parametrize("n", [3, 4, 5, 8])
def test_it_plays_legal_games_and_plays_three_players_as_expectimax(n):
    for seed in range(2):
        game = BangGame(BangConfig(n), seed)
        bots = [ValuedExpectimax(seed=s) for s in range(n)]
        twins = [ExpectimaxHeuristic(seed=s) for s in range(n)]
        while not game.game_over:
            seat = game.decision.player
            action = _decide(bots[seat], game)
            assert action in game.legal_actions()
            if n == 3:
                assert action == _decide(twins[seat], game)
            game.apply(action)


def _shoot_position(roles: list[str], life: list[int]) -> BangGame:
    # seat 0 rolls one "1": his neighbours are seats 1 and 4
    game = BangGame.from_position({
        "roles": roles,
        "characters": ["black_jack", "lucky_duke", "sid_ketchum", "paul_regret", "rose_doolan"],
        "life": life, "turn": 0, "dice": ["1", "beer", "beer", "beer", "beer"],
    })
    game.apply(A.STOP)
    assert game.decision.kind == "shoot"
    return game


@pytest.mark.parametrize("spare", [1, 4])
def test_the_sheriff_shoots_where_the_estimate_is_highest_an_outlaw_as_the_heuristic(tmp_path, spare):
    # a one-layer network whose estimate grows with the life of seat `spare` only: the Sheriff
    # keeps that seat's life and shoots the other neighbour
    w0 = np.zeros((FEATURE_SIZE, 1), np.float32)
    w0[spare * PER_SEAT + 2] = 10.0  # seat `spare`'s life, counted from seat 0
    net = _net_file(tmp_path / "net.npz", w0=w0, b0=np.zeros(1, np.float32), w1=None, b1=None)
    game = _shoot_position(["sheriff", "outlaw", "renegade", "deputy", "outlaw"], [7, 4, 8, 9, 4])
    assert _decide(ValuedExpectimax(seed=0, net=net), game) == game.target_action(5 - spare)
    outlaw = _shoot_position(["outlaw", "sheriff", "renegade", "deputy", "outlaw"], [8, 4, 8, 9, 4])
    assert _decide(ValuedExpectimax(seed=0, net=net), outlaw) == _decide(make("heuristic"), outlaw)


def test_an_outlaw_shoots_the_sheriff_at_one_life_and_the_game_is_won():
    game = _shoot_position(["outlaw", "sheriff", "renegade", "deputy", "outlaw"], [8, 1, 8, 9, 1])
    action = _decide(ValuedExpectimax(seed=0), game)
    assert action == game.target_action(1)
    game.apply(action)  # the only bull's-eye: its hit lands at once
    assert game.game_over and set(game.winners) == {0, 4}


def test_its_estimate_prefers_the_kill_that_wins():
    game = _shoot_position(["outlaw", "sheriff", "renegade", "deputy", "outlaw"], [8, 1, 8, 9, 1])
    bot = ValuedExpectimax(seed=0)
    view = seat_view(game, 0)
    win, other = bot.win_probabilities(view, [([8, 0, 8, 9, 1], 0), ([8, 1, 8, 9, 0], 0)])
    # killing the Sheriff ends the game won; killing the other Outlaw leaves the Sheriff at 1
    assert win > 0.95 and win > other + 0.05


def test_train_bang_value_writes_a_network_the_bot_reads_from_the_same_games_whatever_the_workers(tmp_path):
    one = bang_value.generate([4, 6], ["heuristic", "random"], 6, seed=40, workers=1)
    two = bang_value.generate([4, 6], ["heuristic", "random"], 6, seed=40, workers=2)
    for a, b in zip(one, two):
        assert np.array_equal(a, b)
    x, y, game = one
    assert x.shape[1] == FEATURE_SIZE and set(np.unique(y)) <= {0.0, 1.0} and set(np.unique(game)) == set(range(40, 46))
    out, data = tmp_path / "net.npz", tmp_path / "positions.npz"
    assert bang_value.main(["--players", "4", "6", "--pool", "heuristic", "random", "--games", "6", "--seed", "40",
                            "--hidden", "8", "--epochs", "1", "--out", str(out), "--data", str(data)]) == 0
    net = WinProbability(out)
    assert net.meta["games"] == 6 and net.meta["seeds"] == [40, 45] and net.meta["held_out_from_seed"] == 45
    assert net.meta["command"] == ("python -m train.bang_value --players 4 6 --pool heuristic random --games 6 "
                                   f"--seed 40 --hidden 8 --epochs 1 --out {out} --data {data}")
    assert [w.shape for w, _ in net.layers] == [(FEATURE_SIZE, 8), (8, 1)]
    bot = ValuedExpectimax(seed=0, net=out)
    game5 = _midgame(5, 1, steps=10)
    assert _decide(bot, game5) in game5.legal_actions()
    refit = tmp_path / "refit.npz"
    assert bang_value.main(["--from-data", str(data), "--hidden", "8", "--epochs", "1", "--out", str(refit)]) == 0
    assert WinProbability(refit).meta["positions"] == net.meta["positions"]
    # the games of the bot playing the network just written, fitted with the first ones: each
    # file's last tenth held out
    more, both = tmp_path / "more.npz", tmp_path / "both.npz"
    assert bang_value.main(["--players", "5", "--pool", f"valued:net={out}", "heuristic", "--games", "10",
                            "--seed", "70", "--hidden", "8", "--epochs", "1", "--out", str(tmp_path / "m.npz"),
                            "--data", str(more)]) == 0
    assert bang_value.main(["--from-data", str(data), str(more), "--hidden", "8", "--epochs", "1",
                            "--out", str(both)]) == 0
    meta = WinProbability(both).meta
    assert meta["games"] == 16 and meta["seeds"] == [[40, 45], [70, 79]]
    assert meta["held_out_from_seed"] == [45, 79]
    assert meta["positions"] == net.meta["positions"] + WinProbability(tmp_path / "m.npz").meta["positions"]


def test_train_bang_value_fine_tunes_a_network_from_where_it_starts(tmp_path):
    start, data = tmp_path / "start.npz", tmp_path / "positions.npz"
    assert bang_value.main(["--players", "5", "--pool", "heuristic", "random", "--games", "10", "--seed", "90",
                            "--hidden", "8", "--epochs", "1", "--out", str(start), "--data", str(data)]) == 0
    first = WinProbability(start)
    still, moved = tmp_path / "still.npz", tmp_path / "moved.npz"
    for out, lr in ((still, "1e-9"), (moved, "0.05")):
        assert bang_value.main(["--from-data", str(data), "--init-from", str(start), "--hidden", "8",
                                "--epochs", "2", "--lr", lr, "--out", str(out)]) == 0
    # a step of 1e-9 leaves the starting weights; the starting network's held-out loss is its
    # own cross-entropy on the last tenth of the games
    kept = WinProbability(still)
    for (w, b), (w0, b0) in zip(kept.layers, first.layers):
        assert np.allclose(w, w0, atol=1e-6) and np.allclose(b, b0, atol=1e-6)
    with np.load(data) as positions:
        x, y, game = positions["x"], positions["y"], positions["game"]
    p = np.clip(first(x[game >= 99]), 1e-7, 1 - 1e-7)
    expected = float(-np.mean(y[game >= 99] * np.log(p) + (1 - y[game >= 99]) * np.log(1 - p)))
    assert kept.meta["init_held_out_loss"] == pytest.approx(expected, abs=2e-5)
    assert kept.meta["held_out_loss"] == pytest.approx(expected, abs=2e-5)
    assert kept.meta["init_from"] == {"file": str(start), "meta": first.meta}
    assert not np.allclose(WinProbability(moved).layers[0][0], first.layers[0][0], atol=1e-3)
    with pytest.raises(ValueError, match=r"has hidden widths \[8\]; --hidden is \[16\]"):
        bang_value.main(["--from-data", str(data), "--init-from", str(start), "--hidden", "16",
                         "--out", str(tmp_path / "n.npz")])
    assert not (tmp_path / "n.npz").exists()


@pytest.mark.parametrize("argv,message", [
    (["--players", "3"], "--players must be 4..8"),
    (["--lr", "0"], "--lr must be in \\(0, 1\\), got 0.0"),
    (["--init-from", "missing.npz"], "cannot read the value network missing.npz"),
    (["--pool", "heuristic", "nobody"], "unknown bots \\['nobody'\\]"),
    (["--pool", "heuristic", "valued:net=missing.npz"], "cannot read the value network missing.npz"),
    (["--games", "0"], "--games must be >= 1"),
    (["--hidden", "0"], "--hidden widths must be >= 1"),
])
def test_train_bang_value_refuses_bad_arguments(tmp_path, argv, message):
    with pytest.raises(ValueError, match=message):
        bang_value.main([*argv, "--out", str(tmp_path / "n.npz")])
    assert not (tmp_path / "n.npz").exists()
