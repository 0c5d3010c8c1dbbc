"""The search bot (agents/search.py): it never uses what its seat may not know, it spends exactly
its budget, it plays whole games through the driver, and it is built from option strings."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hidden import hide_shuffle, random_midgame

import agents
from agents.driver import play_game
from agents.policy import make_bot
from agents.search import DEFAULT_SIMULATIONS, ISMCTSAgent, margins
from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.engine.snapshot import digest
from granujas_env.view import seat_view


def observation(game: Game) -> dict[str, np.ndarray]:
    """The part of the observation the bot reads: the acting seat's mask."""
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[game.legal_actions()] = 1
    return {"observation": np.zeros(1, dtype=np.float32), "action_mask": mask}


def choice_games(count: int, players: int) -> list[Game]:
    """Mid-game states whose pending decision has at least two legal actions."""
    out = []
    seed = 0
    while len(out) < count:
        game = random_midgame(seed, players, "short")
        seed += 1
        if not game.game_over and len(game.legal_actions()) > 1:
            out.append(game)
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_decisions_do_not_change_when_hidden_information_changes(players: int) -> None:
    for i, game in enumerate(choice_games(3, players)):
        seat = game.current_player
        changed = hide_shuffle(game, seat, random.Random(100 + i))
        assert digest(changed) != digest(game)  # the hidden information did change
        runs = []
        for state in (game, changed):
            before = digest(state)
            bot = ISMCTSAgent(simulations=6, rollout_steps=30, seed=i)
            view = seat_view(state, seat)  # the leak tests show it equal for both games
            action = bot.act(observation(state), view=view, game=state)
            runs.append((action, bot.last_visits))
            assert digest(state) == before  # the search plays on clones only
        assert runs[0] == runs[1]
        assert sum(runs[0][1].values()) == 6


def test_every_simulation_visits_one_root_action_and_the_choice_is_the_most_visited() -> None:
    game = choice_games(1, 2)[0]
    bot = ISMCTSAgent(simulations=9, rollout="random", prior_weight=0, seed=3)
    assert not bot.wants_view
    action = bot.act(observation(game), game=game)
    assert sum(bot.last_visits.values()) == 9
    assert set(bot.last_visits) <= set(game.legal_actions())
    assert bot.last_visits[action] == max(bot.last_visits.values())


def test_same_seed_same_search() -> None:
    game = choice_games(1, 3)[0]
    a, b = ISMCTSAgent(simulations=5, seed=11), ISMCTSAgent(simulations=5, seed=0)
    b.reset(seed=11)
    view = seat_view(game, game.current_player)
    assert a.act(observation(game), view, game) == b.act(observation(game), view, game)
    assert a.last_visits == b.last_visits


def test_a_forced_decision_is_answered_without_search() -> None:
    seed = 0
    game = random_midgame(seed, 2, "short")
    while game.game_over or len(game.legal_actions()) != 1:
        seed += 1
        game = random_midgame(seed, 2, "short")
    bot = ISMCTSAgent(simulations=50)
    assert bot.act(observation(game), seat_view(game, game.current_player), game) == game.legal_actions()[0]
    assert bot.last_visits == {}


def test_a_time_budget_stops_the_search() -> None:
    game = choice_games(1, 2)[0]
    bot = ISMCTSAgent(time_ms=1, rollout_steps=5, prior_weight=0, seed=0)
    assert bot.simulations is None
    bot.act(observation(game), game=game)
    assert 1 <= sum(bot.last_visits.values()) < 1000


def test_plays_whole_games_through_the_driver() -> None:
    bots = [agents.make("ismcts", simulations=2, rollout_steps=20), agents.make("random")]
    result = play_game({"num_players": 2, "game_length": "short"}, bots, seed=4, bot_seeds=[1, 2])
    assert result["winner"] in (0, 1)
    assert result["stats"][0]["cards_played"] == result["stats"][1]["cards_played"] > 0


def test_a_heavy_prior_plays_the_heuristics_action() -> None:
    for game in choice_games(3, 2):
        view = seat_view(game, game.current_player)
        expected = agents.make("heuristic", seed=5).act(observation(game), view=view)
        bot = ISMCTSAgent(simulations=4, rollout_steps=10, prior_weight=2.0, seed=5)
        assert bot.act(observation(game), view=view, game=game) == expected
        assert sum(bot.last_visits.values()) == 4


def test_margins_are_the_score_margins_at_the_end_and_tech_margins_before() -> None:
    game = Game(GameConfig(num_players=3), seed=2)
    assert margins(game) == [0.0, 0.0, 0.0]  # nobody holds any tech at the start
    rng = random.Random(0)
    while not game.game_over:
        game.apply(rng.choice(game.legal_actions()))
    assert margins(game) == game.score_margins()


def test_bad_input_is_refused_with_a_clear_error() -> None:
    game = choice_games(1, 2)[0]
    bot = agents.make("ismcts")
    assert bot.simulations == DEFAULT_SIMULATIONS and bot.time_ms is None
    with pytest.raises(ValueError, match="needs the semantic per-seat view"):
        bot.act(observation(game), game=game)
    with pytest.raises(ValueError, match="needs the game"):
        ISMCTSAgent(prior_weight=0).act(observation(game))
    wrong = observation(game)
    wrong["action_mask"][game.legal_actions()[1:]] = 0  # a mask of another decision
    with pytest.raises(ValueError, match="does not match the observation"):
        bot.act(wrong, view=seat_view(game, game.current_player), game=game)
    with pytest.raises(ValueError, match="simulations must be positive"):
        ISMCTSAgent(simulations=0)
    with pytest.raises(ValueError, match="time_ms must be a positive float"):
        ISMCTSAgent(time_ms="fast")
    with pytest.raises(ValueError, match="rollout must be one of"):
        ISMCTSAgent(rollout="smart")
    with pytest.raises(ValueError, match="prior_weight must be a number >= 0"):
        ISMCTSAgent(prior_weight=-1)


def test_make_bot_options() -> None:
    bot = make_bot("ismcts:simulations=40:rollout=random:time_ms=2.5", seed=1)
    assert isinstance(bot, ISMCTSAgent)
    assert (bot.simulations, bot.rollout, bot.time_ms) == (40, "random", 2.5)
    with pytest.raises(ValueError, match="does not take|unexpected keyword"):
        make_bot("ismcts:depth=3")
    with pytest.raises(ValueError, match="unknown agent 'no-such-model'"):
        make_bot("no-such-model:simulations=3")
    with pytest.raises(ValueError, match="bad option"):
        make_bot("ismcts:=3")
