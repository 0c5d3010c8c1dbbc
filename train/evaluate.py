"""Rate several models (e.g. the checkpoints of one run) against the same opponents, to pick one.

    python -m train.evaluate runs/full/checkpoints/*.zip --opponent heuristic --players 4 \\
        --games 400 --seed 1000 [--json scores.json]

Each model takes one seat against ``players - 1`` copies of ``--opponent`` in a
:mod:`train.tournament` run (every deal played with every seat rotation, so the model sits in
every seat on the same deals); the table lists its win rate with the Wilson 95% interval, mean
score and bluff/Safe statistics, best first. Use a ``--seed`` other than the one of the final
rated tournament: picking the best of many checkpoints on the deals that then rate it would
overstate its strength (selection bias).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from granujas_env.cli import run_main
from train.tournament import check_output_path, run_tournament, summarize

__all__ = ["evaluate", "main"]


def evaluate(
    models: Sequence[str],
    *,
    opponent: str = "heuristic",
    players: int = 4,
    games: int = 400,
    length: str = "short",
    seed: int = 1000,
    workers: int = 1,
) -> list[dict[str, Any]]:
    """One tournament row per model (its own entry, not the opponents'), best win rate first."""
    rows = []
    for model in models:
        names = [model] + [opponent] * (players - 1)
        records = run_tournament(names, games, length=length, seed=seed, workers=workers)
        row = summarize(names, records)["entries"][0]
        rows.append({"model": model, "opponent": opponent, "players": players} | row)
    return sorted(rows, key=lambda r: (-r["win_rate"], -r["mean_score"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m train.evaluate",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "models", nargs="+", help="model .zip paths, run folders, shipped names (any bot spec)"
    )
    parser.add_argument(
        "--opponent", default="heuristic", help="the bot in every other seat (default heuristic)"
    )
    parser.add_argument(
        "--players", type=int, default=4, choices=(2, 3, 4), help="players per game (default 4)"
    )
    parser.add_argument("--games", type=int, default=400, help="games per model (default 400)")
    parser.add_argument(
        "--length", default="short", choices=("short", "long"), help="game length (default short)"
    )
    parser.add_argument(
        "--seed", type=int, default=1000, help="deal seed, not the rating one (default 1000)"
    )
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", dest="json_path", default=None, help="write the rows here")
    args = parser.parse_args(argv)
    if args.json_path:
        try:
            check_output_path(args.json_path, "--json")
        except ValueError as exc:
            parser.error(str(exc))
    try:
        rows = evaluate(
            args.models,
            opponent=args.opponent,
            players=args.players,
            games=args.games,
            length=args.length,
            seed=args.seed,
            workers=args.workers,
        )
    except (ValueError, ImportError) as exc:  # a bad model, or no [train] extra
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(
        f"{args.players} players vs {args.players - 1} x {args.opponent}, {args.length}, "
        f"seed {args.seed}, baseline {1 / args.players:.1%}"
    )
    print(
        f"{'win%':>6} {'95% CI':>14} {'score':>6} {'caught%':>8} {'prec%':>6} {'safeT':>6}  model"
    )
    for r in rows:
        caught = "-" if r["caught_rate"] is None else f"{r['caught_rate']:.1%}"
        precision = "-" if r["challenge_precision"] is None else f"{r['challenge_precision']:.1%}"
        interval = f"[{r['wilson_low']:.1%}, {r['wilson_high']:.1%}]"
        print(
            f"{r['win_rate']:>6.1%} {interval:>14} {r['mean_score']:>6.2f} {caught:>8} "
            f"{precision:>6} {r['mean_safe_tech']:>6.2f}  {r['model']}"
        )
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
