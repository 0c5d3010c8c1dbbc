"""Rated tournament between bots, with seat rotation over fixed deal seeds.

    python -m train.tournament --agents heuristic,random,random,random --games 2000 \\
        --players 4 --length short --seed 0 [--strategy-cards] [--workers 2] [--json out.json] \\
        [--plot out.png] [--save-games DIR]
    python -m train.tournament --game bang-dice --agents heuristic,random --players 5 \\
        --games 2000 --seed 300000 [--json out.json]

``--game`` (default ``granujas``) names a game of :mod:`granujas_env.games`. A hidden-role team
game (Bang! The Dice Game) is rated by role through :mod:`train.roles`: the agents (names of the
game's bots, model paths such as ``python -m train.rllib --game bang-dice``'s export, import
paths) take the seats in turn, shifted one seat per game, game ``i`` dealt by seed ``seed + i``;
the report gives each agent's win rate by role and overall with Wilson intervals, the difference
between the first two agents by role, the beliefs' accuracy on the true roles by turn, and text
agents' invalid-answer rates. ``--length``, ``--strategy-cards``, ``--workers``, ``--ray``,
``--plot`` and ``--save-games`` are granujas' only. What follows describes granujas.

Each *entry* of ``--agents`` (the same bot may appear several times) is one competitor: a
registered bot (``random``, ``honest``, ``heuristic``), a shipped model (``bluffer``,
``safecracker``, ``full``), the path of a trained model (``runs/x/model.zip``, a checkpoint
``.zip``, or a run folder holding ``model.zip``) or an import path ``module:attribute`` naming a bot
class or factory in any importable module (``mypkg.mybots:Sniper``), so you can rate your own bots
without editing the registry. Every entry is built once before the first game, so a bad entry
fails at once.

Seats: deal seeds are fixed by ``--seed``; every deal is played once with each rotation of the
entries over the seats, so every entry sits in every seat on the same deals and no entry gains from
a lucky deal (``--games`` is rounded up to a multiple of the number of seats). Successive deals
cycle through the (N-1)! cyclic orders of the entries, so over N x (N-1)! games (2 players: 2,
3: 6, 4: 24) every entry also sits in every position relative to every other (right after it, two
seats after it, ...) equally often; the report says whether the run is balanced that way and shows
the win rate of each seat over all entries (the seat effect).

Per entry it reports:

- win rate with its Wilson 95% interval, against the 1/N baseline of equal players;
- mean score; an OpenSkill (Plackett-Luce) rating, ordinal = mu - 3 sigma (a simple Elo when the
  ``openskill`` package, part of the ``[train]`` extra, is missing);
- bluff statistics: bluff rate (bluffs / cards played), caught rate (bluffs revealed with a
  rival's challenge on them / bluffs), challenge precision (challenges on bluffs / challenges) and
  recall (rivals' bluffs it challenged / rivals' bluffs), where a challenge is a challenge decision
  answered yes: a henchman put on a card by a card effect or by the Ayudante del sheriff's
  pre-emption is not one, so against bots that never challenge the caught rate is 0. The revealed
  rate (``revealed_rate``: bluffs revealed with any henchman on them / bluffs) counts those too;
- for text agents (see :func:`agents.driver.text_counters`: a ``text_stats()`` or ``counters()``
  method, or an ``invalid_answers`` counter, e.g. ``llm``): their counters summed over the games
  (``text_counters``: ``calls`` (requests), ``answers`` (real answers: replies received),
  ``invalid_answers``, ``errors`` (failed requests), ``fallbacks`` (decisions settled by the
  default action), ...) and the invalid rate over real answers (``invalid_answer_rate`` =
  invalid_answers / answers), reported apart from the win rate (both None for other bots);
- Safe statistics: mean Safe tech held at the end, mean matching Marks on its Safes, and the
  paired Safe tech difference (``safe_tech_diff``): per game, the entry's Safe tech minus the mean
  of the other seats' in that game, averaged, with a normal 95% interval (mean +- 1.96 sd/sqrt(n)).

A table goes to stdout; ``--plot`` writes a PNG (matplotlib, Agg backend), ``--json`` the figures,
one object per entry (``agent``, ``entry``, ``label``, ``games``, ``wins``, ``win_rate``,
``wilson_low``, ``wilson_high``, ``win_rate_by_seat``, ...), and ``--save-games DIR`` every game as
a game record (``DIR/deal<D>_rot<R>.json``; ``python -m granujas_env.record show FILE`` replays
one). Output paths are checked before the first game.

Parallel play: ``--workers N`` plays the games in N processes on this machine; ``--ray`` plays them
as Ray tasks, on a local Ray instance started for the run or, with ``--address``, on a running
cluster (``ray start --head`` on one machine, ``ray start --address HEAD_IP:6379`` on the others,
granujas installed on each; needs the ``[rllib]`` extra). Every game is one task, a deal seed and a
rotation, whose bots are built and seeded inside the task from the deal seed, rotation and seat
only; the records are merged in deal order, so a run gives identical results with any
``--workers`` or with ``--ray``.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from agents.driver import TEXT_PREFIX, play_game
from agents.policy import make_bot
from granujas_env import games as game_registry
from granujas_env.cli import run_main
from train import roles
from train.ratings import invalid_answer_rate, mean_interval, text_figures, wilson_interval

__all__ = [
    "wilson_interval",
    "mean_interval",
    "interval_text",
    "seat_orders",
    "run_tournament",
    "summarize",
    "format_table",
    "check_output_path",
    "main",
]


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


def seat_orders(n: int) -> list[tuple[int, ...]]:
    """The (n-1)! cyclic orders of n entries, entry 0 first (the identity order first)."""
    return [(0, *rest) for rest in itertools.permutations(range(1, n))]


# one game: (entry specs, env kwargs, tournament seed, deal, rotation, save folder or None)
GameTask = tuple[tuple[str, ...], dict[str, Any], int, int, int, "str | None"]


def _play_task(task: GameTask) -> dict[str, Any]:
    """Play one game (deal + rotation) and return its record (worker entry point).

    Its bots are built here from their specs and seeded from the deal seed, rotation and seat
    only, never from what the process played before: a game's result does not depend on which
    worker plays it, or after which other game."""
    names, env_kwargs, seed, deal, rotation, save_dir = task
    n = len(names)
    deal_seed = _deal_seed(seed, deal)
    order = seat_orders(n)[deal % math.factorial(n - 1)]
    # seat s is played by entry order[(s + rotation) % n]
    seat_entry = [order[(s + rotation) % n] for s in range(n)]
    seat_bots = [make_bot(names[e]) for e in seat_entry]
    bot_seeds = [(deal_seed + 7919 * (rotation * n + s)) % (2**63) for s in range(n)]
    meta = {
        "tool": "train.tournament",
        "seed": seed,
        "deal": deal,
        "rotation": rotation,
        "seats": [names[e] for e in seat_entry],
    }
    result = play_game(
        env_kwargs,
        seat_bots,
        deal_seed,
        bot_seeds=bot_seeds,
        record=save_dir is not None,
        meta=meta,
    )
    if save_dir is not None:
        result["record"].save(Path(save_dir) / f"deal{deal:05d}_rot{rotation}.json")
    return {
        "deal": deal,
        "rotation": rotation,
        "seat_entry": seat_entry,
        "winner": result["winner"],
        "scores": result["scores"],
        "stats": result["stats"],
        "steps": result["steps"],
    }


def _play_tasks(tasks: Sequence[GameTask]) -> list[dict[str, Any]]:
    """Play several games in order (one Ray task: fewer, larger tasks cost less to schedule)."""
    return [_play_task(task) for task in tasks]


class RayUnavailableError(ImportError):
    """``--ray`` without Ray installed."""


RAY_MISSING = "--ray needs Ray: pip install -e '.[rllib]' (the [rllib] extra installs ray[rllib])"


def _ray_results(tasks: Sequence[GameTask], address: str | None) -> Iterator[dict[str, Any]]:
    """Play ``tasks`` as Ray tasks (a local Ray instance, or the cluster at ``address``) and
    yield the records in task order. An instance already initialised by the caller is used."""
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(RAY_MISSING) from None
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address)
        else:
            ray.init(include_dashboard=False)
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = max(1, min(25, math.ceil(len(tasks) / (4 * cpus))))
        play = ray.remote(num_cpus=1)(_play_tasks)
        refs = [play.remote(list(tasks[i : i + size])) for i in range(0, len(tasks), size)]
        for ref in refs:
            yield from ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def run_tournament(
    names: Sequence[str],
    games: int,
    *,
    length: str = "short",
    strategy_cards: bool = False,
    seed: int = 0,
    workers: int = 1,
    use_ray: bool = False,
    address: str | None = None,
    progress: bool = False,
    save_games: str | Path | None = None,
) -> list[dict[str, Any]]:
    """Play the games and return one record per game, in deal then rotation order.

    Every game is one task (deal seed + rotation) whose bots are built and seeded inside the
    task, so the records are identical whatever ``workers`` (processes on this machine) or
    ``use_ray`` (Ray tasks on a local instance or the cluster at ``address``) run them.
    Every entry is built once first (:func:`agents.policy.make_bot`), so a bad name, import path
    or model raises ``ValueError`` (``ImportError`` when a model needs the ``[train]`` extra;
    :class:`RayUnavailableError` when ``use_ray`` and Ray is missing) before any game. With
    ``save_games`` every game is also written there as a game record."""
    n = len(names)
    for name in names:
        make_bot(name)
    if save_games is not None:
        Path(save_games).mkdir(parents=True, exist_ok=True)
    deals = max(1, math.ceil(games / n))
    env_kwargs = {"num_players": n, "game_length": length, "strategy_cards": strategy_cards}
    save = None if save_games is None else str(save_games)
    tasks: list[GameTask] = [
        (tuple(names), env_kwargs, seed, deal, rotation, save)
        for deal in range(deals)
        for rotation in range(n)
    ]
    records: list[dict[str, Any]] = []
    t0 = time.time()

    def collect(results: Iterable[dict[str, Any]]) -> None:
        for record in results:
            records.append(record)
            if progress and (len(records) % n == 0 or len(records) == len(tasks)):
                rate = len(records) / max(1e-9, time.time() - t0)
                print(
                    f"\r  {len(records)}/{len(tasks)} games ({rate:.1f} games/s)",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )

    if use_ray:
        collect(_ray_results(tasks, address))
    elif workers <= 1:
        collect(map(_play_task, tasks))
    else:
        # spawn: the same start method on every OS, and no copy of the parent's state
        chunk = max(1, min(25, math.ceil(len(tasks) / (4 * workers))))
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            collect(pool.map(_play_task, tasks, chunksize=chunk))  # map keeps task order
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


def seat_balance(n: int, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """How evenly the entries met each seat and each other: ``balanced`` is True when every
    entry sat in every seat equally often and, for every pair of entries, every relative
    position (the other one sits 1, 2, ... seats after it) occurred equally often; ``orders``
    counts the distinct cyclic orders played (of ``(n-1)!``)."""
    seats = [[0] * n for _ in range(n)]  # [entry][seat]
    relative = [[[0] * n for _ in range(n)] for _ in range(n)]  # [entry][other][offset]
    orders = set()
    for rec in records:
        entry_seat = {e: s for s, e in enumerate(rec["seat_entry"])}
        first = entry_seat[0]
        orders.add(tuple(rec["seat_entry"][(first + k) % n] for k in range(n)))
        for e, s in entry_seat.items():
            seats[e][s] += 1
            for other, t in entry_seat.items():
                if other != e:
                    relative[e][other][(t - s) % n] += 1
    even_seats = all(len(set(row)) == 1 for row in seats)
    even_relative = all(
        len({relative[e][o][k] for k in range(1, n)}) == 1
        for e in range(n)
        for o in range(n)
        if o != e
    )
    return {
        "balanced": bool(records) and even_seats and even_relative,
        "orders": len(orders),
        "of": math.factorial(n - 1),
        "games_per_cycle": n * math.factorial(n - 1),
    }


def summarize(names: Sequence[str], records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Aggregate per-game records into the per-entry figures, the per-seat win rates over all
    entries (``seats``) and the seat-order balance (:func:`seat_balance`)."""
    n = len(names)
    labels = _labels(names)
    sums = [dict(games=0, wins=0, score=0.0) for _ in range(n)]
    by_seat = [[0, 0] for _ in range(n)]  # [seat]: [games, wins] over all entries
    entry_seat = [[[0, 0] for _ in range(n)] for _ in range(n)]  # [entry][seat]: [games, wins]
    totals = [dict() for _ in range(n)]
    for rec in records:
        for seat, entry in enumerate(rec["seat_entry"]):
            s = sums[entry]
            won = int(rec["winner"] == seat)
            s["games"] += 1
            s["wins"] += won
            s["score"] += rec["scores"][seat]
            by_seat[seat][0] += 1
            by_seat[seat][1] += won
            entry_seat[entry][seat][0] += 1
            entry_seat[entry][seat][1] += won
            for key, value in rec["stats"][seat].items():
                totals[entry][key] = totals[entry].get(key, 0) + value
    # a text agent's counters (agents.driver.text_counters), without their prefix
    texts = [
        {k[len(TEXT_PREFIX) :]: v for k, v in t.items() if k.startswith(TEXT_PREFIX)} or None
        for t in totals
    ]
    system, ratings = _ratings(names, records)
    # per game: an entry's Safe tech minus the mean of the other seats' in that game (paired)
    safe_diffs: list[list[float]] = [[] for _ in range(n)]
    for rec in records:
        techs = [st.get("safe_tech", 0) for st in rec["stats"]]
        for seat, entry in enumerate(rec["seat_entry"]):
            safe_diffs[entry].append(techs[seat] - (sum(techs) - techs[seat]) / (len(techs) - 1))
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
                "revealed_rate": _ratio(t.get("bluffs_revealed", 0), t.get("bluffs_played", 0)),
                "challenge_precision": _ratio(
                    t.get("challenges_correct", 0), t.get("challenges_made", 0)
                ),
                "challenge_recall": _ratio(
                    t.get("challenges_correct", 0), t.get("rival_bluffs", 0)
                ),
                "challenges_per_game": _ratio(t.get("challenges_made", 0), games),
                # text agents only (None for the others): invalid answers / real answers (a
                # failed request is no answer), kept apart from the win rate (an agent may rank
                # well on rivals' format errors)
                "text_counters": texts[e],
                "invalid_answer_rate": invalid_answer_rate(texts[e]),
                "mean_safe_tech": _ratio(t.get("safe_tech", 0), games),
                "mean_marks_matched": _ratio(t.get("marks_matched", 0), games),
                "safe_tech_diff": mean_interval(safe_diffs[e]),
                "mean_reputation": _ratio(t.get("reputation", 0), games),
                "mean_granuja_tech": _ratio(t.get("granuja_tech", 0), games),
                "win_rate_by_seat": [_ratio(w, g) for g, w in entry_seat[e]],
                "totals": t,
            }
        )
    seats = []
    for seat, (games, wins) in enumerate(by_seat):
        low, high = wilson_interval(wins, games)
        seats.append(
            {
                "seat": seat,
                "games": games,
                "wins": wins,
                "win_rate": _ratio(wins, games),
                "wilson_low": low,
                "wilson_high": high,
            }
        )
    return {
        "rating_system": system,
        "entries": rows,
        "seats": seats,
        "seat_order": seat_balance(n, records),
    }


def interval_text(row: dict[str, Any]) -> str:
    """A rated row's Wilson 95% interval in percent, as ``[50.7, 55.0]``."""
    return f"[{100 * row['wilson_low']:.1f}, {100 * row['wilson_high']:.1f}]"


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
        ci = interval_text(r)
        flag = "+" if r["above_baseline"] else "-" if r["below_baseline"] else " "
        lines.append(
            f"{r['label']:<14}{r['games']:>7}{r['wins']:>7}{_fmt(r['win_rate'], True):>8}"
            f"{ci:>16}{flag}{r['mean_score']:>8.2f}{r['rating']:>8.2f}"
            f"{_fmt(r['bluff_rate'], True):>8}{_fmt(r['caught_rate'], True):>9}"
            f"{_fmt(r['challenge_precision'], True):>8}{_fmt(r['challenge_recall'], True):>9}"
            f"{_fmt(r['mean_safe_tech']):>7}{_fmt(r['mean_marks_matched']):>7}"
        )
    texts = [r for r in rows if r["text_counters"] is not None]
    if texts:
        lines.append(
            "invalid answers (text agents, over real answers): "
            + ", ".join(f"{r['label']} {text_figures(r['text_counters'])}" for r in texts)
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
    seats = ", ".join(
        f"{s['seat']}: {_fmt(s['win_rate'], True)} {interval_text(s)}"
        for s in summary["seats"]
    )
    lines.append(f"win rate by seat (all entries): {seats}")
    lines.append(
        "Safe tech minus the other seats' mean in the same games (95% interval): "
        + ", ".join(
            f"{r['label']} {_fmt(d['mean'])} [{_fmt(d['low'])}, {_fmt(d['high'])}]"
            for r in rows
            for d in [r["safe_tech_diff"]]
        )
    )
    order = summary["seat_order"]
    if order["balanced"]:
        lines.append(
            "seat order: balanced (every entry sat in every seat and every position relative to "
            f"every other equally often; {order['orders']}/{order['of']} cyclic orders)"
        )
    else:
        lines.append(
            f"seat order: not balanced ({order['orders']}/{order['of']} cyclic orders; a "
            f"multiple of {order['games_per_cycle']} games balances it): read the seat effect "
            "in the win rates by seat"
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


def check_output_path(path: str | Path, flag: str) -> Path:
    """``path`` if a file can be written there (its folder exists and is writable, it is not a
    folder, an existing file is writable); ``ValueError`` naming ``flag`` otherwise."""
    path = Path(path)
    folder = path.parent
    if path.is_dir():
        raise ValueError(f"{flag} {str(path)!r} is a folder; give a file path")
    if not folder.is_dir():
        raise ValueError(f"{flag} {str(path)!r}: folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"{flag} {str(path)!r} is not writable")
    return path


def _check_output_dir(path: str | Path, flag: str) -> Path:
    """``path`` as a writable folder, created if missing; ``ValueError`` naming ``flag``."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file of that name, or a folder we may not create
        raise ValueError(f"{flag} {str(path)!r}: cannot use it as a folder ({exc.strerror})") from None
    if not os.access(path, os.W_OK):
        raise ValueError(f"{flag} {str(path)!r} is not writable")
    return path


def _main_by_role(
    parser: argparse.ArgumentParser, args: argparse.Namespace, names: list[str], argv: list[str] | None
) -> int:
    """``--game`` other than granujas: the ratings by role of :mod:`train.roles`."""
    granujas_only = {
        "--length": args.length is not None,
        "--strategy-cards": args.strategy_cards,
        "--workers": args.workers != 1,
        "--ray": args.ray,
        "--address": args.address is not None,
        "--plot": args.plot_path is not None,
        "--save-games": args.save_games is not None,
    }
    given = [flag for flag, used in granujas_only.items() if used]
    if given:
        parser.error(f"{', '.join(given)}: granujas only, not for --game {args.game}")
    spec = game_registry.get(args.game)
    players = args.players if args.players is not None else len(names)
    if players not in spec.players:
        parser.error(f"--players must be in {spec.players.start}..{spec.players.stop - 1} for {args.game}")
    if not names or args.games < 1:
        parser.error("--agents must name an agent and --games be at least 1")
    try:
        if args.json_path:
            check_output_path(args.json_path, "--json")
    except ValueError as exc:
        parser.error(str(exc))
    command = "python -m train.tournament " + " ".join(sys.argv[1:] if argv is None else argv)
    try:
        roles.report(args.game, names, players, args.games, args.seed, args.json_path, command,
                     paired=args.paired)
    except (ValueError, ImportError) as exc:  # a bad agent, or a model without the [train] extra
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json_path:
        print(f"JSON written to {args.json_path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring); exit status 2 on bad arguments or entries."""
    parser = argparse.ArgumentParser(
        prog="python -m train.tournament",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--game",
        default=game_registry.DEFAULT_GAME,
        choices=game_registry.available(),
        help="the game (default granujas); a hidden-role game (bang-dice) is rated by role",
    )
    parser.add_argument(
        "--agents",
        required=True,
        help="comma-separated entries, one per seat: bot names, shipped models, model paths or "
        "import paths module:attribute",
    )
    parser.add_argument(
        "--games", type=int, default=2000, help="games, rounded up to a multiple of N (default 2000)"
    )
    parser.add_argument(
        "--players", type=int, default=None, help="number of seats (default: len(--agents))"
    )
    parser.add_argument(
        "--length", default=None, choices=("short", "long"), help="game length (default short)"
    )
    parser.add_argument(
        "--strategy-cards", action="store_true", help="play with the optional Strategy cards rule"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the deal seeds and bot seeds (default 0)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes on this machine, one game per task (default 1); the results are "
        "the same for any count",
    )
    parser.add_argument(
        "--ray",
        action="store_true",
        help="play the games as Ray tasks: a local Ray instance, or the cluster at --address "
        "(the [rllib] extra); same results as --workers",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="with --ray: address of a running Ray cluster (e.g. auto, or HEAD_IP:6379 after "
        "`ray start --head` there)",
    )
    parser.add_argument(
        "--json", dest="json_path", default=None, help="write the figures as JSON to this file"
    )
    parser.add_argument("--plot", dest="plot_path", default=None, help="write a PNG plot here")
    parser.add_argument(
        "--save-games",
        metavar="DIR",
        default=None,
        help="write every game as a game record in DIR (created if missing)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.add_argument(
        "--paired",
        metavar="AGENT",
        default=None,
        help="games rated by role (bang-dice) only: also play every deal with AGENT at every seat "
        "and rate each other agent against it in the same seat of the same deal",
    )
    args = parser.parse_args(argv)

    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    if args.game != game_registry.DEFAULT_GAME:
        return _main_by_role(parser, args, names, argv)
    if args.paired is not None:
        parser.error(f"--paired: games rated by role only, not for --game {args.game}")
    args.length = args.length or "short"
    players = args.players if args.players is not None else len(names)
    if len(names) != players:
        parser.error(f"--agents lists {len(names)} bots but --players is {players}")
    if not 2 <= players <= 4:
        parser.error("--players must be 2, 3 or 4")
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    if args.address and not args.ray:
        parser.error("--address names a Ray cluster: use it with --ray")
    if args.ray and importlib.util.find_spec("ray") is None:
        print(f"error: {RAY_MISSING}", file=sys.stderr)
        return 2
    try:  # output paths before the first game: a typo must not cost a long run
        if args.json_path:
            check_output_path(args.json_path, "--json")
        if args.plot_path:
            check_output_path(args.plot_path, "--plot")
        if args.save_games:
            _check_output_dir(args.save_games, "--save-games")
    except ValueError as exc:
        parser.error(str(exc))
    t0 = time.time()
    try:
        records = run_tournament(
            names,
            args.games,
            length=args.length,
            strategy_cards=args.strategy_cards,
            seed=args.seed,
            workers=args.workers,
            use_ray=args.ray,
            address=args.address,
            progress=not args.quiet,
            save_games=args.save_games,
        )
    except (ValueError, ImportError) as exc:  # a bad entry, or a model without the [train] extra
        print(f"error: {exc}", file=sys.stderr)
        return 2
    wall = time.time() - t0
    summary = summarize(names, records)
    title = (
        f"{players} players, {args.length}{', Strategy cards' if args.strategy_cards else ''}, "
        f"{len(records)} games ({len(records) // players} deals x {players} rotations), "
        f"seed {args.seed}"
    )
    print(title)
    print(format_table(summary))
    where = f"Ray{' at ' + args.address if args.address else ''}" if args.ray else (
        f"{args.workers} worker(s)"
    )
    print(f"wall time {wall:.1f} s ({len(records) / max(wall, 1e-9):.1f} games/s, {where})")
    if args.save_games:
        print(f"{len(records)} game records written to {args.save_games}")
    if args.plot_path:
        if plot(summary, args.plot_path, title):
            print(f"plot written to {args.plot_path}")
    if args.json_path:
        payload = [
            dict(row)
            | {
                "players": players,
                "length": args.length,
                "strategy_cards": args.strategy_cards,
                "seed": args.seed,
                "rating_system": summary["rating_system"],
                "total_games": len(records),
                "seat_win_rates": [s["win_rate"] for s in summary["seats"]],
                "seat_order_balanced": summary["seat_order"]["balanced"],
            }
            for row in summary["entries"]
        ]
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump(payload, handle, indent=2)
        print(f"JSON written to {args.json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
