"""HonestAgent: plays every card in its own slot when it can, bluffs only when forced, never
challenges, and answers every other decision with a simple fixed rule.

It is the "no bluffing, no bluff-calling" baseline: what a rules-abiding newcomer does. It needs
the semantic view (:func:`granujas_env.view.seat_view`) to know its hand and the Safes it saw.

Rules, by decision kind:

- Plan: a hand card whose slot is free is played there (lowest such value first, so the leader's
  peek (A/2) comes before the money (3/4) and the steal (5)). When no card matches a free slot
  (the 0, or a card whose slot is already used today), the lowest card is played into the best
  free slot by the fixed order 5, 4, 3, A, 2, 6.
- Challenge: always pass.
- Abilities, responses, timing texts, use-twice, on-hire: always used (the leader first).
- End-of-day order (it played the last turn): itself first, else the nearest player clockwise.
- Hire: the affordable Granuja with the most tech icons (then the cheapest); the Sheriff's Office
  (sell information, or bribe the sheriff when that is possible) if none is affordable.
- Place: the leftmost empty sheet position; a full sheet discards the new Granuja. No rearranging.
- Safes: peek at an unseen Safe of the location with the highest mean value; mark it with its true
  value when a matching Mark is left; steal the best Safe it has seen, else the best location's
  first Safe; abandon the lowest Safe it knows.
- Anything else (new decision kinds): the first legal action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np

from agents.base import Agent, legal_ids
from granujas_env.engine import actions as A

__all__ = ["HonestAgent", "require_view"]

BLUFF_SLOT_ORDER = (5, 4, 3, 1, 2, 6)


def require_view(agent: Agent, view: object | None) -> None:
    """Raise a clear error when a bot that needs the semantic view is called without one."""
    if view is None:
        raise ValueError(
            f"{type(agent).__name__} needs the semantic per-seat view: call "
            "agent.act(observation, view=granujas_env.view.seat_view(game, seat)) "
            "(agents.driver.play_game does this for you)"
        )


def board_action_of(view, sid: int) -> int:
    safe = view.safes[sid]
    return A.BOARD_SAFE + safe.location * A.BOARD_POSITIONS + safe.board_pos


def safe_of_board_action(view, action: int) -> int | None:
    loc, pos = divmod(action - A.BOARD_SAFE, A.BOARD_POSITIONS)
    if 0 <= loc < len(view.board) and 0 <= pos < len(view.board[loc]):
        return view.board[loc][pos]
    return None


class HonestAgent(Agent):
    name = "honest"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._slot: int | None = None
        self._on_hire_seen: set[tuple] = set()

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
            self._rng = random.Random(seed)
        self._slot = None
        self._on_hire_seen = set()

    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        require_view(self, view)
        legal = legal_ids(observation)
        kind = view.decision
        handler = getattr(self, f"_on_{kind}", None)
        choice = handler(view, legal) if handler is not None else None
        if choice is None or choice not in legal:
            choice = legal[0]
        return int(choice)

    # ----------------------------------------------------------------- plan
    def _on_plan_card(self, view, legal):
        free = view.free_slots
        hand = sorted(a - A.CARD for a in legal)
        honest = [v for v in hand if v in free]
        if honest:
            self._slot = honest[0]
            return A.CARD + honest[0]
        card = hand[0]
        self._slot = next((s for s in BLUFF_SLOT_ORDER if s in free), None)
        return A.CARD + card

    def _on_plan_slot(self, view, legal):
        card = view.context["card"]
        for slot in (card, self._slot, *BLUFF_SLOT_ORDER):
            if slot is not None and A.SLOT + slot in legal:
                return A.SLOT + slot
        return None

    # ----------------------------------------------------------------- windows and abilities
    def _on_challenge(self, view, legal):
        return A.PASS

    def _use_first(self, view, legal):
        if A.LEADER in legal:
            return A.LEADER
        others = [a for a in legal if a != A.PASS]
        return others[0] if others else A.PASS

    _on_ability = _use_first
    _on_start_ability = _use_first
    _on_response = _use_first
    _on_trigger = _use_first

    def _on_use_again(self, view, legal):
        return A.CONFIRM if A.CONFIRM in legal else A.PASS

    def _on_on_hire(self, view, legal):
        # once per Granuja and turn: an effect that re-hires the same Granuja must not loop
        key = (view.day, view.turn, (view.context or {}).get("uid"))
        if key in self._on_hire_seen:
            return A.PASS
        self._on_hire_seen.add(key)
        return A.CONFIRM if A.CONFIRM in legal else A.PASS

    # ----------------------------------------------------------------- hire
    def _on_hire(self, view, legal):
        options = [
            (g.tech, -g.cost, a)
            for a in legal
            if A.SALOON <= a < A.SALOON + 3 and (g := view.saloon[a - A.SALOON]) is not None
        ]
        if options:
            return max(options)[2]
        return A.SHERIFF

    def _on_sheriff_option(self, view, legal):
        if A.BRIBE_SHERIFF in legal:
            return A.BRIBE_SHERIFF
        return A.SELL_INFORMATION if A.SELL_INFORMATION in legal else legal[0]

    def _on_bail(self, view, legal):
        if A.SEAT in legal:
            return A.SEAT
        return A.PASS if A.PASS in legal else legal[0]

    def _on_place(self, view, legal):
        me = view.players[view.seat]
        empty = [A.SHEET + i for i, g in enumerate(me.sheet) if g is None and A.SHEET + i in legal]
        if empty:
            return empty[0]
        return A.DISCARD_NEW if A.DISCARD_NEW in legal else legal[0]

    def _on_rearrange(self, view, legal):
        return A.PASS

    def _on_first_player(self, view, legal):
        return A.SEAT if A.SEAT in legal else legal[0]

    def _on_end_of_day_order(self, view, legal):
        return legal[0]  # seat ids relative to itself: A.SEAT (itself) sorts first when legal

    # ----------------------------------------------------------------- Safes
    def _known_or_mean(self, view, sid: int) -> float:
        safe = view.safes[sid]
        if safe.value is not None:
            return float(safe.value)
        values = view.location_values[safe.location]
        return sum(values) / len(values) - 0.01

    def _on_peek_target(self, view, legal):
        best, best_key = None, None
        for a in legal:
            sid = safe_of_board_action(view, a)
            if sid is None:
                continue
            safe = view.safes[sid]
            values = view.location_values[safe.location]
            key = (safe.value is None, sum(values) / len(values), -a)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    def _on_steal_target(self, view, legal):
        scored = []
        for a in legal:
            sid = safe_of_board_action(view, a)
            if sid is not None:
                scored.append((self._known_or_mean(view, sid), -a, a))
        return max(scored)[2] if scored else None

    def _on_mark_face(self, view, legal):
        sid = view.context.get("safe")
        safe = view.safes.get(sid) if sid is not None else None
        if safe is not None and safe.value is not None and A.MARK_FACE + safe.value in legal:
            return A.MARK_FACE + safe.value
        return legal[0]

    def _on_mark_source(self, view, legal):
        return A.PASS if A.PASS in legal else legal[0]

    def _on_abandon(self, view, legal):
        me = view.players[view.seat]
        scored = []
        for a in legal:
            i = a - A.HELD_SAFE
            if 0 <= i < len(me.safes):
                scored.append((self._known_or_mean(view, me.safes[i]), a))
        return min(scored)[1] if scored else None

    def _on_unused_location(self, view, legal):
        return legal[0]

    def __repr__(self) -> str:
        return f"HonestAgent(seed={self.seed!r})"
