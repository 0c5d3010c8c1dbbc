"""BatchedOpponentsVecEnv (train.vec): the frozen-model opponents of all the envs decide in one
forward pass per model and round, and the run is exactly DummyVecEnv's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402
from vec_compare import same_infos

import agents.policy as policy  # noqa: E402
from train.single_seat import SingleSeatEnv  # noqa: E402
from train.vec import BatchedOpponentsVecEnv  # noqa: E402

N_ENVS = 3

CASES = {
    # every decision is the learner's; the opponent samples from a tiny model of every kind
    "tiny": dict(num_players=2, decisions="full", pool=["tiny"], delegate=None, steps=300),
    # the shipped full model (its advisor, sampling) and the heuristic in the pool, 2 or 3
    # players, the learner's other decisions played by the tiny model (batched rounds too)
    "mixed": dict(
        num_players=(2, 3),
        decisions="bluff",
        pool=["full", "heuristic"],
        delegate="tiny",
        steps=120,
    ),
}


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    """An untrained MaskablePPO of 8 hidden units (no card: it plays every decision kind)."""
    from sb3_contrib import MaskablePPO

    path = tmp_path_factory.mktemp("tiny") / "tiny.zip"
    env = SingleSeatEnv(num_players=2, seed=0)
    MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [8]}, seed=0, device="cpu").save(path)
    return path


def _env_fns(case: dict[str, Any], tiny: Path) -> list:
    """Fresh envs, each with sampling models of its own (as train.train's envs have)."""

    def sampling(spec: Any, seed: int) -> Any:
        if spec not in ("tiny", "full"):
            return spec
        return policy.load(tiny if spec == "tiny" else spec, deterministic=False, seed=seed)

    def fn(rank: int):
        def make() -> SingleSeatEnv:
            return SingleSeatEnv(
                num_players=case["num_players"],
                decisions=case["decisions"],
                opponents=[sampling(s, 100 * rank + k) for k, s in enumerate(case["pool"])],
                delegate=sampling(case["delegate"], 100 * rank + 99),
                reward="score",
                shaping=1.0,
                seed=7 + rank,
            )

        return make

    return [fn(rank) for rank in range(N_ENVS)]


@pytest.mark.parametrize("case", sorted(CASES))
def test_batched_opponents_play_exactly_as_dummy_vec_env(
    case: str, tiny_model: Path, monkeypatch
) -> None:
    """Same seeds and learner actions: identical observations, rewards, dones, infos and masks
    over several episodes (auto-resets included), with fewer forward passes of the model."""
    passes: list[int] = []  # rows of each forward pass
    logits = policy._logits

    def counted(layers, x):
        passes.append(len(x))
        return logits(layers, x)

    monkeypatch.setattr(policy, "_logits", counted)
    fns = _env_fns(CASES[case], tiny_model)
    plain, batched = DummyVecEnv(fns), BatchedOpponentsVecEnv(fns)
    for vec in (plain, batched):
        vec.seed(11)
    assert np.array_equal(plain.reset(), batched.reset())
    rng = np.random.default_rng(0)
    plain_passes, batched_passes = [], []
    ended = np.zeros(N_ENVS, dtype=int)  # episodes ended per env
    for _ in range(CASES[case]["steps"]):
        masks = get_action_masks(plain)
        assert np.array_equal(masks, get_action_masks(batched))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        passes.clear()
        plain_out = plain.step(actions)
        plain_passes += passes
        passes.clear()
        batched_out = batched.step(actions)
        batched_passes += passes
        for a, b in zip(plain_out[:3], batched_out[:3]):
            assert np.array_equal(a, b)
        assert same_infos(plain_out[3], batched_out[3])
        assert same_infos(plain.reset_infos, batched.reset_infos)
        ended += plain_out[2]
    assert ended.min() >= 2, ended
    # the same model decisions, one by one against several per pass
    assert set(plain_passes) == {1}
    assert sum(batched_passes) == len(plain_passes) > 100
    assert len(batched_passes) < len(plain_passes)
    assert max(batched_passes) == N_ENVS


def test_batched_opponents_need_bare_single_seat_envs() -> None:
    """A wrapped env (whose wrapper's step would be skipped) is refused, naming what is allowed."""
    fns = [lambda: gymnasium.wrappers.RecordEpisodeStatistics(SingleSeatEnv(num_players=2, seed=0))]
    with pytest.raises(TypeError, match="bare SingleSeatEnv envs"):
        BatchedOpponentsVecEnv(fns)
