"""The Safe search bot (agents/safecracker.py): the heuristic's action outside the Safe decisions,
a search for Safe tech at them that never uses what its seat may not know, legal whole games."""

from __future__ import annotations

import random

import pytest
from hidden import hide_shuffle, random_midgame
from test_search import choice_games, observation

import agents
from agents.decisions import SAFE_DECISIONS
from agents.driver import play_game
from agents.policy import make_bot
from agents.safecracker import SafeSearchAgent, safe_rewards
from granujas_env.engine import Game, GameConfig
from granujas_env.engine.snapshot import digest
from granujas_env.view import seat_view
from train.tournament import mean_interval, summarize

#: (seed, players) of random mid-game states pending a Safe decision with a choice, and its kind.
SAFE_STATES = [
    ((1, 4), "sheriff_option"),
    ((3, 4), "peek_target"),
    ((44, 4), "steal_target"),
    ((81, 4), "mark_face"),
    ((130, 4), "abandon"),
]


def safe_games() -> list[Game]:
    out = []
    for (seed, players), kind in SAFE_STATES:
        game = random_midgame(seed, players, "short")
        assert game.stack[-1].kind == kind and len(game.legal_actions()) > 1, (seed, players)
        out.append(game)
    return out


def test_safe_decisions_are_searched_and_do_not_change_when_hidden_information_changes() -> None:
    for i, game in enumerate(safe_games()):
        seat = game.current_player
        changed = hide_shuffle(game, seat, random.Random(200 + i))
        assert digest(changed) != digest(game)  # the hidden information did change
        runs = []
        for state in (game, changed):
            before = digest(state)
            bot = SafeSearchAgent(simulations=5, rollout_steps=30, seed=i)
            action = bot.act(observation(state), view=seat_view(state, seat), game=state)
            assert action in state.legal_actions()
            runs.append((action, bot.last_visits))
            assert digest(state) == before  # the search plays on clones only
        assert runs[0] == runs[1]
        assert sum(runs[0][1].values()) == 5


def test_other_decisions_are_the_heuristics_without_search() -> None:
    games = [g for g in choice_games(6, 4) if g.stack[-1].kind not in SAFE_DECISIONS]
    assert len(games) >= 3
    for game in games:
        view = seat_view(game, game.current_player)
        expected = agents.make("heuristic", seed=7).act(observation(game), view=view)
        bot = SafeSearchAgent(simulations=50, seed=7)
        assert bot.act(observation(game), view=view, game=game) == expected
        assert bot.last_visits == {}


def test_safe_rewards_are_the_held_safe_values_over_the_score_scale() -> None:
    game = Game(GameConfig(num_players=3), seed=5)
    assert safe_rewards(game) == [0.0, 0.0, 0.0]  # nobody holds a Safe at the start
    rng = random.Random(1)
    while not game.game_over:
        game.apply(rng.choice(game.legal_actions()))
    scale = game.rules.score_scale
    assert safe_rewards(game) == [
        min(1.0, game.score_breakdown(s)["safes"] / scale) for s in range(3)
    ]
    assert SafeSearchAgent().rewards(game) == safe_rewards(game)


def test_plays_whole_legal_games_through_the_driver() -> None:
    bots = [make_bot("safe_search:simulations=2:rollout_steps=15")] + [
        agents.make("heuristic") for _ in range(3)
    ]
    result = play_game({"num_players": 4, "game_length": "short"}, bots, seed=3, bot_seeds=[1, 2, 3, 4])
    assert result["winner"] in range(4)
    assert result["stats"][0]["cards_played"] == result["stats"][1]["cards_played"] > 0


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="prior_weight must be positive for safe_search"):
        SafeSearchAgent(prior_weight=0)
    with pytest.raises(ValueError, match="simulations must be positive"):
        SafeSearchAgent(simulations=0)
    bot = make_bot("safe_search:simulations=7:rollout_steps=40")
    assert isinstance(bot, SafeSearchAgent) and (bot.simulations, bot.rollout_steps) == (7, 40)


def test_the_tournament_reports_the_paired_safe_tech_difference() -> None:
    assert mean_interval([]) == {"mean": None, "low": None, "high": None}
    assert mean_interval([2.0]) == {"mean": 2.0, "low": 2.0, "high": 2.0}
    got = mean_interval([1.0, 3.0])  # sd sqrt(2): half-width 1.96 * sqrt(2) / sqrt(2)
    assert got["mean"] == 2.0 and got["low"] == pytest.approx(2.0 - 1.959963984540054)
    stats = [{"safe_tech": t} for t in (9, 3, 6)]
    records = [
        {"seat_entry": [0, 1, 2], "winner": 0, "scores": [3, 2, 1], "stats": stats},
        {"seat_entry": [1, 2, 0], "winner": 0, "scores": [3, 2, 1], "stats": stats},
    ]
    rows = summarize(["a", "b", "c"], records)["entries"]
    # entry a: 9 - (3 + 6) / 2 = 4.5 in game 1, 6 - (9 + 3) / 2 = 0 in game 2
    assert rows[0]["safe_tech_diff"]["mean"] == pytest.approx(2.25)
    assert rows[0]["safe_tech_diff"] == mean_interval([4.5, 0.0])
