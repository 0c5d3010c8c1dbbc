"""The `expectimax` Bang! bot: its reroll planner against exact expectations and a brute-force
search over ordered dice, and the bot in real games."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from agents.bang_dice import ExpectimaxHeuristic, make
from agents.bang_dice.expectimax import plan_keep, roll_outcomes
from agents.base import LazyObservation
from granujas_env import games
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.game import FACES, BangConfig, BangGame
from granujas_env.bang_dice.view import seat_view

ARROW, DYNAMITE, ONE, TWO, BEER, GATLING = range(6)  # positions in FACES


def counts_of(**faces: int) -> tuple[int, ...]:
    names = {"arrow": ARROW, "dynamite": DYNAMITE, "one": ONE, "two": TWO, "beer": BEER, "gatling": GATLING}
    counts = [0] * 6
    for name, n in faces.items():
        counts[names[name]] = n
    return tuple(counts)


@pytest.mark.parametrize("dice", range(6))
def test_roll_outcomes_are_every_face_count_with_its_multinomial_probability(dice):
    outcomes = roll_outcomes(dice)
    assert len(outcomes) == math.comb(dice + 5, 5)
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    for counts, p in outcomes:
        assert sum(counts) == dice
        ways = math.factorial(dice) // math.prod(math.factorial(c) for c in counts)
        assert math.isclose(p, ways / 6**dice)


def test_one_reroll_keeps_the_beers_and_rerolls_the_rest_while_arrows_are_cheap():
    beers = lambda c: float(c[BEER])  # noqa: E731
    start = counts_of(beer=2, one=3)
    keep, value = plan_keep(start, 1, beers, arrow_cost=0.4)
    assert keep == counts_of(beer=2)
    assert math.isclose(value, 2 + 3 / 6 - 0.4 * 3 / 6)  # 3 fresh dice: half a beer, half an arrow
    keep, value = plan_keep(start, 1, beers, arrow_cost=1.5)  # an arrow costs more than a beer gives
    assert keep == start and value == 2.0


def test_two_rerolls_chase_the_third_gatling():
    fires = lambda c: float(c[GATLING] >= 3)  # noqa: E731
    keep, value = plan_keep(counts_of(gatling=2, beer=3), 1, fires)
    assert keep == counts_of(gatling=2) and math.isclose(value, 1 - (5 / 6) ** 3)
    keep, value = plan_keep(counts_of(gatling=2, beer=3), 2, fires)
    # a first miss leaves its d dynamite locked: 3 - d fresh dice for the second reroll
    second = sum(
        math.comb(3, d) * (1 / 6) ** d * (4 / 6) ** (3 - d) * (1 - (5 / 6) ** (3 - d)) for d in range(4)
    )
    assert keep == counts_of(gatling=2) and math.isclose(value, 1 - (5 / 6) ** 3 + second)


def test_locked_dynamite_stays_and_a_third_one_is_not_risked():
    beers_no_blast = lambda c: c[BEER] - 100.0 * (c[DYNAMITE] >= 3)  # noqa: E731
    start = counts_of(dynamite=2, one=3)
    assert plan_keep(start, 2, beers_no_blast) == (start, 0.0)
    # Black Jack may reroll his dynamite: with three beers kept, two rerolled dice cannot blow up
    start = counts_of(dynamite=2, beer=3)
    keep, value = plan_keep(start, 1, beers_no_blast, dynamite_locked=False)
    assert keep == counts_of(beer=3) and math.isclose(value, 3 + 2 / 6)
    assert plan_keep(start, 1, beers_no_blast, dynamite_locked=True) == (start, 3.0)


def _brute_force(dice: tuple[int, ...], left: int, value, arrow_cost: float, locked: bool, memo: dict) -> float:
    """The best expected value from ordered ``dice`` by trying every subset of dice to reroll."""
    key = (dice, left)
    if key in memo:
        return memo[key]
    counts = tuple(dice.count(f) for f in range(6))
    best = value(counts)
    if left > 0 and counts[DYNAMITE] < 3:
        free = [i for i, f in enumerate(dice) if not (locked and f == DYNAMITE)]
        for r in range(1, len(free) + 1):
            for chosen in itertools.combinations(free, r):
                total = 0.0
                for faces in itertools.product(range(6), repeat=r):
                    new = list(dice)
                    for i, f in zip(chosen, faces):
                        new[i] = f
                    total += _brute_force(tuple(sorted(new)), left - 1, value, arrow_cost, locked, memo)
                    total -= arrow_cost * faces.count(ARROW)
                best = max(best, total / 6**r)
    memo[key] = best
    return best


@pytest.mark.parametrize("trial", range(6))
def test_plan_value_matches_a_brute_force_search_over_ordered_dice(trial):
    rng = random.Random(trial)
    table: dict[tuple[int, ...], float] = {}

    def value(counts):  # an arbitrary value of the final dice, fixed per trial
        if counts not in table:
            table[counts] = rng.uniform(-1, 1) - 2.0 * (counts[DYNAMITE] >= 3)
        return table[counts]

    locked = trial % 2 == 0
    arrow_cost = rng.uniform(0, 0.5)
    for _ in range(3):
        dice = tuple(sorted(rng.randrange(6) for _ in range(3)))
        counts = tuple(dice.count(f) for f in range(6))
        for left in (1, 2):
            keep, planned = plan_keep(counts, left, value, arrow_cost, locked)
            assert math.isclose(planned, _brute_force(dice, left, value, arrow_cost, locked, {}), abs_tol=1e-12)
            assert all(k <= c for k, c in zip(keep, counts))
            if locked:
                assert keep[DYNAMITE] == counts[DYNAMITE]


def _decide(bot, game):
    observation = LazyObservation(game.legal_actions(), A.NUM_ACTIONS, lambda: None)
    return bot.act(observation, view=seat_view(game, game.decision.player))


def test_it_rerolls_arrows_the_heuristic_keeps():
    # the Sheriff's first roll: both arrows are already taken (2 held, 7 in the pile), so their
    # dice are worth nothing at the end; with two rerolls left a fresh die may show a bull's-eye,
    # a beer or a Gatling, at the risk of one more arrow. The heuristic prices that risk per die
    # by the arrows held and stops; expectimax rerolls the two arrows (dice 3 and 4).
    game = BangGame.from_position({
        "roles": ["sheriff", "outlaw", "renegade", "outlaw", "deputy"],
        "characters": ["slab_the_killer", "black_jack", "lucky_duke", "sid_ketchum", "paul_regret"],
        "dice": ["1", "gatling", "dynamite", "arrow", "arrow"],
    })
    view = seat_view(game, 0)
    assert (view.rerolls_left, view.arrow_pile, view.players[0].arrows) == (2, 7, 2)
    assert _decide(make("heuristic"), game) == A.STOP
    bot = make("expectimax")
    assert _decide(bot, game) == 0b11000
    keep, worth = bot.reroll_plan(view)
    assert keep == counts_of(one=1, gatling=1, dynamite=1)
    assert worth > bot.final_value(view)(counts_of(one=1, gatling=1, dynamite=1, arrow=2))


@pytest.mark.parametrize("n", [3, 5, 8])
def test_its_rerolls_are_legal_and_keep_what_its_plan_keeps(n):
    for seed in range(3):
        game = BangGame(BangConfig(n), seed)
        bots = [ExpectimaxHeuristic(seed=s) for s in range(n)]
        while not game.game_over:
            bot = bots[game.decision.player]
            action = _decide(bot, game)
            assert action in game.legal_actions()
            if game.decision.kind == "reroll":
                view = seat_view(game, game.decision.player)
                kept = [f for i, f in enumerate(view.dice) if not action >> i & 1]
                assert tuple(kept.count(f) for f in FACES) == bot.reroll_plan(view)[0]
                if view.players[view.seat].character != "black_jack":
                    assert kept.count("dynamite") == view.dice.count("dynamite")
            game.apply(action)


def test_games_with_expectimax_bots_play_to_the_end_and_replay_the_same():
    spec = games.get("bang-dice")

    def play(seed: int) -> list[int]:
        env = spec.raw_env(num_players=6)
        env.reset(seed=seed)
        bots = [make("expectimax", seed=seed + s) if s % 2 else make("heuristic", seed=s) for s in range(6)]
        actions = []
        while not env.game.game_over:
            agent = env.agent_selection
            bot = bots[env.agent_name_mapping[agent]]
            action = bot.act(env.observe(agent), view=env.seat_view(agent))
            actions.append(action)
            env.step(action)
        return actions

    for seed in range(3):
        assert play(seed) == play(seed)
