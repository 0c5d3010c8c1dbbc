"""Fit the safecracker's Mark model from games between heuristics.

    python -m train.safe_marks --games 700 --seed 50000 --players 2,3,4 --card PATH

For each number of players in ``--players``, plays ``--games`` games between heuristics (short
game, deal seeds ``seed``, ``seed+1``, ...). At every peek and steal decision of every seat it records, for each Safe that seat has not
seen, the public record of the Safe (:func:`agents.safecracker.mark_records`: where it is, the
rivals' Marks on it) together with its true value, which only this offline fit reads. Per
location and state it then counts, for each value: how often a Safe of that value is in that state,
how often it carries no rival Mark, and how many rival Marks of each (face, flag) it carries; the
rates, smoothed towards the rate over all values (``--smoothing`` pseudo-records), per number of
players, are the :class:`agents.safecracker.MarkModel` written under ``"mark_model"`` into the JSON file ``--card``
(a model card: its other keys are kept; the file is created if missing), with how it was fitted
under ``"mark_model_fit"``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from agents.driver import play_game
from agents.heuristic import HeuristicAgent
from agents.safecracker import STATES, MarkModel, mark_records
from granujas_env.cli import run_main
from granujas_env.engine.game import Game

__all__ = ["collect", "fit", "main", "rounded"]

#: (players, location values, state, rival Marks as (face, flag), true value) of one unseen Safe.
Row = tuple[int, tuple[int, ...], str, tuple[tuple[int, bool], ...], int]


class _Recorder(HeuristicAgent):
    """The heuristic, writing down at its peek and steal decisions the record and true value of
    every Safe it has not seen (the true value: the offline fit's label, never a decision's input)."""

    needs_game = True

    def __init__(self, rows: list[Row], seed: int | None = None) -> None:
        super().__init__(seed)
        self.rows = rows

    def act(
        self,
        observation: Mapping[str, np.ndarray],
        view: object | None = None,
        game: Game | None = None,
    ) -> int:
        if (
            view is not None
            and game is not None
            and view.decision in ("peek_target", "steal_target")
        ):
            for sid, (state, marks) in mark_records(view).items():
                safe = view.safes[sid]
                if safe.value is None:
                    values = view.location_values[safe.location]
                    faces = tuple((face, flag) for _, face, flag in marks)
                    row = (view.num_players, values, state, faces, game.safes[sid].value)
                    self.rows.append(row)
        return super().act(observation, view=view)


def collect(games: int, seed: int, players: int = 4, length: str = "short") -> list[Row]:
    """The rows of ``games`` games between heuristics on deal seeds ``seed``, ``seed + 1``, ..."""
    rows: list[Row] = []
    for g in range(games):
        bots = [_Recorder(rows, seed=seed * 10 + g * players + s) for s in range(players)]
        play_game({"num_players": players, "game_length": length}, bots, seed=seed + g)
    return rows


def _smooth(count: float, total: float, pooled: float, smoothing: float) -> float:
    """``count / total`` pulled towards ``pooled`` by ``smoothing`` pseudo-records (``pooled``
    with no records at all)."""
    if total + smoothing <= 0:
        return pooled
    return (count + smoothing * pooled) / (total + smoothing)


def fit(rows: Iterable[Row], smoothing: float = 20.0) -> MarkModel:
    """The Mark model of ``rows`` (see the module docstring)."""
    by_location: dict[tuple[int, tuple[int, ...]], list[Row]] = defaultdict(list)
    for row in rows:
        by_location[(row[0], tuple(row[1]))].append(row)
    locations = []
    for (players, values), loc_rows in sorted(by_location.items()):
        distinct = sorted(set(values))
        n_value = Counter(r[4] for r in loc_rows)
        states = {}
        for state in STATES:
            here = [r for r in loc_rows if r[2] == state]
            n = Counter(r[4] for r in here)
            empty = Counter(r[4] for r in here if not r[3])
            marks: dict[str, Counter] = defaultdict(Counter)
            for _, _, _, faces, v in here:
                for face, flag in faces:
                    marks[f"{face}:{int(flag)}"][v] += 1
            total = max(1, len(here))
            p_pooled = len(here) / max(1, len(loc_rows))
            empty_pooled = sum(empty.values()) / total
            pooled = {key: sum(c.values()) / total for key, c in sorted(marks.items())}
            states[state] = {
                "rows": len(here),
                "p": [_smooth(n[v], n_value[v], p_pooled, smoothing) for v in distinct],
                "empty": [_smooth(empty[v], n[v], empty_pooled, smoothing) for v in distinct],
                "marks": {
                    key: [_smooth(c[v], n[v], pooled[key], smoothing) for v in distinct]
                    for key, c in sorted(marks.items())
                },
                "pooled": pooled,
            }
        locations.append(
            {"players": players, "values": list(values), "distinct": distinct, "states": states}
        )
    return MarkModel(locations)


def rounded(obj):
    """``obj`` (JSON data) with every float kept to 4 significant digits, as the card stores it."""
    if isinstance(obj, float):
        return float(f"{obj:.4g}")  # significant digits: a rare rate stays > 0
    if isinstance(obj, dict):
        return {k: rounded(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [rounded(v) for v in obj]
    return obj


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m train.safe_marks",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--games", type=int, default=700, help="games between heuristics (default 700)")
    p.add_argument("--seed", type=int, default=50_000, help="first deal seed (default 50000)")
    p.add_argument(
        "--players", default="2,3,4", help="numbers of players, comma-separated (default 2,3,4)"
    )
    p.add_argument("--smoothing", type=float, default=20.0, help="pseudo-records (default 20)")
    p.add_argument("--card", required=True, help="model card JSON to write the model into")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error(f"--games must be at least 1, got {args.games}")
    try:
        players = sorted({int(n) for n in args.players.split(",")})
    except ValueError:
        players = []
    if not players or not set(players) <= {2, 3, 4}:
        p.error(f"--players must be numbers of players among 2, 3, 4, got {args.players!r}")
    card_path = Path(args.card)
    card = json.loads(card_path.read_text()) if card_path.is_file() else {}
    rows = [row for n in players for row in collect(args.games, args.seed, n)]
    model = fit(rows, args.smoothing)
    card["mark_model"] = rounded(model.to_json())
    card["mark_model_fit"] = {
        "command": "python -m train.safe_marks " + " ".join(sys.argv[1:] if argv is None else argv),
        "games": args.games,
        "seed": args.seed,
        "players": players,
        "smoothing": args.smoothing,
        "rows": len(rows),
    }
    card_path.parent.mkdir(parents=True, exist_ok=True)
    card_path.write_text(json.dumps(card, indent=1) + "\n")
    print(f"{len(rows)} records from {args.games} games -> {card_path}")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
