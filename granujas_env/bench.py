"""Throughput of random legal play: a game's AEC env against PettingZoo classic games.

    python -m granujas_env.bench [--game granujas] [--seconds 5] [--players 4] [--length short]
                                 [--seed 0] [--only granujas,leduc,connect_four] [--warmup 0.5]
                                 [--rounds 1] [--json PATH]
    python -m granujas_env.bench --game bang-dice --players 5 --only bang-dice,leduc --rounds 5
    python -m granujas_env.bench --clone [--players 4] [--length short] [--seed 0] [--json PATH]

``--game`` (default ``granujas``) picks the game of :mod:`granujas_env.games` whose wrapped env
(``spec.env(num_players=...)``) is measured; ``--only`` then names it (``--only
bang-dice,leduc``). ``--players`` defaults to 4 for granujas and 5 for bang-dice; ``--length``
is granujas' only.

``--rounds R`` (R > 1) measures the envs A B A B ... R times, each round one ``--seconds`` run
per env in turn, so a change of load hits both alike; it prints and saves, per reference env,
the game's decisions/s over the reference's in each round and their median (the figure of
docs/results/bang_dice_bench.json), and the table shows each figure's median over the rounds.
With one round (the default) the output is as it always was.

``--clone`` times ``Game.clone`` against ``copy.deepcopy`` instead (:func:`measure_clone`).

Every env is driven by the same loop (:func:`measure`), the standard AEC one::

    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        action = None if term or trunc else <uniform random id where obs["action_mask"] == 1>
        env.step(action)

resetting with successive seeds when a game ends, for a fixed wall time after a short warm-up.
The random choice is ``np.flatnonzero(mask)`` plus one ``random.Random`` draw, identical for all
envs, so the figures compare the envs (with the wrappers their ``env()`` applies), not the
players. An "agent step" is one ``env.step`` call, including the ``None`` steps of finished
agents; "decisions" counts only the non-``None`` ones. Env construction (and the first import
of its module) is timed apart as ``setup_s``; ``reset`` is inside the measured loop.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import os
import platform
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from . import games
from .cli import run_main

__all__ = [
    "ENV_NAMES",
    "EnvUnavailable",
    "connect_four_factory",
    "game_factory",
    "granujas_factory",
    "leduc_factory",
    "main",
    "measure",
    "measure_clone",
]

EnvFactory = Callable[[], Any]


class EnvUnavailable(RuntimeError):
    """An env cannot be built here (module or optional dependency missing)."""


#: Names accepted by ``--only`` with the default game, in the order they are run and printed.
ENV_NAMES = ("granujas", "leduc", "connect_four")
#: The reference envs, after the game.
REFERENCES = ("leduc", "connect_four")
#: ``--players`` when not given, per game.
DEFAULT_PLAYERS = {"granujas": 4, "bang-dice": 5}


def granujas_factory(num_players: int = 4, game_length: str = "short") -> EnvFactory:
    """Factory for ``granujas_env.env(num_players=..., game_length=...)`` (imported lazily)."""

    def make() -> Any:
        import granujas_env

        make_env = getattr(granujas_env, "env", None)
        if make_env is None:
            raise EnvUnavailable(
                "granujas_env.env is not available yet; "
                "run with --only leduc,connect_four to benchmark the reference envs"
            )
        return make_env(num_players=num_players, game_length=game_length)

    return make


def game_factory(game: str, num_players: int, **options: Any) -> EnvFactory:
    """Factory for the wrapped AEC env of ``game`` (:func:`granujas_env.games.get`); granujas
    goes through :func:`granujas_factory`."""
    if game == "granujas":
        return granujas_factory(num_players, **options)
    spec = games.get(game)

    def make() -> Any:
        return spec.env(num_players=num_players, **options)

    return make


def _import_classic(module: str) -> Any:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    with warnings.catch_warnings():
        # pettingzoo>=1.27 deprecates the per-module API in favour of pettingzoo.make();
        # the module API is the one every pettingzoo>=1.24 has.
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            return importlib.import_module(f"pettingzoo.classic.{module}")
        except ImportError as exc:
            raise EnvUnavailable(
                f"cannot import pettingzoo.classic.{module} ({exc}); "
                'install the benchmark extra: pip install -e ".[bench]"'
            ) from exc


def leduc_factory() -> Any:
    """PettingZoo ``leduc_holdem_v4.env()`` (needs the ``bench`` extra: rlcard, pygame-ce)."""
    return _import_classic("leduc_holdem_v4").env()


def connect_four_factory() -> Any:
    """PettingZoo ``connect_four_v3.env()`` (needs the ``bench`` extra: pygame-ce)."""
    return _import_classic("connect_four_v3").env()


def _play(
    env: Any, rng: random.Random, first_seed: int, seconds: float
) -> tuple[int, int, int, int, int]:
    """Random legal play for ``seconds`` of wall time.

    Returns ``(agent_steps, decisions, games, steps_in_completed_games, next_seed)``.
    """
    clock = time.perf_counter
    flatnonzero = np.flatnonzero
    randrange = rng.randrange
    deadline = clock() + seconds
    steps = decisions = games = completed_steps = 0
    game_seed = first_seed
    while True:
        env.reset(seed=game_seed)
        game_seed += 1
        timed_out = False
        for _agent in env.agent_iter():
            obs, _rew, term, trunc, _info = env.last()
            if term or trunc:
                action = None
            else:
                legal = flatnonzero(obs["action_mask"])
                if legal.size == 0:
                    raise RuntimeError(
                        f"{_agent} must act but its action_mask has no legal action "
                        f"(game seed {game_seed - 1})"
                    )
                action = int(legal[randrange(legal.size)])
                decisions += 1
            env.step(action)
            steps += 1
            if clock() >= deadline:
                timed_out = True
                break
        if timed_out:
            return steps, decisions, games, completed_steps, game_seed
        games += 1
        completed_steps = steps
        if clock() >= deadline:
            return steps, decisions, games, completed_steps, game_seed


def measure(
    env_factory: EnvFactory,
    seconds: float = 5.0,
    seed: int = 0,
    *,
    warmup: float | None = None,
) -> dict[str, Any]:
    """Measure random legal play through the AEC env built by ``env_factory()``.

    One env is built, warmed up for ``warmup`` seconds (default ``min(0.5, seconds / 10)``),
    then played for ``seconds`` of wall time. Games are reset with seeds ``seed, seed + 1, ...``
    (the warm-up uses the first ones) and actions drawn with ``random.Random(seed)``.

    Returns a dict with ``seconds`` (asked), ``elapsed_s`` (measured), ``warmup_s``,
    ``setup_s`` (env construction, including a first import), ``agent_steps``, ``decisions``,
    ``games`` (completed), ``steps_per_s`` (agent steps), ``decisions_per_s``, ``games_per_s``
    and ``steps_per_game`` (mean over completed games, ``None`` if none completed).
    """
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    if warmup is None:
        warmup = min(0.5, seconds / 10)
    rng = random.Random(seed)

    t0 = time.perf_counter()
    env = env_factory()
    setup_s = time.perf_counter() - t0
    try:
        next_seed = seed
        if warmup > 0:
            next_seed = _play(env, rng, next_seed, warmup)[4]
        t0 = time.perf_counter()
        steps, decisions, games, completed_steps, _ = _play(env, rng, next_seed, seconds)
        elapsed = time.perf_counter() - t0
    finally:
        close = getattr(env, "close", None)
        if close is not None:
            close()

    return {
        "seconds": seconds,
        "elapsed_s": elapsed,
        "warmup_s": warmup,
        "setup_s": setup_s,
        "seed": seed,
        "agent_steps": steps,
        "decisions": decisions,
        "games": games,
        "steps_per_s": steps / elapsed,
        "decisions_per_s": decisions / elapsed,
        "games_per_s": games / elapsed,
        "steps_per_game": completed_steps / games if games else None,
    }


def measure_clone(
    num_players: int = 4,
    game_length: str = "short",
    seed: int = 0,
    *,
    rounds: int = 21,
    number: int = 20,
) -> dict[str, Any]:
    """Microseconds per copy of one game in progress: ``Game.clone`` against ``copy.deepcopy``.

    The game is dealt with ``seed`` and played by uniform random legal actions to the middle of
    its decisions. After an untimed warm-up, each round times ``number`` clones, then ``number``
    deep copies (A B A B ..., so load changes hit both alike); the figures are the medians over
    ``rounds`` rounds.
    ``copy.deepcopy`` is timed on a list holding the game: deepcopy then copies it field by field
    through its memo, as for any game inside another object (``copy.deepcopy(game)`` alone takes
    the clone's path).
    """
    if rounds < 1 or number < 1:
        raise ValueError(f"rounds and number must be at least 1, got {rounds} and {number}")
    from .engine import Game, GameConfig  # the benchmark's other envs must not need the engine

    config = GameConfig(num_players, game_length)
    rng = random.Random(seed)
    game = Game(config, seed)
    actions = []
    while not game.game_over:
        actions.append(rng.choice(game.legal_actions()))
        game.apply(actions[-1])
    game = Game(config, seed)
    for action in actions[: len(actions) // 2]:
        game.apply(action)

    clock = time.perf_counter
    clone_us, deepcopy_us = [], []
    holder = [game]
    for _ in range(number):  # warm-up, untimed
        game.clone()
        copy.deepcopy(holder)
    for _ in range(rounds):
        t0 = clock()
        for _ in range(number):
            game.clone()
        t1 = clock()
        for _ in range(number):
            copy.deepcopy(holder)
        t2 = clock()
        clone_us.append((t1 - t0) / number * 1e6)
        deepcopy_us.append((t2 - t1) / number * 1e6)
    clone_median = statistics.median(clone_us)
    deepcopy_median = statistics.median(deepcopy_us)
    return {
        "num_players": num_players,
        "game_length": game_length,
        "seed": seed,
        "decision": len(actions) // 2,
        "decisions_in_game": len(actions),
        "rounds": rounds,
        "number": number,
        "clone_us": clone_median,
        "deepcopy_us": deepcopy_median,
        "ratio": deepcopy_median / clone_median,
    }


def clone_line(result: dict[str, Any]) -> str:
    """The one-line summary of :func:`measure_clone`."""
    return (
        f"Game.clone: {result['clone_us']:.0f} us, copy.deepcopy: {result['deepcopy_us']:.0f} us, "
        f"ratio {result['ratio']:.1f}"
    )


def _label(name: str, args: argparse.Namespace) -> str:
    if name == "granujas":
        return f"granujas ({args.players}p, {args.length})"
    if name == args.game:
        return f"{name} ({args.players}p)"
    return {"leduc": "leduc_holdem_v4", "connect_four": "connect_four_v3"}[name]


def _factory(name: str, args: argparse.Namespace) -> EnvFactory:
    if name == args.game:
        options = {"game_length": args.length} if name == "granujas" else {}
        return game_factory(name, args.players, **options)
    return {"leduc": leduc_factory, "connect_four": connect_four_factory}[name]


def _parse_only(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("unknown env(s) (none given)")
    return names


def _only(names: list[str] | None, game: str) -> list[str]:
    """The envs of ``--only`` (default: all) in run order, or ValueError naming the unknown."""
    allowed = (game, *REFERENCES)
    if names is None:
        return list(allowed)
    unknown = [n for n in names if n not in allowed]
    if unknown:
        raise ValueError(f"unknown env(s) {', '.join(unknown)}; choose from {', '.join(allowed)}")
    return [n for n in allowed if n in names]


def measure_rounds(
    factories: dict[str, EnvFactory],
    rounds: int,
    seconds: float,
    seed: int = 0,
    *,
    warmup: float | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """:func:`measure` every env of ``factories`` in turn, ``rounds`` times (A B A B ...): each
    env's list of results, one per round."""
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in factories}
    for r in range(rounds):
        for name, factory in factories.items():
            if log is not None:
                log(f"round {r + 1}/{rounds}: {name}")
            runs[name].append(measure(factory, seconds, seed, warmup=warmup))
    return runs


def median_result(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One result whose every number is the median of that number over ``runs``."""
    out = dict(runs[0])
    for key, value in runs[0].items():
        if isinstance(value, float) and all(r[key] is not None for r in runs):
            out[key] = statistics.median(r[key] for r in runs)
        elif isinstance(value, int) and key != "seed":
            out[key] = int(statistics.median(r[key] for r in runs))
    return out


def decision_ratios(
    runs: dict[str, list[dict[str, Any]]], game: str
) -> dict[str, dict[str, Any]]:
    """Per reference env of ``runs``: the game's decisions/s over the reference's in each round
    (same round, back to back) and their median."""
    out = {}
    for ref in REFERENCES:
        if ref in runs and game in runs:
            each = [a["decisions_per_s"] / b["decisions_per_s"] for a, b in zip(runs[game], runs[ref])]
            out[f"{game}/{ref}"] = {"median": statistics.median(each), "rounds": each}
    return out


def _print_table(results: dict[str, dict[str, Any]], labels: dict[str, str]) -> None:
    header = (
        f"{'env':<26}{'steps/s':>12}{'decisions/s':>13}{'games/s':>11}"
        f"{'steps/game':>12}{'games':>8}{'elapsed s':>11}{'setup s':>9}"
    )
    print(header)
    print("-" * len(header))
    for name, r in results.items():
        spg = f"{r['steps_per_game']:.1f}" if r["steps_per_game"] is not None else "-"
        print(
            f"{labels[name]:<26}{r['steps_per_s']:>12,.0f}{r['decisions_per_s']:>13,.0f}"
            f"{r['games_per_s']:>11,.1f}{spg:>12}{r['games']:>8}"
            f"{r['elapsed_s']:>11.2f}{r['setup_s']:>9.3f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m granujas_env.bench",
        description="Random legal play throughput: a game's env (default granujas) vs PettingZoo "
        "leduc / connect four.",
    )
    parser.add_argument("--game", choices=games.available(), default=games.DEFAULT_GAME,
                        help=f"the game whose env is measured (default {games.DEFAULT_GAME})")
    parser.add_argument("--seconds", type=float, default=5.0, help="measured wall time per env (default 5 s)")
    parser.add_argument("--warmup", type=float, default=0.5, help="warm-up wall time per env (default 0.5 s)")
    parser.add_argument("--players", type=int, default=None,
                        help="number of players (default: granujas 4, bang-dice 5)")
    parser.add_argument("--length", default=None, help="granujas: game_length (default short)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed and action seed (default 0)")
    parser.add_argument(
        "--only",
        type=_parse_only,
        default=None,
        help=f"comma-separated subset of the game and {','.join(REFERENCES)} (default: all; "
        f"granujas: {','.join(ENV_NAMES)})",
    )
    parser.add_argument("--rounds", type=int, default=1,
                        help="measure the envs A B A B ... this many times and report median "
                        "decisions/s ratios (default 1)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    parser.add_argument(
        "--clone",
        action="store_true",
        help="time Game.clone against copy.deepcopy (a game of --players/--length/--seed, "
        "halfway through) instead of the envs",
    )
    args = parser.parse_args(argv)
    if args.game != "granujas" and (args.length is not None or args.clone):
        parser.error(f"{'--length' if args.length is not None else '--clone'} applies to "
                     f"granujas only, not to {args.game}")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.players is None:
        args.players = DEFAULT_PLAYERS.get(args.game, min(games.get(args.game).players))
    if args.length is None and args.game == "granujas":
        args.length = "short"
    try:
        args.only = _only(args.only, args.game)
    except ValueError as exc:
        parser.error(str(exc))
    if args.clone:
        result = measure_clone(args.players, args.length, args.seed)
        print(clone_line(result) + f" (median of {result['rounds']} interleaved rounds, "
              f"{args.players}p {args.length}, decision {result['decision']} of "
              f"{result['decisions_in_game']})")
        if args.json:
            config = {"players": args.players, "length": args.length, "seed": args.seed}
            _write_json(args.json, {"config": config, "platform": _platform(), "clone": result})
        return 0

    labels = {name: _label(name, args) for name in args.only}
    results: dict[str, dict[str, Any]] = {}
    runs: dict[str, list[dict[str, Any]]] = {}
    if args.rounds > 1:
        factories = {name: _factory(name, args) for name in args.only}
        try:
            runs = measure_rounds(
                factories, args.rounds, args.seconds, args.seed, warmup=args.warmup,
                log=lambda text: print(f"{text} for {args.seconds:g} s ...", file=sys.stderr,
                                       flush=True),
            )
        except EnvUnavailable as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        results = {name: median_result(r) for name, r in runs.items()}
    for name in args.only if args.rounds == 1 else ():
        print(f"measuring {labels[name]} for {args.seconds:g} s ...", file=sys.stderr, flush=True)
        try:
            results[name] = measure(
                _factory(name, args), args.seconds, args.seed, warmup=args.warmup
            )
        except EnvUnavailable as exc:
            print(f"error: {labels[name]}: {exc}", file=sys.stderr)
            return 1

    _print_table(results, labels)
    ratios: dict[str, float] = {}
    if args.game in results:
        for ref in REFERENCES:
            if ref in results:
                key = f"{args.game}/{ref}"
                ratios[key] = results[args.game]["steps_per_s"] / results[ref]["steps_per_s"]
                print(f"steps/s ratio {key}: {ratios[key]:.2f}")
    per_round = decision_ratios(runs, args.game)
    for key, ratio in per_round.items():
        each = ", ".join(f"{r:.2f}" for r in ratio["rounds"])
        print(f"decisions/s ratio {key}: median {ratio['median']:.2f} over {args.rounds} rounds "
              f"({each})")

    if args.json:
        payload = {
            "config": {
                "game": args.game,
                "rounds": args.rounds,
                "seconds": args.seconds,
                "warmup": args.warmup,
                "players": args.players,
                "length": args.length,
                "seed": args.seed,
                "only": args.only,
            },
            "platform": _platform(),
            "labels": labels,
            "results": results,
            "ratios": ratios,
        }
        if args.rounds > 1:
            payload["rounds"] = runs
            payload["decision_ratios"] = per_round
        _write_json(args.json, payload)
    return 0


def _platform() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "system": platform.system(),
        "cpu_count": os.cpu_count(),
        "numpy": np.__version__,
        "pettingzoo": _version("pettingzoo"),
    }


def _write_json(path: str, payload: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(payload, fh, indent=2)
        fh.write("\n")


def _version(dist: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


if __name__ == "__main__":
    sys.exit(run_main(main))
