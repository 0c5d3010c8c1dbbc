"""HeuristicAgent: a documented rule-based baseline that bluffs, calls bluffs and picks Safes.

It reads only the semantic per-seat view (:func:`granujas_env.view.seat_view`) and reasons about
decision kinds, action blocks and card *effects* (the verbs of the catalog), never card names, so
it keeps working as the catalog grows (an unknown verb is simply worth a small constant).

Everything is priced in **tech points** (the score unit):

- money: ``MONEY_VALUE`` per $ while this seat still has a hire step to spend it in, less as cash
  piles up (``MONEY_STEPS``: one hire per turn cannot spend it all), back to full value on the
  last day while saving for the sheriff's bribe, ~0 after its last hire step (it only breaks ties);
- reputation: the expected change of the reputation track's tech value (rules.reputation_tech),
  smoothed over the neighbouring squares because the final square is still uncertain;
- a Safe: its value plus the matching Marks on it, in expectation (see *Safes* below);
- a henchman: ``HENCHMAN_VALUE`` while there are later days to challenge in, 0 on the last day.

Plan (which card, which slot). Each free slot is worth what playing there triggers now: the leader
ability (peek and mark, money, steal) plus every sheet Granuja whose slot icon matches (modifiers
included), a second peek or steal in the same day counting less. All cards of the hand are played
during the day, so the bot solves the assignment of its whole hand to free slots (at most 360
injections) maximising slot value minus the expected bluff penalty. The penalty of a bluff is
P(challenged) x (the reputation lost + what the challengers gain); P(challenged) comes from the
rivals that still have a free henchman and how readily each one challenged so far
(:func:`agents.bluff_model.challenge_propensity`). An honest card in front of challenge-happy
rivals even earns a little (their henchmen go to jail). So it bluffs exactly when the slot's value
beats the expected penalty — typically a spare card into slot 5 to steal, or the 0 into the money
slots. Order within the day: honest cards first (the rivals' henchmen are spent or jailed on
them), peeks before money before steals (look before you take), bluffs last.

Challenges. The probability that the current card is a bluff comes from
:class:`agents.bluff_model.HandInference`: an exact posterior over the player's hand given every
declared slot (this day and earlier days, with the end-of-day recycling: a card played yesterday is
back in hand with probability 1/4, a card not played yesterday is surely in hand today) and every
revealed card (and, within the day, cards this seat peeked at, a 0 shown face up, a card shown on
top of the deck), mixed over player types (uniform, honest, mostly honest, steal-bluffer) weighted
by how well each explains that player's record. The bot waits for the last window of the turn (all
that the turn shows is seen; a challenge's timing changes nothing else) and challenges when
``b * R - (1 - b) * H`` (R: reputation won plus the rival's loss, H: the henchman jailed for the
later days) beats the value of keeping the henchman for a likelier bluff later this day: the
posterior also rates every rival's cards still to come today (an honest player's forced bluff —
its 0 — comes last, a random player's cards are all likely bluffs), and the henchman is kept when
the k-th best of those (k = free henchmen) is worth more. On the last day an unused henchman is
worth nothing, so it challenges freely as the day runs out. With ``early_challenge_rate`` r > 0
(default 0) it also challenges, with probability r, a rival's card the rule lets pass before the
day's last round while it holds two or more free henchmen: the rule alone never challenges early,
which a player who bluffs early and plays honestly last exploits. ``spot_check="early_challengers"``
limits those checks to the cards of rivals seen challenging early themselves
(:class:`agents.bluff_model.EarlyChallengers`): heuristics never are, adaptive players may be.

Safes. For every Safe it keeps a distribution over its value: the location's values minus the
values it has seen there, sharpened by the rivals' Marks weighted by how often each rival's Marks
proved true on Safes it has seen (its own Marks are truthful to itself: it knows those values). It
peeks where the information is worth most (expected improvement of its best steal), steals the
highest expected value plus matching Marks, abandons the lowest. Marking: a matching Mark on a
Safe it means to take (+1 for whoever holds it at the end), unless rivals have been seen to steal
Safes that carry high Marks — then it hides a good Safe under a low face; a Safe it will not take
gets a misleading high face (a lure), never a matching one (that would be +1 for a rival).

Hiring. Each Saloon Granuja is worth its tech icons (if it stays on the sheet) plus the expected
value of its ability over the turns left (slot icons weighted by how often the bot plays those
slots, start-of-turn every turn, on-hire once, modifiers included), minus its cost in money. The
Sheriff's Office is worth its best option: +2 $, bail for its own jailed henchmen while they still
have days to work, or — on the last day — bribing the sheriff (12 $) for the best Safe on the
board. Abilities and optional uses (responses, timing texts, use twice, on hire, the Strategy
card) are taken greedily when their effect is worth more than 0, money-only effects first so that
later costs can be paid; an on-hire ability is confirmed at most once per Granuja and turn.

Card-effect decisions (use another Granuja, hire from an effect, steal money, jail a rival's
henchman, free one, destroy henchmen, put a card back, peek at a poker card, mark blind, take an
unused Safe, ...) have small rules of their own; a decision kind it does not know is answered from
the action blocks (yes to an optional "confirm", the best board Safe, the strongest rival, else a
random non-pass action) and counted in ``unknown_decisions``.

Speed (it is the training opponent, asked ~5 times per learner step). With ``reuse=True`` (the
default) the bot keeps, from one decision to the next, what depends only on inputs that did not
change, each keyed by the inputs themselves so a kept value is always the one it would compute:
the value of each location's Safes (beliefs, worths, peek gains) while that location, its unused
pile and the trust in the owners of the Marks on its unseen Safes are unchanged; the public event
log as the bluff model reads it, extended with the new events only
(:class:`agents.bluff_model.PublicLog`); each player's posterior while the part of the view it
reads (:func:`agents.bluff_model.record_key`) is unchanged; and, shared by every bot of the
process, the bluff model's posteriors and day tables. It skips what cannot change an answer: a
lone use (the leader, a sheet Granuja) whose effect is surely worth more than passing (money
gained, a peek while a later steal is possible: :meth:`_Ctx.surely_positive`) is taken without
pricing it. Within a challenge window it computes each player's posterior once, weighs the wait
for a likelier bluff only when the challenge is worth something on its own (the wait is worth
>= 0, so it cannot turn a pass into a challenge), and stops reading the rivals' posteriors as
soon as those read make the wait worth more than the challenge (more cards to come can only raise
the wait's value). The Plan searches the sets of free slots rather than their orderings
(:func:`best_assignment`). ``reuse=False`` recomputes everything at every decision, prices every
use and reads every rival's posterior: ``tests/test_cheap_opponents.py`` and
``tests/test_heuristic_digest.py`` play both side by side and check every decision is the same.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from operator import mul
from typing import Any

import numpy as np

from agents.base import Agent, legal_ids
from agents.bluff_model import (
    EarlyChallengers,
    HandInference,
    PublicLog,
    challenge_propensity,
    public_record,
    record_key,
    shared_inference,
    today_evidence,
)
from agents.honest import require_view, safe_of_board_action
from granujas_env.engine import actions as A

__all__ = ["HeuristicAgent", "best_assignment"]

MONEY_VALUE = 0.3  # tech per $ while it can still be spent
TIEBREAK_MONEY = 0.01  # tech per $ once it can only break ties
# The more cash, the less the next $ buys: (cash from which, fraction of MONEY_VALUE).
MONEY_STEPS = ((8, 0.75), (12, 0.45), (18, 0.2))
HENCHMAN_VALUE = 0.6  # a free henchman for the days after this one
#: Whose cards the early spot checks look at (``spot_check``): every rival's, or only those of
#: rivals seen challenging before a day's last round (:class:`EarlyChallengers`).
SPOT_CHECK_TARGETS = ("everyone", "early_challengers")
KEEP_DISCOUNT = 0.8  # a later chance to challenge is uncertain (the card may not come as rated)
RIVAL_REP_WEIGHT = 0.3  # a rival's reputation point, relative to one's own
PEEK_BASE = 0.25  # a peek's value besides improving the steal (the Mark, knowing the board)
UNKNOWN_VERB_VALUE = 0.2
# How often (per day) the bot ends up playing each slot, for the value of slot-icon Granujas.
SLOT_USE = {1: 0.5, 2: 0.5, 3: 0.7, 4: 0.75, 5: 0.9, 6: 0.6}
# Stages of the engine's turn (what runs next) at which the turn's hire step is still ahead.
STAGES_BEFORE_HIRE = frozenset(
    {"start", "start_abilities", "plan", "after_plan", "abilities", "after_abilities", "step3"}
)
# Plan order within a day for cards of equal standing: peeks, money, steal, the rest.
SLOT_ORDER = {1: 0, 2: 1, 4: 2, 3: 3, 5: 4, 6: 5}
# Weights of the day's peek and steal values, best first: a second one in a day is worth less.
PEEK_WEIGHTS = (1.0, 0.6, 0.4, 0.3, 0.3, 0.3)
STEAL_WEIGHTS = (1.0, 0.4, 0.3, 0.3, 0.3, 0.3)
PLAN_TIE = 1e-9  # Plan values closer than this are equal
# Verbs _Ctx.effect_value prices at a constant > 0, and those priced per unit (x max(1, amount));
# _Ctx.surely_positive counts on both being > 0. Then the verbs that gain money: $ gained by a step
# of that amount (jail_rival_henchman: +0.3 besides; steal_money: +0.09 per $).
CONSTANT_VERB_VALUES = {
    "peek_unused_safe": 0.1,
    "destroy_henchmen": 0.4,
    "use_another": 0.8,
    "hire": 0.8,
}
PER_UNIT_VERB_VALUES = {"free_and_place_henchman": 0.3, "peek_poker_card": 0.3, "draw_poker": 0.3}
POSITIVE_VERBS = frozenset(CONSTANT_VERB_VALUES) | frozenset(PER_UNIT_VERB_VALUES)
MONEY_GAINS: dict[str, Callable[[int], int]] = {
    "gain_money": lambda amount: amount,
    "steal_money": lambda amount: amount,
    "jail_rival_henchman": lambda amount: amount,
    "gamble_deck_top": lambda amount: round((2 * amount + 5) / 7),
}
ANALYSES_KEPT = 4096  # the bluff model's analyses a bot keeps (by record), cleared when full


def _faces(marks) -> dict[int, int]:
    """Face -> how many of ``marks`` show it."""
    faces: dict[int, int] = {}
    for _, face in marks:
        faces[face] = faces.get(face, 0) + 1
    return faces


def _location_beliefs(
    seat: int,
    values: Sequence[int],
    here: Sequence,
    unused_known: Sequence[int],
    trust: Mapping[int, float],
) -> dict[int, dict[int, float]]:
    """Safe id -> {value: probability} for the Safes ``here`` of a location of ``values``: the
    values not seen (there, or among the unused ``unused_known``), sharpened by the rivals' Marks
    as far as ``trust`` believes them."""
    remaining: dict[int, int] = {}  # the values of this location not seen, in order
    for v in values:
        remaining[v] = remaining.get(v, 0) + 1
    for safe in here:
        if safe.value is not None:
            remaining[safe.value] = remaining.get(safe.value, 0) - 1
    for v in unused_known:
        remaining[v] = remaining.get(v, 0) - 1
    prior = {v: float(c) for v, c in remaining.items() if c > 0}
    if not prior:
        prior = {v: 1.0 for v in set(values)}
    norm = sum(prior.values())
    prior = {v: c / norm for v, c in prior.items()}
    spread = 1.0 / max(1, len(set(values)))
    out: dict[int, dict[int, float]] = {}
    for safe in here:
        if safe.value is not None:
            out[safe.id] = {safe.value: 1.0}
            continue
        post = dict(prior)
        for owner, face in safe.marks:
            if owner == seat:
                continue
            t = trust.get(owner, 0.0)
            for v in post:
                post[v] *= t * (v == face) + (1.0 - t) * spread
        norm = sum(post.values())
        out[safe.id] = {v: p / norm for v, p in post.items()} if norm > 0 else dict(prior)
    return out


class _SafeMemo:
    """What the Safes of one view are worth to its seat: its trust in each rival's Marks, the
    value of each location's Safes (:class:`_LocationMemo`), the best steal and what a peek would
    gain. A bot keeps it from one decision to the next while the Safes part of the view
    (:meth:`key_of`) is unchanged."""

    __slots__ = (
        "key",
        "trust",
        "locations",
        "by_safe",
        "beliefs",
        "worth",
        "board",
        "board_best",
        "best_peek_gain",
    )

    def __init__(self, key: tuple | None) -> None:
        self.key = key
        self.trust: dict[int, float] | None = None
        self.locations: list[_LocationMemo] | None = None
        self.by_safe: dict[int, _LocationMemo] = {}  # Safe id -> its location's memo
        self.beliefs: dict[int, dict[int, float]] | None = None
        self.worth: dict[int, float] = {}  # Safe id -> its worth (all locations', merged)
        self.board: list[int] | None = None
        self.board_best: tuple[float, int | None, float] | None = None
        self.best_peek_gain: dict[tuple, float] = {}  # by (held Safes, day, last day)

    @staticmethod
    def key_of(view) -> tuple:
        """Everything of ``view`` the Safe values read (the views' SafeViews are shared objects,
        so comparing two keys is mostly identity checks)."""
        return (
            view.seat,
            view.num_players,
            tuple(view.safes.values()),
            view.board,
            view.unused_known,
            view.rules,  # its location values (a lazy view's field costs a read)
        )


def _expected_worth(
    dist: Mapping[int, float], safe, extra_match: int = 0, faces: Mapping[int, int] | None = None
) -> float:
    """Expected tech of holding ``safe`` whose value is distributed as ``dist``: value + matching
    Marks on it (+ ``extra_match`` if the value is the one this seat knows); ``faces``: its Mark
    faces when already counted."""
    faces = _faces(safe.marks) if faces is None else faces
    return sum(
        p * (v + faces.get(v, 0) + (extra_match if v == safe.value else 0)) for v, p in dist.items()
    )


class _LocationMemo:
    """One location's Safes as a seat values them: the beliefs over each one's value, its worth
    (computed with the beliefs: nearly every decision that reads one Safe's worth reads them
    all), the Mark faces on each and the peek gains asked so far (by Safe and best other steal).
    They read only that location (its values, Safes and unused pile) and the trust in the Marks'
    owners (the key), so a bot keeps them while the rest of the table changes."""

    __slots__ = ("key", "beliefs", "worth", "faces", "gains")

    def __init__(self, key: tuple | None, beliefs: dict[int, dict[int, float]], here) -> None:
        self.key = key
        self.beliefs = beliefs
        self.faces = {safe.id: _faces(safe.marks) for safe in here}
        self.worth = {
            safe.id: _expected_worth(beliefs[safe.id], safe, faces=self.faces[safe.id])
            for safe in here
        }
        self.gains: dict[tuple[int, float], float] = {}


class _Once:
    """A value computed on first read and then kept in the instance: what
    ``functools.cached_property`` does, without the lock it takes on Python 3.11, a notable share
    of a cheap decision (a non-data descriptor: the kept value shadows it)."""

    __slots__ = ("func", "name")

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func = func
        self.name = func.__name__

    def __get__(self, ctx: Any, owner: type | None = None) -> Any:
        if ctx is None:
            return self
        value = ctx.__dict__[self.name] = self.func(ctx)
        return value


class _Ctx:
    """Values derived from one view, computed lazily and shared by the decision handlers."""

    # set in the instance when first computed (class defaults: a cheap decision builds nothing)
    _propensity: list[float] | None = None
    _hires_left: int | None = None
    _peek_value: float | None = None
    _held: list[float] | None = None

    def __init__(self, agent: HeuristicAgent, view) -> None:
        self.agent = agent
        self.view = view
        self.rules = view.rules

    @_Once
    def _keep(self) -> dict[int, float]:
        return {}  # id of a Granuja -> keep_value

    @_Once
    def _money_changes(self) -> dict[tuple[int, int], float]:
        return {}  # (delta, cash) -> value

    @_Once
    def me(self):
        """This seat's PlayerView (read on demand: a lazy view builds the players then)."""
        return self.view.players[self.view.seat]

    @_Once
    def safes(self) -> _SafeMemo:
        """What this view's Safes are worth (shared with earlier decisions that saw the same)."""
        return self.agent.safe_memo(self.view)

    # ------------------------------------------------------------ time
    @_Once
    def turns_left_today(self) -> int:
        """This seat's turns not yet started today (the current one excluded if it is ours)."""
        view = self.view
        played = len(self.me.played)
        started = played
        if view.current_player == view.seat and not any(
            c.turn == view.turn for c in self.me.played
        ):
            started += 1  # our turn, card not yet played
        return max(0, view.turns_per_day - started)

    @property
    def days_after_today(self) -> int:
        return self.view.last_day - self.view.day

    @_Once
    def turns_left_after_now(self) -> int:
        return self.turns_left_today + self.days_after_today * self.view.turns_per_day

    def hires_left(self) -> int:
        """Hire steps still ahead of this seat, the current turn's included if not yet past it."""
        view = self.view
        n = self.turns_left_after_now
        if (
            view.current_player == view.seat
            and getattr(view, "turn_stage", "") in STAGES_BEFORE_HIRE
        ):
            n += 1
        return n

    @property
    def money_value(self) -> float:
        """Value of the next $ at the current cash."""
        return self.dollar_value(self.me.money)

    def dollar_value(self, cash: int) -> float:
        """Marginal value of one more $ when holding ``cash``: money buys hires (one per turn),
        bail and, on the last day, the sheriff's bribe; beyond what can be spent it only breaks
        ties."""
        if self._hires_left is None:
            self._hires_left = self.hires_left()
        if self._hires_left <= 0:
            return TIEBREAK_MONEY
        value = MONEY_VALUE
        for limit, scale in MONEY_STEPS:
            if cash >= limit:
                value = MONEY_VALUE * scale
        rules = self.rules
        if (
            self.view.day >= self.view.last_day
            and cash < rules.bribe_cost
            and cash + 4 * self._hires_left >= rules.bribe_cost
        ):
            value = max(value, MONEY_VALUE)  # saving up for the bribe
        return value

    def future_dollar_value(self) -> float:
        """Value of a $ gained at a later turn: as now, at the cash we will have by then (the
        richer we get, the less it buys), and nothing once our last hire step is behind us."""
        if self._hires_left is None:
            self._hires_left = self.hires_left()
        later = self._hires_left - 1
        if later <= 0:
            return TIEBREAK_MONEY
        return self.dollar_value(self.me.money + 3)

    def money_change_value(self, delta: int, cash: int | None = None) -> float:
        """Value of gaining (delta > 0) or spending (delta < 0) ``delta`` $ from ``cash``."""
        cash = self.me.money if cash is None else cash
        key = (delta, cash)  # the handlers price the same sums again and again
        got = self._money_changes.get(key)
        if got is None:
            if delta >= 0:
                got = sum(self.dollar_value(cash + i) for i in range(delta))
            else:
                got = -sum(self.dollar_value(cash - 1 - i) for i in range(-delta))
            self._money_changes[key] = got
        return got

    @property
    def last_day(self) -> bool:
        return self.view.day >= self.view.last_day

    # ------------------------------------------------------------ reputation
    def rep_value(self, rep: int, delta: int) -> float:
        """Expected tech change of moving ``delta`` squares from ``rep`` (smoothed)."""
        rules = self.rules
        lo, hi, tech = rules.reputation_min, rules.reputation_max, rules.reputation_tech
        total = 0.0
        for start in (rep - 1, rep, rep, rep + 1):
            s = min(hi, max(lo, start))
            e = min(hi, max(lo, s + delta))
            total += tech[e] - tech[s]
        return total / 4.0

    def own_strategy(self):
        """This seat's Strategy card (optional rule), or None."""
        index = getattr(self.me, "strategy", -1)
        strategies = getattr(self.view.catalog, "strategies", ())
        return strategies[index] if 0 <= index < len(strategies) else None

    # ------------------------------------------------------------ rivals
    def propensity(self) -> list[float]:
        if self._propensity is None:
            self._propensity = challenge_propensity(self.view, log=self.agent.public_log(self.view))
        return self._propensity

    def p_challenged(self) -> float:
        """P(at least one rival challenges a card we play now)."""
        view, prop = self.view, self.propensity()
        stay = 1.0
        for p in view.players:
            if p.seat != view.seat and p.free_henchmen > 0:
                stay *= 1.0 - min(0.95, prop[p.seat] * 1.15)
        return 1.0 - stay

    def caught_cost(self) -> float:
        """Tech lost when one of our bluffs is caught (challengers' gain included)."""
        view, prop = self.view, self.propensity()
        challengers = sum(
            min(0.95, prop[p.seat] * 1.15)
            for p in view.players
            if p.seat != view.seat and p.free_henchmen > 0
        )
        return -self.rep_value(self.me.reputation, -1) + RIVAL_REP_WEIGHT * max(1.0, challengers)

    def henchman_value(self) -> float:
        return HENCHMAN_VALUE if self.days_after_today > 0 else 0.0

    # ------------------------------------------------------------ Safes
    def trust(self) -> dict[int, float]:
        """Per rival: how far its Marks can be believed (0 = noise, 1 = always the value)."""
        memo = self.safes
        if memo.trust is None:
            view = self.view
            checked: dict[int, int] = {}
            matched: dict[int, int] = {}
            for safe in view.safes.values():
                if safe.value is None:
                    continue
                for owner, face in safe.marks:
                    if owner != view.seat:
                        checked[owner] = checked.get(owner, 0) + 1
                        matched[owner] = matched.get(owner, 0) + (face == safe.value)
            trust = memo.trust = {}
            for seat in range(view.num_players):
                rate = (matched.get(seat, 0) + 0.3) / (checked.get(seat, 0) + 1.0)
                trust[seat] = max(0.0, min(0.9, (rate - 1 / 6) / (5 / 6)))
        return memo.trust

    def locations(self) -> list[_LocationMemo]:
        """The value of each location's Safes, by location index."""
        memo = self.safes
        if memo.locations is None:
            view = self.view
            by_location: dict[int, list] = {}
            for safe in view.safes.values():
                by_location.setdefault(safe.location, []).append(safe)
            trust = self.trust()
            memo.locations = []
            for loc, values in enumerate(view.location_values):
                here = tuple(by_location.get(loc, ()))
                unused = view.unused_known[loc] if loc < len(view.unused_known) else ()
                location = self.agent.location_memo(loc, view.seat, values, here, unused, trust)
                memo.locations.append(location)
                memo.worth.update(location.worth)
                for safe in here:
                    memo.by_safe[safe.id] = location
        return memo.locations

    def beliefs(self) -> dict[int, dict[int, float]]:
        """Safe id -> {value: probability} for every board and held Safe."""
        memo = self.safes
        if memo.beliefs is None:
            memo.beliefs = {}
            for location in self.locations():
                memo.beliefs.update(location.beliefs)
        return memo.beliefs

    @_Once
    def worths(self) -> dict[int, float]:
        """Safe id -> expected tech of holding it (value + matching Marks on it), for every board
        and held Safe."""
        memo = self.safes
        if memo.locations is None:
            self.locations()
        return memo.worth

    def safe_worth(self, sid: int, extra_match: int = 0) -> float:
        """Expected tech of holding Safe ``sid``: value + matching Marks on it."""
        if extra_match == 0:
            got = self.worths.get(sid)
            if got is not None:
                return got
        return _expected_worth(self.beliefs().get(sid, {}), self.view.safes[sid], extra_match)

    def board_safes(self) -> list[int]:
        memo = self.safes
        if memo.board is None:
            memo.board = [sid for row in self.view.board for sid in row if sid is not None]
        return memo.board

    def held_worths(self) -> list[float]:
        if self._held is None:
            self._held = [self.safe_worth(sid) for sid in self.me.safes]
        return self._held

    def board_best(self) -> tuple[float, int | None, float]:
        """(best worth on the board, that Safe (the first of equals), best worth of the other
        board Safes); worths are 0.0 where there is no Safe."""
        memo = self.safes
        if memo.board_best is None:
            worths = [(self.safe_worth(sid), sid) for sid in self.board_safes()]
            best, best_sid = 0.0, None
            if worths:
                best = max(w for w, _ in worths)
                best_sid = next(sid for w, sid in worths if w == best)
            second = max((w for w, sid in worths if sid != best_sid), default=0.0)
            memo.board_best = (best, best_sid, second)
        return memo.board_best

    def steal_gain(self) -> float:
        """Tech gained by stealing the best board Safe now (net of abandoning over the limit)."""
        best, best_sid, _ = self.board_best()
        if best_sid is None:
            return 0.0
        held = self.held_worths()
        if len(held) < self.view.day:
            return best
        return max(0.0, best - min(held))

    def future_steal_chance(self) -> float:
        """Rough chance of another steal after this turn (slot 5 tomorrow, or later today)."""
        left = self.turns_left_after_now
        if left <= 0:
            return 0.0
        if self.days_after_today > 0:
            return 0.9
        free = {s for s in self.rules.slots} - {c.slot for c in self.me.played}
        if 5 in free and left >= 1:
            return 0.85
        return 0.35 if self.me.money >= 8 else 0.15

    @_Once
    def _peek_alternative(self) -> tuple[float, int | None, float, float | None]:
        """What :meth:`peek_gain` compares a peeked Safe with: (best board worth, that Safe,
        best other board worth, the worst held worth when a steal would make us abandon one,
        else None)."""
        best, best_sid, second = self.board_best()
        held = self.held_worths()
        floor = None
        if len(held) >= self.view.day + (1 if self.days_after_today else 0):
            floor = min(held)
        return best, best_sid, second, floor

    def peek_gain(self, sid: int) -> float:
        """Expected improvement of our best steal from seeing Safe ``sid`` (unknown, on board)."""
        best, best_sid, second, floor = self._peek_alternative
        alt = second if sid == best_sid else best  # the best steal if not this Safe
        if floor is not None:
            alt = max(alt, floor)
        if self.safes.locations is None:
            self.locations()
        location = self.safes.by_safe[sid]
        got = location.gains.get((sid, alt))
        if got is None:
            faces = location.faces[sid]
            after = sum(  # +1: our Mark
                p * max(v + faces.get(v, 0) + 1, alt) for v, p in location.beliefs[sid].items()
            )
            got = location.gains[(sid, alt)] = max(0.0, after - max(location.worth[sid], alt))
        return got

    def peek_value(self) -> float:
        if self._peek_value is None:
            self._peek_value = self._compute_peek_value()
        return self._peek_value

    def _compute_peek_value(self) -> float:
        safes = self.view.safes
        board = [s for s in self.board_safes() if safes[s].value is None]
        chance = self.future_steal_chance()
        if not board:
            return 0.05
        view = self.view
        key = (self.me.safes, view.day, view.last_day)
        best_gains = self.safes.best_peek_gain
        best = best_gains.get(key)
        if best is None:
            best = best_gains[key] = max(self.peek_gain(s) for s in board)
        return chance * best + PEEK_BASE * chance

    # ------------------------------------------------------------ effects
    def effect_value(self, steps, *, now: bool = True, money: int | None = None) -> float:
        """Tech value of resolving effect ``steps`` now (or at a typical future moment).

        Verbs are priced generically; a verb this bot does not know is worth UNKNOWN_VERB_VALUE.
        """
        cash = self.me.money if money is None else money
        view = self.view
        total = 0.0
        peeked = False

        def money(delta: int) -> float:
            if now:
                return self.money_change_value(delta, cash)
            return delta * self.future_dollar_value()

        for step in steps:
            verb, amount = step.verb, getattr(step, "amount", 0)
            option = getattr(step, "option", "")
            if verb == "gain_money":
                total += money(amount)
                cash += amount
            elif verb == "gain_money_per_card_played":
                gain = amount * (len(self.me.played) if now else 2)
                total += money(gain)
                cash += gain
            elif verb == "steal_money":
                total += money(amount) + RIVAL_REP_WEIGHT * 0.3 * amount
                cash += amount
            elif verb == "gamble_deck_top":
                gain = MONEY_GAINS[verb](amount)
                total += money(gain)
                cash += gain
            elif verb == "spend_money":
                if cash < amount:
                    return total
                total += money(-amount)
                cash -= amount
            elif verb == "gain_reputation":
                total += self.rep_value(self.me.reputation, amount) if now else 0.8 * amount
            elif verb == "lose_reputation":
                total += self.rep_value(self.me.reputation, -amount) if now else -0.8 * amount
            elif verb == "peek_safe":
                total += self.peek_value() if now else 0.7
                peeked = True
            elif verb == "blind_mark":
                total += amount * ((0.7 * self.peek_value()) if now else 0.5)
            elif verb == "mark_safe":
                total += 0.0 if peeked else 0.1
            elif verb == "steal_safe":
                if option == "unused":
                    total += self.unused_steal_gain() if now else 1.5
                else:
                    total += self.steal_gain() if now else 2.0
            elif verb in CONSTANT_VERB_VALUES:
                total += CONSTANT_VERB_VALUES[verb]
            elif verb in PER_UNIT_VERB_VALUES:
                total += PER_UNIT_VERB_VALUES[verb] * max(1, amount)
            elif verb == "jail_own_henchman":
                total -= amount * (self.henchman_value() + 0.2 if now else 0.5)
            elif verb == "jail_rival_henchman":
                total += 0.3 + money(amount)
                cash += amount
            elif verb == "rivals_jail_or_lose_reputation":
                total += 0.25 * (view.num_players - 1)
            elif verb == "discard_self":
                pass  # priced by the caller (the Granuja's tech and later uses are lost)
            elif verb == "sheriff_option":
                total += self.sheriff_best()[0] if now else 2 * self.future_dollar_value()
            else:
                total += UNKNOWN_VERB_VALUE
        return total

    def steal_ahead(self) -> bool:
        """Whether ``future_steal_chance() > 0`` (a turn of ours after this one), told without
        reading this seat's cards while a later day remains."""
        if self.days_after_today > 0 and self.view.turns_per_day > 0:
            return True
        return self.turns_left_after_now > 0

    def surely_positive(self, steps) -> bool:
        """Whether ``effect_value(steps)`` (now) is surely > 0, told without pricing the steps.
        The money steps together are worth ``V(cash after) - V(cash before)`` (V: the sum of
        :meth:`dollar_value` below a cash, each $ worth >= TIEBREAK_MONEY > 0), so > 0 when they
        gain more than they spend and every spend is affordable; every other step must be worth
        >= 0: a peek > 0 while a later steal is possible (PEEK_BASE, or 0.05 with no unseen Safe
        on the board), a Mark 0 or 0.1, the constants of :data:`POSITIVE_VERBS`. False: price
        the steps."""
        cash = start = None
        positive = False
        for step in steps:
            verb = step.verb
            if verb in POSITIVE_VERBS:
                positive = True
            elif verb == "peek_safe":
                if not self.steal_ahead():
                    return False
                positive = True
            elif verb in MONEY_GAINS:
                if cash is None:
                    cash = start = self.me.money
                cash += MONEY_GAINS[verb](getattr(step, "amount", 0))
                positive = positive or verb == "jail_rival_henchman"
            elif verb == "spend_money":
                if cash is None:
                    cash = start = self.me.money
                amount = getattr(step, "amount", 0)
                if cash < amount:
                    return False  # effect_value stops here
                cash -= amount
            elif verb != "mark_safe":
                return False
        if cash is not None:
            if cash < start:
                return False
            positive = positive or cash > start
        return positive

    def requirements_met(self, g) -> bool:
        """Whether the conditions printed on ``g`` hold now (unknown conditions: assumed met)."""
        for need in getattr(g, "requires", ()):
            if need == "money_zero" and self.me.money != 0:
                return False
            if need == "rival_has_more_safes" and not any(
                len(p.safes) > len(self.me.safes)
                for p in self.view.players
                if p.seat != self.view.seat
            ):
                return False
        return True

    def granuja_use_value(self, g, *, via_slot: bool = True, now: bool = True) -> float:
        """Value of using Granuja ``g`` once (modifiers included when activated by a slot)."""
        if now and not self.requirements_met(g):
            return 0.0
        bonus = 1 if via_slot and "extra_money" in g.modifiers else 0
        v = self.effect_value(g.effect, now=now, money=self.me.money + bonus if now else None)
        if via_slot and "use_twice" in g.modifiers:
            v *= 2.0
        if via_slot and "extra_money" in g.modifiers:
            v += self.money_value if now else self.future_dollar_value()
        if any(s.verb == "discard_self" for s in g.effect):
            v -= g.tech + 0.1
        return v

    def expected_uses(self, g, turns_after: int | None = None) -> float:
        """Expected future activations of a Granuja placed now (from the next turn on)."""
        n = self.turns_left_after_now if turns_after is None else turns_after
        if n <= 0:
            return 0.0
        self_discard = any(s.verb == "discard_self" for s in g.effect)
        if g.timing == "slots":
            per_day = min(self.view.turns_per_day, sum(SLOT_USE.get(s, 0.5) for s in g.slots))
            uses = per_day * n / self.view.turns_per_day
        elif g.timing == "start_of_turn":
            uses = float(n)
        elif g.timing == "response":
            # it answers an adjacent Granuja when that one is used: needs a partner on the sheet
            partners = sum(
                1 for x in self.me.sheet if x is not None and x.timing in ("slots", "start_of_turn")
            )
            uses = (0.35 if partners else 0.08) * n
        elif g.timing == "on_hire":
            uses = 0.0
        else:
            uses = 0.25 * n
        return min(uses, 1.0) if self_discard else uses

    def keep_value(self, g) -> float:
        """Value of a Granuja on our sheet from now to the end of the game."""
        if g is None:
            return 0.0
        got = self._keep.get(id(g))  # the view holds g: its id is its own while ctx lives
        if got is None:
            got = self._keep[id(g)] = self._keep_value(g)
        return got

    def _keep_value(self, g) -> float:
        per_use = self.granuja_use_value(g, now=False)
        self_discard = any(s.verb == "discard_self" for s in g.effect)
        tech = 0.0 if self_discard else g.tech
        return tech + max(0.0, per_use) * self.expected_uses(g, self.turns_left_after_now)

    def hire_value(self, g, cost: int | None = None) -> float:
        """Value of hiring ``g`` now, net of its cost and of the Granuja it would replace."""
        cost = g.cost if cost is None else cost
        if g.timing == "on_hire":
            gain = max(0.0, self.effect_value(g.effect, money=self.me.money - cost))
        else:
            gain = self.keep_value(g)
            sheet = self.me.sheet
            if all(x is not None for x in sheet):
                gain -= min(min(self.keep_value(x) for x in sheet), gain)
        return gain + self.money_change_value(-cost)

    def sheriff_best(self) -> tuple[float, int]:
        """(value, action) of the best Sheriff's Office option open now."""
        view, rules, money = self.view, self.rules, self.me.money
        options = [(self.money_change_value(rules.sell_information), A.SELL_INFORMATION)]
        if money >= rules.bail_cost and self.me.jailed_henchmen > 0:
            count = min(self.me.jailed_henchmen, rules.bail_max, money // rules.bail_cost)
            value = count * self.henchman_value() + self.money_change_value(
                -count * rules.bail_cost
            )
            options.append((value, A.PAY_BAIL))
        if view.day >= view.last_day and money >= rules.bribe_cost and self.board_safes():
            options.append(
                (self.steal_gain() + self.money_change_value(-rules.bribe_cost), A.BRIBE_SHERIFF)
            )
        return max(options)

    def unused_steal_gain(self) -> float:
        """Tech gained by taking an unseen unused Safe: the best location's mean unseen value."""
        view = self.view
        best = 0.0
        for loc, values in enumerate(view.location_values):
            if loc >= len(view.unused_counts) or view.unused_counts[loc] == 0:
                continue
            remaining = Counter(values)
            for safe in view.safes.values():
                if safe.location == loc and safe.value is not None:
                    remaining[safe.value] -= 1
            pool = [v for v, c in remaining.items() for _ in range(max(0, c))]
            if pool:
                best = max(best, sum(pool) / len(pool))
        held = self.held_worths()
        if len(held) < view.day:
            return best
        return max(0.0, best - min(held))

    # ------------------------------------------------------------ plan
    def slot_parts(self, slot: int) -> tuple[float, float, float]:
        """(peek value, steal value, other value) of the abilities a card in ``slot`` triggers."""
        view = self.view
        peek = steal = other = 0.0

        def split(steps, value):
            nonlocal peek, steal, other
            verbs = {s.verb for s in steps}
            if "steal_safe" in verbs:
                steal += value
            elif "peek_safe" in verbs:
                peek += value
            else:
                other += value

        leader = self.rules.leader.get(slot)
        if leader:
            split(leader, self.effect_value(leader))
        for g in self.me.sheet:
            if g is None or g.timing != "slots" or slot not in g.slots or g.uid in view.used:
                continue
            value = self.granuja_use_value(g)
            if value > 0:
                split(g.effect, value)
        return peek, steal, other


def best_assignment(
    cards: Sequence[int],
    free: Sequence[int],
    parts: Mapping[int, tuple[float, float, float]],
    bait: float,
    bluff_cost: float,
) -> list[tuple[int, int]]:
    """The best (card, slot) pairs playing every card of ``cards`` (distinct values) into as many
    of the ``free`` slots: each slot is worth its other value (``parts[slot]``: peek, steal,
    other), the chosen slots' peek and steal values count sorted and weighted (a second peek or
    steal in a day is worth less), an honest card earns ``bait`` and a bluff costs
    ``bluff_cost``.

    The value of an assignment depends only on its set of slots and on how many cards are honest,
    and each card whose slot is in the set is best played honestly there, so the search runs over
    the sets (at most 20) instead of the orderings (at most 360). Of the assignments worth the
    most (to ``PLAN_TIE``), it returns the first in the order of ``permutations(free, k)``.
    """
    k = len(cards)
    if len(set(cards)) != k or k > len(free):
        raise ValueError(f"cannot play the cards {list(cards)} into the free slots {list(free)}")
    peek = {slot: parts[slot][0] for slot in free}
    steal = {slot: parts[slot][1] for slot in free}
    other = {slot: parts[slot][2] for slot in free}
    hand = set(cards)
    scored = []
    for combo in combinations(free, k):
        honest = len(hand.intersection(combo))
        value = (
            sum([other[slot] for slot in combo])
            + honest * bait
            - (k - honest) * bluff_cost
            + sum(map(mul, sorted([peek[slot] for slot in combo], reverse=True), PEEK_WEIGHTS))
            + sum(map(mul, sorted([steal[slot] for slot in combo], reverse=True), STEAL_WEIGHTS))
        )
        scored.append((value, combo))
    top = max(value for value, _ in scored)
    position = {slot: i for i, slot in enumerate(free)}
    match = bait + bluff_cost > PLAN_TIE  # else honest and bluffing cards are worth the same
    firsts = []
    for value, combo in scored:
        if value < top - PLAN_TIE:
            continue
        # the first ordering of this set: honest cards in their slots, the others in the
        # remaining slots left to right (combinations keep the order of ``free``)
        honest_slots = {c for c in cards if c in combo} if match else set()
        others = iter([slot for slot in combo if slot not in honest_slots])
        slots = [c if c in honest_slots else next(others) for c in cards]
        firsts.append(([position[slot] for slot in slots], slots))
    return list(zip(cards, min(firsts)[1]))


class HeuristicAgent(Agent):
    """Rule-based bot reading the semantic view; see the module docstring for its reasoning.

    ``reuse=False`` recomputes everything at every decision (the reference the tests compare the
    default against; same decisions, slower)."""

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        *,
        reuse: bool = True,
        early_challenge_rate: float = 0.0,
        spot_check: str = "everyone",
    ) -> None:
        rate = early_challenge_rate
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0.0 <= rate <= 1.0:
            raise ValueError(
                f"early_challenge_rate must be a number from 0 to 1, got {early_challenge_rate!r}"
            )
        if spot_check not in SPOT_CHECK_TARGETS:
            raise ValueError(
                f"spot_check must be one of {', '.join(SPOT_CHECK_TARGETS)}, got {spot_check!r}"
            )
        self.seed = seed
        self.reuse = reuse
        self.early_challenge_rate = float(rate)
        self.spot_check = spot_check
        self._early_challengers = EarlyChallengers()
        self._rng = random.Random(seed)
        self._inference: HandInference | None = None
        self._safe_memo: _SafeMemo | None = None
        self._locations: dict[int, _LocationMemo] = {}
        self._log: PublicLog | None = None
        self._analyses: dict[tuple, dict] = {}  # record_key -> the bluff model's analysis
        self.fallbacks = 0  # handler gave no legal answer: a bug if it grows (tests check it)
        self.unknown_decisions = 0  # decision kinds this bot has no rule for (answered generically)
        self.fallback_log: list[tuple] = []  # (decision, bad answer, legal ids), for debugging
        self._new_game()

    def _new_game(self) -> None:
        self._early_challengers.reset()
        self._plan_slot: int | None = None
        self._plan_card: int | None = None
        self._last_used = None
        self._on_hire_seen: set[tuple] = set()

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
            self._rng = random.Random(seed)
        self._new_game()

    def __deepcopy__(self, memo: dict) -> HeuristicAgent:
        # the bluff model is the process's shared one (its caches are functions of public
        # records only): a copy of the bot shares it too instead of copying its caches
        if self._inference is not None:
            memo[id(self._inference)] = self._inference
        clone = object.__new__(type(self))
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            setattr(clone, key, copy.deepcopy(value, memo))
        return clone

    def safe_memo(self, view) -> _SafeMemo:
        """The Safe values of ``view``: those of the last decision if its Safes were the same."""
        if not self.reuse:
            return _SafeMemo(None)
        key = _SafeMemo.key_of(view)
        memo = self._safe_memo
        if memo is None or memo.key != key:
            memo = self._safe_memo = _SafeMemo(key)
        return memo

    def location_memo(
        self,
        loc: int,
        seat: int,
        values: Sequence[int],
        here: tuple,
        unused_known: Sequence[int],
        trust: Mapping[int, float],
    ) -> _LocationMemo:
        """The values of the Safes ``here`` of location ``loc`` (see :func:`_location_beliefs`):
        those of an earlier decision that saw the same, else computed now."""
        if not self.reuse:
            beliefs = _location_beliefs(seat, values, here, unused_known, trust)
            return _LocationMemo(None, beliefs, here)
        # the beliefs read the trust in the owners of the rivals' Marks on the unseen Safes
        # here only: a change of trust in anyone else keeps them
        read = [trust.get(o, 0.0) for s in here if s.value is None for o, _ in s.marks if o != seat]
        key = (seat, values, here, unused_known, tuple(read))
        memo = self._locations.get(loc)
        if memo is None or memo.key != key:
            beliefs = _location_beliefs(seat, values, here, unused_known, trust)
            memo = self._locations[loc] = _LocationMemo(key, beliefs, here)
        return memo

    def inference(self, view) -> HandInference:
        rules = view.rules
        if self._inference is None or self._inference.values != tuple(rules.poker_cards):
            self._inference = shared_inference(
                rules.poker_cards, rules.slots, rules.hand_size, memo_tables=self.reuse
            )
            self._analyses.clear()  # analyses of another card set
        return self._inference

    # ------------------------------------------------------------ entry point
    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        require_view(self, view)
        if self.early_challenge_rate and self.spot_check == "early_challengers":
            self._early_challengers.watch(view)  # before any early return: see every day
        legal = legal_ids(observation)
        if len(legal) == 1:
            return legal[0]
        ctx = _Ctx(self, view)
        handler = getattr(self, f"_on_{view.decision}", None)
        if handler is None:
            self.unknown_decisions += 1
            handler = self._generic
        choice = handler(ctx, legal)
        if choice is None or choice not in legal:
            self.fallbacks += 1
            self.fallback_log.append((view.decision, choice, tuple(legal)))
            choice = A.PASS if A.PASS in legal else self._rng.choice(legal)
        return int(choice)

    # ------------------------------------------------------------ plan
    def _plan(self, ctx: _Ctx, hand: Sequence[int], card: int | None = None) -> tuple[int, int]:
        """The (card, slot) to play now: best assignment of the hand to free slots, then order.
        With ``card`` given (already chosen), the best assignment that plays it now."""
        rules = ctx.rules
        free = [s for s in rules.slots if s not in {c.slot for c in ctx.me.played}]
        parts = {s: ctx.slot_parts(s) for s in free}
        p_ch = ctx.p_challenged()
        bluff_cost = p_ch * ctx.caught_cost()
        bait = p_ch * 0.5 * HENCHMAN_VALUE  # rivals' henchmen jailed on an honest card
        hand = list(hand)
        k = min(len(hand), len(free))
        cards = hand if len(hand) <= len(free) else sorted(hand, reverse=True)[:k]
        if card is not None and card not in cards:
            cards = [*cards[: k - 1], card]
        best = best_assignment(cards, free, parts, bait, bluff_cost)

        def order(pair):
            card, slot = pair
            honest = card == slot
            return (0 if honest or p_ch < 0.05 else 1, SLOT_ORDER.get(slot, 9), card)

        if card is not None:
            for pair in best:
                if pair[0] == card:
                    return pair
        return min(best, key=order)

    def _on_plan_card(self, ctx: _Ctx, legal):
        hand = [a - A.CARD for a in legal]
        card, slot = self._plan(ctx, hand)
        self._plan_card, self._plan_slot = card, slot
        return A.CARD + card

    def _on_plan_slot(self, ctx: _Ctx, legal):
        card = ctx.view.context["card"]
        if card != self._plan_card:
            # another player of this seat (a learner it advises) chose the card: plan afresh
            self._plan_card, self._plan_slot = self._plan(ctx, ctx.view.hand, card=card)
        face_up = getattr(A, "FACE_UP", -1)
        if face_up in legal:
            # a 0 may be shown face up (no bluff, no slot ability, the enabling Granuja's effect)
            g = next(
                (g for g in ctx.me.sheet if g is not None and g.timing == "zero_face_up"), None
            )
            shown = ctx.effect_value(g.effect) if g is not None else 0.0
            slot = self._plan_slot
            in_slot = -1e9
            if slot is not None and A.SLOT + slot in legal:
                in_slot = sum(ctx.slot_parts(slot)) - ctx.p_challenged() * ctx.caught_cost()
            if shown >= in_slot:
                return face_up
        if self._plan_slot is not None and A.SLOT + self._plan_slot in legal:
            return A.SLOT + self._plan_slot
        _, slot = self._plan(ctx, ctx.view.hand, card=card)
        return A.SLOT + slot

    # ------------------------------------------------------------ challenges
    def public_log(self, view) -> PublicLog:
        """The public event log of ``view`` as the bluff model reads it; with ``reuse``, the
        log of the earlier decisions of this game extended with the new events."""
        if not self.reuse:
            return PublicLog.of(view)
        self._log = PublicLog.of(view, self._log)
        return self._log

    def analysis(self, view, seat: int) -> dict:
        """Posterior summary of ``seat``'s cards today (see HandInference.analyze); with
        ``reuse``, the one of an earlier decision whose view gave ``seat`` the same record."""
        log = self.public_log(view)
        inference = self.inference(view)
        key = record_key(view, seat, log) if self.reuse else None
        result = self._analyses.get(key) if key is not None else None
        if result is None:
            days, today = public_record(view, seat, log)
            known, shown = today_evidence(view, seat, log)
            result = inference.analyze(days, today, known, shown)
            if key is not None:
                if len(self._analyses) >= ANALYSES_KEPT:
                    self._analyses.clear()
                self._analyses[key] = result
        return result

    def bluff_probability(self, view, seat: int) -> float:
        """P(the card ``seat`` played last today is a bluff), from what this seat knows."""
        return float(self.analysis(view, seat)["bluff"])  # 0.0 if it played nothing today

    def _on_challenge(self, ctx: _Ctx, legal):
        action = self._challenge_by_posterior(ctx, legal)
        if action != A.CONFIRM and self._spot_check(ctx, legal):
            return A.CONFIRM
        return action

    def _spot_check(self, ctx: _Ctx, legal) -> bool:
        """Whether to challenge, at random, a rival's card the posterior would let pass: with
        probability ``early_challenge_rate`` in a turn's last window before the day's last
        round, while this seat holds two or more free henchmen (one stays for the last round,
        where the posterior's bluffs are). A posterior-only rule never challenges the early
        cards of a player who bluffs early and plays honestly last; these checks make such bluffs
        cost something (docs/bots.md, `full`'s weakness, the 4-player exploiter)."""
        view = ctx.view
        if not self.early_challenge_rate or A.CONFIRM not in legal or view.window not in (0, 3):
            return False
        if view.current_player == view.seat or view.turn >= view.last_round_start:
            return False
        if ctx.me.free_henchmen < 2:
            return False
        if self.spot_check == "early_challengers" and (
            view.current_player not in self._early_challengers.seats
        ):
            return False
        return self._rng.random() < self.early_challenge_rate

    def _challenge_by_posterior(self, ctx: _Ctx, legal):
        view = ctx.view
        if view.window not in (0, 3):
            return A.PASS  # decide in the turn's last window, having seen the whole turn
        target = view.current_player
        analyses: dict[int, dict] = {}  # the posterior of each player, computed once

        def analysis(seat: int) -> dict:
            if seat not in analyses:
                analyses[seat] = self.analysis(view, seat)
            return analyses[seat]

        b = float(analysis(target)["bluff"])  # 0.0 if it played nothing today
        reward = ctx.rep_value(ctx.me.reputation, 1) + RIVAL_REP_WEIGHT
        jail = ctx.henchman_value()

        def ev(p: float) -> float:
            return p * reward - (1.0 - p) * jail

        if not ev(b) > 0.02:
            return A.PASS  # what keeping the henchman is worth (below) is >= 0: no need for it
        # The henchman could instead wait for a likelier bluff later today: the rivals' cards
        # still to come, each rated by the posterior (its likeliest bluff, then the others).
        n = view.num_players
        per_day = view.turns_per_day * n
        later = [(view.first_player + t) % n for t in range(view.turn + 1, per_day)]
        free = ctx.me.free_henchmen
        # the target first (its posterior is at hand): with ev increasing, the rivals rated so
        # far give the wait a lower bound (more cards can only raise the free-th best), which
        # may already be enough to pass
        bound = self.reuse and free > 0 and reward >= 0.0 and jail >= 0.0
        rivals = sorted(
            (o for o in range(n) if o != view.seat and o in later), key=lambda o: o != target
        )
        future: list[float] = []
        for o in rivals:
            result = analysis(o)  # the target's own later cards: given this one too
            future.append(float(result["future_best"]))
            future += [float(result["future_mean"])] * (later.count(o) - 1)
            if bound and len(future) >= free and o != rivals[-1]:
                least = sorted(future, reverse=True)[free - 1]
                if not ev(b) > max(0.0, ev(least)) * KEEP_DISCOUNT + 0.02:
                    return A.PASS
        future.sort(reverse=True)
        keep = 0.0
        if len(future) >= free:
            keep = max(0.0, ev(future[free - 1])) * KEEP_DISCOUNT
        return A.CONFIRM if ev(b) > keep + 0.02 else A.PASS

    # ------------------------------------------------------------ abilities
    def _best_use(self, ctx: _Ctx, legal, *, via_slot: bool):
        options = [a for a in legal if a != A.PASS]
        if self.reuse and len(options) == 1 and self._surely_used(ctx, options[0]):
            best = options[0]  # the one use is worth more than passing: no need to price it
            self._last_used = None if best == A.LEADER else ctx.me.sheet[best - A.SHEET]
            return best
        view, me = ctx.view, ctx.me
        best, best_value = A.PASS, 0.0
        for a in legal:
            if a == A.LEADER:
                value = ctx.effect_value(ctx.rules.leader.get(view.context.get("slot"), ()))
                # money first, so that costs later in the turn can be paid
                if all(
                    s.verb == "gain_money"
                    for s in ctx.rules.leader.get(view.context.get("slot"), ())
                ):
                    value += 0.5
            elif A.SHEET <= a < A.SHEET + A.SHEET_SIZE:
                g = me.sheet[a - A.SHEET]
                if g is None:
                    continue
                value = ctx.granuja_use_value(g, via_slot=via_slot)
                if all(s.verb == "gain_money" for s in g.effect):
                    value += 0.5
            elif a == getattr(A, "STRATEGY", -1):
                card = ctx.own_strategy()
                value = ctx.effect_value(card.effect) if card is not None else 0.1
            else:
                continue
            if value > best_value:
                best, best_value = a, value
        if A.SHEET <= best < A.SHEET + A.SHEET_SIZE:
            self._last_used = me.sheet[best - A.SHEET]
        elif best == A.LEADER:
            self._last_used = None
        return best if best in legal else None

    @staticmethod
    def _surely_used(ctx: _Ctx, action: int) -> bool:
        """Whether :meth:`_best_use` values ``action`` (the leader or a sheet Granuja) above 0,
        told from the verbs of its effect without pricing them (:meth:`_Ctx.surely_positive`)."""
        if action == A.LEADER:
            return ctx.surely_positive(ctx.rules.leader.get(ctx.view.context.get("slot"), ()))
        if not A.SHEET <= action < A.SHEET + A.SHEET_SIZE:
            return False
        g = ctx.me.sheet[action - A.SHEET]
        # granuja_use_value: 0 when its conditions fail; use twice doubles and extra money adds a
        # positive value; discarding itself costs its tech
        return (
            g is not None
            and ctx.requirements_met(g)
            and all(s.verb != "discard_self" for s in g.effect)
            and ctx.surely_positive(g.effect)
        )

    def _on_ability(self, ctx, legal):
        return self._best_use(ctx, legal, via_slot=True)

    def _on_start_ability(self, ctx, legal):
        return self._best_use(ctx, legal, via_slot=False)

    def _on_response(self, ctx, legal):
        return self._best_use(ctx, legal, via_slot=False)

    def _on_trigger(self, ctx, legal):
        return self._best_use(ctx, legal, via_slot=False)

    def _on_use_again(self, ctx, legal):
        g = self._last_used
        if g is None:
            return A.CONFIRM
        return A.CONFIRM if ctx.effect_value(g.effect) > 0 else A.PASS

    def _on_on_hire(self, ctx, legal):
        view = ctx.view
        # Never confirm the same on-hire Granuja twice in a turn: an effect that re-hires it
        # (e.g. hiring the discard pile's top) would otherwise loop.
        key = (view.day, view.turn, (view.context or {}).get("uid"))
        if key in self._on_hire_seen:
            return A.PASS
        self._on_hire_seen.add(key)
        g = view.limbo
        if g is None:
            return A.CONFIRM
        return A.CONFIRM if ctx.effect_value(g.effect) > 0 else A.PASS

    # ------------------------------------------------------------ hire
    def _on_hire(self, ctx: _Ctx, legal):
        view = ctx.view
        best_value, best = ctx.sheriff_best()[0], A.SHERIFF
        for a in legal:
            if A.SALOON <= a < A.SALOON + len(view.saloon):
                g = view.saloon[a - A.SALOON]
                if g is None:
                    continue
                costs = getattr(view, "saloon_costs", ())
                cost = costs[a - A.SALOON] if a - A.SALOON < len(costs) else None
                value = ctx.hire_value(g, cost)
                if value > best_value:
                    best, best_value = a, value
        return best

    def _on_sheriff_option(self, ctx: _Ctx, legal):
        value, action = ctx.sheriff_best()
        return action if action in legal else A.SELL_INFORMATION

    def _on_bail(self, ctx: _Ctx, legal):
        rules, me = ctx.rules, ctx.me
        if A.SEAT in legal and me.jailed_henchmen > 0:
            worth = ctx.henchman_value() + ctx.money_change_value(-rules.bail_cost)
            if worth > 0 or A.PASS not in legal:
                return A.SEAT
        if A.PASS in legal:
            return A.PASS
        return min(legal)  # the first bail cannot be refused once chosen

    def _on_place(self, ctx: _Ctx, legal):
        view, me = ctx.view, ctx.me
        new = view.limbo
        empty = [i for i, g in enumerate(me.sheet) if g is None and A.SHEET + i in legal]
        if empty:
            return A.SHEET + self._best_position(ctx, new, empty)
        values = [
            (ctx.keep_value(g), A.SHEET + i) for i, g in enumerate(me.sheet) if A.SHEET + i in legal
        ]
        worst_value, worst = min(values)
        if new is not None and A.DISCARD_NEW in legal and ctx.keep_value(new) <= worst_value:
            return A.DISCARD_NEW
        return worst

    @staticmethod
    def _best_position(ctx: _Ctx, new, empty: list[int]) -> int:
        """An empty position next to a response partner, else the leftmost."""
        sheet = ctx.me.sheet
        if new is None:
            return empty[0]
        for i in empty:
            left = sheet[i - 1] if i > 0 else None
            right = sheet[i + 1] if i + 1 < len(sheet) else None
            if new.timing == "response":
                if "left" in new.arrows and left is not None:
                    return i
                if "right" in new.arrows and right is not None:
                    return i
            else:
                if right is not None and right.timing == "response" and "left" in right.arrows:
                    return i
                if left is not None and left.timing == "response" and "right" in left.arrows:
                    return i
        return empty[0]

    def _on_rearrange(self, ctx, legal):
        return A.PASS

    def _on_first_player(self, ctx: _Ctx, legal):
        beliefs = [ctx.safe_worth(s) for s in ctx.board_safes()]
        if beliefs and max(beliefs) >= 6.0 and A.SEAT in legal:
            return A.SEAT  # a great Safe is waiting: play first
        after_me = A.SEAT + 1
        return after_me if after_me in legal else A.SEAT

    # ------------------------------------------------------------ Safes
    def _on_peek_target(self, ctx: _Ctx, legal):
        view = ctx.view
        best, best_key = None, None
        for a in legal:
            sid = safe_of_board_action(view, a)
            if sid is None:
                continue
            unknown = view.safes[sid].value is None
            key = (unknown, ctx.peek_gain(sid) if unknown else 0.0, ctx.safe_worth(sid))
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    def _on_steal_target(self, ctx: _Ctx, legal):
        view = ctx.view
        scored = []
        for a in legal:
            sid = safe_of_board_action(view, a)
            if sid is not None:
                scored.append((ctx.safe_worth(sid), -a, a))
        return max(scored)[2] if scored else None

    def _on_abandon(self, ctx: _Ctx, legal):
        me = ctx.me
        scored = []
        for a in legal:
            i = a - A.HELD_SAFE
            if 0 <= i < len(me.safes):
                scored.append((ctx.safe_worth(me.safes[i]), a))
        return min(scored)[1] if scored else None

    def _rivals_follow_marks(self, ctx: _Ctx) -> bool:
        """Have rivals been stealing Safes that carry someone else's high Mark?"""
        view = ctx.view
        marks: dict[int, list[tuple[int, int]]] = {}
        hits = steals = 0
        for event in view.history:
            if event[0] == "mark":
                marks.setdefault(event[3], []).append((event[2], event[4]))
            elif event[0] == "steal" and event[2] != view.seat:
                steals += 1
                if any(o != event[2] and f >= 5 for o, f in marks.get(event[3], ())):
                    hits += 1
        marked = sum(1 for m in marks.values() if any(f >= 5 for _, f in m))
        base = marked / max(1, sum(len(row) for row in view.board) + 3)
        return steals >= 2 and hits / steals > max(0.4, 2.0 * base)

    def _intend_to_steal(self, ctx: _Ctx, sid: int, value: int) -> bool:
        others = [ctx.safe_worth(s) for s in ctx.board_safes() if s != sid]
        best_other = max(others, default=0.0)
        held = ctx.held_worths()
        full = len(held) >= ctx.view.day + ctx.days_after_today
        if full and held and value + 1 <= min(held):
            return False
        return ctx.future_steal_chance() > 0.3 and value + 1 >= best_other - 0.5

    def _on_mark_face(self, ctx: _Ctx, legal):
        view = ctx.view
        sid = view.context.get("safe")
        safe = view.safes.get(sid)
        faces = sorted(a - A.MARK_FACE for a in legal)
        if safe is None or safe.value is None:
            return A.MARK_FACE + faces[0]
        value = safe.value
        held = safe.holder == view.seat
        non_matching = [f for f in faces if f != value]
        if held or (self._intend_to_steal(ctx, sid, value) and value in faces):
            if held or not (value >= 5 and self._rivals_follow_marks(ctx)):
                if value in faces:
                    return A.MARK_FACE + value
            # hide a good Safe we mean to take under the lowest face
            return A.MARK_FACE + (non_matching[0] if non_matching else faces[0])
        if not non_matching:
            return A.MARK_FACE + faces[0]
        if value >= 5:
            return A.MARK_FACE + non_matching[0]  # a good Safe we cannot take: make it look poor
        # a poor Safe: lure rivals with a high face, keeping 6/7 Marks when 4/5 ones are left
        left = ctx.me.marks_left

        def lure_key(face: int):
            kind = (face - 2) // 2
            return (left[kind] if kind < len(left) else 0, face)

        return A.MARK_FACE + max(non_matching, key=lure_key)

    def _on_mark_source(self, ctx: _Ctx, legal):
        view = ctx.view
        sid = view.context.get("safe")
        safe = view.safes.get(sid)
        if safe is None or safe.value is None or not self._intend_to_steal(ctx, sid, safe.value):
            return A.PASS
        # move a Mark from a board Safe we do not intend to take and whose Mark does not match
        for a in legal:
            if A.BOARD_SAFE <= a < A.BOARD_SAFE + A.LOCATIONS * A.BOARD_POSITIONS:
                src = safe_of_board_action(view, a)
                if src is None:
                    continue
                other = view.safes[src]
                mine = [f for o, f in other.marks if o == view.seat]
                if other.value is not None and all(f != other.value for f in mine):
                    return a
        return A.PASS

    def _on_unused_location(self, ctx: _Ctx, legal):
        view = ctx.view

        def spread(a: int) -> float:
            loc = a - A.LOCATION
            values = view.location_values[loc]
            mean = sum(values) / len(values)
            return sum((v - mean) ** 2 for v in values) / len(values) + mean / 100

        return max(legal, key=spread)

    # ------------------------------------------------------------ card-effect decisions
    def _on_another_target(self, ctx: _Ctx, legal):
        """Use another Granuja: the one whose effect is worth most now."""
        view = ctx.view
        best, best_value = None, -1e9
        for a in legal:
            block, i = A.block_of(a)
            g = None
            if block == "sheet" and i < len(ctx.me.sheet):
                g = ctx.me.sheet[i]
            elif block == "saloon" and i < len(view.saloon):
                g = view.saloon[i]
            elif block == "discard_top":
                g = view.discard_top
            if g is None:
                continue
            value = ctx.granuja_use_value(g, via_slot=False)
            if value > best_value:
                best, best_value = a, value
        return best

    def _on_hire_target(self, ctx: _Ctx, legal):
        view = ctx.view
        scored = []
        for a in legal:
            block, i = A.block_of(a)
            g = view.saloon[i] if block == "saloon" and i < len(view.saloon) else None
            if g is not None:
                scored.append((ctx.hire_value(g), -a, a))
        return max(scored)[2] if scored else None

    def _on_steal_money_target(self, ctx: _Ctx, legal):
        view = ctx.view
        rivals = [a for a in legal if a != A.SEAT and A.block_of(a)[0] == "seat"]
        if not rivals:
            return None
        return max(rivals, key=lambda a: (view.players[view.abs_seat(a - A.SEAT)].money, -a))

    def _on_jail_rival_target(self, ctx: _Ctx, legal):
        """Jail the henchman of the rival most likely to challenge our cards."""
        view, prop = ctx.view, ctx.propensity()
        rivals = [a for a in legal if a != A.SEAT and A.block_of(a)[0] == "seat"]
        if not rivals:
            return None

        def threat(a: int):
            p = view.players[view.abs_seat(a - A.SEAT)]
            return (p.free_henchmen * prop[p.seat], p.reputation, -a)

        return max(rivals, key=threat)

    def _on_preempt_jail(self, ctx: _Ctx, legal):
        # the henchman goes to jail anyway: challenging first can only win reputation
        return A.CONFIRM if A.CONFIRM in legal else A.PASS

    def _on_jail_or_reputation(self, ctx: _Ctx, legal):
        lose_rep = -ctx.rep_value(ctx.me.reputation, -1)
        keep_henchman = ctx.henchman_value() + 0.4  # and its challenges later today
        return A.CONFIRM if keep_henchman < lose_rep and A.CONFIRM in legal else A.PASS

    def _on_free_target(self, ctx: _Ctx, legal):
        if A.SEAT in legal:
            return A.SEAT  # our own henchman (it then challenges a rival's card for us)
        view = ctx.view
        # someone else's: the weakest rival's (a freed henchman helps its owner)
        return min(legal, key=lambda a: (view.players[view.abs_seat(a - A.SEAT)].reputation, a))

    def _on_place_freed(self, ctx: _Ctx, legal):
        """Put the freed henchman on the rival card most likely to be a bluff (its last card
        of the day is the one the posterior rates)."""
        view = ctx.view
        best, best_b = None, -1.0
        for a in legal:
            index = a - A.POKER_TARGET
            rel, slot_index = divmod(index, 6)
            seat = view.abs_seat(rel)
            if seat == view.seat:
                continue
            declared = (
                view.declared[view.day - 1][seat] if view.day - 1 < len(view.declared) else ()
            )
            b = 0.5
            if declared and declared[-1] == slot_index + 1:
                b = self.bluff_probability(view, seat)
            if b > best_b:
                best, best_b = a, b
        return best

    def _on_destroy_target(self, ctx: _Ctx, legal):
        """Save the bluff carrying the most henchmen."""
        scored = []
        for a in legal:
            slot = a - A.SLOT
            card = next((c for c in ctx.me.played if c.slot == slot), None)
            if card is None:
                continue
            bluff = card.value is not None and card.value != card.slot
            scored.append((bluff, len(card.henchmen), -a, a))
        return max(scored)[3] if scored else None

    def _on_deck_top_card(self, ctx: _Ctx, legal):
        """Put back the card least useful today: the 0, else the card of the weakest free slot."""
        free = {s for s in ctx.rules.slots} - {c.slot for c in ctx.me.played}

        def usefulness(a: int):
            v = a - A.CARD
            if v not in free:
                return (0, 0.0, v)
            return (1, sum(ctx.slot_parts(v)), v)

        return min(legal, key=usefulness)

    def _on_peek_card_target(self, ctx: _Ctx, legal):
        """Look at a rival's card of today: the rival with the most turns still to play today
        (what it played tells what it still holds)."""
        view = ctx.view
        n = view.num_players
        later = [(view.first_player + t) % n for t in range(view.turn + 1, view.turns_per_day * n)]
        best, best_key = None, None
        for a in legal:
            rel, _slot_index = divmod(a - A.POKER_TARGET, 6)
            seat = view.abs_seat(rel)
            if seat == view.seat:
                continue
            key = (later.count(seat), -a)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best if best is not None else legal[0]

    def _on_shuffle_deck(self, ctx: _Ctx, legal):
        return A.PASS if A.PASS in legal else None

    def _on_blind_mark_target(self, ctx: _Ctx, legal):
        return self._on_peek_target(ctx, legal)

    def _on_steal_unused_target(self, ctx: _Ctx, legal):
        view = ctx.view

        def mean_unseen(a: int) -> float:
            loc = a - A.LOCATION
            remaining = Counter(view.location_values[loc])
            for safe in view.safes.values():
                if safe.location == loc and safe.value is not None:
                    remaining[safe.value] -= 1
            pool = [v for v, c in remaining.items() for _ in range(max(0, c))]
            return sum(pool) / len(pool) if pool else 0.0

        return max(legal, key=mean_unseen)

    # ------------------------------------------------------------ anything else
    def _generic(self, ctx: _Ctx, legal):
        """A decision kind without a rule here (the engine grows): read the action blocks.
        Optional yes/no: yes (abilities are gains as a rule). A board Safe: the best one. A seat:
        the strongest rival (most reputation, then money). Otherwise a random non-pass action."""
        view = ctx.view
        if set(legal) <= {A.PASS, A.CONFIRM}:
            return A.CONFIRM if A.CONFIRM in legal else A.PASS
        blocks: dict[str, list[int]] = {}
        for a in legal:
            blocks.setdefault(A.block_of(a)[0], []).append(a)
        if "board_safe" in blocks:
            scored = []
            for a in blocks["board_safe"]:
                sid = safe_of_board_action(view, a)
                if sid is not None and sid in view.safes:
                    scored.append((ctx.safe_worth(sid), -a, a))
            if scored:
                return max(scored)[2]
        if "seat" in blocks:
            rivals = [a for a in blocks["seat"] if a != A.SEAT]
            if rivals:

                def strength(a: int):
                    p = view.players[view.abs_seat(a - A.SEAT)]
                    return (p.reputation, p.money, -a)

                return max(rivals, key=strength)
        others = [a for a in legal if a != A.PASS]
        return self._rng.choice(others) if others else A.PASS

    def __repr__(self) -> str:
        return f"HeuristicAgent(seed={self.seed!r})"
