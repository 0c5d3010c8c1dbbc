"""Vectorised envs for training: frozen-model opponents deciding together, and envs in chunks.

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

:class:`ChunkedSubprocVecEnv` runs the envs in a few worker processes, each holding a chunk of
them in a ``DummyVecEnv`` (2 workers x 4 envs on 2 cores): one pipe round trip per worker and
step instead of SB3's ``SubprocVecEnv``'s one per env, and the action masks come back with the
step (MaskablePPO's ``env_method("action_masks")`` is answered from them, no second round trip).
Each chunk is stepped by ``DummyVecEnv`` itself (auto-reset, ``terminal_observation``,
``reset_infos``, seeds ``seed + env index``), so the run is exactly ``DummyVecEnv``'s with the same
envs, seeds and actions. Speed on 2 shared cores: ``python -m train.train --help`` (--vec).

    vec_env = ChunkedSubprocVecEnv([make_env_fn(i, ...) for i in range(8)], n_workers=2)
"""

from __future__ import annotations

import multiprocessing
import signal
import time
import traceback
from collections.abc import Callable, Generator, Sequence
from copy import deepcopy
from multiprocessing.connection import Connection
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv
from stable_baselines3.common.vec_env.base_vec_env import (
    CloudpickleWrapper,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from agents.policy import act_together
from train.single_seat import PolicyRequest, SingleSeatEnv

__all__ = ["BatchedOpponentsVecEnv", "ChunkedSubprocVecEnv", "answer_together"]


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


MASKS = "action_masks"  # the env method MaskablePPO calls before every step


def _send_error(remote: Connection, exc: Exception) -> None:
    """Send ``exc`` (being handled) to the parent, with the worker's traceback as a note."""
    exc.add_note(f"in a ChunkedSubprocVecEnv worker:\n{traceback.format_exc()}")
    try:
        remote.send((False, exc))
    except Exception:  # noqa: BLE001 - an exception that does not pickle
        remote.send((False, RuntimeError(traceback.format_exc())))


def _chunk_worker(remote: Connection, parent_remote: Connection, fns: CloudpickleWrapper) -> None:
    """A :class:`ChunkedSubprocVecEnv` worker: its chunk of envs in a ``DummyVecEnv``, stepped
    and called on the parent's commands. Every answer is ``(ok, value)``: an exception raised by
    an env goes back to the parent (with its traceback) instead of ending the worker."""
    # Ctrl-C reaches the whole process group: the parent decides (train.train finishes the
    # step, saves, then closes us), as make_env_fn's envs do under SubprocVecEnv
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent_remote.close()
    try:
        venv = DummyVecEnv(fns.var)
    except Exception as exc:  # noqa: BLE001 - the parent's first call raises it
        _send_error(remote, exc)
        return
    masked = venv.has_attr(MASKS)

    def masks() -> np.ndarray | None:
        return np.stack(venv.env_method(MASKS)) if masked else None

    while True:
        try:
            cmd, data = remote.recv()
        except EOFError:  # the parent is gone
            break
        closing = cmd == "call" and data[0] == "close"
        try:
            if cmd == "step":
                obs, rewards, dones, infos = venv.step(data)
                answer: Any = (obs, rewards, dones, infos, venv.reset_infos, masks())
            elif cmd == "cpu":
                answer = time.process_time()
            elif cmd == "reset":
                venv._seeds, options = data  # as VecEnv.seed would have set them for this chunk
                venv.set_options(options)
                answer = (venv.reset(), venv.reset_infos, masks())
            else:  # "call": a VecEnv method of the chunk
                name, args, kwargs = data
                answer = getattr(venv, name)(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - raised again in the parent
            _send_error(remote, exc)
        else:
            remote.send((True, answer))
        if closing:
            break
    remote.close()


class ChunkedSubprocVecEnv(VecEnv):
    """The envs of ``env_fns`` in ``n_workers`` processes, each stepping a contiguous chunk of
    them with ``DummyVecEnv`` (see the module docstring). ``n_workers`` defaults to one per CPU
    core, at most one per env; the chunks differ in size by at most one env.

    Raises:
        ValueError: no envs, or ``n_workers`` is not between 1 and the number of envs.
        TypeError: the observation space is a Dict or Tuple space (only array observations are
            concatenated).
    """

    def __init__(
        self,
        env_fns: list[Callable[[], gymnasium.Env]],
        n_workers: int | None = None,
        start_method: str | None = None,
    ) -> None:
        n_envs = len(env_fns)
        if not n_envs:
            raise ValueError("ChunkedSubprocVecEnv needs at least one env factory, got none")
        if n_workers is None:
            n_workers = min(n_envs, multiprocessing.cpu_count())
        if not 1 <= n_workers <= n_envs:
            raise ValueError(
                f"ChunkedSubprocVecEnv needs 1 to {n_envs} workers for {n_envs} envs, got "
                f"n_workers={n_workers}"
            )
        bounds = [round(w * n_envs / n_workers) for w in range(n_workers + 1)]
        self.chunks = [range(a, b) for a, b in zip(bounds, bounds[1:])]
        self._worker_of = [w for w, chunk in enumerate(self.chunks) for _ in chunk]
        if start_method is None:  # as SubprocVecEnv: fork is not thread safe
            methods = multiprocessing.get_all_start_methods()
            start_method = "forkserver" if "forkserver" in methods else "spawn"
        ctx = multiprocessing.get_context(start_method)
        self.remotes: list[Connection] = []
        self.processes = []
        for chunk in self.chunks:
            remote, work_remote = ctx.Pipe()
            fns = CloudpickleWrapper([env_fns[i] for i in chunk])
            # daemon: a crashed parent does not leave its workers behind
            process = ctx.Process(
                target=_chunk_worker, args=(work_remote, remote, fns), daemon=True
            )
            process.start()
            work_remote.close()
            self.remotes.append(remote)
            self.processes.append(process)
        self.waiting = False
        self.closed = False
        self._masks: np.ndarray | None = None  # of the envs' current decisions, from the workers
        first_env = ("call", ("get_attr", ("observation_space",), {"indices": [0]}))
        try:  # every worker answers: one that could not build its envs raises here
            observation_space = self._all_workers([first_env] * n_workers)[0][0]
        except Exception:
            self.close()
            raise
        if isinstance(observation_space, (gymnasium.spaces.Dict, gymnasium.spaces.Tuple)):
            self.close()
            raise TypeError(
                "ChunkedSubprocVecEnv concatenates array observations, got a "
                f"{type(observation_space).__name__} space: use SubprocVecEnv"
            )
        action_space = self._call_worker(0, "get_attr", "action_space", indices=[0])[0]
        super().__init__(n_envs, observation_space, action_space)

    # ------------------------------------------------------------------ pipes
    def _gather(self, workers: Sequence[int]) -> list[Any]:
        """The answers of ``workers``; all of them are read before an env's exception is raised
        again here, so the pipes stay in step."""
        answers = [self.remotes[w].recv() for w in workers]
        for ok, value in answers:
            if not ok:
                raise value
        return [value for _, value in answers]

    def _call_worker(self, w: int, name: str, *args: Any, **kwargs: Any) -> Any:
        self.remotes[w].send(("call", (name, args, kwargs)))
        return self._gather([w])[0]

    def _ask(self, name: str, targets: list[int], *args: Any, **kwargs: Any) -> dict[int, Any]:
        """Each worker holding one of the envs ``targets`` calls its chunk's ``name(*args,
        indices=<its envs>, **kwargs)``, all at the same time; their answers by worker."""
        local: dict[int, list[int]] = {}
        for i in targets:
            w = self._worker_of[i]
            local.setdefault(w, []).append(i - self.chunks[w].start)
        for w, envs in local.items():
            self.remotes[w].send(("call", (name, args, dict(kwargs, indices=envs))))
        return dict(zip(local, self._gather(list(local))))

    def _call(self, name: str, indices: VecEnvIndices, *args: Any, **kwargs: Any) -> list[Any]:
        """The chunks' answers to ``name`` (see :meth:`_ask`) for the envs ``indices``, in
        their order."""
        targets = list(self._get_indices(indices))
        answers = {w: iter(a) for w, a in self._ask(name, targets, *args, **kwargs).items()}
        return [next(answers[self._worker_of[i]]) for i in targets]

    def _all_workers(self, payloads: Sequence[tuple[str, Any]]) -> list[Any]:
        for remote, payload in zip(self.remotes, payloads):
            remote.send(payload)
        return self._gather(range(len(self.remotes)))

    def _take_masks(self, masks: Sequence[np.ndarray | None]) -> None:
        self._masks = None if masks[0] is None else np.concatenate(masks)

    # ------------------------------------------------------------------ VecEnv API
    def step_async(self, actions: np.ndarray) -> None:
        self._masks = None  # until the step's come back (an env that fails keeps none)
        for remote, chunk in zip(self.remotes, self.chunks):
            remote.send(("step", actions[chunk.start : chunk.stop]))
        self.waiting = True

    def step_wait(self) -> VecEnvStepReturn:
        try:
            parts = self._gather(range(len(self.remotes)))
        finally:
            self.waiting = False
        obs, rewards, dones, infos, reset_infos, masks = zip(*parts)
        self.reset_infos = [info for chunk in reset_infos for info in chunk]
        self._take_masks(masks)
        all_infos = [info for chunk in infos for info in chunk]
        return np.concatenate(obs), np.concatenate(rewards), np.concatenate(dones), all_infos

    def reset(self) -> VecEnvObs:
        self._masks = None
        parts = self._all_workers(
            [
                ("reset", (self._seeds[c.start : c.stop], self._options[c.start : c.stop]))
                for c in self.chunks
            ]
        )
        obs, reset_infos, masks = zip(*parts)
        self.reset_infos = [info for chunk in reset_infos for info in chunk]
        self._take_masks(masks)
        self._reset_seeds()
        self._reset_options()
        return np.concatenate(obs)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """As ``DummyVecEnv.env_method``; ``action_masks()`` is answered from the masks the last
        step or reset brought back. Any other method may change the envs, so the next masks are
        asked of the workers again."""
        if (
            method_name == MASKS
            and not method_args
            and not method_kwargs
            and self._masks is not None
        ):
            return [self._masks[i].copy() for i in self._get_indices(indices)]
        self._masks = None
        return self._call("env_method", indices, method_name, *method_args, **method_kwargs)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._call("get_attr", indices, attr_name)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self._masks = None
        self._ask("set_attr", list(self._get_indices(indices)), attr_name, value)

    def has_attr(self, attr_name: str) -> bool:
        """Whether every env has ``attr_name``, checked in the workers (a bound method such as
        ``action_masks`` need not be picklable)."""
        return all(
            self._all_workers([("call", ("has_attr", (attr_name,), {}))] * len(self.remotes))
        )

    def env_is_wrapped(
        self, wrapper_class: type[gymnasium.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        return self._call("env_is_wrapped", indices, wrapper_class)

    def get_images(self) -> Sequence[np.ndarray | None]:
        chunks = self._all_workers([("call", ("get_images", (), {}))] * len(self.remotes))
        return [image for chunk in chunks for image in chunk]

    def worker_cpu_seconds(self) -> list[float]:
        """CPU seconds each worker process has used so far (``time.process_time`` there)."""
        return self._all_workers([("cpu", None)] * len(self.remotes))

    def close(self) -> None:
        """Close the envs and end the workers (after the step under way, if any)."""
        if self.closed:
            return
        self.closed = True
        # each worker on its own: one that ended (it could not build its envs, or was killed)
        # has nothing left to close, and must not keep the others from closing
        live = []
        for remote in self.remotes:
            try:
                if self.waiting:
                    remote.recv()
                remote.send(("call", ("close", (), {})))
                live.append(remote)
            except (EOFError, BrokenPipeError, ConnectionResetError):
                pass
        for remote in live:
            try:
                remote.recv()
            except (EOFError, ConnectionResetError):
                pass
        for process in self.processes:
            process.join()
        for remote in self.remotes:
            remote.close()
