"""A one-process vectorised env whose frozen-model opponents decide together.

:class:`BatchedOpponentsVecEnv` is SB3's ``DummyVecEnv`` for
:class:`train.single_seat.SingleSeatEnv` envs: ``step_wait`` plays every env's learner action,
then plays the other seats of all the envs in lock step, round by round: each round the pending
decisions of frozen models (:class:`agents.policy.PolicyAgent`: league snapshots, shipped
models, saved ``.zip`` files) of every env go through one :func:`agents.policy.act_together`
call, one forward pass per model instead of one per decision. The other bots, and forced moves, play inside each env as in
``SingleSeatEnv.step``. An env whose game ends is reset at once, as ``DummyVecEnv`` does
(``terminal_observation`` in its info, the new game's first observation returned); that reset's
opponents decide in the same rounds. ``reset()`` (the start of training) runs the envs one after
the other, as ``DummyVecEnv``.

Each env keeps its own bots and random streams, so the observations, rewards, dones, infos and
action masks are exactly those of ``DummyVecEnv`` with the same envs, seeds and actions (an agent
object shared by several envs would see its sampling draws in another order).
``action_masks`` reach MaskablePPO through the inherited ``env_method``.

Speed: it cuts the forward passes of a 2-player run against the shipped ``full`` model (8
envs) by 44%, but is no faster than ``DummyVecEnv`` today (learner steps/s 0.96x with
``OPENBLAS_NUM_THREADS=1``): the model's first layer reads ~4,200 inputs, and numpy's product
of a few rows by it (an OpenBLAS gemm) costs about as much as one product per row; with
OpenBLAS's default threads on a busy machine it costs ten times more (0.10x). Hence
``train.train --vec batched`` is opt-in; a first layer that multiplies only the nonzero inputs
(about 1.5% of them) in :func:`agents.policy._logits` would make a batch cheap.

    from train.vec import BatchedOpponentsVecEnv
    vec_env = BatchedOpponentsVecEnv([make_env_fn(i, ...) for i in range(8)])
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from copy import deepcopy
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn

from agents.policy import act_together
from train.single_seat import PolicyRequest, SingleSeatEnv

__all__ = ["BatchedOpponentsVecEnv", "answer_together"]


def answer_together(runs: Sequence[Generator[PolicyRequest, int, Any]]) -> None:
    """Run the generators ``runs`` (e.g. :meth:`SingleSeatEnv.step_requests`) to their ends in
    lock step: each round, the decisions all of them are waiting for are answered by one
    :func:`agents.policy.act_together` call (in the order of ``runs``)."""
    pending: dict[int, PolicyRequest] = {}

    def resume(i: int, action: int | None) -> None:
        try:
            pending[i] = runs[i].send(action)  # send(None) starts a fresh generator
        except StopIteration:
            pending.pop(i, None)

    for i in range(len(runs)):
        resume(i, None)
    while pending:
        waiting = list(pending)
        for i, action in zip(waiting, act_together([pending[i] for i in waiting])):
            resume(i, action)


class BatchedOpponentsVecEnv(DummyVecEnv):
    """``DummyVecEnv`` of :class:`SingleSeatEnv` envs whose frozen models decide in batches (see
    the module docstring).

    Raises:
        TypeError: an env is not a bare :class:`SingleSeatEnv` (a wrapper's ``step`` would be
            bypassed).
    """

    def __init__(self, env_fns: list[Callable[[], gymnasium.Env]]) -> None:
        super().__init__(env_fns)
        for env in self.envs:
            if not isinstance(env, SingleSeatEnv):
                raise TypeError(
                    f"BatchedOpponentsVecEnv steps bare SingleSeatEnv envs (not wrapped), got "
                    f"{env!r}: use DummyVecEnv for other envs"
                )

    def step_wait(self) -> VecEnvStepReturn:
        answer_together([self._step_env(i) for i in range(self.num_envs)])
        infos = deepcopy(self.buf_infos)
        return self._obs_from_buf(), np.copy(self.buf_rews), np.copy(self.buf_dones), infos

    def _step_env(self, i: int) -> Generator[PolicyRequest, int, None]:
        """``DummyVecEnv.step_wait``'s work for env ``i``, yielding its frozen models' decisions."""
        env = self.envs[i]
        obs, reward, terminated, truncated, info = yield from env.step_requests(self.actions[i])
        self.buf_rews[i] = reward
        self.buf_dones[i] = terminated or truncated
        info["TimeLimit.truncated"] = truncated and not terminated
        if self.buf_dones[i]:
            info["terminal_observation"] = obs
            obs, self.reset_infos[i] = yield from env.reset_requests()
        self.buf_infos[i] = info
        self._save_obs(i, obs)
