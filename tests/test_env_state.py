"""``raw_env.state()`` / ``set_state()`` for search: a snapshot restores the game and all of the
env's bookkeeping exactly, any number of times, into this env or a fresh one of the same
configuration; a snapshot of another configuration, reward mode or catalog is refused."""

from __future__ import annotations

import hashlib
import json
import pickle
import random
from pathlib import Path

import numpy as np
import pytest

import granujas_env
from granujas_env.engine.data import DATA_DIR
from granujas_env.engine.snapshot import digest
from granujas_env.env import EnvState


def advance(environment, steps: int, seed: int) -> None:
    """``steps`` random legal steps (None for agents that are done)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if not environment.agents:
            return
        agent = environment.agent_selection
        if environment.terminations[agent] or environment.truncations[agent]:
            environment.step(None)
        else:
            mask = environment.observe(agent)["action_mask"]
            environment.step(int(rng.choice(np.flatnonzero(mask))))


def bookkeeping(environment) -> str:
    """A hash of everything the env exposes: game, observations, rewards, flags, infos."""
    raw = environment.unwrapped
    h = hashlib.sha256(digest(raw.game).encode())
    for agent in raw.possible_agents:
        h.update(raw.observe(agent)["observation"].tobytes())
        h.update(raw.observe(agent)["action_mask"].tobytes())
    infos = {a: {k: np.asarray(v).tolist() for k, v in i.items()} for a, i in raw.infos.items()}
    fields = [raw.agents, raw.rewards, raw._cumulative_rewards, raw.terminations,
              raw.truncations, infos, raw.agent_selection, raw._skip_agent_selection]
    h.update(json.dumps(fields, sort_keys=True).encode())
    h.update(repr(raw._seeds.getstate()).encode())
    return h.hexdigest()


def future(environment, seed: int) -> tuple[str, str]:
    """A random continuation to the end of the dead steps, then a new game: a hash of what the
    acting agent saw and got at every step, and the full :func:`bookkeeping` after the reset."""
    rng = random.Random(seed)
    h = hashlib.sha256()
    while environment.agents:
        agent = environment.agent_selection
        obs, reward, term, trunc, info = environment.last()
        h.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        h.update(repr((agent, reward, term, trunc, info["decision"], environment.rewards)).encode())
        environment.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    environment.reset()  # the seed stream is part of the state
    return h.hexdigest(), bookkeeping(environment)


@pytest.mark.parametrize("kind", ["raw_env", "env"])
def test_a_snapshot_restores_exactly_and_many_times(kind: str) -> None:
    environment = getattr(granujas_env, kind)(num_players=3, strategy_cards=True, reward="score")
    environment.reset(seed=8)
    advance(environment, 60, seed=1)
    snapshot = environment.state()
    assert isinstance(snapshot, EnvState) and "3 players" in repr(snapshot)
    here = bookkeeping(environment)
    first = future(environment, seed=2)
    for _ in range(2):
        environment.set_state(snapshot)
        assert bookkeeping(environment) == here
        assert future(environment, seed=2) == first
    environment.set_state(snapshot)
    assert future(environment, seed=3) != first  # other choices: the hashes see it


def test_snapshots_during_the_dead_steps_and_into_a_fresh_env() -> None:
    environment = granujas_env.raw_env(num_players=2)
    environment.reset(seed=3)
    game = environment.game
    rng = random.Random(0)
    while not game.game_over:
        environment.step(rng.choice(game.legal_actions()))
    environment.step(None)  # one agent's dead step taken, one left
    snapshot = pickle.loads(pickle.dumps(environment.state()))
    here = bookkeeping(environment)
    assert len(environment.agents) == 1

    fresh = granujas_env.raw_env(num_players=2)  # never reset
    fresh.set_state(snapshot)
    assert bookkeeping(fresh) == here
    assert future(fresh, seed=0) == future(environment, seed=0)


def test_through_env_set_state_refreshes_the_illegal_move_check() -> None:
    """TerminateIllegalWrapper judges a step by the mask it observed last: after set_state it must
    judge by the restored state's mask, not by the one seen before."""
    environment = granujas_env.env(num_players=2)
    environment.reset(seed=5)
    snapshot = environment.state()
    first = environment.unwrapped.game.legal_actions()[0]
    environment.step(first)
    environment.last()  # observes the new decision's mask
    environment.set_state(snapshot)
    environment.step(first)  # legal again: no termination
    assert not any(environment.terminations.values())
    # a snapshot also revives an env() that was never reset
    fresh = granujas_env.env(num_players=2)
    fresh.set_state(snapshot)
    fresh.step(first)
    assert digest(fresh.unwrapped.game) == digest(environment.unwrapped.game)


def other_catalog(tmp_path: Path) -> Path:
    path = tmp_path / "cards.toml"
    text = (DATA_DIR / "cards.toml").read_text(encoding="utf-8")
    path.write_text(text.replace("tech = 1", "tech = 2", 1), encoding="utf-8")
    return path


def test_a_snapshot_of_another_game_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    source = granujas_env.raw_env(num_players=3)
    source.reset(seed=1)
    snapshot = source.state()
    copied = tmp_path / "copy_of_the_shipped_cards.toml"
    copied.write_bytes((DATA_DIR / "cards.toml").read_bytes())
    same = granujas_env.raw_env(num_players=3, catalog=copied)
    same.set_state(snapshot)  # the same cards loaded from elsewhere are the same catalog
    assert digest(same.game) == digest(source.game)
    cases = [
        (granujas_env.raw_env(num_players=2), r"a game of GameConfig\(num_players=3.*this env plays GameConfig\(num_players=2"),
        (granujas_env.raw_env(num_players=3, reward="score"), r"with reward 'win'; this env plays .* with reward 'score'"),
        (granujas_env.raw_env(num_players=3, catalog=other_catalog(tmp_path)), r"with the catalog .*cards.toml'; this env plays the catalog .*, whose cards differ"),
    ]
    for target, message in cases:
        target.reset(seed=2)
        before = bookkeeping(target)
        with pytest.raises(ValueError, match=message):
            target.set_state(snapshot)
        assert bookkeeping(target) == before
    with pytest.raises(TypeError, match=r"set_state\(\) takes a snapshot from state\(\), got dict"):
        source.set_state({"game": source.game})
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        granujas_env.raw_env().state()
