"""Shared by the vectorised-env tests: comparing the infos two vec envs return."""

from __future__ import annotations

import numpy as np


def same_infos(a: list[dict], b: list[dict]) -> bool:
    """Whether two lists of step infos are equal, ``terminal_observation`` arrays included."""
    for x, y in zip(a, b, strict=True):
        x, y = dict(x), dict(y)
        if not np.array_equal(
            x.pop("terminal_observation", None), y.pop("terminal_observation", None)
        ):
            return False
        if x != y:
            return False
    return True
