"""The rule-based bots (honest, heuristic), their public-evidence model and the game driver."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from scenario import new_game
from test_rules_end_of_day import night_owl, night_owls  # noqa: F401 - a fixture: 4 night owls

import agents
from agents import HeuristicAgent, HonestAgent
from agents.bluff_model import HandInference, PlayerType, challenge_propensity, public_record
from agents.driver import STAT_KEYS, game_stats, play_game
from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.view import seat_view

BOTS = ("heuristic", "honest", "random")


def _mask(legal: list[int]) -> dict[str, np.ndarray]:
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[legal] = 1
    return {"action_mask": mask}


def _play(names: list[str], length: str, seed: int, strategy_cards: bool = False) -> Game:
    """One game on the engine: every bot answer is checked against the legal ids."""
    game = Game(GameConfig(len(names), length, strategy_cards), seed=seed)
    bots = [agents.make(name) for name in names]
    for seat, bot in enumerate(bots):
        bot.reset(seed=seed * 10 + seat)
    steps = 0
    while not game.game_over:
        seat = game.current_player
        legal = game.legal_actions()
        bot = bots[seat]
        view = seat_view(game, seat) if bot.wants_view else None
        action = bot.act(_mask(legal), view=view)
        assert type(action) is int and action in legal, (names[seat], game.decision, action, legal)
        game.apply(action)
        steps += 1
        assert steps < 5000, f"game {seed} {names} does not end"
    for bot in bots:
        if isinstance(bot, HeuristicAgent):
            assert bot.fallbacks == 0, (
                f"heuristic rules answered illegal/no actions: {bot.fallback_log}"
            )
    return game


# 6 configurations x 50 games = 300 games with mixed seats
CONFIGS = [(n, length) for n in (2, 3, 4) for length in ("short", "long")]


@pytest.mark.parametrize(("players", "length"), CONFIGS)
def test_bots_only_choose_legal_actions(players: int, length: str) -> None:
    rng = random.Random(players * 100 + len(length))
    lineups = list(itertools.product(BOTS, repeat=players))
    for game_index in range(50):
        names = list(rng.choice(lineups))
        if "heuristic" not in names and "honest" not in names:
            names[0] = "heuristic"
        _play(names, length, seed=game_index, strategy_cards=game_index % 5 == 4)


def test_view_is_required() -> None:
    game = Game(GameConfig(2), seed=0)
    obs = _mask(game.legal_actions())
    for bot in (HeuristicAgent(), HonestAgent()):
        with pytest.raises(ValueError, match="seat_view"):
            bot.act(obs)
        with pytest.raises(ValueError, match="seat_view"):
            bot.act(obs, view=None)


def test_registry() -> None:
    assert {"random", "honest", "heuristic"} <= set(agents.available())
    assert isinstance(agents.make("heuristic", seed=1), HeuristicAgent)
    assert isinstance(agents.make("honest", seed=1), HonestAgent)
    assert not agents.make("random").wants_view and agents.make("heuristic").wants_view


def test_heuristic_is_deterministic() -> None:
    a = _play(["heuristic", "heuristic", "random"], "short", seed=11)
    b = _play(["heuristic", "heuristic", "random"], "short", seed=11)
    assert a.history == b.history and a.scores == b.scores


def test_honest_plays_its_own_slot_whenever_it_can_and_never_challenges() -> None:
    for seed in range(20):
        game = Game(GameConfig(3, "short"), seed=seed)
        bots = [
            HonestAgent(),
            agents.make("random", seed=seed),
            agents.make("random", seed=seed + 1),
        ]
        planned = None
        while not game.game_over:
            seat, legal = game.current_player, game.legal_actions()
            view = seat_view(game, seat)
            action = bots[seat].act(_mask(legal), view=view)
            if seat == 0 and view.decision == "challenge":
                assert action == A.PASS
            if seat == 0 and view.decision == "plan_card":
                free = set(game.rules.slots) - {c.slot for c in game.players[0].played}
                honest = [v for v in view.hand if v in free]
                planned = action - A.CARD
                if honest:
                    assert planned in honest
            if seat == 0 and view.decision == "plan_slot" and planned in view.hand:
                free = set(game.rules.slots) - {c.slot for c in game.players[0].played}
                if planned in free:
                    assert action == A.SLOT + planned
            game.apply(action)


def test_heuristic_beats_random_bots() -> None:
    wins = 0
    for seed in range(12):
        names = ["random"] * 4
        names[seed % 4] = "heuristic"
        game = _play(names, "short", seed=seed)
        wins += game.winner == seed % 4
    assert wins >= 9  # measured ~100% (see the tournament); a loose floor against regressions


# ------------------------------------------------------------------ the driver
def test_play_game_through_the_env() -> None:
    bots = [agents.make(n) for n in ("heuristic", "honest", "random")]
    result = play_game(
        {"num_players": 3, "game_length": "short"}, bots, seed=4, bot_seeds=[1, 2, 3]
    )
    assert set(result) >= {"seed", "scores", "winner", "steps", "stats"}
    assert len(result["stats"]) == 3 and all(set(s) == set(STAT_KEYS) for s in result["stats"])
    assert [s["score"] for s in result["stats"]] == result["scores"]
    assert sum(s["won"] for s in result["stats"]) == 1
    assert result["stats"][result["winner"]]["won"] == 1
    again = play_game({"num_players": 3, "game_length": "short"}, bots, seed=4, bot_seeds=[1, 2, 3])
    assert again == result
    with pytest.raises(ValueError, match="seats"):
        play_game({"num_players": 2}, bots, seed=0)


def test_game_stats_are_consistent() -> None:
    for seed in range(15):
        game = _play(["heuristic", "random", "honest", "random"], "short", seed=seed)
        stats = game_stats(game)
        reveals = [e for e in game.history if e[0] == "reveal"]
        # (day, challenger, card owner, slot) of the challenge decisions answered yes
        challenged = {e[1:] for e in game.history if e[0] == "challenge"}
        challenges = Counter(e[2] for e in game.history if e[0] == "challenge")
        bluffs = sum(1 for day in game.played_log for cards in day for s, v in cards if v != s)
        assert sum(s["bluffs_played"] for s in stats) == bluffs
        for seat, s in enumerate(stats):
            assert s["challenges_made"] == challenges[seat]
            assert s["challenges_correct"] == sum(
                1 for e in reveals if e[5] and seat in e[6] and (e[1], seat, e[2], e[3]) in challenged
            )
            caught = [e for e in reveals if e[5] and e[2] == seat]
            assert s["bluffs_revealed"] == len(caught)
            assert s["bluffs_caught"] == sum(
                1 for e in caught if any((e[1], o, seat, e[3]) in challenged for o in e[6])
            )
            assert 0 <= s["bluffs_caught"] <= s["bluffs_revealed"] <= s["bluffs_played"]
            assert s["bluffs_played"] <= s["cards_played"]
            assert s["rival_bluffs"] == bluffs - s["bluffs_played"]
            part = game.score_breakdown(seat)
            assert (s["score"], s["safe_tech"], s["marks_matched"]) == (
                part["total"],
                part["safes"],
                part["marks"],
            )


def test_henchmen_placed_by_card_effects_are_not_challenges() -> None:
    """The honest bot never challenges: a henchman a card effect put on a rival's bluff (and the
    reveal that follows) counts neither as a challenge made nor as a correct one."""
    for seed in range(40):
        game = _play(["honest", "heuristic", "heuristic", "heuristic"], "short", seed=seed)
        placed = [e for e in game.history if e[0] == "place_henchman" and e[3] == 0]
        caught = [e for e in game.history if e[0] == "reveal" and e[5] and 0 in e[6]]
        if placed and caught:
            break
    else:
        pytest.fail("no game in 40 where an effect put the honest bot's henchman on a bluff")
    assert not any(e[0] == "challenge" and e[2] == 0 for e in game.history)
    stats = game_stats(game)[0]
    assert stats["challenges_made"] == 0 and stats["challenges_correct"] == 0


# ------------------------------------------------------------------ the bluff model
UNIFORM = PlayerType("uniform", 1.0, 1.0, (1.0,) * 6)
HONEST = PlayerType("honest", 1.0, 1e6, (1.0,) * 6)


def test_uniform_first_card_bluff_probability() -> None:
    # a uniformly random (card, slot) pair from a random 4-card hand matches with prob 1/7
    model = HandInference(types=(UNIFORM,))
    b, _ = model.bluff_probability([], (3,))
    assert b == pytest.approx(6 / 7)


def test_recycling_evidence() -> None:
    model = HandInference(types=(HONEST,))
    # an honest player who declared A,2,3,4 yesterday, the 4 revealed honest, held A,2,3,4: today
    # it holds 0, 5, 6 and one of yesterday's cards, so a 5 today is honest and a bluff (the 0)
    # must come later today
    yesterday = [((1, 2, 3, 4), {3: 4})]
    assert model.bluff_probability(yesterday, (5,))[0] < 0.01
    assert model.analyze(yesterday, ())["future_best"] == pytest.approx(
        1.0, abs=1e-4
    )  # the 0 must come


def test_revealed_bluffer_is_read_as_a_bluffer() -> None:
    model = HandInference()
    caught = [((5, 4, 3, 2), {0: 0, 1: 6, 2: 1})]
    clean = [((5, 4, 3, 2), {0: 5, 1: 4, 2: 3})]
    assert model.bluff_probability(caught, (6,))[0] > model.bluff_probability(clean, (6,))[0]
    weights_caught = model.analyze(caught, ())["weights"]
    weights_clean = model.analyze(clean, ())["weights"]
    assert weights_caught[0] > weights_clean[0]  # "uniform" type


def test_memoised_table_matches_brute_force() -> None:
    """The memoised day table equals a direct enumeration of every play order."""
    model = HandInference()
    rng = random.Random(0)
    for _ in range(20):
        t = rng.randrange(len(model.types))
        ptype = model.types[t]
        seq = tuple(rng.sample(range(1, 7), rng.randrange(1, 5)))
        table = model._day_table(t, seq, (), False)
        for hand in rng.sample(model.hands, 5):
            values = [v for v in range(7) if hand >> v & 1]
            total = bluff = 0.0
            for order in itertools.permutations(values, len(seq)):
                prob, left, free = 1.0, set(values), set(range(1, 7))
                for value, slot in zip(order, seq):
                    z = sum(ptype.lam if v == s else ptype.beta[s - 1] for v in left for s in free)
                    prob *= (ptype.lam if value == slot else ptype.beta[slot - 1]) / z
                    left.discard(value)
                    free.discard(slot)
                total += prob
                bluff += prob if order[-1] != seq[-1] else 0.0
            assert table[hand][0] == pytest.approx(total)
            assert table[hand][1] == pytest.approx(bluff)


def test_public_record_and_propensity_from_a_game() -> None:
    game = _play(["random", "random", "random"], "long", seed=3)
    view = seat_view(game, 0)
    days, today = public_record(view, 1)
    assert len(days) == game.last_day - 1
    prop = challenge_propensity(view)
    assert len(prop) == 3 and all(0.0 <= p <= 1.0 for p in prop)


def test_known_values_today_settle_the_question() -> None:
    model = HandInference()
    assert model.analyze([], (5,), {0: 5})["bluff"] == pytest.approx(0.0)
    assert model.analyze([], (5,), {0: 2})["bluff"] == pytest.approx(1.0)
    # the 5 was shown on top of the deck today: a declared 5 is a bluff
    assert model.analyze([], (5,), None, (5,))["bluff"] == pytest.approx(1.0)


# ------------------------------------------------------------------ model cards and layouts
def _model_copy(folder, card: dict | None, name: str = "bluffer"):
    """A copy of a shipped model in the new ``folder`` with ``card`` (None: no card) beside it."""
    import json
    import shutil

    from agents.policy import MODELS_DIR

    folder.mkdir(parents=True)
    shutil.copy(MODELS_DIR / name / "model.zip", folder / "model.zip")
    if card is not None:
        (folder / "model_card.json").write_text(json.dumps(card), encoding="utf-8")
    return folder / "model.zip"


def _shipped_card(name: str) -> dict:
    import json

    from agents.policy import MODELS_DIR

    return json.loads((MODELS_DIR / name / "model_card.json").read_text(encoding="utf-8"))


def test_a_card_of_another_env_version_fails_naming_both(tmp_path) -> None:
    from agents.model_card import ModelCardError
    from agents.policy import PolicyAgent
    from granujas_env.version import ENV_NAME

    card = _shipped_card("bluffer")
    card["env_version"] = "granujas_v0"
    with pytest.raises(ModelCardError, match=f"'granujas_v0'.*'{ENV_NAME}'"):
        PolicyAgent(_model_copy(tmp_path / "v0", card))
    del card["env_version"]  # cards written before versions were recorded
    with pytest.raises(ModelCardError, match=f"no env_version.*granujas_v0.*'{ENV_NAME}'"):
        PolicyAgent(_model_copy(tmp_path / "none", card))


def _table_folder(folder, models_by_players):
    """``full``'s model and card in ``folder``, with ``full-co1``'s model beside it as
    ``model_2p.zip`` and ``models_by_players`` in the card."""
    import shutil

    from agents.policy import MODELS_DIR

    card = dict(_shipped_card("full"), models_by_players=models_by_players)
    model = _model_copy(folder, card, name="full")
    shutil.copy(MODELS_DIR / "full-co1" / "model.zip", folder / "model_2p.zip")
    return model


def test_a_card_hands_games_of_a_player_count_to_its_table_model(tmp_path) -> None:
    """``models_by_players``: 2-player games are played by ``model_2p.zip`` exactly as that
    model plays alone, 4-player games by ``model.zip``; the frozen-opponent path of training
    (one batched pass, :func:`act_together`) picks the same model; ``table_models=False`` plays
    the main model everywhere."""
    from agents import make
    from agents.driver import play_game
    from agents.policy import PolicyAgent
    from train.single_seat import SingleSeatEnv

    model = _table_folder(tmp_path / "table", {"2": "model_2p.zip"})
    table = PolicyAgent(model)
    assert set(table.table_agents) == {2} and table.wants_view
    alone_2p = PolicyAgent(model.parent / "model_2p.zip", table_models=False)
    alone_main = PolicyAgent(model, table_models=False)
    assert alone_main.table_agents == {}
    for n, alone in ((2, alone_2p), (4, alone_main)):
        for seed in (3, 4):
            rivals = [make("heuristic", seed=s) for s in range(n - 1)]
            seeds = list(range(seed, seed + n))
            with_table = play_game({"num_players": n}, [table, *rivals], seed, bot_seeds=seeds)
            rivals = [make("heuristic", seed=s) for s in range(n - 1)]
            assert play_game({"num_players": n}, [alone, *rivals], seed, bot_seeds=seeds) == with_table
    assert table.table_agents[2].policy_calls == alone_2p.policy_calls > 0
    assert table._policy_calls == alone_main.policy_calls > 0
    assert table.policy_calls == table._policy_calls + table.table_agents[2].policy_calls
    env = SingleSeatEnv(num_players=2, decisions="bluff", opponents=[str(model)], seed=0)
    env.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    frozen = env.opponents[1]
    assert frozen.table_agents[2].policy_calls > 0 and frozen._policy_calls == 0


def test_a_table_model_in_a_folder_plays_with_its_own_card(tmp_path) -> None:
    """``models_by_players`` may name ``FOLDER/model.zip``: that table's games are played by the
    model with the folder's own card (its layout, decisions, advisor), exactly as it plays
    alone; entries outside the card's folder or without a card are refused."""
    import json
    import shutil

    from agents import make
    from agents.driver import play_game
    from agents.model_card import ModelCardError
    from agents.policy import MODELS_DIR, PolicyAgent

    model = _table_folder(tmp_path / "full", {"2": "model_2p.zip", "4": "plan/model.zip"})
    shutil.copytree(MODELS_DIR / "bluffer", tmp_path / "full" / "plan")
    table = PolicyAgent(model)
    plan = table.table_agents[4]
    assert plan.decisions == {"plan_card", "plan_slot"} and plan.delegate is not None
    bluffer = PolicyAgent(MODELS_DIR / "bluffer" / "model.zip")
    for seed in (5, 6):
        seeds = list(range(seed, seed + 4))
        games = [
            play_game({"num_players": 4}, [bot, *(make("heuristic", seed=s) for s in range(3))],
                      seed, bot_seeds=seeds)
            for bot in (table, bluffer)
        ]
        assert games[0] == games[1]
    assert plan.policy_calls == bluffer.policy_calls > 0
    card_path = tmp_path / "full" / "model_card.json"
    card = json.loads(card_path.read_text())
    (tmp_path / "full" / "bare").mkdir()
    shutil.copy(MODELS_DIR / "bluffer" / "model.zip", tmp_path / "full" / "bare" / "model.zip")
    for entry, message in (
        ("../bluffer/model.zip", "must name"),
        (str(MODELS_DIR / "bluffer" / "model.zip"), "must name"),
        ("plan/deeper/model.zip", "must name"),
        ("plan/other.zip", "must name"),
        ("bare/model.zip", "holds no model_card.json"),
    ):
        card_path.write_text(json.dumps(card | {"models_by_players": {"4": entry}}))
        with pytest.raises(ModelCardError, match=message):
            PolicyAgent(model)


def test_shipped_full_plays_two_player_games_with_its_table_model() -> None:
    """The shipped ``full``: ``model_2p.zip`` (every decision) for 2-player games, ``plan/`` (the
    Plan learnt, safecracker's other decisions) for 3 and 4; ``model.zip`` keeps ``full-la1``'s
    weights; its card's exploiter figure is the one its result file holds."""
    import json

    from agents.policy import MODELS_DIR, load

    card = _shipped_card("full")
    assert card["models_by_players"] == {
        "2": "model_2p.zip", "3": "plan/model.zip", "4": "plan/model.zip"
    }
    bot = load("full")
    assert set(bot.table_agents) == {2, 3, 4}
    assert bot.table_agents[2].model_path == MODELS_DIR / "full" / "model_2p.zip"
    assert bot.table_agents[2].decisions == bot.decisions and bot.table_agents[2].delegate is None
    for n in (3, 4):  # the Plan model; its card's play_delegate plays the other decisions
        plan = bot.table_agents[n]
        assert plan.model_path == MODELS_DIR / "full" / "plan" / "model.zip"
        assert plan.decisions == {"plan_card", "plan_slot"} and plan.delegate.name == "safecracker"
    tempered = load("full", temperature={"challenge": 3.0}, seed=0)
    assert tempered.table_agents[2].temperature == {"challenge": 3.0}
    assert tempered.table_agents[4].temperature == {}  # the heuristic challenges at 4 players
    assert (MODELS_DIR / "full" / "model.zip").read_bytes() == (
        MODELS_DIR / "full-la1" / "model.zip"
    ).read_bytes()
    result = json.loads((MODELS_DIR.parent.parent / card["exploiter"]["results"]).read_text())
    assert card["exploiter"]["win_rate"] == result["win_rate"]


def test_a_cards_play_delegate_plays_the_other_decisions(tmp_path) -> None:
    """A card's ``play_delegate`` is the bot of the decisions the model does not play (an explicit
    ``delegate`` wins; none: the card's ``delegate``, the bot it trained with); at the shipped ``full``'s 4-player table it is
    safecracker, whose every answer it plays, and which differs from the heuristic there."""
    import json
    import random
    import shutil

    from agents import make
    from agents.policy import MODELS_DIR, PolicyAgent, load, make_bot
    from granujas_env.env import raw_env

    folder = tmp_path / "plan"
    shutil.copytree(MODELS_DIR / "full" / "plan", folder)
    card = json.loads((folder / "model_card.json").read_text())
    assert card["play_delegate"] == "safecracker:early_challenge_rate=0.3:spot_check=early_challengers"
    assert card["delegate"] == "heuristic"
    for value, trained_with, expected in (
        ("heuristic", "heuristic", "heuristic"),
        (None, "heuristic", "heuristic"),
        ("safecracker", "heuristic", "safecracker"),
        (None, "safecracker", "safecracker"),
        ("heuristic", "safecracker", "heuristic"),
        (None, None, "heuristic"),
    ):
        changed = card | {"play_delegate": value, "delegate": trained_with}
        (folder / "model_card.json").write_text(json.dumps(changed))
        assert PolicyAgent(folder / "model.zip").delegate.name == expected
    assert PolicyAgent(folder / "model.zip", delegate="honest").delegate.name == "honest"
    (folder / "model_card.json").write_text(json.dumps(card | {"play_delegate": "safe_crackr"}))
    with pytest.raises(ValueError, match="unknown agent 'safe_crackr'"):
        PolicyAgent(folder / "model.zip")

    bot = load("full", seed=1)
    safecracker, heuristic = make_bot(card["play_delegate"], seed=1), make("heuristic", seed=1)
    delegated = differs = 0
    for seed in (3, 4):
        env = raw_env(num_players=4)
        env.reset(seed=seed)
        rivals = [make("heuristic", seed=s) for s in range(3)]
        for one in (bot, *rivals):
            one.reset(seed=seed)
        for one in (safecracker, heuristic):  # seeded as a PolicyAgent seeds its delegate
            one.reset(seed=random.Random(seed).getrandbits(31))
        for agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat, view = env.agent_name_mapping[agent], env.seat_view(agent)
            if seat == 0:
                action = bot.act(observation, view)
                if view.decision not in ("plan_card", "plan_slot"):
                    assert action == safecracker.act(observation, view)
                    differs += action != heuristic.act(observation, view)
                    delegated += 1
            else:
                action = rivals[seat - 1].act(observation, view)
            env.step(action)
    assert delegated > 50 and differs > 0


@pytest.mark.parametrize(
    "entries, message",
    [
        (["model_2p.zip"], "models_by_players must map player counts to model files"),
        ({"5": "model_2p.zip"}, "key '5': expected a player count 2, 3 or 4"),
        ({"2": "../model_2p.zip"}, r"must name a .zip file beside the card .*, got '../model_2p.zip'"),
        ({"2": "missing.zip"}, r"models_by_players\['2'\]: no file missing.zip"),
    ],
)
def test_a_bad_models_by_players_entry_fails_naming_it(tmp_path, entries, message) -> None:
    from agents.model_card import ModelCardError
    from agents.policy import PolicyAgent

    with pytest.raises(ModelCardError, match=message):
        PolicyAgent(_table_folder(tmp_path / "bad", entries))


def test_shipped_cards_record_the_layout_their_weights_read() -> None:
    from agents.model_card import default_layout, input_index, layout_record
    from agents.policy import available_models
    from granujas_env.codecs import KINDS
    from granujas_env.version import ENV_NAME

    old_kinds = [k for k in KINDS if k != "end_of_day_order"]  # the v0 one-hot, in order
    assert set(available_models()) == {
        "bluffer", "safecracker-v1", "full", "full-la1", "full-co1", "full-psro2", "full-psro1",
        "full-kl", "full-v1",
    }
    trained_on_v1 = {"full", "full-la1", "full-co1", "full-psro2", "full-psro1", "full-kl"}  # today's layout
    for name in trained_on_v1:
        assert _shipped_card(name)["observation_layout"] == layout_record()
    for name in set(available_models()) - trained_on_v1:
        card = _shipped_card(name)
        assert card["env_version"] == ENV_NAME
        assert "granujas_v0" in card["env_note"] and "observation_layout" in card["env_note"]
        layout = card["observation_layout"]
        assert layout["decision_kinds"] == old_kinds
        assert layout["size"] == 4102 and layout["num_actions"] == A.NUM_ACTIONS
        assert len(input_index(layout)) == 4102
        assert default_layout().size == 4102 + len(KINDS) - len(old_kinds)


def test_index_map_selects_exactly_the_trained_entries() -> None:
    from agents.model_card import ModelCardError, default_layout, input_index, layout_record
    from granujas_env.codecs import KIND_INDEX

    layout = default_layout()
    current = layout_record()
    assert np.array_equal(input_index(current), np.arange(layout.size))  # today's: identity
    # a model trained when "choose_strategy" did not exist and the kinds came in reverse order
    kinds = [k for k in reversed(current["decision_kinds"]) if k != "choose_strategy"]
    pieces = [[n, len(kinds) if n == "decision_kind" else s] for n, s in current["pieces"]]
    trained = dict(current, decision_kinds=kinds, pieces=pieces, size=layout.size - 1)
    index = input_index(trained)
    assert index.size == layout.size - 1
    position = 0
    for name, size in pieces:
        offset = layout.offset[name]
        if name == "decision_kind":
            expected = [offset + KIND_INDEX[k] for k in kinds]
        else:
            expected = list(range(offset, offset + size))
        assert index[position : position + size].tolist() == expected, name
        position += size
    dropped = layout.offset["decision_kind"] + KIND_INDEX["choose_strategy"]
    assert dropped not in index.tolist() and len(set(index.tolist())) == index.size
    # on a real observation: the trained one-hot marks the same kind at its trained position
    game = Game(GameConfig(3, "short"), seed=1)
    vector = layout.encode(game, game.current_player)
    mapped = vector[index]
    assert mapped[kinds.index(game.decision.kind)] == 1.0 and mapped[: len(kinds)].sum() == 1.0
    assert np.array_equal(mapped[len(kinds) :], vector[layout.offset["acting"] :])
    # layouts that cannot be read from today's observation
    wrong = [list(p) for p in pieces]
    wrong[1][1] += 1
    for bad, message in (
        (dict(trained, pieces=wrong, size=trained["size"] + 1), "'acting' has 1 values"),
        (dict(trained, decision_kinds=[*kinds, "no_such_kind"]), "unknown to granujas_v1"),
        (dict(trained, pieces=[*pieces, ["no_such_piece", 3]]), "no_such_piece"),
        (dict(trained, size=5), "add up to"),
        ({"size": 3}, "needs 'pieces'"),
    ):
        with pytest.raises(ModelCardError, match=message):
            input_index(bad)


def test_a_model_without_card_must_read_todays_layout(tmp_path) -> None:
    pytest.importorskip("sb3_contrib")
    from agents.model_card import ModelCardError
    from agents.policy import PolicyAgent

    # the shipped weights read the observation + the advisor's one-hot: without a card saying
    # so, the input sizes disagree
    with pytest.raises(ModelCardError, match="no model_card.json beside it.* 4203 inputs"):
        PolicyAgent(_model_copy(tmp_path / "bare", None))


def test_shipped_model_reads_the_observation_through_its_card() -> None:
    pytest.importorskip("sb3_contrib")
    from agents.model_card import default_layout
    from granujas_env.codecs import KIND_INDEX, KINDS

    bot = agents.load("full-v1", seed=0)  # trained under granujas_v0
    trained = _shipped_card("full-v1")["observation_layout"]["decision_kinds"]
    new_kinds = [k for k in KINDS if k not in trained]
    assert bot.decisions == frozenset(trained)  # decisions it never saw go to the delegate
    assert (bot.delegate is not None) == bool(new_kinds)
    layout = default_layout()
    vector = np.arange(layout.size + A.NUM_ACTIONS, dtype=np.float32)  # observation + advice
    dropped = [layout.offset["decision_kind"] + KIND_INDEX[k] for k in new_kinds]
    assert np.array_equal(bot.model_input(vector), np.delete(vector, dropped))


@pytest.mark.parametrize("name", ["full-v1", "full"])
def test_shipped_model_plays_legally_when_end_of_day_order_is_asked(
    night_owls,  # noqa: F811 - the fixture imported above
    name: str,
) -> None:
    """A shipped full model in every seat of a game where two players hold an end-of-day
    Granuja: the last-turn player is asked the order. ``full-v1`` was trained before
    end_of_day_order existed (its delegate answers it); ``full``'s 4-player model plays the Plan
    and hands it to the heuristic."""
    pytest.importorskip("sb3_contrib")
    from agents.model_card import default_layout
    from granujas_env.codecs import ObservationLayout
    from granujas_env.engine.game import default_data

    game = new_game(4, catalog=night_owls)
    night_owl(game, 1, "buscador_de_oro")
    night_owl(game, 2, "banquero")
    layout = ObservationLayout(night_owls, default_data()[0])
    assert layout.size == default_layout().size  # same cards, more copies: the same layout
    bots = [agents.load(name) for _ in range(4)]
    for seat, bot in enumerate(bots):
        bot.reset(seed=seat)
    asked = []
    while not game.game_over:
        seat, legal = game.current_player, game.legal_actions()
        if game.decision.kind == "end_of_day_order":
            asked.append(seat)
        obs = _mask(legal) | {"observation": layout.encode(game, seat)}
        action = bots[seat].act(obs, view=seat_view(game, seat))
        assert action in legal, (game.decision.kind, action, legal)
        game.apply(action)
    assert asked
    if name == "full-v1":
        assert all(bots[s].delegated_calls > 0 for s in asked)
    else:  # full's 4-player model plays the Plan; its heuristic answers the order
        assert all(bots[s].table_agents[4].delegated_calls > 0 for s in asked)
    assert all(bot.policy_calls > 0 for bot in bots)
