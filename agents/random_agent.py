"""Uniform random legal play: the baseline every bot must beat."""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np

from agents.base import Agent, legal_actions

__all__ = ["RandomAgent"]


class RandomAgent(Agent):
    """Picks uniformly among the legal action ids, with its own ``random.Random``.

    The same seed gives the same choices for the same masks; ``reset(seed)`` reseeds,
    ``reset()`` keeps the stream going (successive games differ but stay reproducible).
    """

    name = "random"
    wants_view = False

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
            self._rng = random.Random(seed)

    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        legal = legal_actions(observation)
        return int(legal[self._rng.randrange(legal.size)])

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"
