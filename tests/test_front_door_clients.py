"""The first things a client script does (issue 25): collect the test suite without Chromium,
run Gymnasium's and SB3's ``check_env`` on the single-seat env, reset it twice with one seed,
deepcopy it, and make the Parallel env from PettingZoo's registry. (OpenSpiel's fresh deals:
tests/test_openspiel.py; RLlib's ``PettingZooEnv``: tests/test_rllib.py; ``env()`` before
``reset`` and a hand-set ``agent_selection``: tests/test_env_errors.py.)"""

from __future__ import annotations

import copy
import importlib.util
import os
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test

import granujas_env
from granujas_env.engine.game import GameOverError, IllegalActionError
from granujas_env.engine.snapshot import digest
from granujas_env.env import TurnBasedParallelEnv
from train.single_seat import SingleSeatEnv

ROOT = Path(__file__).resolve().parents[1]
BROWSER_TEST = "tests/test_web_browser.py"
MISSING = "/nonexistent/chromium"


def _collect_browser_test(ci: bool) -> subprocess.CompletedProcess[str]:
    """``pytest --collect-only`` of the browser test (and of this test, so that something is
    collected, as in a whole run) with no Chromium to be found."""
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    env["GRANUJAS_CHROMIUM"] = MISSING
    if ci:
        env["CI"] = "true"
    this = f"{Path(__file__).relative_to(ROOT)}::test_browser_test_is_skipped_with_its_reason_without_chromium"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "--collect-only", "-q", "-rsE", "-p", "no:cacheprovider",
         BROWSER_TEST, this],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


def _browser_reason() -> str:
    if importlib.util.find_spec("playwright") is None or importlib.util.find_spec("uvicorn") is None:
        return "the [web] extra is not installed"
    return f"no Chromium at {MISSING}: apt-get install -y chromium"


def test_browser_test_is_skipped_with_its_reason_without_chromium() -> None:
    result = _collect_browser_test(ci=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"SKIPPED [1] {BROWSER_TEST}" in result.stdout
    assert _browser_reason() in result.stdout
    assert "1 test collected" in result.stdout and "error" not in result.stdout.lower()


def test_browser_test_fails_collection_in_ci_without_chromium() -> None:
    result = _collect_browser_test(ci=True)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"ERROR {BROWSER_TEST}" in result.stdout
    assert f"{_browser_reason()}" in result.stdout and "(CI must install it)" in result.stdout


# ---------------------------------------------------------------- the single-seat env
def _game_and_seats(env: SingleSeatEnv) -> tuple[str, int, list[object]]:
    return digest(env.game), env.seat, list(env.opponent_specs)


def test_reset_with_a_seed_deals_the_same_game_whatever_was_built_before() -> None:
    """Bots are built on first use; their construction must not draw from the episode RNG, or a
    reset that builds one deals another game than a reset that reuses it."""
    kwargs = {"num_players": 4, "opponents": ["heuristic", "random", "honest"], "seed": 1}
    fresh = SingleSeatEnv(**kwargs)
    obs, info = fresh.reset(seed=123)
    first = _game_and_seats(fresh)
    obs_again, info_again = fresh.reset(seed=123)
    assert _game_and_seats(fresh) == first and info_again == info
    assert np.array_equal(obs_again, obs)
    used = SingleSeatEnv(**kwargs)
    for seed in range(3):  # builds bots for other seats and specs first
        used.reset(seed=seed)
        used.step(int(np.flatnonzero(used.action_masks())[0]))
    used_obs, _ = used.reset(seed=123)
    assert _game_and_seats(used) == first and np.array_equal(used_obs, obs)
    # and the same game plays on the same way: the bots were reseeded alike
    for env in (fresh, used):
        env.reset(seed=123)
    while not fresh.game.game_over:
        action = int(np.flatnonzero(fresh.action_masks())[0])
        a = fresh.step(action)
        b = used.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:] == b[1:]


def test_gymnasium_check_env_passes_without_a_warning() -> None:
    env = gymnasium.make(granujas_env.SINGLE_SEAT_ID, num_players=2, illegal_reward=-1.0)
    assert isinstance(env, SingleSeatEnv)  # returned unwrapped: action_masks() is there
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    assert [str(w.message) for w in caught] == []


def test_sb3_check_env_passes_without_a_warning() -> None:
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env_checker.check_env(SingleSeatEnv(num_players=3, illegal_reward=-1.0))
    assert [str(w.message) for w in caught] == []


def test_check_env_needs_illegal_reward_because_it_steps_unmasked_ids() -> None:
    """Both checkers step ``action_space.sample()``, mostly an id the decision does not allow;
    by default that raises (MaskablePPO never sends one: it would be a bug)."""
    env = SingleSeatEnv(num_players=2)
    env.action_space.seed(0)  # the checker's samples: fixed, so the test does not hang on luck
    with pytest.raises(IllegalActionError, match="is not legal for the pending decision"):
        check_env(env, skip_render_check=True)


def test_illegal_reward_ends_the_episode_and_leaves_the_game() -> None:
    env = SingleSeatEnv(num_players=3, seed=2, illegal_reward=-1.0)
    env.reset(seed=5)
    legal = np.flatnonzero(env.action_masks())
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before, decision = digest(env.game), env.game.stack[-1].kind
    obs, reward, terminated, truncated, info = env.step(np.int64(illegal))
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info == {"seat": env.seat, "num_players": 3, "decision": decision, "illegal_action": illegal}
    assert digest(env.game) == before and not env.action_masks().any()
    assert env.episode_reward == -1.0 and env.learner_steps == 1
    with pytest.raises(RuntimeError, match=r"step\(\) after the game ended: call reset\(\)"):
        env.step(int(legal[0]))
    # an id out of the action space still raises, naming what was wrong
    env.reset(seed=5)
    for bad in (env.action_space.n, -1):
        with pytest.raises(IllegalActionError, match=f"action {bad} is out of range"):
            env.step(bad)
    assert digest(env.game) == before
    assert env.step(int(legal[0]))[2] in (True, False)  # a legal id plays on


def test_deepcopy_keeps_the_game_and_plays_on_alike() -> None:
    env = SingleSeatEnv(num_players=3, opponents=["heuristic", "random"], seed=4)
    env.reset(seed=8)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    twin = copy.deepcopy(env)
    assert twin.game is twin.env.game and twin.game is not env.game
    assert twin._views.game is twin.game
    assert digest(twin.game) == digest(env.game)
    while not env.game.game_over:
        action = int(np.flatnonzero(env.action_masks())[-1])
        a, b = env.step(action), twin.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:] == b[1:]
    assert digest(twin.game) == digest(env.game)


def test_deepcopy_of_the_wrapped_env_keeps_one_env_under_its_wrappers() -> None:
    env = granujas_env.env(num_players=2)
    env.reset(seed=3)
    twin = copy.deepcopy(env)
    assert twin.env.env is twin.unwrapped is not env.unwrapped
    assert twin.unwrapped.game is not env.unwrapped.game
    action = env.unwrapped.game.legal_actions()[0]
    env.step(action)
    twin.step(action)
    assert digest(twin.unwrapped.game) == digest(env.unwrapped.game)


# ---------------------------------------------------------------- PettingZoo's Parallel API
def test_parallel_registration_passes_pettingzoo_parallel_api_test() -> None:
    env = pettingzoo.make("parallel", granujas_env.ENV_ID, num_players=3)
    assert isinstance(env, TurnBasedParallelEnv) and env.possible_agents == [
        "player_0", "player_1", "player_2"
    ]
    parallel_api_test(env, num_cycles=2000)


def test_parallel_env_applies_the_acting_agents_action_only() -> None:
    par = granujas_env.parallel_env(num_players=2)
    aec = granujas_env.env(num_players=2)
    observations, infos = par.reset(seed=6)
    aec.reset(seed=6)
    rng = np.random.default_rng(6)
    while par.agents:
        acting = infos[par.agents[0]]["active_agent"]
        assert {i["active_agent"] for i in infos.values()} == {acting} == {aec.agent_selection}
        assert [a for a in par.agents if observations[a]["action_mask"].any()] == [acting]
        action = int(rng.choice(np.flatnonzero(observations[acting]["action_mask"])))
        others = {a: 0 for a in par.agents if a != acting}  # ignored
        observations, rewards, terminations, truncations, infos = par.step({**others, acting: action})
        aec.step(action)
        assert not any("active_agent" in i for i in par.unwrapped.infos.values())  # untouched
    assert digest(par.unwrapped.game) == digest(aec.unwrapped.game)
    assert rewards == aec.rewards and all(terminations.values())
    assert {i["active_agent"] for i in infos.values()} == {""}
    with pytest.raises(GameOverError, match=r"call reset\(\)"):
        par.step({})
    observations, infos = par.reset(seed=6)
    acting = infos["player_0"]["active_agent"]
    other = next(a for a in par.agents if a != acting)
    with pytest.raises(ValueError, match=f"no action for {acting}, the agent that acts now"):
        par.step({other: 0})
