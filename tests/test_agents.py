"""The rule-based bots (honest, heuristic), their public-evidence model and the game driver."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

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
        challenges = Counter(e[2] for e in game.history if e[0] == "challenge")
        challenges += Counter(e[3] for e in game.history if e[0] == "place_henchman")
        bluffs = sum(1 for day in game.played_log for cards in day for s, v in cards if v != s)
        assert sum(s["bluffs_played"] for s in stats) == bluffs
        for seat, s in enumerate(stats):
            assert s["challenges_made"] == challenges[seat]
            assert s["challenges_correct"] == sum(1 for e in reveals if e[5] and seat in e[6])
            assert s["bluffs_caught"] == sum(1 for e in reveals if e[5] and e[2] == seat)
            assert 0 <= s["bluffs_caught"] <= s["bluffs_played"] <= s["cards_played"]
            assert s["rival_bluffs"] == bluffs - s["bluffs_played"]
            part = game.score_breakdown(seat)
            assert (s["score"], s["safe_tech"], s["marks_matched"]) == (
                part["total"],
                part["safes"],
                part["marks"],
            )


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
