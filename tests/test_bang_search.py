"""The Bang! rollout bot (agents/bang_dice/search.py): determinizations that keep what is public,
posterior samples, and choices that never depend on a hidden role or the dice to come."""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents.bang_dice import make
from agents.bang_dice.beliefs import RolePosterior
from agents.bang_dice.heuristic import BangHeuristic
from agents.bang_dice.search import BangRollout, play_out
from agents.registry import ask
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.game import BangConfig, BangGame
from granujas_env.bang_dice.view import seat_view
from train.roles import play_game
from train.single_seat import SingleSeatEnv


def _observation(game: BangGame) -> dict[str, np.ndarray]:
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[game.legal_actions()] = 1
    return {"action_mask": mask}


def _advance(game: BangGame, decisions: int, seed: int = 0) -> BangGame:
    """Play ``decisions`` heuristic decisions of ``game``."""
    bots = [BangHeuristic(seed=seed + s) for s in range(game.num_players)]
    for _ in range(decisions):
        seat = game.current_player
        game.apply(bots[seat].act(_observation(game), view=seat_view(game, seat)))
    return game


def test_with_roles_moves_only_hidden_roles():
    game = BangGame(BangConfig(num_players=5), seed=3)
    sheriff = game.sheriff
    others = [s for s in range(5) if s != sheriff]
    first, second = next((a, b) for a in others for b in others if game.roles[a] < game.roles[b])
    swapped = list(game.roles)
    swapped[first], swapped[second] = swapped[second], swapped[first]
    world = game.with_roles(swapped)
    assert world.roles == swapped and world.life == game.life and world.dice == game.dice
    assert game.roles != swapped  # the original keeps its roles
    with pytest.raises(ValueError, match="reorder this game's deal"):
        game.with_roles(["sheriff"] * 5)
    moved = list(game.roles)
    moved[sheriff], moved[others[0]] = moved[others[0]], moved[sheriff]
    with pytest.raises(ValueError, match=f"seats \\[{min(sheriff, others[0])}"):
        game.with_roles(moved)


def test_with_roles_keeps_revealed_roles():
    game = BangGame.from_position({
        "roles": ["sheriff", "renegade", "outlaw", "outlaw", "deputy"],
        "characters": ["bart_cassidy", "black_jack", "calamity_janet", "el_gringo", "jesse_jones"],
        "life": [5, 0, 5, 5, 5],
    })
    with pytest.raises(ValueError, match="seats \\[1"):
        game.with_roles(["sheriff", "outlaw", "renegade", "outlaw", "deputy"])
    world = game.with_roles(["sheriff", "renegade", "deputy", "outlaw", "outlaw"])
    assert world.roles == ["sheriff", "renegade", "deputy", "outlaw", "outlaw"]


def test_posterior_sample_follows_the_evidence():
    deal = ["sheriff", "deputy", "outlaw", "outlaw", "renegade"]
    belief = RolePosterior(deal, {0: "sheriff", 1: "deputy"})
    for _ in range(6):  # seat 2 shoots the Sheriff when it could have shot seat 3
        belief.observe("shot", 2, 0, [0, 3])
    rng = random.Random(0)
    samples = [belief.sample(rng) for _ in range(400)]
    assert all(sorted(s) == sorted(deal) and s[:2] == ["sheriff", "deputy"] for s in samples)
    outlaw_share = sum(s[2] == "outlaw" for s in samples) / len(samples)
    assert abs(outlaw_share - belief.prob(2, "outlaw")) < 0.06
    assert outlaw_share > 0.85


def test_rollout_choice_ignores_hidden_roles_and_the_dice_to_come():
    """Same public position, other hidden roles and another dice generator: the same choice and
    the same playout values (the leak control: a bot that reads the true roles would differ)."""
    checked = 0
    for seed in range(40):
        game = _advance(BangGame(BangConfig(num_players=5), seed=seed), 12, seed)
        if game.game_over or len(game.legal_actions()) < 2:
            continue
        seat = game.current_player
        view = seat_view(game, seat)
        hidden = [s for s in range(5) if view.players[s].role is None]
        if len(hidden) < 2:
            continue
        pairs = [(a, b) for a in hidden for b in hidden if game.roles[a] < game.roles[b]]
        if not pairs:
            continue
        roles = list(game.roles)
        (a, b) = pairs[0]
        roles[a], roles[b] = roles[b], roles[a]
        other = game.with_roles(roles)
        other.rng = random.Random(seed + 999)
        choices = []
        for world in (game, other):
            bot = BangRollout(seed=7, rollouts=3)
            choices.append((ask(bot, _observation(world), world, seat_view(world, seat)), bot.last_values))
        assert choices[0] == choices[1]
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_rollout_keeps_the_heuristic_action_without_a_clear_gain():
    game = _advance(BangGame(BangConfig(num_players=4), seed=11), 3, 11)
    seat = game.current_player
    view = seat_view(game, seat)
    base = BangHeuristic(seed=1).act(_observation(game), view=view)
    cautious = BangRollout(seed=1, rollouts=2, margin=1.0)  # only a sure win everywhere replaces it
    assert cautious.act(_observation(game), view=view, game=game) == base
    assert set(cautious.last_values) >= {base}


def test_rollout_refuses_bad_arguments():
    with pytest.raises(ValueError, match="rollouts must be a positive int"):
        BangRollout(rollouts=0)
    with pytest.raises(ValueError, match="margin must be a number in"):
        BangRollout(margin=2)
    game = BangGame(BangConfig(num_players=5), seed=0)
    bot = BangRollout(seed=0)
    view = seat_view(game, game.current_player)
    with pytest.raises(ValueError, match="needs the live game"):
        bot.act(_observation(game), view=view)
    with pytest.raises(ValueError, match="needs the seat view"):
        bot.act(_observation(game), game=game)


def test_rollout_plays_whole_games_by_name():
    bot = make("rollout", seed=0)
    assert isinstance(bot, BangRollout)
    record = play_game("bang-dice", ["rollout", "heuristic", "heuristic", "heuristic"], seed=5)
    assert record["agents"][0] == "rollout" and any(record["won"]) and record["beliefs"]
    game = play_out(BangGame(BangConfig(num_players=3), seed=2), [BangHeuristic(seed=s) for s in range(3)])
    assert game.game_over and game.winners


def test_rollout_teaches_through_the_single_seat_wrapper():
    """The imitation warm start asks a teacher that needs the game the way every driver does."""
    env = SingleSeatEnv(num_players=4, game="bang-dice", seed=2)
    demos = env.collect_demonstrations(3, teacher="rollout")
    assert len(demos["actions"]) >= 3
    assert all(demos["masks"][i][a] for i, a in enumerate(demos["actions"]))
