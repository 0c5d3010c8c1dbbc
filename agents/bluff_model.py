"""Public-evidence models of the other players, for the heuristic bot.

Two estimates, both computed only from a :class:`~granujas_env.view.SeatView` (public history):

:class:`HandInference` — the probability that a declared card is a bluff. Every player owns exactly
one poker card of each value (0, A, 2..6); a hand of 4 is dealt from the 7, all 4 are played during
a day (one per turn, each into a different slot), and at the end of the day the played cards go
*under* the deck, so the next hand is the 3 cards left in the deck plus one random card of the 4 just
played. The hidden state of a player at the start of day ``d`` is therefore just its hand ``H_d``,
a Markov chain::

    H_{d+1} = (all cards - H_d) + one card drawn uniformly from H_d

A card played into slot ``s`` is honest if its value is ``s``. The play itself is modelled as a
softmax over the legal (card, slot) pairs of the moment, weight ``lam`` for a matching pair and
``beta[slot]`` for a bluff into that slot (a type of player: ``lam = 1`` is uniform random play,
large ``lam`` is honest play, ``beta`` raised on slot 5 is a player who bluffs for the steal). The
posterior over (type, hand, values of this day's cards) given every declared slot and every card
revealed by a challenge is computed exactly by enumeration (35 hands x at most 24 orderings per
day); the type mixture is re-weighted by how well each type explains the whole public record, so
a player whose bluffs keep being revealed is soon read as a bluffer, and an honest one as honest.
This is the same evidence a careful human uses: a slot declared yesterday is unlikely to be held
again today (the card most likely went under the deck), a slot never declared before is likely
held, a revealed card is not in the hand, and players differ in how often they lie.

:func:`challenge_propensity` — how readily each player places a henchman on a rival's card when it
has a free one (challenges made / cards it could have challenged, from the public log), which sets
the risk of a bluff.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

__all__ = [
    "DEFAULT_TYPES",
    "EarlyChallengers",
    "HandInference",
    "PlayerType",
    "PublicLog",
    "challenge_propensity",
    "public_record",
    "record_key",
    "shared_inference",
    "today_evidence",
]


@dataclass(frozen=True)
class PlayerType:
    """A behaviour model of the Plan step: softmax weights of (card, slot) pairs."""

    name: str
    prior: float
    lam: float  # weight of an honest pair (card value == slot)
    beta: tuple[float, ...]  # weight of a bluff into slot 1..6 (index slot - 1)


DEFAULT_TYPES: tuple[PlayerType, ...] = (
    PlayerType("uniform", 0.25, 1.0, (1.0,) * 6),
    PlayerType("honest", 0.25, 200.0, (1.0,) * 6),
    PlayerType("mostly-honest", 0.25, 12.0, (1.0,) * 6),
    PlayerType("steal-bluffer", 0.25, 12.0, (1.0, 1.0, 1.5, 2.5, 8.0, 0.6)),
)


# day tables kept per HandInference (the types' tables of one day's record together), least
# recently used dropped first: ~29 kB each (4 types), so ~60 MB at most; 250 four-player games
# use ~1,300 distinct ones, hit ~77% of the time
TABLE_CACHE_SIZE = 2048


def _masks(n_values: int, size: int) -> list[int]:
    return [sum(1 << v for v in combo) for combo in combinations(range(n_values), size)]


def _bits(mask: int) -> list[int]:
    out, v = [], 0
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return out


class HandInference:
    """Exact posterior over a player's hand under a mixture of :class:`PlayerType`.

    Works for the standard cycle (hand size ``h`` dealt from ``len(values)`` cards, every hand
    card played each day). If a player's record breaks that cycle (a day with a different number
    of plays, e.g. a card effect that draws), its hand prior restarts from uniform for the next day.
    """

    def __init__(
        self,
        values: Sequence[int] = (0, 1, 2, 3, 4, 5, 6),
        slots: Sequence[int] = (1, 2, 3, 4, 5, 6),
        hand_size: int = 4,
        types: Sequence[PlayerType] = DEFAULT_TYPES,
        memo_tables: bool = True,
    ) -> None:
        self.values = tuple(values)
        self.slots = tuple(slots)
        self.hand_size = hand_size
        self.types = tuple(types)
        self.index = {v: i for i, v in enumerate(self.values)}
        n = len(self.values)
        self.full = (1 << n) - 1
        self.hands = _masks(n, hand_size)
        # value index -> the slot it matches (or -1: the 0 matches no slot)
        self.match_slot = [v if v in self.slots else -1 for v in self.values]
        self.transition = self._transition()
        self._slot_bit = {sl: 1 << (sl - 1) for sl in self.slots}
        self._all_free = sum(self._slot_bit.values())
        self._bits = [_bits(m) for m in range(1 << n)]
        self._by_size = [
            [m for m in range(1 << n) if len(self._bits[m]) == k] for k in range(n + 1)
        ]
        # cards left -> (a card, the cards left once it is played), in increasing value order
        self._children = [[(v, m & ~(1 << v)) for v in self._bits[m]] for m in range(1 << n)]
        self._arrays()
        self._z_rows: dict[tuple[int, int], np.ndarray] = {}
        self._play_rows: dict[tuple[int, int, int], tuple[np.ndarray, np.ndarray]] = {}
        self._future_rows: dict[tuple[int, int, bool], np.ndarray] = {}
        self._day_cache: dict[tuple, tuple[list[dict[int, float]], list[float]]] = {}
        self._analysis_cache: dict[tuple, dict[str, object]] = {}
        # day tables by (declared slots, known values, want_future): one day's declared slots
        # recur across players, days and games; None recomputes them every time
        self._table_cache: dict[tuple, tuple[dict, ...]] | None = {} if memo_tables else None

    def _arrays(self) -> None:
        """The numpy form of the enumeration, for :meth:`_compute_day_tables`: each set of cards
        of size k is a position in ``_by_size[k]``; child c of each (the c-th card by value) is
        ``_child_values[k][c]`` (value index), leaving the set at ``_child_rests[k][c]`` (position
        in size k - 1)."""
        position = [{m: i for i, m in enumerate(masks)} for masks in self._by_size]
        self._child_values: list[np.ndarray] = [np.zeros((0, 1), dtype=np.intp)]
        self._child_rests: list[np.ndarray] = [np.zeros((0, 1), dtype=np.intp)]
        for k in range(1, len(self._by_size)):
            masks = self._by_size[k]
            kids = [self._children[m] for m in masks]
            self._child_values.append(np.array([[kid[c][0] for kid in kids] for c in range(k)]))
            self._child_rests.append(
                np.array([[position[k - 1][kid[c][1]] for kid in kids] for c in range(k)])
            )
        zero = self.index.get(0)
        zero_bit = 0 if zero is None else 1 << zero
        # a set holding the 0 -> the position of the set without it (a 0 played face up)
        self._has_zero = [np.array([bool(m & zero_bit) for m in ms]) for ms in self._by_size]
        self._zero_rests = [
            np.array([position[k - 1][m & ~zero_bit] if m & zero_bit else 0 for m in ms])
            if k
            else np.zeros(len(ms), dtype=np.intp)
            for k, ms in enumerate(self._by_size)
        ]
        self._match = np.array(self.match_slot)
        self._value_array = np.array(self.values)
        self._lam = np.array([[ptype.lam] for ptype in self.types])
        self._beta = np.array([list(ptype.beta) for ptype in self.types])

    # -------------------------------------------------------------- the deck cycle
    def _transition(self) -> dict[int, list[tuple[int, float]]]:
        """H_d -> [(H_{d+1}, probability)] for the standard cycle."""
        h, out = self.hand_size, {}
        for hand in self.hands:
            rest = self.full & ~hand  # on top of the deck, in random order
            rest_bits, hand_bits = _bits(rest), _bits(hand)
            nxt: dict[int, float] = {}
            if len(rest_bits) >= h:
                subsets = list(combinations(rest_bits, h))
                for combo in subsets:
                    m = sum(1 << v for v in combo)
                    nxt[m] = nxt.get(m, 0.0) + 1.0 / len(subsets)
            else:
                k = h - len(rest_bits)
                subsets = list(combinations(hand_bits, k))
                for combo in subsets:
                    m = rest | sum(1 << v for v in combo)
                    nxt[m] = nxt.get(m, 0.0) + 1.0 / len(subsets)
            out[hand] = list(nxt.items())
        return out

    def _propagate(self, post: dict[int, float]) -> dict[int, float]:
        prior: dict[int, float] = {}
        for hand, p in post.items():
            if p <= 0.0:
                continue
            for nxt, q in self.transition[hand]:
                prior[nxt] = prior.get(nxt, 0.0) + p * q
        return prior

    # -------------------------------------------------------------- one day's plays
    def _z(self, t: int, hand_left: int, free: int) -> float:
        """Normaliser of the softmax over (card, slot) pairs for type ``t``."""
        ptype = self.types[t]
        lam, beta = ptype.lam, ptype.beta
        left = self._bits[hand_left]
        z = len(left) * sum(beta[s - 1] for s in self.slots if free & self._slot_bit[s])
        for v in left:
            s = self.match_slot[v]
            if s > 0 and free & self._slot_bit[s]:
                z += lam - beta[s - 1]
        return z

    def _day_table(
        self, t: int, seq: tuple[int, ...], revealed: tuple[tuple[int, int], ...], want_future: bool
    ) -> dict[int, tuple[float, float, float, float]]:
        """Type ``t``'s table of :meth:`_day_tables`."""
        return self._day_tables(seq, revealed, want_future)[t]

    def _day_tables(
        self, seq: tuple[int, ...], revealed: tuple[tuple[int, int], ...], want_future: bool
    ) -> tuple[dict[int, tuple[float, float, float, float]], ...]:
        """For every type and hand: (P(declared slots ``seq`` [, revealed values] | hand), the
        part of it in which the last card of ``seq`` is a bluff, and, if ``want_future``, the
        probability-weighted best and mean bluff probability of the cards still in hand; see
        :meth:`analyze`), one dict per type; whole in ``_table_cache``. Every caller reads every
        type, so the types are computed (and kept) together."""
        cache = self._table_cache
        if cache is None:
            return self._compute_day_tables(seq, revealed, want_future)
        key = (seq, revealed, want_future)
        tables = cache.pop(key, None)
        if tables is None:
            if len(cache) >= TABLE_CACHE_SIZE:
                del cache[next(iter(cache))]  # the least recently used
            tables = self._compute_day_tables(seq, revealed, want_future)
        cache[key] = tables  # (re)inserted last: the dict's order is the order of use
        return tables

    def _compute_day_tables(
        self, seq: tuple[int, ...], revealed: tuple[tuple[int, int], ...], want_future: bool
    ) -> tuple[dict[int, tuple[float, float, float, float]], ...]:
        # Bottom-up over the plays of ``seq``, last first: the value of (play index j, cards left)
        # for every set of cards left (hand_size - j of them), as arrays [column, type, set]. Each
        # play sums over the cards that may have made it in increasing value order, one array
        # operation per card, so every entry is the same sum of the same products, to the last
        # bit, as the plain recursion over hands (tests/test_heuristic_digest.py). A card that
        # cannot have made the play adds 0.0 (every term is >= 0: adding 0.0 changes nothing).
        slot_bit = self._slot_bit
        rev = dict(revealed)
        last = len(seq) - 1
        frees = [self._all_free]
        for slot in seq:
            frees.append(frees[-1] & ~slot_bit.get(slot, 0))
        top = min(len(seq), self.hand_size)
        if top == len(seq):  # every play explained: P(nothing more to explain) = 1
            below = self._future_row(frees[top], self.hand_size - top, want_future)
        else:  # more plays than cards in hand
            below = np.zeros((4, len(self.types), 1))
        for j in range(top - 1, -1, -1):
            size, slot = self.hand_size - j, seq[j]
            if slot not in slot_bit:  # a 0 played face up (public): no slot, no bluff
                below = np.where(self._has_zero[size], below[:, :, self._zero_rests[size]], 0.0)
                continue
            p, honest = self._plays(frees[j], size, slot)
            want = rev.get(j)
            if want is not None:
                p = np.where(self._value_array[self._child_values[size]] == want, p, 0.0)
            child = below[:, :, self._child_rests[size]]  # [column, type, card, set]
            if j == last:  # the last card is the bluff
                child[1] = np.where(honest, child[1], child[0])
            terms = child * p
            below = terms[:, :, 0]
            for c in range(1, size):
                below = below + terms[:, :, c]
        hands = self._by_size[self.hand_size]
        return tuple(
            dict(zip(hands, zip(*columns))) for columns in below.transpose(1, 0, 2).tolist()
        )

    def _plays(self, free: int, size: int, slot: int) -> tuple[np.ndarray, np.ndarray]:
        """(P(a card was played into ``slot``) [type, card, set] for every set of ``size`` cards
        left and ``free`` slots, each card in increasing value order: its pair's weight over
        :meth:`_z`, 0.0 where z is not > 0; whether each card matches ``slot`` [card, set])."""
        key = (free, size, slot)
        got = self._play_rows.get(key)
        if got is None:
            z = self._z_rows.get((free, size))
            if z is None:  # the same for every slot
                masks, types = self._by_size[size], range(len(self.types))
                z = self._z_rows[(free, size)] = np.array(
                    [[self._z(t, m, free) for m in masks] for t in types]
                )
            explained = z > 0.0
            z = np.where(explained, z, 1.0)
            # the weight of a pair over z: lam for the card that matches the slot
            p_honest, p_bluff = self._lam / z, self._beta[:, slot - 1 : slot] / z
            honest = self._match[self._child_values[size]] == slot
            p = np.where(honest, p_honest[:, None, :], p_bluff[:, None, :])
            p = np.where(explained[:, None, :], p, 0.0)
            p.flags.writeable = honest.flags.writeable = False  # shared by the tables
            got = self._play_rows[key] = (p, honest)
        return got

    def _future_row(self, free: int, size: int, want_future: bool) -> np.ndarray:
        """The table of a day whose plays are all explained, [column, type, set of ``size``
        cards left]: (1, 0, :meth:`_future` if ``want_future`` else (0, 0))."""
        key = (free, size, want_future)
        row = self._future_rows.get(key)
        if row is None:
            masks = self._by_size[size]
            row = np.zeros((4, len(self.types), len(masks)))
            row[0] = 1.0
            if want_future:
                for t in range(len(self.types)):
                    row[2:, t] = np.array([self._future(t, m, free) for m in masks]).T
            row.flags.writeable = False  # shared by the tables of every such day
            self._future_rows[key] = row
        return row

    def _future(self, t: int, hand_left: int, free: int) -> tuple[float, float]:
        """(best, mean) bluff probability over the cards still in hand, for type ``t``: a card
        with no free matching slot is a forced bluff; another one is bluffed with the type's
        voluntary rate. Honest types keep forced bluffs for last, so the best card to challenge
        is a bluff with P(at least one forced bluff)."""
        ptype = self.types[t]
        left = self._bits[hand_left]
        if not left:
            return (0.0, 0.0)
        slot_bit = self._slot_bit
        free_slots = [s for s in self.slots if free & slot_bit[s]]
        nf = len(free_slots)
        forced = sum(
            1 for v in left if self.match_slot[v] <= 0 or not free & slot_bit[self.match_slot[v]]
        )
        if nf <= 1:
            voluntary = 0.0
        else:
            b = sum(ptype.beta[s - 1] for s in free_slots) / nf
            voluntary = b * (nf - 1) / (ptype.lam + b * (nf - 1))
        mean = (forced + (len(left) - forced) * voluntary) / len(left)
        return (max(voluntary, 1.0 if forced else 0.0), mean)

    # -------------------------------------------------------------- posterior
    def _evidence(
        self, days: tuple[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], ...]
    ) -> tuple[list[dict[int, float]], list[float]]:
        """Per type: posterior over the hand at the start of the *next* day, and log-free
        evidence (product of per-day likelihoods), for fully played ``days`` (declared slots,
        sorted (play index, revealed value) pairs: :func:`past_days_key`)."""
        cached = self._day_cache.get(days)
        if cached is not None:
            return cached
        if days:
            priors, evidence = self._evidence(days[:-1])
            seq, rev_key = days[-1]
        else:
            uniform = {m: 1.0 / len(self.hands) for m in self.hands}
            out = ([dict(uniform) for _ in self.types], [1.0] * len(self.types))
            self._day_cache[days] = out
            return out
        next_priors, next_evidence = [], []
        tables = self._day_tables(seq, rev_key, False) if len(seq) == self.hand_size else ()
        for t, _ptype in enumerate(self.types):
            prior = priors[t]
            if len(seq) != self.hand_size:  # broken cycle: forget the hand, keep the type weight
                next_priors.append({m: 1.0 / len(self.hands) for m in self.hands})
                next_evidence.append(evidence[t])
                continue
            post: dict[int, float] = {}
            norm = 0.0
            table = tables[t]
            for hand, p in prior.items():
                if p <= 0.0:
                    continue
                like = table[hand][0]
                if like > 0.0:
                    post[hand] = p * like
                    norm += p * like
            if norm <= 0.0:  # inconsistent with this type's cycle: restart from uniform
                next_priors.append({m: 1.0 / len(self.hands) for m in self.hands})
                next_evidence.append(evidence[t] * 1e-6)
                continue
            post = {m: p / norm for m, p in post.items()}
            next_priors.append(self._propagate(post))
            next_evidence.append(evidence[t] * norm)
        out = (next_priors, next_evidence)
        if len(self._day_cache) > 20_000:
            self._day_cache.clear()
        self._day_cache[days] = out
        return out

    def analyze(
        self,
        past_days: Sequence[tuple[tuple[int, ...], dict[int, int]]],
        today: Sequence[int],
        today_known: dict[int, int] | None = None,
        excluded: Sequence[int] = (),
    ) -> dict[str, object]:
        """What the public record says about a player's cards today.

        ``past_days``: for each finished day, (declared slots in play order, {play index:
        revealed value}); ``today``: this day's declared slots so far (in play order);
        ``today_known``: {play index: value} of today's cards whose value is known (peeked at);
        ``excluded``: values known not to be in today's hand (e.g. shown on top of the deck).
        Returns a dict: ``bluff`` = P(the last card of ``today`` is a bluff) (0 if none),
        ``future_best`` = the bluff probability of its likeliest bluff among the cards still in
        hand, ``future_mean`` = their mean bluff probability, ``weights`` = posterior of the types.
        """
        known_key = tuple(sorted((today_known or {}).items()))
        excluded_mask = sum(1 << self.index[v] for v in set(excluded) if v in self.index)
        days = tuple(past_days_key(past_days))
        key = (days, tuple(today), known_key, excluded_mask)
        cached = self._analysis_cache.get(key)
        if cached is not None:
            return cached
        priors, evidence = self._evidence(days)
        seq = tuple(today)
        weights, parts = [], []
        tables = self._day_tables(seq, known_key, True)
        for t, ptype in enumerate(self.types):
            total = bluff = best = mean = 0.0
            table = tables[t]
            for hand, p in priors[t].items():
                if p <= 0.0 or hand & excluded_mask:
                    continue
                like, b, fb, fm = table[hand]
                total += p * like
                bluff += p * b
                best += p * fb
                mean += p * fm
            weights.append(ptype.prior * evidence[t] * total)
            parts.append(
                (bluff / total, best / total, mean / total) if total > 0 else (1.0, 1.0, 1.0)
            )
        norm = sum(weights)
        if norm <= 0.0:
            weights = [1.0 / len(self.types)] * len(self.types)
        else:
            weights = [w / norm for w in weights]
        out = {
            "bluff": sum(w * p[0] for w, p in zip(weights, parts)) if seq else 0.0,
            "future_best": sum(w * p[1] for w, p in zip(weights, parts)),
            "future_mean": sum(w * p[2] for w, p in zip(weights, parts)),
            "weights": weights,
        }
        if len(self._analysis_cache) > 20_000:
            self._analysis_cache.clear()
        self._analysis_cache[key] = out
        return out

    def bluff_probability(
        self,
        past_days: Sequence[tuple[tuple[int, ...], dict[int, int]]],
        today: Sequence[int],
    ) -> tuple[float, list[float]]:
        """P(the last card of ``today`` is a bluff) and the posterior weights of the types."""
        result = self.analyze(past_days, today)
        return float(result["bluff"]), list(result["weights"])  # type: ignore[arg-type]


_SHARED: dict[tuple, HandInference] = {}


def shared_inference(
    values: Sequence[int], slots: Sequence[int], hand_size: int, *, memo_tables: bool = True
) -> HandInference:
    """One :class:`HandInference` per card set (and ``memo_tables`` setting), shared by every bot
    of the process (its caches hold only functions of public records, so sharing them is safe and
    saves time)."""
    key = (tuple(values), tuple(slots), hand_size, memo_tables)
    inference = _SHARED.get(key)
    if inference is None:
        inference = _SHARED[key] = HandInference(values, slots, hand_size, memo_tables=memo_tables)
    return inference


def past_days_key(
    past_days: Sequence[tuple[Sequence[int], dict[int, int]]],
) -> Iterator[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]:
    """Each of ``past_days`` as a hashable (declared slots, sorted (play index, value) pairs)."""
    return ((tuple(seq), tuple(sorted(rev.items()))) for seq, rev in past_days)


# Public events that change a player's hand or deck outside the usual cycle (card effects).
DISTURBING_EVENTS = frozenset({"draw", "card_on_deck", "shuffle"})


class PublicLog:
    """What the bluff model reads from the public event log (``view.history``), gathered in one
    pass over the events and extended with the new ones only (:meth:`update`):

    * ``disturbed[seat]``: the day indices in which a card effect drew cards for ``seat``, put
      one back on its deck or shuffled it (its hand cycle is broken then);
    * ``shown[(day, seat)]``: the values shown on top of ``seat``'s deck that day since its last
      such effect (not in its hand);
    * the henchmen count of :func:`challenge_propensity`: free henchmen replayed from the log
      (challenges, reveals, bail), challenges made, and cards each seat could have challenged.
    """

    def __init__(self, num_players: int, free_henchmen: int) -> None:
        self.num_players = num_players
        self.free_henchmen = free_henchmen
        self.events: tuple[tuple, ...] = ()
        self.disturbed: dict[int, set[int]] = {}
        self.shown: dict[tuple[int, int], list[int]] = {}
        self.free = [free_henchmen] * num_players
        self.made = [0] * num_players
        self.chances = [0] * num_players
        # seats counted as able to challenge the card declared last: a challenge by a seat the
        # replay thought had no free henchman proves it had one (an event freed it that the
        # public log does not name), so that card counts as its chance too
        self._could_challenge: set[int] = set()

    @classmethod
    def of(cls, view, log: PublicLog | None = None) -> PublicLog:
        """The log of ``view``: ``log`` extended with the events it has not read when ``view``'s
        events continue it (same game, later), else a new one read from the start."""
        rules = view.rules
        free = rules.henchmen - rules.henchmen_in_jail
        history = view.history
        same_table = log is not None and (log.num_players, log.free_henchmen) == (
            view.num_players,
            free,
        )
        if same_table and history is log.events:
            return log  # nothing new: views of one game and moment share the events tuple
        if (
            not same_table
            or len(history) < len(log.events)
            or history[: len(log.events)] != log.events
        ):
            log = cls(view.num_players, free)
        log._read(history[len(log.events) :])
        log.events = history
        return log

    def _read(self, events: Sequence[tuple]) -> None:
        n, free, made, chances = self.num_players, self.free, self.made, self.chances
        for event in events:
            kind = event[0]
            if kind in DISTURBING_EVENTS and len(event) > 2:
                self.disturbed.setdefault(event[2], set()).add(event[1] - 1)
                self.shown[(event[1], event[2])] = []  # the deck top may be in hand now
            elif kind == "deck_top":
                self.shown.setdefault((event[1], event[2]), []).append(event[3])
            elif kind == "plan":
                p = event[2]
                self._could_challenge = {o for o in range(n) if o != p and free[o] > 0}
                for o in self._could_challenge:
                    chances[o] += 1
            elif kind == "challenge":
                o = event[2]
                made[o] += 1
                if o not in self._could_challenge:
                    self._could_challenge.add(o)
                    chances[o] += 1
                free[o] = max(0, free[o] - 1)
            elif kind == "reveal":
                bluff, owners = event[5], event[6]
                if bluff:
                    for o in owners:
                        free[o] += 1
            elif kind in ("bail", "free"):
                free[event[3]] += 1
            elif kind == "place_henchman":
                free[event[3]] = max(0, free[event[3]] - 1)
            elif kind == "jail" and len(event) > 2:
                free[event[2]] = max(0, free[event[2]] - 1)


def public_record(
    view, seat: int, log: PublicLog | None = None
) -> tuple[list[tuple[tuple[int, ...], dict[int, int]]], tuple[int, ...]]:
    """(finished days, today's declared slots) of ``seat`` from a SeatView, for
    :meth:`HandInference.analyze`. Revealed (or otherwise known) values are matched to their play
    index. A day in which a card effect drew cards, put a card back or shuffled the deck of that
    player breaks the cycle: it is passed as an empty day, so the hand prior restarts from uniform
    after it (and before today, if it happened today). ``log``: the view's :class:`PublicLog`
    (read from ``view.history`` when not given)."""
    today_index = view.day - 1
    disturbed = (log if log is not None else PublicLog.of(view)).disturbed.get(seat, ())
    known: dict[tuple[int, int], int] = {}
    for day, s, slot, value in view.reveals:
        if s == seat:
            known[(day, slot)] = value
    for day, s, slot, value in getattr(view, "known_cards", ()):
        if s == seat and day < today_index:
            known[(day, slot)] = value
    days: list[tuple[tuple[int, ...], dict[int, int]]] = []
    for d in range(min(today_index, len(view.declared))):
        if d in disturbed:
            days.append(((), {}))
            continue
        seq = tuple(view.declared[d][seat])
        rev = {i: known[(d, slot)] for i, slot in enumerate(seq) if (d, slot) in known}
        days.append((seq, rev))
    if today_index in disturbed:
        days.append(((), {}))
    today = tuple(view.declared[today_index][seat]) if today_index < len(view.declared) else ()
    return days, today


def record_key(view, seat: int, log: PublicLog) -> tuple:
    """Everything of ``view`` and ``log`` that :func:`public_record` and :func:`today_evidence`
    read about ``seat``: views with equal keys give ``seat`` the same record and evidence, so a
    bot keeps the analysis of that record while the key is unchanged."""
    disturbed = log.disturbed.get(seat)
    return (
        seat,
        view.day,
        tuple([by_seat[seat] for by_seat in view.declared]),
        tuple([r for r in view.reveals if r[1] == seat]),
        tuple([k for k in getattr(view, "known_cards", ()) if k[1] == seat]),
        frozenset(disturbed) if disturbed else None,
        tuple(log.shown.get((view.day, seat), ())),
    )


def today_evidence(
    view, seat: int, log: PublicLog | None = None
) -> tuple[dict[int, int], tuple[int, ...]]:
    """({play index: value} of ``seat``'s cards of today whose value this view knows, values
    shown on top of ``seat``'s deck today, hence not in its hand) for :meth:`HandInference.analyze`.
    ``log``: the view's :class:`PublicLog` (read from ``view.history`` when not given)."""
    today_index = view.day - 1
    if today_index >= len(view.declared):
        return {}, ()
    seq = view.declared[today_index][seat]
    known = {
        seq.index(slot): value
        for day, s, slot, value in getattr(view, "known_cards", ())
        if day == today_index and s == seat and slot in seq and slot > 0
    }
    log = log if log is not None else PublicLog.of(view)
    return known, tuple(log.shown.get((view.day, seat), ()))


def challenge_propensity(
    view, prior: tuple[float, float] = (1.0, 2.0), log: PublicLog | None = None
) -> list[float]:
    """Per seat: (challenges made + a) / (cards it could have challenged + b).

    A card "could have been challenged" by a seat when another player declared it while that seat
    had a free henchman; free henchmen are replayed from the public log (challenges, reveals,
    bail), starting from the rules' free henchmen. ``log``: the view's :class:`PublicLog` (read
    from ``view.history`` when not given).
    """
    log = log if log is not None else PublicLog.of(view)
    a, b = prior
    return [(log.made[o] + a) / (log.chances[o] + b) for o in range(view.num_players)]


class EarlyChallengers:
    """The rivals of ``view.seat`` seen placing a henchman on a card played before the day's
    last round, on a day before the last (on the last day a henchman left over is worth nothing,
    so everybody may challenge freely and that says nothing of the player), kept for the game.

    Heuristics never challenge there, an adaptive player does: `full` reads it (its play filter,
    its delegate's spot checks). A view shows only this day's cards, so :meth:`watch` must see
    the table at least once a day after such a henchman is placed: the filter watches at every
    Plan of its seat (one a round, the last in the last round), the heuristic at every decision."""

    def __init__(self) -> None:
        self.seats: set[int] = set()
        self._last_seen: tuple[int, int] = (0, 0)

    def reset(self) -> None:
        """Forget the game played so far."""
        self.seats = set()
        self._last_seen = (0, 0)

    def watch(self, view) -> set[int]:
        """Read ``view``'s cards of this day; the seats seen so far this game."""
        now = (view.day, view.turn)
        if now < self._last_seen:  # a new game, without a reset between
            self.reset()
        self._last_seen = now
        if view.day < view.last_day:
            for player in view.players:
                for card in player.played:
                    if card.turn < view.last_round_start:
                        self.seats.update(
                            s for s in card.henchmen if s not in (player.seat, view.seat)
                        )
        return self.seats
