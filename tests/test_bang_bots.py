"""Bang! bots: the registry, the heuristic's decisions in set positions, its posterior, full
games at every table size, and the role ratings of train.roles."""

from __future__ import annotations

import random

import pytest

from agents.bang_dice import available, make
from agents.bang_dice.beliefs import RolePosterior
from agents.bang_dice.heuristic import BangHeuristic
from agents.base import LazyObservation
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.game import BEER, ONE, BangConfig, BangGame
from granujas_env.bang_dice.view import seat_view
from train.roles import format_table, run_roles, seating, summarize

PLAIN = ["jesse_jones", "black_jack", "lucky_duke", "sid_ketchum", "willy_the_kid"]


def _decide(bot, game):
    seat = game.decision.player
    observation = LazyObservation(game.legal_actions(), A.NUM_ACTIONS, lambda: None)
    return bot.act(observation, view=seat_view(game, seat))


def test_registry():
    assert available() == ["expectimax", "heuristic", "random", "rollout", "tuned", "valued"]
    assert isinstance(make("heuristic", seed=1), BangHeuristic)
    with pytest.raises(ValueError, match="unknown Bang! bot 'ismcts'; the bots are: expectimax, heuristic, random, rollout, tuned, valued"):
        make("ismcts")


@pytest.mark.parametrize("n", range(3, 9))
def test_heuristic_plays_legal_actions_to_the_end(n):
    kinds = set()
    for seed in range(4):
        game = BangGame(BangConfig(n), seed)
        bots = [make("heuristic", seed=s) for s in range(n)]
        while not game.game_over:
            kinds.add(game.decision.kind)
            action = _decide(bots[game.decision.player], game)
            assert action in game.legal_actions()
            game.apply(action)
    assert {"reroll", "shoot", "beer"} <= kinds


def test_deputy_shoots_the_other_neighbour_not_the_sheriff():
    # seat 1 (Deputy) rolls a 1: its neighbours are the Sheriff (0) and seat 2
    game = BangGame.from_position(
        {"roles": ["sheriff", "deputy", "outlaw", "outlaw", "renegade"], "characters": PLAIN,
         "turn": 1, "rolls": [[ONE, BEER, BEER, BEER, BEER]]}
    )
    assert game.decision.kind == "reroll"
    game.apply(A.STOP)
    assert game.decision.kind == "shoot"
    assert _decide(make("heuristic"), game) == A.target_action(1, 2, 5)


def test_deputy_gives_beers_to_the_hurt_sheriff():
    game = BangGame.from_position(
        {"roles": ["sheriff", "deputy", "outlaw", "outlaw", "renegade"], "characters": PLAIN,
         "life": [4, 8, 8, 8, 8], "turn": 1, "rolls": [[BEER] * 5]}
    )
    game.apply(A.STOP)
    assert game.decision.kind == "beer"
    assert _decide(make("heuristic"), game) == A.target_action(1, 0, 5)


def test_outlaw_shoots_the_sheriff_when_in_reach():
    game = BangGame.from_position(
        {"roles": ["sheriff", "outlaw", "deputy", "outlaw", "renegade"], "characters": PLAIN,
         "turn": 1, "rolls": [[ONE, BEER, BEER, BEER, BEER]]}
    )
    game.apply(A.STOP)
    assert _decide(make("heuristic"), game) == A.target_action(1, 0, 5)


def test_renegade_at_his_last_life_point_drinks_before_a_weak_sheriff():
    # the Sheriff (3 life points) needs the beer too, but a dead Renegade wins nothing
    game = BangGame.from_position(
        {"roles": ["sheriff", "outlaw", "deputy", "outlaw", "renegade"], "characters": PLAIN,
         "life": [3, 8, 8, 8, 1], "turn": 4, "rolls": [[BEER] * 5]}
    )
    game.apply(A.STOP)
    assert game.decision.kind == "beer"
    assert _decide(make("heuristic"), game) == A.target_action(4, 4, 5)


@pytest.mark.parametrize(("sheriff_life", "law", "outlaws"), [(10, 10 + 24 / 3, 24 * 2 / 3), (5, 5 + 24 / 3, 24 * 2 / 3)])
def test_renegade_shoots_the_side_that_is_ahead(sheriff_life, law, outlaws):
    """Hidden seats are a Deputy (1/3) or an Outlaw (2/3) to the Renegade: hurting one is worth
    the Deputy's value times the Sheriff's side's lead in life, plus the Outlaw's divided by it."""
    game = BangGame.from_position(
        {"roles": ["sheriff", "outlaw", "deputy", "outlaw", "renegade"], "characters": PLAIN,
         "life": [sheriff_life, 8, 8, 8, 8], "turn": 4, "rolls": [[BEER] * 5]}
    )
    scores = make("heuristic").enemy_scores(seat_view(game, 4))
    lead = 2 * law / (law + outlaws)
    assert scores[1:4] == pytest.approx([0.7 * lead / 3 + 0.8 / lead * 2 / 3] * 3)
    assert scores[4] == -2.0 and scores[0] == pytest.approx(-0.6)


def test_reach_matches_the_engine():
    rng = random.Random(0)
    bot = BangHeuristic()
    for seed in range(30):
        game = BangGame(BangConfig(rng.randint(3, 8)), seed)
        while not game.game_over and rng.random() < 0.97:
            game.apply(rng.choice(game.legal_actions()))
        bot._characters = tuple(game.characters)
        for seat in game.alive_seats():
            for face in ("1", "2"):
                assert bot._reach(seat, face, list(game.alive)) == game.reach(seat, face)


def test_posterior_learns_from_a_shot_at_the_sheriff():
    deal = ["sheriff", "deputy", "outlaw", "outlaw", "renegade"]
    belief = RolePosterior(deal, {0: "sheriff", 1: "deputy"})
    prior = belief.prob(4, "outlaw")
    assert prior == pytest.approx(2 / 3)
    belief.observe("shot", 4, 0, [0, 3])  # seat 4 chose the Sheriff over seat 3
    # hypotheses (seat 3, seat 4): (O, R) 0.6/(0.6+1.3), (R, O) 4/(4+1), (O, O) 4/(4+0.2)
    likelihood = {"RO": 0.6 / 1.9, "OR": 4 / 5, "OO": 4 / 4.2}
    expected = (likelihood["OR"] + likelihood["OO"]) / sum(likelihood.values())
    assert belief.prob(4, "outlaw") == pytest.approx(expected)
    assert expected == pytest.approx(0.8473, abs=1e-4)
    belief.observe("shot", 2, 3, [3])  # no choice: nothing learnt
    marginals = belief.marginals()
    assert all(sum(m.values()) == pytest.approx(1.0) for m in marginals.values())
    assert marginals[0]["sheriff"] == pytest.approx(1.0) and marginals[1]["deputy"] == pytest.approx(1.0)
    belief.reveal(3, "renegade")
    assert belief.prob(4, "outlaw") == pytest.approx(1.0) and belief.prob(2, "outlaw") == pytest.approx(1.0)


def test_heuristic_posterior_reads_the_game_history():
    game = BangGame(BangConfig(6), 11)
    rng = random.Random(1)
    for _ in range(120):
        if game.game_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    seat = next(s for s in game.alive_seats() if game.roles[s] != "sheriff")
    posterior = make("heuristic").posterior(seat_view(game, seat))
    assert posterior[seat][game.roles[seat]] == pytest.approx(1.0)
    for s in range(6):
        assert sum(posterior[s].values()) == pytest.approx(1.0)
        if game.role_revealed[s]:
            assert posterior[s][game.roles[s]] == pytest.approx(1.0)


def test_games_replay_exactly_under_the_same_seeds():
    first = run_roles("bang-dice", ["heuristic", "random"], 5, 3, seed=7)
    again = run_roles("bang-dice", ["heuristic", "random"], 5, 3, seed=7)
    assert first == again


def test_role_ratings_count_every_seat():
    assert seating(["a", "b"], 5, 0) == ["a", "b", "a", "b", "a"]
    assert seating(["a", "b"], 5, 1) == ["b", "a", "b", "a", "b"]
    records = run_roles("bang-dice", ["heuristic", "random"], 5, 6, seed=3)
    summary = summarize(["heuristic", "random"], records, "bang-dice")
    played = sum(summary["by_agent"][a]["overall"]["games"] for a in ("heuristic", "random"))
    assert played == 6 * 5
    wins = sum(sum(r["won"]) for r in records)
    assert sum(summary["by_agent"][a]["overall"]["wins"] for a in ("heuristic", "random")) == wins
    for agent in ("heuristic", "random"):
        by_role = summary["by_agent"][agent]["by_role"]
        assert sum(row["games"] for row in by_role.values()) == summary["by_agent"][agent]["overall"]["games"]
    assert "heuristic" in summary["belief_accuracy"] and "random" not in summary["belief_accuracy"]
    assert "heuristic" in format_table(summary)


def test_a_name_listed_twice_is_one_agent_in_a_mix():
    assert seating(["heuristic", "random", "random"], 5, 0) == ["heuristic", "random", "random", "heuristic", "random"]
    records = run_roles("bang-dice", ["heuristic", "random", "random"], 5, 3, seed=1)
    summary = summarize(["heuristic", "random", "random"], records, "bang-dice")
    assert list(summary["by_agent"]) == ["heuristic", "random"]
    assert summary["by_agent"]["random"]["overall"]["games"] == 3 + 4 + 3  # random seats per game
