"""The search bot guided by a trained policy (agents/search_guides.py): PUCT with the policy's
probabilities, playouts played by it, a budget in seconds, bad specs refused naming the allowed
options, and no use of what its seat may not know."""

from __future__ import annotations

import random

import pytest
from hidden import hide_shuffle

import agents.search as search
from agents.driver import play_game
from agents.model_card import default_layout
from agents.policy import make_bot
from agents.search import ISMCTSAgent
from agents.search_guides import OPTIONS, PolicyGuide, make_ismcts
from granujas_env.engine.snapshot import digest
from granujas_env.view import seat_view

pytest.importorskip("sb3_contrib")

from test_search import choice_games, observation  # noqa: E402 - after the skip


def guided(simulations: int, seed: int, rollout_steps: int | None = 12) -> ISMCTSAgent:
    return make_ismcts(
        prior="full", rollout="full", simulations=simulations, rollout_steps=rollout_steps, seed=seed
    )


def searches(players: int, bot_of) -> list[tuple[tuple[int, dict], tuple[int, dict]]]:
    """For a few mid-game decisions: (action, root visits) of a fresh bot on the game, and on a
    copy whose hidden information (for the deciding seat) was changed."""
    out = []
    for i, game in enumerate(choice_games(3, players)):
        seat = game.current_player
        changed = hide_shuffle(game, seat, random.Random(200 + i))
        assert digest(changed) != digest(game)  # the hidden information did change
        runs = []
        for state in (game, changed):
            before = digest(state)
            bot = bot_of(i)
            action = bot.act(observation(state), view=seat_view(state, seat), game=state)
            assert digest(state) == before  # the search plays on clones only
            runs.append((action, dict(bot.last_visits)))
        out.append((runs[0], runs[1]))
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_guided_decisions_do_not_change_when_hidden_information_changes(players: int) -> None:
    for original, changed in searches(players, lambda i: guided(6, seed=i)):
        assert original == changed
        assert sum(original[1].values()) == 6


def test_the_leak_check_fails_for_a_bot_that_searches_the_real_game(monkeypatch) -> None:
    # the same check on a cheating search (its "samples" are clones of the real game) tells the
    # two games apart: the test above can fail
    monkeypatch.setattr(search, "sample_hidden", lambda game, seat, rng: game.clone())
    pairs = searches(2, lambda i: guided(6, seed=i, rollout_steps=None))
    assert any(original != changed for original, changed in pairs)


def test_one_puct_simulation_visits_the_policys_most_probable_action() -> None:
    guide = PolicyGuide("full", seed=0)
    for game in choice_games(3, 2):
        probabilities = guide.probabilities(game)
        assert set(probabilities) == set(game.legal_actions())
        assert sum(probabilities.values()) == pytest.approx(1.0)
        best = max(sorted(probabilities), key=probabilities.get)
        bot = make_ismcts(prior="full", simulations=1, seed=3)
        action = bot.act(observation(game), view=seat_view(game, game.current_player), game=game)
        assert bot.last_visits == {best: 1}
        assert action == best


def test_the_guides_move_is_the_models_move_for_the_deciding_seat() -> None:
    guide, full = PolicyGuide("full", seed=0), make_bot("full", seed=0)
    for game in choice_games(4, 2):
        view = seat_view(game, game.current_player)
        assert guide.action(game) == full.act(observation_of(game), view=view)


def observation_of(game) -> dict:
    """The deciding seat's full observation (the model reads the vector, not just the mask)."""
    obs = observation(game)
    obs["observation"] = default_layout().encode(game, game.current_player)
    return obs


def test_specs_with_a_budget_and_trained_guides() -> None:
    bot = make_bot("ismcts:prior=full:rollout=full:budget=0.05", seed=1)
    assert isinstance(bot, ISMCTSAgent)
    assert (bot.prior, bot.rollout, bot.time_ms, bot.simulations) == ("full", "full", 50.0, None)
    assert not bot.wants_view and bot.prior_weight == 0.0
    assert bot.exploration == search.PUCT_EXPLORATION
    game = choice_games(1, 2)[0]
    bot.act(observation(game), game=game)
    assert sum(bot.last_visits.values()) >= 1
    # simulations with a budget: a deterministic cap reached long before 10 s
    capped = make_bot("ismcts:prior=full:rollout=full:budget=10:simulations=3", seed=1)
    capped.act(observation(game), game=game)
    assert sum(capped.last_visits.values()) == 3
    cpu = make_bot("ismcts:prior=full:budget=0.01:clock=cpu", seed=1)
    assert (cpu.clock, cpu.time_ms) == ("cpu", 10.0)
    cpu.act(observation(game), game=game)
    assert sum(cpu.last_visits.values()) >= 1
    plain = make_bot("ismcts:rollout=random", seed=1)
    assert (plain.prior, plain.prior_weight, plain.exploration) == ("heuristic", 0.5, 0.7)


def test_bad_specs_are_refused_naming_what_is_allowed() -> None:
    assert {"budget", "clock", "prior", "rollout", "simulations", "time_ms"} <= set(OPTIONS)
    with pytest.raises(ValueError, match=r"does not take \['depth'\]; its options are .*budget.*prior"):
        make_bot("ismcts:depth=3")
    with pytest.raises(ValueError, match="prior='nosuch' is neither one of heuristic nor a trained"):
        make_bot("ismcts:prior=nosuch")
    with pytest.raises(ValueError, match="rollout='heuristic' is neither one of honest, random"):
        make_bot("ismcts:rollout=heuristic")  # a bot, not a trained model
    with pytest.raises(ValueError, match="budget must be a positive number of seconds"):
        make_bot("ismcts:budget=0")
    with pytest.raises(ValueError, match="budget must be a positive number of seconds"):
        make_bot("ismcts:budget=fast")
    with pytest.raises(ValueError, match="budget \\(seconds\\) or time_ms, not both"):
        make_bot("ismcts:budget=1:time_ms=5")
    with pytest.raises(ValueError, match="clock must be one of wall, cpu, got 'gpu'"):
        make_bot("ismcts:budget=1:clock=gpu")
    with pytest.raises(ValueError, match="prior_weight weighs the heuristic's action"):
        make_bot("ismcts:prior=full:prior_weight=0.5")
    with pytest.raises(ValueError, match="prior must be 'heuristic' or a Guide"):
        ISMCTSAgent(prior="full")  # the class takes guides; specs go through make_ismcts


def test_plays_whole_games_through_the_driver() -> None:
    bots = [guided(2, seed=1, rollout_steps=8), make_bot("full", seed=2)]
    result = play_game({"num_players": 2, "game_length": "short"}, bots, seed=5, bot_seeds=[1, 2])
    assert result["winner"] in (0, 1)
    assert result["stats"][0]["cards_played"] == result["stats"][1]["cards_played"] > 0
