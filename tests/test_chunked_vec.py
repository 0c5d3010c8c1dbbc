"""ChunkedSubprocVecEnv (train.vec): envs in a few worker processes, a chunk each, whose run is
exactly DummyVecEnv's (observations, rewards, dones, infos, reset infos, action masks)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402
from vec_compare import same_infos  # noqa: E402

from granujas_env.engine.game import IllegalActionError  # noqa: E402
from train.single_seat import SingleSeatEnv  # noqa: E402
from train.train import make_env_fn  # noqa: E402
from train.vec import ChunkedSubprocVecEnv  # noqa: E402

N_ENVS = 5  # two workers: chunks of 2 and 3 envs


def _env_fns(n: int = N_ENVS) -> list:
    """train.train's env factories (picklable): full mode, 2 or 3 players, a mixed pool."""
    return [
        make_env_fn(
            i,
            mode="full",
            players=(2, 3),
            length="short",
            opponents=["random", "heuristic"],
            weights=None,
            delegate="heuristic",
            reward="score",
            shaping=1.0,
            seed=7,
        )
        for i in range(n)
    ]


@pytest.fixture
def pair():
    """A DummyVecEnv and a 2-worker ChunkedSubprocVecEnv of the same envs, both seeded."""
    plain, chunked = DummyVecEnv(_env_fns()), ChunkedSubprocVecEnv(_env_fns(), n_workers=2)
    try:
        for vec in (plain, chunked):
            vec.seed(11)
        yield plain, chunked
    finally:
        chunked.close()


def test_chunked_run_is_exactly_dummy_vec_envs(pair) -> None:
    """Same seeds and learner actions: identical observations, rewards, dones, infos, reset
    infos and masks over several episodes per env (auto-resets included)."""
    plain, chunked = pair
    assert [list(c) for c in chunked.chunks] == [[0, 1], [2, 3, 4]]
    assert np.array_equal(plain.reset(), chunked.reset())
    assert plain.reset_infos == chunked.reset_infos
    rng = np.random.default_rng(0)
    ended = np.zeros(N_ENVS, dtype=int)
    for _ in range(300):
        masks = get_action_masks(plain)
        assert np.array_equal(masks, get_action_masks(chunked))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        plain_out, chunked_out = plain.step(actions), chunked.step(actions)
        for a, b in zip(plain_out[:3], chunked_out[:3], strict=True):
            assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
        assert same_infos(plain_out[3], chunked_out[3])
        assert same_infos(plain.reset_infos, chunked.reset_infos)
        ended += plain_out[2]
    assert ended.min() >= 2, ended


def test_env_calls_reach_the_right_envs(pair) -> None:
    """``env_method``, ``get_attr`` and ``set_attr`` with indices (any order, repeats) answer
    as DummyVecEnv's; a call that changes a game makes the next masks come from the workers."""
    plain, chunked = pair
    plain.reset(), chunked.reset()
    assert chunked.has_attr("action_masks") and not chunked.has_attr("no_such_attribute")
    order = [3, 0, 3, 4]
    assert chunked.get_attr("seat", order) == plain.get_attr("seat", order)
    chunked.set_attr("reward_mode", "win", [1, 4])
    plain.set_attr("reward_mode", "win", [1, 4])
    assert chunked.get_attr("reward_mode") == plain.get_attr("reward_mode")
    assert chunked.env_is_wrapped(SingleSeatEnv) == [False] * N_ENVS
    # a new game in env 3: its masks (cached from the reset) are asked again
    for vec in (plain, chunked):
        vec.env_method("reset", indices=[3], seed=99)
    assert np.array_equal(get_action_masks(chunked), get_action_masks(plain))
    assert [m.tolist() for m in chunked.env_method("action_masks", indices=[4, 2])] == [
        m.tolist() for m in plain.env_method("action_masks", indices=[4, 2])
    ]


def test_an_env_error_is_raised_in_the_parent(pair) -> None:
    """An exception in a worker comes back with its type and the worker's traceback; the
    workers keep serving."""
    _, chunked = pair
    chunked.reset()
    with pytest.raises(AttributeError) as error:
        chunked.env_method("no_such_method", indices=[0, 4])
    assert any("ChunkedSubprocVecEnv worker" in note for note in error.value.__notes__)
    illegal = np.argmin(get_action_masks(chunked), axis=1)  # a False of every env's mask
    with pytest.raises(IllegalActionError, match="is not legal"):
        chunked.step(illegal)
    assert chunked.reset().shape == (N_ENVS, *chunked.observation_space.shape)
    assert get_action_masks(chunked).any(axis=1).all()


def test_workers_and_chunks() -> None:
    """Chunk sizes differ by at most one; bad worker counts are refused; close ends every
    worker and may be called twice."""
    with pytest.raises(ValueError, match="1 to 2 workers for 2 envs, got n_workers=3"):
        ChunkedSubprocVecEnv(_env_fns(2), n_workers=3)
    with pytest.raises(ValueError, match="at least one env"):
        ChunkedSubprocVecEnv([])
    vec = ChunkedSubprocVecEnv(_env_fns(8), n_workers=3)
    assert [len(c) for c in vec.chunks] == [3, 2, 3] and vec.num_envs == 8
    vec.close()
    vec.close()
    assert all(not p.is_alive() for p in vec.processes)


def test_maskable_ppo_learns_the_same_as_with_dummy_vec_env() -> None:
    """One rollout and update of MaskablePPO: the same weights after it either way."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    torch.set_num_threads(1)
    weights = []
    for vec in (DummyVecEnv(_env_fns(4)), ChunkedSubprocVecEnv(_env_fns(4), n_workers=2)):
        vec.seed(3)
        model = MaskablePPO(
            "MlpPolicy", vec, n_steps=32, batch_size=64, n_epochs=1, seed=3, device="cpu"
        )
        model.set_logger(Logger(folder=None, output_formats=[]))  # no SB3-<date> folder in /tmp
        model.learn(total_timesteps=128)
        vec.close()
        weights.append(torch.nn.utils.parameters_to_vector(model.policy.parameters()))
    assert torch.equal(weights[0], weights[1])
