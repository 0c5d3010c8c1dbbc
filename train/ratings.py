"""Rating statistics shared by the rating tools (:mod:`train.tournament`, :mod:`train.roles`):
the Wilson interval of a win rate, the normal interval of a mean, of a difference of rates and
of a paired difference, and a text agent's invalid-answer rate (counters of
:func:`agents.driver.text_counters`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = [
    "Z95",
    "wilson_interval",
    "mean_interval",
    "difference_interval",
    "paired_difference",
    "add_counters",
    "invalid_answer_rate",
    "text_figures",
]

#: the two-sided 95% normal quantile
Z95 = 1.959963984540054


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
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


def mean_interval(values: Sequence[float], z: float = Z95) -> dict[str, float | None]:
    """Mean with its normal 95% interval, mean +- z sd / sqrt(n) (sample sd); None when empty."""
    count = len(values)
    if not count:
        return {"mean": None, "low": None, "high": None}
    mean = sum(values) / count
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (count - 1)) if count > 1 else 0.0
    half = z * sd / math.sqrt(count)
    return {"mean": mean, "low": mean - half, "high": mean + half}


def difference_interval(
    wins_a: int, games_a: int, wins_b: int, games_b: int, z: float = Z95
) -> dict[str, float | list[float] | None]:
    """The difference of two independent win rates in points (a - b) with its normal 95%
    interval: ``{"points", "ci95": [low, high]}``, both None when either side has no games."""
    if games_a <= 0 or games_b <= 0:
        return {"points": None, "ci95": None}
    pa, pb = wins_a / games_a, wins_b / games_b
    half = z * math.sqrt(pa * (1 - pa) / games_a + pb * (1 - pb) / games_b)
    return {"points": 100 * (pa - pb), "ci95": [100 * (pa - pb - half), 100 * (pa - pb + half)]}


def paired_difference(games: Sequence[Sequence[tuple[bool, bool]]], z: float = Z95) -> dict[str, object]:
    """The mean of paired outcomes a - b in points with its normal 95% interval; ``games`` holds,
    per game, the (a won, b won) pairs of the seats compared in it. The interval treats games,
    not seats, as independent (two seats of one game share its dice and its other players):
    ``{"points", "ci95", "seats", "rate", "baseline_rate"}``, None figures when no seat."""
    seats = sum(len(pairs) for pairs in games)
    if not seats:
        return {"points": None, "ci95": None, "seats": 0, "rate": None, "baseline_rate": None}
    wins_a = sum(a for pairs in games for a, _ in pairs)
    wins_b = sum(b for pairs in games for _, b in pairs)
    mean = (wins_a - wins_b) / seats
    used = [pairs for pairs in games if pairs]
    spread = sum((sum(a - b for a, b in pairs) - mean * len(pairs)) ** 2 for pairs in used)
    half = z * math.sqrt(spread * len(used) / max(1, len(used) - 1)) / seats
    return {"points": 100 * mean, "ci95": [100 * (mean - half), 100 * (mean + half)], "seats": seats,
            "rate": wins_a / seats, "baseline_rate": wins_b / seats}


def add_counters(total: dict[str, int] | None, counts: Mapping[str, int] | None) -> dict[str, int] | None:
    """``total`` plus a text agent's ``counts`` name by name (None + None is None: not a text agent)."""
    if counts is None:
        return total
    total = dict(total or {})
    for name, value in counts.items():
        total[name] = total.get(name, 0) + value
    return total


def invalid_answer_rate(counts: Mapping[str, int] | None) -> float | None:
    """invalid_answers / answers (a failed request is no answer); None for a bot that does not
    answer in text (``counts`` None) or that gave no answer."""
    if counts is None or not counts.get("answers", 0):
        return None
    return counts.get("invalid_answers", 0) / counts["answers"]


def text_figures(counts: Mapping[str, int]) -> str:
    """A text agent's invalid rate and counters, as ``10.0% (3/30 answers; calls 32, ...)``."""
    rate = invalid_answer_rate(counts)
    rest = ", ".join(f"{k} {v}" for k, v in counts.items() if k not in ("answers", "invalid_answers"))
    return (
        f"{'-' if rate is None else f'{100 * rate:.1f}%'} "
        f"({counts.get('invalid_answers', 0)}/{counts.get('answers', 0)} answers"
        + (f"; {rest})" if rest else ")")
    )
