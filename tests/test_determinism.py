"""Same seed + same actions = same game: observations, rewards and final state, byte for byte,
across copy.deepcopy, pickle, snapshots and separate processes (with different hash seeds)."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import pickle
import random
import subprocess
import sys

import numpy as np
import pytest

import granujas_env
from granujas_env.engine import Game, GameConfig
from granujas_env.engine.snapshot import digest, from_dict, to_dict
from granujas_env.env import raw_env


def play_env(players: int, length: str, cards: bool, seed: int, policy_seed: int) -> dict:
    """One full env game; a hash of every observation, mask and reward seen, and the final digest."""
    env = raw_env(num_players=players, game_length=length, strategy_cards=cards, reward="score")
    env.reset(seed=seed)
    rng = random.Random(policy_seed)
    h = hashlib.sha256()
    steps = 0
    while not all(env.terminations.values()):
        for agent in env.possible_agents:  # every seat's view, acting or not
            obs = env.observe(agent)
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
        h.update(json.dumps(env.rewards, sort_keys=True).encode())
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    h.update(json.dumps(env._cumulative_rewards, sort_keys=True).encode())
    return {"steps": steps, "views": h.hexdigest(), "final": digest(env.game)}


@pytest.mark.parametrize(("players", "length", "cards"), [(2, "short", False), (4, "long", True)])
def test_same_seed_same_actions_same_bytes(players: int, length: str, cards: bool) -> None:
    a = play_env(players, length, cards, seed=12, policy_seed=3)
    b = play_env(players, length, cards, seed=12, policy_seed=3)
    assert a == b
    # and the hashes do see a difference: another seed or other choices give another game
    assert play_env(players, length, cards, seed=13, policy_seed=3)["final"] != a["final"]
    assert play_env(players, length, cards, seed=12, policy_seed=4)["views"] != a["views"]


def _continue(game: Game, policy_seed: int) -> list[str]:
    rng = random.Random(policy_seed)
    out = []
    while not game.game_over:
        game.apply(rng.choice(game.legal_actions()))
        out.append(digest(game))
    return out


@pytest.mark.parametrize(
    "clone",
    [
        copy.deepcopy,
        lambda g: pickle.loads(pickle.dumps(g)),
        lambda g: from_dict(json.loads(json.dumps(to_dict(g)))),
    ],
    ids=["deepcopy", "pickle", "snapshot"],
)
def test_a_copy_continues_exactly_like_the_original(clone) -> None:
    game = Game(GameConfig(3, "long", True), seed=5)
    rng = random.Random(5)
    for _ in range(120):
        game.apply(rng.choice(game.legal_actions()))
    copied = clone(game)
    assert digest(copied) == digest(game)
    assert copied.rng.getstate() == game.rng.getstate()
    # the engine draws from the game's RNG along the way (reshuffles): both must draw alike
    assert _continue(copied, 9) == _continue(game, 9)
    assert game.game_over and copied.scores == game.scores and copied.winner == game.winner


def _env_future(env, policy_seed: int) -> list[str]:
    """Play ``env`` on (dead steps included, then a reset without a seed): at every step a hash of
    every seat's observation and of all of the env's bookkeeping."""
    rng = random.Random(policy_seed)
    out = []

    def record() -> None:
        raw = env.unwrapped
        h = hashlib.sha256(digest(raw.game).encode())
        for agent in raw.possible_agents:
            h.update(raw.observe(agent)["observation"].tobytes())
        infos = {a: {k: np.asarray(v).tolist() for k, v in i.items()} for a, i in raw.infos.items()}
        fields = [raw.agents, raw.rewards, raw._cumulative_rewards, raw.terminations,
                  raw.truncations, infos, raw.agent_selection]
        h.update(json.dumps(fields, sort_keys=True).encode())
        out.append(h.hexdigest())

    while env.agents:
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if len(out) % 7 == 0 or not env.agents:  # every step would be slow; every 7th sees enough
            record()
        else:
            out.append("")
    env.reset()  # the seed stream of later resets is copied too
    record()
    return out


@pytest.mark.parametrize(
    "clone",
    [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))],
    ids=["deepcopy", "pickle"],
)
@pytest.mark.parametrize("make", [raw_env, granujas_env.env], ids=["raw_env", "env"])
def test_a_copy_of_the_env_keeps_the_game_in_progress(make, clone) -> None:
    env = make(num_players=3, game_length="short", strategy_cards=True, reward="score")
    env.reset(seed=21)
    rng = random.Random(2)
    for _ in range(90):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    copied = clone(env)
    assert type(copied) is type(env) and copied.unwrapped is not env.unwrapped
    assert digest(copied.unwrapped.game) == digest(env.unwrapped.game)
    assert copied.agent_selection == env.agent_selection
    theirs = _env_future(copied, 5)
    assert digest(env.unwrapped.game) != digest(copied.unwrapped.game)  # independent copies
    assert _env_future(env, 5) == theirs


def test_a_copy_at_the_end_keeps_the_dead_steps() -> None:
    env = granujas_env.env(num_players=2)
    env.reset(seed=4)
    game = env.unwrapped.game
    rng = random.Random(0)
    while not game.game_over:
        env.step(rng.choice(game.legal_actions()))
    env.step(None)
    for copied in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert copied.agents == env.agents and len(copied.agents) == 1
        assert copied._cumulative_rewards == env._cumulative_rewards
        copied.step(None)
        assert copied.agents == [] and len(env.agents) == 1


_SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
from tests.test_determinism import play_env
print(json.dumps(play_env(3, "long", True, seed=77, policy_seed=1)))
"""


def test_two_processes_play_the_same_game() -> None:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    results = []
    for hash_seed in ("1", "4242"):  # set iteration order of strings differs between these
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run(
            [sys.executable, "-c", _SCRIPT.format(root=root)],
            capture_output=True, text=True, env=env, cwd=root, timeout=120, check=True,
        )
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert results[0] == results[1]
    assert results[0] == play_env(3, "long", True, seed=77, policy_seed=1)
