"""Filters that narrow the actions a trained model may choose, named by a model card's
``play_filter`` (see :class:`agents.policy.PolicyAgent`).

:class:`HonestAfterEarlyChallenges` (``"honest_after_early_challenges"``): `full`'s 3-4 player
Plan model learnt, against heuristics that challenge only in a day's last round, to bluff early
in the day, and a player who challenges those early cards catches them. Once any rival has placed
a henchman on a card played before the day's last round, on a day before the last (on the last
day a henchman left over is worth nothing, so everybody challenges freely and that says nothing
of the player), the model plays honestly before the last round for the rest of the game, while
such a rival has a free henchman to place: at the card step only the cards whose own slot is
free, at the slot step that slot. Where no honest play exists the model's choice is left whole.
It reads public information only (who placed henchmen on which of this day's cards, each
player's free henchmen). Measured in docs/bots.md ("The play filter", `full`'s weakness).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from agents.bluff_model import EarlyChallengers
from granujas_env.engine import actions as A

__all__ = ["FILTERS", "ActionFilter", "HonestAfterEarlyChallenges", "make_filter"]


class ActionFilter:
    """Narrows the legal ids of a model's decision; ``reset`` starts a game."""

    name = "filter"

    def reset(self) -> None:
        """Forget the game played so far."""

    def narrow(self, kind: str | None, legal: np.ndarray, view: Any) -> np.ndarray:
        """The ids of ``legal`` the model may choose among at a decision of ``kind``."""
        return legal


class HonestAfterEarlyChallenges(ActionFilter):
    """Honest Plans before the day's last round once a rival has challenged there (module doc)."""

    name = "honest_after_early_challenges"

    def __init__(self) -> None:
        self._early = EarlyChallengers()

    @property
    def challengers(self) -> set[int]:
        """Rivals seen placing a henchman before a day's last round, on a day before the last."""
        return self._early.seats

    def reset(self) -> None:
        self._early.reset()

    def narrow(self, kind: str | None, legal: np.ndarray, view: Any) -> np.ndarray:
        if kind not in ("plan_card", "plan_slot"):
            return legal
        if view is None:
            raise ValueError(
                f"the {self.name} filter reads the table: pass view=seat_view(game, seat)"
            )
        self._early.watch(view)
        if view.turn >= view.last_round_start or not any(
            view.players[s].free_henchmen for s in self.challengers
        ):
            return legal  # the last round, or no early challenger has a henchman left to place
        free = view.free_slots
        if kind == "plan_card":
            honest = [a for a in legal if a - A.CARD in free]
        else:
            card = view.context["card"]
            honest = [a for a in legal if a == A.SLOT + card] if card in free else []
        return np.asarray(honest, dtype=legal.dtype) if honest else legal


#: Filters by the name a model card's ``play_filter`` gives.
FILTERS: dict[str, Callable[[], ActionFilter]] = {
    HonestAfterEarlyChallenges.name: HonestAfterEarlyChallenges,
}


def make_filter(name: str) -> ActionFilter:
    """The filter ``name`` names (a key of :data:`FILTERS`)."""
    if name not in FILTERS:
        raise ValueError(f"unknown play filter {name!r}; known: {', '.join(sorted(FILTERS))}")
    return FILTERS[name]()
