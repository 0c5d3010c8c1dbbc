"""Gauntlet styles: scripted reference opponents, each the heuristic with one habit changed.

Every style is a :class:`agents.heuristic.HeuristicAgent` that overrides the handlers of the one
habit it stands for and plays every other decision exactly like the heuristic, so a gauntlet
(``python -m train.gauntlet``) measures how a bot copes with that habit alone. They read only the
semantic seat view, like the heuristic. Registered in :mod:`agents.registry` as ``style_<name>``.

Challenge windows (``SeatView.window``, from the engine's turn stage): 1 right after the Plan, 2
after the step-2 abilities, 3 after the hire step (the turn's last window); 0 when a card effect
asks outside the turn's windows (treated as the last one, like the heuristic does). A seat is
asked at a window only while it has a free henchman and has no henchman on that card yet.

=====================  ===========================================================================
style                  habit (everything else: the heuristic)
=====================  ===========================================================================
always_challenge       challenges every rival card it can, at the first window it is asked
never_challenge        never challenges
always_bluff           never plays a card in its own slot when another free slot is open; takes
                       the free slot the heuristic values most, with a card that does not match it
honest                 plays every card in its own slot when it can (agents.honest's Plan rule),
                       bluffs only when forced
challenge_after_plan   decides as the heuristic does, but in the first window (right after the
                       Plan, before the turn's abilities); never later
challenge_last_window  challenges every rival card it can, but only at the last window of the turn
                       (after the abilities and the hire: the turn's effects cannot touch its
                       henchmen)
first_card_of_day      challenges each rival's first card of every day (the full bot bluffs ~60%
                       of those); other cards as the heuristic
random_challenge       challenges each card it is asked about with probability 1/2 (own seeded
                       random stream): unreadable, no pattern to learn
hoarder                never hires a Granuja: always the Sheriff's Office (+2 $, bail or, on the
                       last day, the 12 $ bribe for any Safe), saving money for Safes
=====================  ===========================================================================
"""

from __future__ import annotations

from typing import Any

from agents.heuristic import HeuristicAgent
from agents.honest import HonestAgent
from granujas_env.engine import actions as A

__all__ = [
    "AlwaysChallenge",
    "NeverChallenge",
    "AlwaysBluff",
    "HonestPlan",
    "ChallengeAfterPlan",
    "ChallengeLastWindow",
    "FirstCardOfDay",
    "RandomChallenge",
    "Hoarder",
    "STYLES",
]

FIRST_WINDOW = 1
LAST_WINDOWS = (0, 3)  # 0: asked outside the turn's windows (a card effect), read as the last


class _AtLastWindow:
    """A seat view that reads as the turn's last challenge window (every other field forwarded),
    so the heuristic's challenge judgement, which it makes only at the last window, can be made
    at another window."""

    __slots__ = ("_view",)
    window = 3

    def __init__(self, view: Any) -> None:
        self._view = view

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)


class AlwaysChallenge(HeuristicAgent):
    """Challenges every rival card it can, at the first window it is asked (so its henchmen are
    spent on the first cards of each day); everything else as the heuristic."""

    name = "style_always_challenge"

    def _on_challenge(self, ctx, legal):
        return A.CONFIRM


class NeverChallenge(HeuristicAgent):
    """Never challenges (bluffs cost nothing against it); everything else as the heuristic."""

    name = "style_never_challenge"

    def _on_challenge(self, ctx, legal):
        return A.PASS


class AlwaysBluff(HeuristicAgent):
    """Never plays a card in its own slot when it can avoid it: each Plan takes the free slot the
    heuristic values most (:meth:`_Ctx.slot_parts`) among those some hand card does not match,
    with the lowest such card; a 0 is never shown face up. Everything else as the heuristic."""

    name = "style_always_bluff"

    def _bluff_slot(self, ctx, cards) -> tuple[int, int] | None:
        """(card, slot) of the most valuable bluff with one of ``cards``, None if every pairing
        of those cards with the free slots is honest."""
        options = [
            (sum(ctx.slot_parts(slot)), -card, card, slot)
            for slot in ctx.view.free_slots
            for card in cards
            if card != slot
        ]
        if not options:
            return None
        _, _, card, slot = max(options)
        return card, slot

    def _on_plan_card(self, ctx, legal):
        choice = self._bluff_slot(ctx, [a - A.CARD for a in legal])
        if choice is None:
            return super()._on_plan_card(ctx, legal)
        self._plan_card, self._plan_slot = choice
        return A.CARD + choice[0]

    def _on_plan_slot(self, ctx, legal):
        choice = self._bluff_slot(ctx, [ctx.view.context["card"]])
        if choice is None or A.SLOT + choice[1] not in legal:
            return super()._on_plan_slot(ctx, legal)
        return A.SLOT + choice[1]


class HonestPlan(HeuristicAgent):
    """Plans like :class:`agents.honest.HonestAgent` (every card in its own slot when that slot
    is free, a forced bluff only with a card that matches no free slot); challenges, Safes, hires
    and everything else as the heuristic."""

    name = "style_honest"

    def __init__(self, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(seed, **kwargs)
        self._honest = HonestAgent(seed)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._honest.reset(seed)

    def _on_plan_card(self, ctx, legal):
        return self._honest._on_plan_card(ctx.view, legal)

    def _on_plan_slot(self, ctx, legal):
        return self._honest._on_plan_slot(ctx.view, legal)


class ChallengeAfterPlan(HeuristicAgent):
    """Challenges only in the first window of a turn (right after the Plan, before the turn's
    abilities and hire), with the heuristic's judgement (which the heuristic itself makes at the
    last window); passes at the later windows. Everything else as the heuristic."""

    name = "style_challenge_after_plan"

    def _on_challenge(self, ctx, legal):
        if ctx.view.window != FIRST_WINDOW:
            return A.PASS
        return super()._on_challenge(type(ctx)(self, _AtLastWindow(ctx.view)), legal)


class ChallengeLastWindow(HeuristicAgent):
    """Challenges every rival card it can, but only at the last window of a turn (after the
    abilities and the hire step); passes earlier. Everything else as the heuristic."""

    name = "style_challenge_last_window"

    def _on_challenge(self, ctx, legal):
        return A.CONFIRM if ctx.view.window in LAST_WINDOWS else A.PASS


class FirstCardOfDay(HeuristicAgent):
    """Challenges the first card each rival plays in a day, every time it can (the shipped full
    bot bluffs on ~60% of those, where the heuristic rarely looks); any other card with the
    heuristic's judgement. Everything else as the heuristic."""

    name = "style_first_card_of_day"

    def _on_challenge(self, ctx, legal):
        view = ctx.view
        if len(view.players[view.current_player].played) == 1:
            return A.CONFIRM
        return super()._on_challenge(ctx, legal)


class RandomChallenge(HeuristicAgent):
    """Challenges each card it is asked about with probability 1/2, from its own seeded random
    stream (``reset(seed)`` replays it); everything else as the heuristic."""

    name = "style_random_challenge"

    def _on_challenge(self, ctx, legal):
        return A.CONFIRM if self._rng.random() < 0.5 else A.PASS


class Hoarder(HeuristicAgent):
    """Never hires a Granuja: every hire step goes to the Sheriff's Office, whose option (+2 $,
    bail, or on the last day the 12 $ bribe for any Safe) the heuristic picks. Everything else as
    the heuristic."""

    name = "style_hoarder"

    def _on_hire(self, ctx, legal):
        if A.SHERIFF in legal:
            return A.SHERIFF
        return super()._on_hire(ctx, legal)


#: Registered name -> style class, in the gauntlet's order.
STYLES: dict[str, type[HeuristicAgent]] = {
    cls.name: cls
    for cls in (
        AlwaysChallenge,
        NeverChallenge,
        AlwaysBluff,
        HonestPlan,
        ChallengeAfterPlan,
        ChallengeLastWindow,
        FirstCardOfDay,
        RandomChallenge,
        Hoarder,
    )
}
