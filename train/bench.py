"""Training benchmark: where a short MaskablePPO run spends its time.

    python -m train.bench                                   # --mode full, heuristic opponents
    python -m train.bench --mode bluff --advisor heuristic  # the shipped bluffer's recipe
    python -m train.bench --seconds 20 --n-envs 1,8 --json bench.json

Each configuration of ``--n-envs`` trains a fresh policy for ``--seconds`` of wall time with the
pieces and settings of ``python -m train.train`` (its argument defaults: rollout length, batch,
epochs, learning rate, network, reward, shaping; :func:`train.train.make_env_fn` envs, one torch
thread) and reports the learner steps per second and the share of wall time in each part:

* ``env``: the vectorised env's ``step``, ``reset`` and action-mask calls, of which
  ``engine`` (``Game.apply``), ``encoding`` (the observation vector), ``views`` (seat views:
  building them and computing their fields on first read), ``opponents`` (the opponent bots'
  ``act``, views excluded), ``delegate_advisor`` (the bots playing the learner's other decisions
  and advising it) and ``env_other`` (the rest: wrappers, rewards, masks, bookkeeping);
* ``forward``: the learner's policy forward pass while collecting rollouts;
* ``update``: the gradient updates (``model.train``);
* ``other``: the rest of MaskablePPO (rollout buffer, tensors, callbacks).

How it is timed: every part is a monkeypatched wrapper in this process that reads
``time.perf_counter`` on entry and exit; a part inside another (a view read inside a bot's
``act``) is charged to the inner part only, so the parts add up to the wall time. The timers'
own cost is estimated from the number of timed calls and the measured cost of one empty timed
call, and reported as ``timer_overhead_share``. ``--vec`` runs each configuration's envs as
``train.train --vec`` does (``auto``, the default: as train.train's default would on this
machine, i.e. in this process below 4 usable cores, in ``ChunkedSubprocVecEnv`` worker
processes from 4). Envs in this process (``DummyVecEnv``, ``BatchedOpponentsVecEnv``) have every
part measured; envs in worker processes are out of the timers' reach, so their parts (and the
opponent figures) are reported as None, not measured, and ``env_share`` is the wall time this
process waits for the env calls. ``cpu_ms_per_step`` is the CPU time per learner step of this
process and the ``ChunkedSubprocVecEnv`` workers (``worker_cpu_ms_per_step`` of it): what the run
would cost on idle cores when the machine is shared. The vectorised configuration batches the
policy's forward pass over its envs. A configuration runs whole
rollout-and-update cycles: the measured window ends at the first rollout start after
``--seconds``, so it lasts at least one cycle (at train.train's rollout length, 1,024 steps per
env, a cycle of 8 envs takes tens of seconds). train.train's imitation warm start is not part of
the workload.

``--json PATH`` writes one object: ``learner_steps_per_s``, ``env_share``, ``opponent_share``
(opponent bots with the views they read, of the wall time) and ``median_opponent_decision_us``
(seat view + ``act`` of one opponent decision) of the first ``--n-envs`` configuration (1 by
default), ``vector_speedup`` (learner steps/s of the last configuration over the first's),
``vector_cpu_speedup`` (CPU time per learner step of the first configuration over the last's,
workers included: the same ratio measured in CPU time, which other jobs on a shared machine do
not distort; for envs in this process it is the speedup an idle core would show; None for
``SubprocVecEnv``, whose workers' CPU time is not read), ``vector_n_envs``, ``vector_vec_env`` and ``vector_processes`` (the last configuration's), and
``runs`` with every figure of every configuration.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from agents.decisions import MODES
from agents.registry import DEFAULT_BOT
from granujas_env.cli import run_main
from granujas_env.codecs import ObservationLayout
from granujas_env.engine.game import Game
from granujas_env.view import DecisionViews, SeatView
from train.single_seat import SingleSeatEnv
from train.train import (
    VEC_KINDS,
    _split,
    build_parser,
    choose_vec,
    game_settings,
    make_env_fn,
    make_vec_env,
    new_model,
    usable_cpus,
    validate,
)

__all__ = ["main", "run_benchmark", "PARTS"]

VECTOR_ENVS = 8  # the vectorised configuration compared with one env
IN_PROCESS = ("dummy", "batched")  # --vec kinds whose envs run in this process: every part timed
MAX_EXTRA_SECONDS = 600  # a cycle running this long past --seconds is stopped where it is
PARTS = (
    "engine",
    "encoding",
    "views",
    "opponents",
    "delegate_advisor",
    "env_other",
    "forward",
    "update",
    "other",
)
ENV_PARTS = ("engine", "encoding", "views", "opponents", "delegate_advisor", "env_other")


class _Clock:
    """Time per part, each part exclusive of the timed parts called inside it."""

    def __init__(self) -> None:
        self.exclusive: dict[str, float] = defaultdict(float)
        self.inclusive: dict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()
        self.decisions: list[float] = []  # one opponent decision: its view + act, in seconds
        self.pending_view = 0.0  # the view just handed out, charged to the next opponent act
        self._stack: list[list[float]] = []
        # False after the measured window: the step SB3 takes before it stops must not count
        # (on a loaded machine one preemption there outweighed a short window's other parts)
        self.running = True

    def wrap(
        self, fn: Callable[..., Any], part: str, decision: bool | None = None
    ) -> Callable[..., Any]:
        """``fn`` timed as ``part``. For a bot's ``act``, ``decision`` says whether a call is one
        opponent decision, recorded with the view handed out just before it (True), or another
        bot's (False: that view is not an opponent's)."""
        stack, perf = self._stack, time.perf_counter

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = perf()
            inner = [0.0]
            stack.append(inner)
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = perf() - start
                stack.pop()
                if stack:
                    stack[-1][0] += elapsed
                if self.running:
                    self.exclusive[part] += elapsed - inner[0]
                    self.inclusive[part] += elapsed
                    self.calls[part] += 1
                    if decision:
                        self.decisions.append(self.pending_view + elapsed)
                if decision is not None:
                    self.pending_view = 0.0

        return timed

    def wrap_view_call(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``DecisionViews.__call__`` timed as views, its time remembered for the next decision."""
        timed = self.wrap(fn, "views")

        def handed_out(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            view = timed(*args, **kwargs)
            self.pending_view = time.perf_counter() - start
            return view

        return handed_out

    def reset(self) -> None:
        self.exclusive.clear()
        self.inclusive.clear()
        self.calls.clear()
        self.decisions.clear()


def _timer_cost() -> float:
    """Seconds one empty timed call adds (the timers' overhead per timed call)."""
    clock = _Clock()
    timed = clock.wrap(lambda: None, "x")
    n = 20_000
    start = time.perf_counter()
    for _ in range(n):
        timed()
    wrapped = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(n):
        (lambda: None)()
    bare = time.perf_counter() - start
    return max(0.0, (wrapped - bare) / n)


@contextmanager
def _patched(clock: _Clock) -> Iterator[None]:
    """Time the engine, the encoder, the seat views and the bots of every SingleSeatEnv."""
    saved = {
        (Game, "apply"): Game.apply,
        (ObservationLayout, "encode"): ObservationLayout.encode,
        (SeatView, "__getattr__"): SeatView.__getattr__,
        (DecisionViews, "__call__"): DecisionViews.__call__,
        (SingleSeatEnv, "_bot"): SingleSeatEnv._bot,
    }
    make_bot = SingleSeatEnv._bot

    def timed_bot(env: SingleSeatEnv, spec: Any, seat: int | str) -> Any:
        bot = make_bot(env, spec, seat)
        if not getattr(bot, "_bench_timed", False):
            opponent = isinstance(seat, int)
            part = "opponents" if opponent else "delegate_advisor"
            bot.act = clock.wrap(bot.act, part, decision=opponent)
            bot._bench_timed = True
        return bot

    Game.apply = clock.wrap(Game.apply, "engine")
    ObservationLayout.encode = clock.wrap(ObservationLayout.encode, "encoding")
    SeatView.__getattr__ = clock.wrap(SeatView.__getattr__, "views")
    DecisionViews.__call__ = clock.wrap_view_call(DecisionViews.__call__)
    SingleSeatEnv._bot = timed_bot
    try:
        yield
    finally:
        for (cls, name), value in saved.items():
            setattr(cls, name, value)


def _train_args(argv: Sequence[str]) -> argparse.Namespace:
    """``train.train``'s arguments (and so its defaults) for the benchmark's workload."""
    return build_parser().parse_args(list(argv))


def run_benchmark(
    *,
    mode: str = "full",
    advisor: str | None = None,
    opponents: str | None = None,
    players: str = "4",
    n_envs: int = 1,
    seconds: float = 60.0,
    seed: int = 0,
    n_steps: int | None = None,
    batch_size: int | None = None,
    vec: str = "dummy",
) -> dict[str, Any]:
    """Train a fresh MaskablePPO policy for about ``seconds`` with ``n_envs`` envs run as
    ``train.train --vec vec`` runs them and return its figures (see the module docstring)."""
    import torch
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.vec_env import VecMonitor

    from train.vec import ChunkedSubprocVecEnv

    argv = ["--mode", mode, "--players", players, "--seed", str(seed)]
    for flag, value in (
        ("--advisor", advisor),
        ("--opponents", opponents),
        ("--n-steps", n_steps),
        ("--batch-size", batch_size),
    ):
        if value is not None:
            argv += [flag, str(value)]
    args = _train_args(argv)
    checked = validate(args)
    settings = game_settings(args)
    torch.set_num_threads(1)  # as train.train
    fns = [
        make_env_fn(
            i,
            mode=args.mode,
            players=checked["players"],
            length=args.length,
            opponents=_split(args.opponents) or [DEFAULT_BOT],
            weights=None,
            delegate=args.delegate or DEFAULT_BOT,
            reward=settings["reward"],
            shaping=settings["shaping"],
            seed=args.seed,
            advisor=args.advisor,
        )
        for i in range(n_envs)
    ]
    cpus = usable_cpus()
    kind = choose_vec(vec, n_envs, cpus)
    in_process = kind in IN_PROCESS
    clock = _Clock()
    with _patched(clock) if in_process else nullcontext():
        raw_env = make_vec_env(kind, fns, cpus)
        workers = getattr(raw_env, "processes", [])  # the subprocess kinds' env processes

        def cpu_seconds() -> tuple[float, float] | None:
            """CPU time of this process and of the env workers (None: SubprocVecEnv's unread)."""
            if isinstance(raw_env, ChunkedSubprocVecEnv):
                return time.process_time(), sum(raw_env.worker_cpu_seconds())
            return None if workers else (time.process_time(), 0.0)

        vec_env = VecMonitor(raw_env, info_keywords=("won", "score"))
        vec_env.seed(args.seed)
        model = new_model(args, vec_env)
        # a logger of our own: SB3's default one makes an empty SB3-<date> folder in the temp
        # directory at every run
        model.set_logger(Logger(folder=None, output_formats=[]))
        for name in ("step", "reset", "env_method"):
            setattr(model.env, name, clock.wrap(getattr(model.env, name), "env_other"))
        model.policy.forward = clock.wrap(model.policy.forward, "forward")
        model.train = clock.wrap(model.train, "update")

        window: dict[str, Any] = {}

        class Stop(BaseCallback):
            """Ends the run at the first rollout start after ``seconds`` (whole cycles)."""

            def _on_training_start(self) -> None:
                clock.reset()
                window.update(cpu=cpu_seconds(), steps=self.model.num_timesteps)
                window["start"] = time.perf_counter()

            def _on_rollout_start(self) -> None:
                now = time.perf_counter()
                if now - window["start"] >= seconds and self.model.num_timesteps > window["steps"]:
                    window.update(end=now, end_steps=self.model.num_timesteps, whole_cycles=True)
                    clock.running = False
                    window["end_cpu"] = cpu_seconds()

            def _on_step(self) -> bool:
                elapsed = time.perf_counter() - window["start"]
                return "end" not in window and elapsed < seconds + MAX_EXTRA_SECONDS

        start = time.perf_counter()
        model.learn(total_timesteps=10**12, callback=Stop())
        if "end" not in window:  # stopped by MAX_EXTRA_SECONDS in the middle of a cycle
            window.update(
                end=time.perf_counter(), end_steps=model.num_timesteps, whole_cycles=False
            )
            window["end_cpu"] = cpu_seconds()
        setup = window["start"] - start
        vec_env.close()
    wall = window["end"] - window["start"]
    steps = window["end_steps"] - window["steps"]

    def share(t: float | None) -> float | None:
        return None if t is None else round(t / wall, 4) if wall > 0 else 0.0

    parts = {part: clock.exclusive.get(part, 0.0) for part in PARTS if part != "other"}
    parts["other"] = max(0.0, wall - sum(parts.values()))
    env_time = sum(parts[p] for p in ENV_PARTS)  # in the workers: this process's waits for them
    if not in_process:  # the env's parts run in other processes, out of the timers' reach
        parts.update(dict.fromkeys(ENV_PARTS, None))
    opponents_time = clock.inclusive.get("opponents", 0.0) if in_process else None
    decisions = clock.decisions
    timed_calls = sum(clock.calls.values())
    cpu = None
    if window["cpu"] is not None:
        cpu = [
            (end - begin) * 1000 / max(1, steps)
            for begin, end in zip(window["cpu"], window["end_cpu"])
        ]

    def decision_us(statistic: Callable[[list[float]], float]) -> float | None:
        if not in_process:
            return None
        return round(statistic(decisions) * 1e6, 1) if decisions else 0.0

    return {
        "mode": mode,
        "advisor": advisor,
        "n_envs": n_envs,
        "vec_env": type(raw_env).__name__,
        "processes": 1 + len(workers),
        "parts_measured": in_process,
        "seconds": round(wall, 2),
        "setup_seconds": round(setup, 2),
        "whole_cycles": bool(window.get("whole_cycles")),
        "learner_steps": int(steps),
        "learner_steps_per_s": round(steps / wall, 1) if wall > 0 else 0.0,
        # CPU time per learner step, this process's and the env worker processes' (0 in-process)
        "cpu_ms_per_step": None if cpu is None else round(sum(cpu), 3),
        "worker_cpu_ms_per_step": None if cpu is None else round(cpu[1], 3),
        "env_share": share(env_time),
        "opponent_share": share(opponents_time),
        "shares": {p: share(t) for p, t in parts.items()},
        "opponent_decisions": len(decisions) if in_process else None,
        "opponent_decisions_per_step": (round(len(decisions) / steps, 2) if steps else 0.0)
        if in_process
        else None,
        "median_opponent_decision_us": decision_us(statistics.median),
        "mean_opponent_decision_us": decision_us(statistics.fmean),
        "timed_calls": timed_calls,
        "timer_overhead_share": share(timed_calls * _timer_cost()),
    }


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON object of ``runs`` (the first is the baseline, the last the vectorised one)."""
    base, vector = runs[0], runs[-1]
    speedup = (
        vector["learner_steps_per_s"] / base["learner_steps_per_s"]
        if base["learner_steps_per_s"] > 0
        else 0.0
    )
    cpu_speedup = None
    if base["cpu_ms_per_step"] and vector["cpu_ms_per_step"]:
        cpu_speedup = round(base["cpu_ms_per_step"] / vector["cpu_ms_per_step"], 2)
    return {
        "learner_steps_per_s": base["learner_steps_per_s"],
        "env_share": base["env_share"],
        "opponent_share": base["opponent_share"],
        "median_opponent_decision_us": base["median_opponent_decision_us"],
        "vector_speedup": round(speedup, 2),
        "vector_cpu_speedup": cpu_speedup,
        "vector_n_envs": vector["n_envs"],
        "vector_vec_env": vector["vec_env"],
        "vector_processes": vector["processes"],
        "runs": runs,
    }


def build_bench_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m train.bench",
        description="Where a short MaskablePPO training run spends its time (see the module "
        "docstring); the workload is train.train's, with its default settings.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--mode", choices=sorted(MODES), default="full", help="learner's decisions")
    p.add_argument("--advisor", default=None, help="advisor bot, as train.train --advisor")
    p.add_argument("--opponents", default=None, help="opponent pool (default: heuristic)")
    p.add_argument("--players", default="4", help="players per game (2-4, or a comma list)")
    p.add_argument("--seconds", type=float, default=60.0, help="wall time of each configuration")
    p.add_argument(
        "--n-envs",
        default=f"1,{VECTOR_ENVS}",
        help="comma list of env counts to measure; the first is the baseline of the JSON "
        "figures, the last the vectorised run of vector_speedup",
    )
    p.add_argument(
        "--vec",
        choices=("auto", *VEC_KINDS),
        default="auto",
        help="how each configuration runs its envs, as train.train --vec (auto: as train.train "
        "would by default on this machine; one env always runs in this process); the parts "
        "inside envs run in worker processes are not measured",
    )
    p.add_argument("--seed", type=int, default=0, help="seeds the deals, bots and network")
    p.add_argument(
        "--n-steps", type=int, default=None, help="rollout steps per env (default: train.train's)"
    )
    p.add_argument(
        "--batch-size", type=int, default=None, help="minibatch size (default: train.train's)"
    )
    p.add_argument("--json", default=None, help="write the figures to this file")
    return p


def _env_counts(text: str) -> list[int]:
    try:
        counts = [int(x) for x in _split(text)]
    except ValueError:
        counts = []
    if not counts or any(n < 1 for n in counts):
        raise ValueError(f"--n-envs must be a comma list of env counts >= 1, got {text!r}")
    return counts


def _print_run(run: dict[str, Any]) -> None:
    cpu = run["cpu_ms_per_step"]
    print(
        f"--mode {run['mode']}{' --advisor ' + run['advisor'] if run['advisor'] else ''} "
        f"--n-envs {run['n_envs']} ({run['vec_env']}, {run['processes']} process"
        f"{'es' if run['processes'] > 1 else ''}): {run['learner_steps']} learner steps in "
        f"{run['seconds']} s = {run['learner_steps_per_s']} steps/s"
        + ("" if cpu is None else f", {cpu} ms CPU per step")
        + (
            f" ({run['worker_cpu_ms_per_step']} in the env processes)"
            if run["processes"] > 1 and cpu is not None
            else ""
        )
        + ("" if run["whole_cycles"] else " (no rollout-and-update cycle ended)")
    )
    shares = run["shares"]
    if run["parts_measured"]:
        env = " + ".join(f"{p} {100 * shares[p]:.1f}" for p in ENV_PARTS)
        print(f"  environment {100 * run['env_share']:.1f}% of wall time = {env}")
    else:
        print(
            f"  environment {100 * run['env_share']:.1f}% of wall time waiting for the env "
            "processes (the parts inside them, opponents included, not measured)"
        )
    print(
        f"  learner: forward pass {100 * shares['forward']:.1f}%, gradient updates "
        f"{100 * shares['update']:.1f}%, rest of MaskablePPO {100 * shares['other']:.1f}%"
    )
    if run["parts_measured"]:
        print(
            f"  opponents (act + their views) {100 * run['opponent_share']:.1f}% of wall time; "
            f"{run['opponent_decisions_per_step']} decisions per learner step, median "
            f"{run['median_opponent_decision_us']} us, mean {run['mean_opponent_decision_us']} us"
        )
    print(f"  timers' own cost ~{100 * run['timer_overhead_share']:.1f}% of wall time")


def main(argv: list[str] | None = None) -> int:
    parser = build_bench_parser()
    args = parser.parse_args(argv)
    try:
        counts = _env_counts(args.n_envs)
        if not args.seconds > 0:
            raise ValueError(f"--seconds must be positive, got {args.seconds}")
    except ValueError as exc:
        parser.error(str(exc))
    runs = []
    for n in counts:
        try:
            run = run_benchmark(
                mode=args.mode,
                advisor=args.advisor,
                opponents=args.opponents,
                players=args.players,
                n_envs=n,
                seconds=args.seconds,
                seed=args.seed,
                n_steps=args.n_steps,
                batch_size=args.batch_size,
                vec=args.vec,
            )
        except ValueError as exc:  # a bad bot spec (validated by train.train's rules)
            parser.error(str(exc))
        _print_run(run)
        runs.append(run)
    result = summary(runs)
    if len(runs) > 1:
        print(
            f"vectorised ({runs[-1]['n_envs']} envs, {runs[-1]['vec_env']}) / "
            f"{runs[0]['n_envs']} env: "
            f"{result['vector_speedup']}x learner steps/s"
            + (
                ""
                if result["vector_cpu_speedup"] is None
                else f", {result['vector_cpu_speedup']}x in CPU time per learner step"
            )
        )
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
