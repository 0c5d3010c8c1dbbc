"""No hidden role leaks to a seat: swap the hidden roles of seats a player cannot know and check
that everything it sees stays the same (observation, mask, view, renders, infos, narration), at
every step of random games of every table size; an injected leak must be caught."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from granujas_env.bang_dice import codecs, view
from granujas_env.bang_dice.engine.game import BangConfig, BangGame
from granujas_env.bang_dice.env import raw_env
from granujas_env.bang_dice.text import narrate_events


def _swapped(game: BangGame, seat: int) -> list[BangGame]:
    """Copies of ``game`` in which two seats that ``seat`` cannot know swap different roles."""
    hidden = [
        s for s in range(game.num_players)
        if s != seat and not game.role_revealed[s] and not game.game_over
    ]
    out = []
    for a, b in itertools.combinations(hidden, 2):
        if game.roles[a] != game.roles[b]:
            other = game.clone()
            other.roles[a], other.roles[b] = other.roles[b], other.roles[a]
            out.append(other)
    return out


def _seen(environment: raw_env, game: BangGame, seat: int) -> dict:
    """Everything ``seat`` sees of ``game`` through the env and the text tools."""
    environment.game = game
    environment.infos = {}
    environment._set_infos()
    agent = environment.possible_agents[seat]
    obs = environment.observe(agent)
    return {
        "observation": obs["observation"].tobytes(),
        "mask": obs["action_mask"].tobytes(),
        "view": environment.seat_view(agent),
        "render_seat": environment.render_seat(agent),
        "render": environment.render(),
        "infos": {a: {k: np.asarray(v).tobytes() for k, v in i.items()} for a, i in environment.infos.items()},
        "text": narrate_events(view.seat_view(game, seat).events),
    }


def _leaks(n: int, seeds: range, steps_between: int = 3) -> list[str]:
    """Channels that changed when hidden roles were swapped, over random games."""
    found = []
    environment = raw_env(num_players=n, render_mode="ansi")
    environment.reset(seed=0)
    for seed in seeds:
        game = BangGame(BangConfig(n), seed)
        rng = random.Random(seed)
        step = 0
        while not game.game_over:
            if step % steps_between == 0:
                for seat in range(n):
                    mine = _seen(environment, game, seat)
                    for other in _swapped(game, seat):
                        theirs = _seen(environment, other, seat)
                        found += [f"seed {seed} step {step} seat {seat}: {k}" for k in mine if mine[k] != theirs[k]]
            game.apply(rng.choice(game.legal_actions()))
            step += 1
    return found


@pytest.mark.parametrize("n", range(4, 9))
def test_hidden_roles_never_reach_a_seat(n):
    assert _leaks(n, range(3)) == []


def test_the_probe_swaps_something():
    game = BangGame(BangConfig(5), 0)
    sheriff = game.sheriff
    assert len(_swapped(game, sheriff)) >= 3  # 4 hidden seats, 3 distinct roles among them


def test_an_injected_leak_in_the_observation_is_caught(monkeypatch):
    monkeypatch.setattr(codecs, "known_roles", lambda game, seat: list(game.roles))
    leaks = _leaks(5, range(1))
    assert leaks and all(entry.endswith("observation") for entry in leaks)


def test_an_injected_leak_in_the_view_is_caught(monkeypatch):
    monkeypatch.setattr(view, "known_roles", lambda game, seat: list(game.roles))
    leaks = _leaks(5, range(1))
    assert any(entry.endswith(": view") for entry in leaks)
