"""python_bang_dice, Bang! The Dice Game as an OpenSpiel game: registration, OpenSpiel's own
random-simulation checks at 3..8 players, chance nodes for the dice (replayed exactly by the
engine's set_next_roll), fresh deals, leak-free strings and tensors (hidden roles swapped),
resampling consistent with the public history, and IS-MCTS playing full games."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # the [openspiel] extra

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from granujas_env.bang_dice.engine import actions as BA  # noqa: E402
from granujas_env.bang_dice.engine.game import (  # noqa: E402
    BEER,
    FACES,
    ROLE_DEAL,
    SHERIFF,
    BangConfig,
    BangGame,
)
from granujas_env.bang_dice.view import known_roles  # noqa: E402
from granujas_env.core.snapshot import digest, state_dict  # noqa: E402
from granujas_env.openspiel import BangDiceGame, BangDiceState, RolloutEvaluator, resample_roles  # noqa: E402

# what differs between an OpenSpiel engine and a plain one playing the same game: the generator
_SKIP = {"_rng", "_rng_shared", "_legal_cache", "seed"}


def _digest(game: BangGame) -> str:
    return digest(state_dict(game, _SKIP))


def _load(**params: object):
    return pyspiel.load_game("python_bang_dice", params)


def _step(state, rng: random.Random) -> None:
    """One random action: a uniform die at a chance node, a uniform legal id otherwise."""
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        assert probs == (1 / 6,) * 6 and outcomes == tuple(range(6))
        state.apply_action(rng.randrange(6))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _play(state, steps: int, seed: int):
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        _step(state, rng)
    return state


def _to_decision(state, seed: int):
    """Random steps until a player (not chance) must decide."""
    rng = random.Random(seed)
    while state.is_chance_node():
        _step(state, rng)
    return state


def test_game_type_info_and_parameters() -> None:
    game = _load(players=6, seed=9)
    kind = game.get_type()
    assert kind.short_name == "python_bang_dice"
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (kind.min_num_players, kind.max_num_players) == (3, 8)
    assert game.num_players() == 6 and game.config == BangConfig(6)
    assert game.num_distinct_actions() == BA.NUM_ACTIONS == 47
    assert game.max_chance_outcomes() == 6
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_size() == game.information_state_tensor_size() == 424
    assert game.get_parameters() == {"players": 6, "seed": 9, "fixed_deal": False}
    assert _load().num_players() == 5
    with pytest.raises(ValueError, match=r"num_players must be an int in 3\.\.8, got 9"):
        BangDiceGame({"players": 9})
    with pytest.raises(ValueError, match=r"unknown parameters \['game_length'\]"):
        BangDiceGame({"game_length": "short"})
    with pytest.raises(ValueError, match="fixed_deal must be a bool, got 1"):
        BangDiceGame({"fixed_deal": 1})


@pytest.mark.parametrize("players", range(3, 9))
def test_openspiel_random_sim_test(players: int) -> None:
    # explicit chance: the state serializes (no RNG state to ask for); fresh deals and one deal
    pyspiel.random_sim_test(
        _load(players=players, seed=players, fixed_deal=players % 2 == 0),
        num_sims=1, serialize=True, verbose=False,
    )


def test_each_initial_state_is_a_fresh_deal_with_fresh_dice() -> None:
    game = _load(players=5, seed=9)
    states = [game.new_initial_state() for _ in range(4)]
    draws = random.Random(9)
    for state in states:  # the k-th deal is the engine's game of the k-th draw of Random(seed)
        expected = BangGame(BangConfig(5), draws.getrandbits(63))
        assert _digest(state.engine) == _digest(expected)
        assert not state.is_chance_node()  # the deal rolls the dice before the first decision
    assert len({_digest(s.engine) for s in states}) == 4
    fixed = _load(players=5, seed=9, fixed_deal=True)
    assert {_digest(fixed.new_initial_state().engine) for _ in range(3)} == {
        _digest(BangGame(BangConfig(5), 9))
    }
    # after the deal no die comes from a generator: the same deal, other chance outcomes
    one, two = fixed.new_initial_state(), fixed.new_initial_state()
    _play(one, 200, seed=1)
    _play(two, 200, seed=2)
    assert one.history() != two.history()


def test_a_reroll_is_one_chance_node_per_die_and_the_engine_rolls_those_faces() -> None:
    game = _load(players=4, seed=3, fixed_deal=True)
    for seed in range(40):
        state = _to_decision(game.new_initial_state(), seed)
        if state.engine.decision.kind == "reroll" and state.engine.rerolls_left == 2:
            break
    else:
        pytest.fail("no first reroll decision found")
    engine = state.engine
    mask = 0b10100 if 20 in state.legal_actions() else max(state.legal_actions())
    dice_count = bin(mask).count("1")
    before = list(engine.dice)
    state.apply_action(mask)
    assert "rolling after" in state.observation_string(0)
    for _ in range(dice_count):
        assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, FACES.index(BEER)) == "die shows beer"
        assert state.engine is engine  # the table before the roll until its last die
        state.apply_action(FACES.index(BEER))
    assert not state.is_chance_node()
    expected = [BEER if mask >> i & 1 else face for i, face in enumerate(before)]
    assert state.engine.dice == expected
    assert state.engine.events[-1] == ("roll", engine.turn_player, tuple(expected), mask)
    assert state.engine.decision.kind == "reroll" and state.engine.rerolls_left == 1


@pytest.mark.parametrize("players", [3, 5, 8])
def test_histories_replay_on_the_engine_with_set_next_roll(players: int) -> None:
    game = _load(players=players, seed=players, fixed_deal=True)
    state = _play(game.new_initial_state(), 100_000, seed=players)
    assert state.is_terminal()
    faces, decisions = [], []
    for step in state.full_history():
        if step.player == pyspiel.PlayerId.CHANCE:
            faces.append(FACES[step.action])
        else:
            decisions.append(step.action)
    engine = BangGame(BangConfig(players), seed=players)  # the deal, then the chance outcomes
    engine.set_next_roll(faces)
    for action in decisions:
        engine.apply(action)
    assert engine.game_over and not engine.forced
    assert _digest(engine) == _digest(state.engine)
    assert state.returns() == engine.returns() == [
        1.0 if s in engine.winners else -1.0 for s in range(players)
    ]
    replayed = game.new_initial_state()  # one fixed deal: the history rebuilds the state
    for action in state.history():
        replayed.apply_action(action)
    assert _digest(replayed.engine) == _digest(state.engine)


def test_clone_and_serialize_keep_a_roll_under_way() -> None:
    game = _load(players=5, seed=4)
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_chance_node() or state.rolling[1] == ():
        _step(state, rng)
    for copy in (state.clone(), game.deserialize_state(state.serialize())):
        assert copy.rolling == state.rolling and copy.history() == state.history()
        assert _digest(copy.engine) == _digest(state.engine)
        for face in range(6):
            a, b = copy.clone(), state.clone()
            _to_decision(a, face)
            _to_decision(b, face)
            assert _digest(a.engine) == _digest(b.engine)


def _swaps(state, seat: int) -> list[BangDiceState]:
    """Copies of ``state`` in which two seats ``seat`` cannot know swap different roles."""
    engine = state.engine
    hidden = [s for s, r in enumerate(known_roles(engine, seat)) if r is None]
    out = []
    for a, b in itertools.combinations(hidden, 2):
        if engine.roles[a] != engine.roles[b]:
            other = state.clone()
            other.engine.roles[a], other.engine.roles[b] = engine.roles[b], engine.roles[a]
            other._keys = {}
            out.append(other)
    return out


@pytest.mark.parametrize("players", [4, 5, 6, 8])
def test_strings_and_tensors_hold_no_hidden_role(players: int) -> None:
    game = _load(players=players, seed=players)
    checked = 0
    for seed in range(6):
        state = _play(game.new_initial_state(), 10 + 25 * seed, seed)
        if state.is_terminal():
            continue
        for seat in range(players):
            seen = (
                state.observation_string(seat), state.information_state_string(seat),
                state.observation_tensor(seat), state.information_state_tensor(seat),
            )
            for other in _swaps(state, seat):
                checked += 1
                assert other.engine.roles != state.engine.roles
                assert (
                    other.observation_string(seat), other.information_state_string(seat),
                    other.observation_tensor(seat), other.information_state_tensor(seat),
                ) == seen
            # a public change is seen
            visible = state.clone()
            target = next(s for s in range(players) if s != seat and visible.engine.alive[s])
            visible.engine.arrows[target] += 1
            visible._keys = {}
            assert visible.observation_string(seat) != seen[0]
            assert visible.information_state_string(seat) != seen[1]
            assert visible.observation_tensor(seat) != seen[2]
    assert checked >= 20


def test_strings_and_tensors_are_the_players_view() -> None:
    game = _load(players=5, seed=6)
    state = _to_decision(_play(game.new_initial_state(), 30, seed=6), 6)
    seat = state.current_player()
    text = state.observation_string(seat)
    assert "acting=True" in text and f"role={state.engine.roles[seat]!r}" in text
    assert f"legal_actions={state.legal_actions()!r}".replace(" ", "") in text.replace(" ", "")
    expected = game.layout.encode(state.engine, seat)
    assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), expected)
    assert np.array_equal(np.asarray(state.information_state_tensor(seat), np.float32), expected)
    assert "('turn'," in state.information_state_string(seat)  # the public event log


def test_resample_from_infostate_is_consistent_with_the_public_history() -> None:
    game = _load(players=7, seed=8)
    rng = random.Random(8)
    state = game.new_initial_state()
    while not any(not a for a in state.engine.alive) or state.is_chance_node():
        _step(state, rng)  # until somebody is out (his role shown)
        assert not state.is_terminal()
    engine = state.engine
    before = _digest(engine)
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    for player in range(7):
        known = known_roles(engine, player)
        hidden = [s for s, r in enumerate(known) if r is None]
        seen = Counter()
        for _ in range(60):
            sample = state.resample_from_infostate(player, sampler)
            assert isinstance(sample, BangDiceState) and sample.engine.seed is None
            assert known_roles(sample.engine, player) == known  # own, Sheriff, eliminated kept
            assert sorted(sample.engine.roles) == sorted(ROLE_DEAL[7])  # the counts of 7 players
            assert sample.engine.roles[sample.engine.sheriff] == SHERIFF
            assert sample.engine.end_condition() is None  # the game goes on, as it does
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.observation_tensor(player) == state.observation_tensor(player)
            assert sample.history() == state.history()
            assert sample.current_player() == state.current_player()
            seen.update((s, sample.engine.roles[s]) for s in hidden)
        for s in hidden:  # every hidden seat takes every role still unaccounted for
            assert {r for (t, r), _ in seen.items() if t == s} == {engine.roles[h] for h in hidden}
    assert _digest(state.engine) == before
    with pytest.raises(ValueError, match=r"seat must be an int in 0\.\.6, got 7"):
        state.resample_from_infostate(7, sampler)
    with pytest.raises(ValueError, match=r"seat must be an int in 0\.\.6, got -1"):
        resample_roles(engine.clone(), -1, rng)


@pytest.mark.parametrize("players", [3, 6])
def test_ismcts_plays_full_games(players: int) -> None:
    game = _load(players=players, seed=players)
    rng = np.random.RandomState(players)
    bots = [
        ismcts.ISMCTSBot(game, RolloutEvaluator(n_rollouts=1, seed=seat), uct_c=2.0,
                         max_simulations=6, random_state=np.random.RandomState(seat))
        for seat in range(players)
    ]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions > 5
    winners = state.engine.winners
    assert state.returns() == [1.0 if s in winners else -1.0 for s in range(players)]


def test_ismcts_with_openspiels_rollouts_and_our_evaluator_at_a_chance_node() -> None:
    game = _load(players=4, seed=5)
    state = _to_decision(_play(game.new_initial_state(), 20, seed=5), 5)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
        state = _to_decision(state, 5)
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 6, random_state=rng)
    policy = dict(bot.get_policy(state))
    assert set(policy) == set(state.legal_actions())
    assert abs(sum(policy.values()) - 1.0) < 1e-9
    # the rollout evaluator finishes a roll under way with its own dice
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[-1])
    before = _digest(state.engine)
    values = RolloutEvaluator(n_rollouts=4, seed=2).evaluate(state)
    assert _digest(state.engine) == before and state.is_chance_node()
    assert values.shape == (4,) and set(np.round(values * 4).astype(int)) <= set(range(-4, 5, 2))
    assert np.array_equal(values, RolloutEvaluator(n_rollouts=4, seed=2).evaluate(state))


def test_docs_bang_section_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "clients" / "openspiel.md").read_text()
    section = page[page.index("## Bang! The Dice Game") :]
    (block,) = re.findall(r"```py\n(.*?)```", section, flags=re.S)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    exec(compile(block, "docs/clients/openspiel.md[Bang!]", "exec"), namespace)  # noqa: S102
    state = namespace["state"]
    assert state.is_terminal()  # type: ignore[attr-defined]
    returns = state.returns()  # type: ignore[attr-defined]
    assert set(returns) == {-1.0, 1.0} and len(returns) == 4
    assert capsys.readouterr().out.strip() == str(returns)
