"""Gauntlet: rate one agent against each scripted style, the heuristic and the search bot.

    python -m train.gauntlet --agent full --players 2,4 --games 2000 --seed 777 \\
        [--opponents style_always_challenge,heuristic] [--length short] [--workers 2] \\
        [--json out.json] [--plot out.png]

Each row is a tournament (:func:`train.tournament.run_tournament`) of the agent against one
opponent: 1 vs 1 with 2 players, the agent against N-1 copies of the opponent with more. Deals
are fixed by ``--seed`` (the same deals for every opponent, so rows compare on equal deals) and
every deal is played once with each rotation of the seats, like the tournament. The default
opponents are every gauntlet style of :mod:`agents.styles` (``style_*``), the heuristic and, when
it is registered, the search bot ``ismcts``; ``--opponents`` chooses others (any spec of
:func:`agents.policy.make_bot`).

Per row: the agent's win rate with its Wilson 95% interval, its mean score and bluff figures, and
the target check. Targets (issue 11, for the shipped full bot): a win rate of at least 60% with
the interval's lower bound above 50% in 2 players, at least 35% with the lower bound above 25% in
4 players; 3-player rows have no target (``passed`` is null). A table goes to stdout, ``--plot``
writes a PNG, ``--json`` a list with one object per (opponent, players): ``agent``, ``opponent``,
``players``, ``games``, ``wins``, ``win_rate``, ``wilson_low``, ``wilson_high``, ``target_win_rate``,
``target_low``, ``passed``, ``mean_score``, ``bluff_rate``, ``caught_rate``,
``challenge_precision``, ``seed``, ``length``. Exit status 0 whatever the targets say (read
``passed``); 2 on bad arguments or entries.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from agents.registry import available
from agents.styles import STYLES
from granujas_env.cli import run_main
from train.tournament import check_output_path, interval_text, run_tournament, summarize

__all__ = [
    "TARGETS",
    "default_opponents",
    "meets_target",
    "rate",
    "run_gauntlet",
    "format_table",
    "plot",
    "main",
]

#: players -> (minimum win rate, lower bound of the Wilson interval that must be exceeded).
TARGETS: dict[int, tuple[float, float]] = {2: (0.60, 0.50), 4: (0.35, 0.25)}
SEARCH_BOT = "ismcts"


def default_opponents() -> list[str]:
    """Every gauntlet style, the heuristic and, if registered, the search bot."""
    names = [*STYLES, "heuristic"]
    if SEARCH_BOT in available():
        names.append(SEARCH_BOT)
    return names


def meets_target(players: int, win_rate: float, wilson_low: float) -> bool | None:
    """Whether a row meets the target of its player count (None: no target for that count)."""
    target = TARGETS.get(players)
    if target is None:
        return None
    return win_rate >= target[0] and wilson_low > target[1]


def rate(
    agent: str,
    opponent: str,
    players: int,
    games: int,
    *,
    seed: int = 0,
    length: str = "short",
    workers: int = 1,
) -> dict[str, Any]:
    """The win rate of ``agent`` against ``players - 1`` copies of ``opponent`` over ``games``
    games (rounded up to a multiple of ``players``), seats rotating over the deals of ``seed``;
    one gauntlet row, target check included."""
    if not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, got {players}")
    names = [agent] + [opponent] * (players - 1)
    records = run_tournament(names, games, length=length, seed=seed, workers=workers)
    entry = summarize(names, records)["entries"][0]
    target = TARGETS.get(players)
    return {
        "agent": agent,
        "opponent": opponent,
        "players": players,
        "games": entry["games"],
        "wins": entry["wins"],
        "win_rate": entry["win_rate"],
        "wilson_low": entry["wilson_low"],
        "wilson_high": entry["wilson_high"],
        "target_win_rate": None if target is None else target[0],
        "target_low": None if target is None else target[1],
        "passed": meets_target(players, entry["win_rate"], entry["wilson_low"]),
        "mean_score": entry["mean_score"],
        "bluff_rate": entry["bluff_rate"],
        "caught_rate": entry["caught_rate"],
        "challenge_precision": entry["challenge_precision"],
        "seed": seed,
        "length": length,
    }


def run_gauntlet(
    agent: str,
    opponents: Sequence[str],
    players: Sequence[int],
    games: int,
    *,
    seed: int = 0,
    length: str = "short",
    workers: int = 1,
    progress: bool = False,
) -> list[dict[str, Any]]:
    """One :func:`rate` row per (opponent, players), players-major, on the same deals."""
    rows = []
    for n in players:
        for opponent in opponents:
            t0 = time.time()
            rows.append(rate(agent, opponent, n, games, seed=seed, length=length, workers=workers))
            if progress:
                r = rows[-1]
                print(
                    f"  {opponent} ({n}p): {100 * r['win_rate']:.1f}% over {r['games']} games "
                    f"in {time.time() - t0:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    return rows


def _verdict(passed: bool | None) -> str:
    return "-" if passed is None else "pass" if passed else "FAIL"


def format_table(rows: Sequence[dict[str, Any]]) -> str:
    """The gauntlet as a text table, one line per row, with the targets' legend."""
    header = (
        f"{'opponent':<30}{'N':>3}{'games':>7}{'win%':>8}{'95% CI':>17}{'target':>9}"
        f"{'result':>8}{'score':>8}{'bluff%':>8}{'caught%':>9}"
    )
    lines = [header, "-" * len(header)]

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{100 * value:.1f}%"

    for r in rows:
        ci = interval_text(r)
        target = "-" if r["target_win_rate"] is None else f">={100 * r['target_win_rate']:.0f}%"
        lines.append(
            f"{r['opponent']:<30}{r['players']:>3}{r['games']:>7}{pct(r['win_rate']):>8}"
            f"{ci:>17}{target:>9}{_verdict(r['passed']):>8}{r['mean_score']:>8.2f}"
            f"{pct(r['bluff_rate']):>8}{pct(r['caught_rate']):>9}"
        )
    lines.append(
        "target: win rate >= 60% with the Wilson 95% lower bound > 50% (2 players), >= 35% with "
        "> 25% (4 players, against three copies)"
    )
    return "\n".join(lines)


def plot(rows: Sequence[dict[str, Any]], path: str, title: str) -> bool:
    """Win rate per opponent (one bar per player count) with Wilson intervals and the targets.
    False (and a message) if matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot written (pip install matplotlib)", file=sys.stderr)
        return False
    opponents = list(dict.fromkeys(r["opponent"] for r in rows))
    counts = sorted({r["players"] for r in rows})
    width = 0.8 / len(counts)
    colours = {2: "#4c72b0", 3: "#dd8452", 4: "#55a868"}
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(opponents) + 2), 4.5))
    for k, n in enumerate(counts):
        xs, rates, low, high = [], [], [], []
        for i, opponent in enumerate(opponents):
            r = next((r for r in rows if r["opponent"] == opponent and r["players"] == n), None)
            if r is None:
                continue
            xs.append(i + (k - (len(counts) - 1) / 2) * width)
            rates.append(r["win_rate"])
            low.append(r["win_rate"] - r["wilson_low"])
            high.append(r["wilson_high"] - r["win_rate"])
        colour = colours.get(n, "#8172b3")
        ax.bar(xs, rates, width, yerr=[low, high], capsize=3, color=colour, label=f"{n} players")
        if n in TARGETS:
            ax.axhline(TARGETS[n][0], color=colour, linestyle="--", linewidth=1)
    ax.set_xticks(range(len(opponents)), [o.removeprefix("style_") for o in opponents], rotation=30,
                  ha="right")
    ax.set_ylabel("win rate (Wilson 95%); dashed: target")
    ax.set_ylim(0, 1)
    ax.legend()
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def _player_counts(text: str) -> list[int]:
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"--players must be a comma list of 2, 3 or 4, got {text!r}") from None
    if not counts or any(not 2 <= n <= 4 for n in counts):
        raise ValueError(f"--players must be a comma list of 2, 3 or 4, got {text!r}")
    return list(dict.fromkeys(counts))


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(
        prog="python -m train.gauntlet",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--agent", required=True, help="the agent rated: any bot spec")
    parser.add_argument(
        "--opponents",
        default=None,
        help="comma list of opponents (default: every style_*, heuristic, and ismcts if registered)",
    )
    parser.add_argument("--players", default="2,4", help="comma list of player counts (default 2,4)")
    parser.add_argument(
        "--games", type=int, default=2000, help="games per row, rounded up to a multiple of N"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and bots (default 0)")
    parser.add_argument("--length", default="short", choices=("short", "long"))
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", dest="json_path", default=None, help="write the rows as JSON here")
    parser.add_argument("--plot", dest="plot_path", default=None, help="write a PNG plot here")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    try:
        players = _player_counts(args.players)
        if args.games < 1 or args.workers < 1:
            raise ValueError("--games and --workers must be at least 1")
        if args.json_path:
            check_output_path(args.json_path, "--json")
        if args.plot_path:
            check_output_path(args.plot_path, "--plot")
    except ValueError as exc:
        parser.error(str(exc))
    if args.opponents is None:
        opponents = default_opponents()
    else:
        opponents = list(dict.fromkeys(o.strip() for o in args.opponents.split(",") if o.strip()))
        if not opponents:
            parser.error("--opponents names no opponent")
    t0 = time.time()
    try:
        rows = run_gauntlet(
            args.agent,
            opponents,
            players,
            args.games,
            seed=args.seed,
            length=args.length,
            workers=args.workers,
            progress=not args.quiet,
        )
    except (ValueError, ImportError) as exc:  # a bad entry, or a model without the [train] extra
        print(f"error: {exc}", file=sys.stderr)
        return 2
    title = f"gauntlet of {args.agent}: {args.games} games per row, {args.length}, seed {args.seed}"
    print(title)
    print(format_table(rows))
    print(f"wall time {time.time() - t0:.1f} s ({args.workers} worker(s))")
    if args.plot_path and plot(rows, args.plot_path, title):
        print(f"plot written to {args.plot_path}")
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=2)
        print(f"JSON written to {args.json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
