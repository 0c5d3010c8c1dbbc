"""Rated tournament between bots, with seat rotation over fixed deal seeds.

    python -m train.tournament --agents heuristic,random,random,random --games 2000 \\
        --players 4 --length short --seed 0 [--workers 2] [--json out.json] [--plot out.png]

Each *entry* of ``--agents`` (the same bot may appear several times) is one competitor: a
registered bot (``random``, ``honest``, ``heuristic``), a shipped model (``bluffer``,
``safecracker``, ``full``) or the path of a trained model (``runs/x/model.zip``, a checkpoint
``.zip``, or a run folder holding ``model.zip``). Deal
seeds are fixed by ``--seed``; every deal is played once with each rotation of the entry list over
the seats, so every entry sits in every seat on the same deals and no entry gains from a seat or a
lucky deal (``--games`` is rounded up to a multiple of the number of seats). Per entry it reports:

- win rate with its Wilson 95% interval, against the 1/N baseline of equal players;
- mean score; an OpenSkill (Plackett-Luce) rating, ordinal = mu - 3 sigma (a simple Elo when the
  ``openskill`` package, part of the ``[train]`` extra, is missing);
- bluff statistics: bluff rate (bluffs / cards played), caught rate (bluffs caught / bluffs),
  challenge precision (challenges on bluffs / challenges) and recall (rivals' bluffs it challenged /
  rivals' bluffs);
- Safe statistics: mean Safe tech held at the end, mean matching Marks on its Safes.

A table goes to stdout; ``--plot`` writes a PNG (matplotlib, Agg backend) and ``--json`` the
figures, one object per entry (``agent``, ``entry``, ``label``, ``games``, ``wins``, ``win_rate``,
``wilson_low``, ``wilson_high``, ...). Bots are reseeded per game from ``--seed``, so a run replays
exactly, with any ``--workers``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

__all__ = ["wilson_interval", "run_tournament", "summarize", "format_table", "main"]


def wilson_interval(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default)."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1.0 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1.0 - p) / games + z * z / (4 * games * games)) / denom
    low = 0.0 if wins == 0 else max(0.0, centre - half)  # exact ends, no rounding residue
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


def _labels(names: Sequence[str]) -> list[str]:
    counts = {n: names.count(n) for n in names}
    seen: dict[str, int] = {}
    out = []
    for name in names:
        if counts[name] == 1:
            out.append(name)
        else:
            seen[name] = seen.get(name, 0) + 1
            out.append(f"{name}#{seen[name]}")
    return out


def _deal_seed(seed: int, deal: int) -> int:
    return random.Random(f"granujas-tournament/{seed}/{deal}").getrandbits(63)


def _play_deals(task: tuple) -> list[dict[str, Any]]:
    """Play deals ``[start, stop)`` with every rotation; one record per game (worker entry point)."""
    names, env_kwargs, seed, start, stop = task
    import agents
    from agents.driver import play_game

    n = len(names)
    # one instance per entry, reused across games: a registered bot, else a shipped model or a
    # model path
    bots = [
        agents.make(name) if name in agents.available() else agents.load(name) for name in names
    ]
    records = []
    for deal in range(start, stop):
        deal_seed = _deal_seed(seed, deal)
        for rotation in range(n):
            # seat s is played by entry (s + rotation) % n
            seat_entry = [(s + rotation) % n for s in range(n)]
            seat_bots = [bots[e] for e in seat_entry]
            bot_seeds = [(deal_seed + 7919 * (rotation * n + s)) % (2**63) for s in range(n)]
            result = play_game(env_kwargs, seat_bots, deal_seed, bot_seeds=bot_seeds)
            records.append(
                {
                    "deal": deal,
                    "rotation": rotation,
                    "seat_entry": seat_entry,
                    "winner": result["winner"],
                    "scores": result["scores"],
                    "stats": result["stats"],
                    "steps": result["steps"],
                }
            )
    return records


def run_tournament(
    names: Sequence[str],
    games: int,
    *,
    length: str = "short",
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
) -> list[dict[str, Any]]:
    """Play the games and return one record per game, in a fixed order."""
    import agents

    n = len(names)
    from agents.policy import available_models, resolve_model

    for name in names:
        if name not in agents.REGISTRY and resolve_model(name) is None:
            known = ", ".join(agents.available() + available_models())
            raise ValueError(
                f"unknown agent {name!r}; known agents and shipped models: {known}, "
                "or a model path (a .zip, or a folder holding model.zip)"
            )
    deals = max(1, math.ceil(games / n))
    env_kwargs = {"num_players": n, "game_length": length}
    chunk = max(1, min(25, math.ceil(deals / max(1, workers * 4))))
    tasks = [
        (tuple(names), env_kwargs, seed, start, min(deals, start + chunk))
        for start in range(0, deals, chunk)
    ]
    records: list[dict[str, Any]] = []
    t0 = time.time()

    def report(done: int) -> None:
        if progress:
            rate = done / max(1e-9, time.time() - t0)
            print(
                f"\r  {done}/{deals * n} games ({rate:.1f} games/s)",
                end="",
                file=sys.stderr,
                flush=True,
            )

    if workers <= 1:
        for task in tasks:
            records += _play_deals(task)
            report(len(records))
    else:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(workers) as pool:
            for part in pool.imap(_play_deals, tasks):
                records += part
                report(len(records))
    if progress:
        print(file=sys.stderr)
    return records


def _ratings(
    names: Sequence[str], records: Sequence[dict[str, Any]]
) -> tuple[str, list[dict[str, float]]]:
    """OpenSkill Plackett-Luce ratings of the entries (Elo fallback). Ranks: winner first, then
    by score (ties share a rank)."""
    n = len(names)

    def ranks(rec) -> list[int]:
        keyed = [(0 if seat == rec["winner"] else 1, -rec["scores"][seat]) for seat in range(n)]
        return [sorted(set(keyed)).index(k) for k in keyed]

    try:
        from openskill.models import PlackettLuce
    except ImportError:
        elo = [1500.0] * n
        for rec in records:
            r = ranks(rec)
            entry = rec["seat_entry"]
            delta = [0.0] * n
            for i in range(n):
                for j in range(n):
                    if i == j:
                        continue
                    expect = 1.0 / (1.0 + 10 ** ((elo[entry[j]] - elo[entry[i]]) / 400))
                    actual = 1.0 if r[i] < r[j] else 0.5 if r[i] == r[j] else 0.0
                    delta[entry[i]] += 16.0 * (actual - expect) / (n - 1)
            elo = [e + d for e, d in zip(elo, delta)]
        return "elo", [{"rating": e, "mu": e, "sigma": 0.0} for e in elo]
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in _labels(names)]
    for rec in records:
        entry = rec["seat_entry"]
        teams = [[ratings[entry[seat]]] for seat in range(n)]
        new = model.rate(teams, ranks=ranks(rec))
        for seat in range(n):
            ratings[entry[seat]] = new[seat][0]
    return "openskill", [{"rating": r.ordinal(), "mu": r.mu, "sigma": r.sigma} for r in ratings]


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


def summarize(names: Sequence[str], records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Aggregate per-game records into the per-entry figures."""
    n = len(names)
    labels = _labels(names)
    sums = [dict(games=0, wins=0, score=0.0) for _ in range(n)]
    totals = [dict() for _ in range(n)]
    for rec in records:
        for seat, entry in enumerate(rec["seat_entry"]):
            s = sums[entry]
            s["games"] += 1
            s["wins"] += int(rec["winner"] == seat)
            s["score"] += rec["scores"][seat]
            for key, value in rec["stats"][seat].items():
                totals[entry][key] = totals[entry].get(key, 0) + value
    system, ratings = _ratings(names, records)
    rows = []
    for e in range(n):
        games, wins = sums[e]["games"], sums[e]["wins"]
        low, high = wilson_interval(wins, games)
        t = totals[e]
        rows.append(
            {
                "agent": names[e],
                "entry": e,
                "label": labels[e],
                "games": games,
                "wins": wins,
                "win_rate": wins / games if games else 0.0,
                "wilson_low": low,
                "wilson_high": high,
                "baseline": 1.0 / n,
                "above_baseline": low > 1.0 / n,
                "below_baseline": high < 1.0 / n,
                "mean_score": sums[e]["score"] / games if games else 0.0,
                "rating": ratings[e]["rating"],
                "rating_mu": ratings[e]["mu"],
                "rating_sigma": ratings[e]["sigma"],
                "bluff_rate": _ratio(t.get("bluffs_played", 0), t.get("cards_played", 0)),
                "caught_rate": _ratio(t.get("bluffs_caught", 0), t.get("bluffs_played", 0)),
                "challenge_precision": _ratio(
                    t.get("challenges_correct", 0), t.get("challenges_made", 0)
                ),
                "challenge_recall": _ratio(
                    t.get("challenges_correct", 0), t.get("rival_bluffs", 0)
                ),
                "challenges_per_game": _ratio(t.get("challenges_made", 0), games),
                "mean_safe_tech": _ratio(t.get("safe_tech", 0), games),
                "mean_marks_matched": _ratio(t.get("marks_matched", 0), games),
                "mean_reputation": _ratio(t.get("reputation", 0), games),
                "mean_granuja_tech": _ratio(t.get("granuja_tech", 0), games),
                "totals": t,
            }
        )
    return {"rating_system": system, "entries": rows}


def _fmt(value: float | None, pct: bool = False) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.1f}%" if pct else f"{value:.2f}"


def format_table(summary: dict[str, Any]) -> str:
    rows = summary["entries"]
    header = (
        f"{'entry':<14}{'games':>7}{'wins':>7}{'win%':>8}{'95% CI':>17}{'score':>8}"
        f"{'rating':>8}{'bluff%':>8}{'caught%':>9}{'prec%':>8}{'recall%':>9}"
        f"{'safeT':>7}{'marks':>7}"
    )
    lines = [header, "-" * len(header)]
    for r in rows:
        ci = f"[{100 * r['wilson_low']:.1f}, {100 * r['wilson_high']:.1f}]"
        flag = "+" if r["above_baseline"] else "-" if r["below_baseline"] else " "
        lines.append(
            f"{r['label']:<14}{r['games']:>7}{r['wins']:>7}{_fmt(r['win_rate'], True):>8}"
            f"{ci:>16}{flag}{r['mean_score']:>8.2f}{r['rating']:>8.2f}"
            f"{_fmt(r['bluff_rate'], True):>8}{_fmt(r['caught_rate'], True):>9}"
            f"{_fmt(r['challenge_precision'], True):>8}{_fmt(r['challenge_recall'], True):>9}"
            f"{_fmt(r['mean_safe_tech']):>7}{_fmt(r['mean_marks_matched']):>7}"
        )
    base = rows[0]["baseline"] if rows else 0
    lines.append(
        f"baseline 1/N = {100 * base:.1f}%; '+' / '-': Wilson 95% interval entirely above / below it; "
        + (
            "rating: OpenSkill ordinal (mu - 3 sigma)"
            if summary["rating_system"] == "openskill"
            else "rating: Elo (openskill not installed)"
        )
    )
    return "\n".join(lines)


def plot(summary: dict[str, Any], path: str, title: str) -> bool:
    """Win rates with Wilson intervals against 1/N, and mean scores. False if no matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(
            "matplotlib is not installed: no plot written (pip install matplotlib)", file=sys.stderr
        )
        return False
    rows = summary["entries"]
    labels = [r["label"] for r in rows]
    x = list(range(len(rows)))
    rates = [r["win_rate"] for r in rows]
    err = [
        [r["win_rate"] - r["wilson_low"] for r in rows],
        [r["wilson_high"] - r["win_rate"] for r in rows],
    ]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.bar(x, rates, yerr=err, capsize=6, color="#4c72b0")
    ax1.axhline(rows[0]["baseline"], color="#c44e52", linestyle="--", label="1/N baseline")
    ax1.set_xticks(x, labels, rotation=20)
    ax1.set_ylabel("win rate (Wilson 95%)")
    ax1.set_ylim(0, 1)
    ax1.legend()
    ax2.bar(x, [r["mean_score"] for r in rows], color="#55a868")
    ax2.set_xticks(x, labels, rotation=20)
    ax2.set_ylabel("mean score (tech)")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agents", required=True, help="comma-separated bot names, one per seat")
    parser.add_argument(
        "--games", type=int, default=2000, help="games (rounded up to a multiple of N)"
    )
    parser.add_argument(
        "--players", type=int, default=None, help="number of seats (default: len(--agents))"
    )
    parser.add_argument("--length", default="short", choices=("short", "long"))
    parser.add_argument("--seed", type=int, default=0, help="seed of the deal seeds and bot seeds")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--json", dest="json_path", default=None, help="write the figures as JSON here"
    )
    parser.add_argument("--plot", dest="plot_path", default=None, help="write a PNG plot here")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    args = parser.parse_args(argv)

    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    players = args.players if args.players is not None else len(names)
    if len(names) != players:
        parser.error(f"--agents lists {len(names)} bots but --players is {players}")
    if not 2 <= players <= 4:
        parser.error("--players must be 2, 3 or 4")
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    t0 = time.time()
    try:
        records = run_tournament(
            names,
            args.games,
            length=args.length,
            seed=args.seed,
            workers=args.workers,
            progress=not args.quiet,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    wall = time.time() - t0
    summary = summarize(names, records)
    title = (
        f"{players} players, {args.length}, {len(records)} games "
        f"({len(records) // players} deals x {players} rotations), seed {args.seed}"
    )
    print(title)
    print(format_table(summary))
    print(
        f"wall time {wall:.1f} s ({len(records) / max(wall, 1e-9):.1f} games/s, {args.workers} worker(s))"
    )
    if args.plot_path:
        if plot(summary, args.plot_path, title):
            print(f"plot written to {args.plot_path}")
    if args.json_path:
        payload = [
            {k: v for k, v in row.items()}
            | {
                "players": players,
                "length": args.length,
                "seed": args.seed,
                "rating_system": summary["rating_system"],
                "total_games": len(records),
            }
            for row in summary["entries"]
        ]
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump(payload, handle, indent=2)
        print(f"JSON written to {args.json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
