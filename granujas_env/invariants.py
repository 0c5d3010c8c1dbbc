"""State invariants of a game of 3000 Granujas, checked after every step by the fuzzer.

:func:`check_invariants` raises :class:`InvariantError` naming the first broken invariant precisely
(which seat, which Safe, which card, the counts found and expected). It checks:

* **Safes**: the 18 Safes are conserved: every id is in exactly one place (board, a player's held
  Safes, an unused pile) and its own fields agree (``location``, ``board_pos``, ``holder``); every
  Safe keeps the location and value it was dealt (per location's printed values if the seed is
  unknown); a held Safe is known to its holder.
* **Safe limit**: a player holds at most ``day`` Safes, one more only while that player's ``abandon``
  decision is pending.
* **Henchmen**: per player free + jailed + on cards + destroyed == 3, none negative; at most one
  henchman of each player per card and never one on its owner's own card.
* **Poker cards**: per player hand + deck + played is exactly the 7 values 0, A, 2..6; played slots
  are distinct slots 1..6, or 0 for the 0 played face up (Honesto); at most 4 cards played a day.
  (No hand limit: drawing cards may take a hand past 4.)
* **Marks**: per player and Mark type, supply + Marks on Safes == the rules' count (7 in all), faces
  2..7, owners real seats.
* **Granuja halves**: every physical Occupation and Trait card index dealt at setup appears exactly
  once across the decks, the Saloon, the discard pile, the sheets and limbo (a hired Granuja on its
  way to the sheet); Granuja uids are unique and below ``next_uid``; the Saloon's gaps are on the left.
  The dealt set is rebuilt once per (config, seed) from the engine's own setup and cached; for a game
  created without a seed only per-colour counts can be checked.
* **Money** >= 0 and **reputation** within the rules' track bounds.
* **Flow**: while the game is not over a decision is pending, of a known kind, for a real seat, with a
  non-empty, sorted, duplicate-free list of in-range legal ids; once over, no decision, no legal
  ids, one score per seat and a winner.

Cost: about 20-30 µs per call on a 4-player game (the fuzzer calls it after every step); messages are
built only on failure.
"""

from __future__ import annotations

from collections import Counter
from typing import NoReturn

from .engine import actions as A
from .engine.game import DECISION_KINDS, Game
from .engine.state import Granuja

__all__ = ["InvariantError", "check_invariants"]

_LOC_NAMES_FALLBACK = ("location 0", "location 1", "location 2")


class InvariantError(AssertionError):
    """A state invariant does not hold; the message says which and where."""


class _Expected:
    """What a game of one (rules, catalog, config, seed) must always contain."""

    __slots__ = (
        "poker", "slots", "mark_counts", "rules", "catalog", "safe_values", "total_safes", "safe_lv", "occ", "trait", "occ_colours",
        "trait_colours",
    )

    def __init__(self, game: Game) -> None:
        rules, catalog = game.rules, game.catalog
        self.rules, self.catalog = rules, catalog  # keep alive: the cache key holds their ids
        self.poker = sorted(rules.poker_cards)
        self.slots = frozenset((0, *rules.slots))  # slot 0: the 0 played face up (Honesto)
        self.mark_counts = list(rules.mark_counts)
        self.safe_values = [sorted(loc.values) for loc in rules.locations]
        self.total_safes = sum(len(v) for v in self.safe_values)
        # with a known seed: the exact deal (Safe id -> (location, value), Granuja halves)
        self.safe_lv: list[tuple[int, int]] | None = None
        self.occ: list[int] | None = None
        self.trait: list[int] | None = None
        # per-colour card counts the deck table deals (used when the seed is unknown)
        table = rules.decks[(game.config.game_length, game.num_players)]
        self.occ_colours = _colour_counts(catalog.cards_of_colour, table["occupations"])
        self.trait_colours = _colour_counts(catalog.cards_of_colour, table["traits"])
        if game.seed is not None:
            fresh = Game(game.config, seed=game.seed, rules=rules, catalog=catalog)
            occ, trait = _halves(fresh)
            self.occ, self.trait = sorted(occ), sorted(trait)
            self.safe_lv = [(s.location, s.value) for s in fresh.safes]


def _colour_counts(cards_of_colour, table: dict) -> dict[str, int]:
    out = {}
    for colour, count in table.items():
        available = len(cards_of_colour(colour))
        out[colour] = available if count == "all" else min(int(count), available)
    return out


_CACHE: dict[tuple, _Expected] = {}


def _expected(game: Game) -> _Expected:
    key = (game.config, game.seed, id(game.rules), id(game.catalog))
    exp = _CACHE.get(key)
    if exp is None or exp.rules is not game.rules or exp.catalog is not game.catalog:
        if len(_CACHE) >= 4096:
            _CACHE.clear()
        exp = _CACHE[key] = _Expected(game)
    return exp


def _granujas(game: Game) -> list[tuple[str, Granuja]]:
    """Every Granuja in play with where it lies."""
    out: list[tuple[str, Granuja]] = [
        (f"saloon[{i}]", g) for i, g in enumerate(game.saloon) if g is not None
    ]
    for p in game.players:
        out += [(f"p{p.seat} sheet[{i}]", g) for i, g in enumerate(p.sheet) if g is not None]
    out += [(f"discard[{i}]", g) for i, g in enumerate(game.discard)]
    if game.limbo is not None:
        out.append(("limbo", game.limbo))
    return out


def _halves(game: Game) -> tuple[list[int], list[int]]:
    occ = list(game.occ_deck)
    trait = list(game.trait_deck)
    for g in game.saloon:
        if g is not None:
            occ.append(g.occ)
            trait.append(g.trait)
    for p in game.players:
        for g in p.sheet:
            if g is not None:
                occ.append(g.occ)
                trait.append(g.trait)
    for g in game.discard:
        occ.append(g.occ)
        trait.append(g.trait)
    if game.limbo is not None:
        occ.append(game.limbo.occ)
        trait.append(game.limbo.trait)
    return occ, trait


def _fail(message: str) -> NoReturn:
    raise InvariantError(message)


def _loc_name(game: Game, loc: int) -> str:
    try:
        return game.rules.locations[loc].name
    except (IndexError, TypeError):
        return _LOC_NAMES_FALLBACK[loc] if 0 <= loc < 3 else f"location {loc}"


# ---------------------------------------------------------------------------------------- Safes
def _check_safes(game: Game, exp: _Expected) -> None:
    safes = game.safes
    total = exp.total_safes
    if len(safes) != total:
        _fail(f"Safes: game.safes has {len(safes)} Safes, expected {total}")
    board, players, unused = game.board, game.players, game.unused
    n = len(players)
    # Each Safe must lie where its own fields say; with exactly `total` entries over the board,
    # the held lists and the unused piles, that makes every id appear exactly once.
    for i, s in enumerate(safes):
        if s.id != i:
            _fail(f"Safes: game.safes[{i}] has id {s.id}")
        holder, pos = s.holder, s.board_pos
        if holder == -1:
            if pos == -1:
                ok = 0 <= s.location < len(unused) and i in unused[s.location]
            else:
                ok = 0 <= s.location < len(board) and 0 <= pos < len(board[s.location]) and \
                    board[s.location][pos] == i
        else:
            ok = pos == -1 and 0 <= holder < n and i in players[holder].safes
        if not ok:
            _fail(_describe_safes(game, total))
    placed = sum(len(p.safes) for p in players) + sum(len(pile) for pile in unused)
    for row in board:
        for sid in row:
            if sid is not None:
                placed += 1
    if placed != total:
        _fail(_describe_safes(game, total))
    if exp.safe_lv is not None:
        if [(s.location, s.value) for s in safes] != exp.safe_lv:
            _fail(_describe_safe_values(game, exp))
    else:
        by_loc: list[list[int]] = [[] for _ in exp.safe_values]
        for s in safes:
            by_loc[s.location].append(s.value)
        if [sorted(v) for v in by_loc] != exp.safe_values:
            _fail(_describe_safe_values(game, exp))


def _describe_safe_values(game: Game, exp: _Expected) -> str:
    if exp.safe_lv is not None:
        for i, s in enumerate(game.safes):
            want = exp.safe_lv[i]
            if (s.location, s.value) != want:
                return (f"Safe {i} has location {s.location} value {s.value}; it was dealt at "
                        f"{_loc_name(game, want[0])} with value {want[1]}")
    by_loc: list[list[int]] = [[] for _ in exp.safe_values]
    for s in game.safes:
        by_loc[s.location].append(s.value)
    return "; ".join(
        f"Safe values of {_loc_name(game, loc)} are {sorted(v)}, expected {exp.safe_values[loc]}"
        for loc, v in enumerate(by_loc) if sorted(v) != exp.safe_values[loc]
    )


def _describe_safes(game: Game, total: int) -> str:
    """The precise message for a Safe out of place (slow path, failures only)."""
    safes = game.safes
    entries: list[tuple[object, str, str]] = []  # (id, where, fields expected)
    for loc, row in enumerate(game.board):
        for pos, sid in enumerate(row):
            if sid is not None:
                entries.append((sid, f"on the board at {_loc_name(game, loc)} position {pos}",
                                f"location={loc} board_pos={pos} holder=-1"))
    for p in game.players:
        for sid in p.safes:
            entries.append((sid, f"held by p{p.seat}", f"holder={p.seat} board_pos=-1"))
    for loc, pile in enumerate(game.unused):
        for sid in pile:
            entries.append((sid, f"in the unused pile of {_loc_name(game, loc)}",
                            f"location={loc} board_pos=-1 holder=-1"))
    where: dict[object, list[str]] = {}
    for sid, place, _ in entries:
        where.setdefault(sid, []).append(place)
    parts = []
    bad_ids = sorted((sid for sid in where if not (isinstance(sid, int) and 0 <= sid < total)),
                     key=repr)
    if bad_ids:
        parts.append(f"{bad_ids} placed but not Safe ids 0..{total - 1}")
    for sid, places in sorted(where.items(), key=lambda kv: repr(kv[0])):
        if len(places) > 1:
            parts.append(f"Safe {sid} is in {len(places)} places: {'; '.join(places)}")
    missing = [sid for sid in range(total) if sid not in where]
    if missing:
        parts.append(f"Safes {missing} are nowhere (not on the board, held or unused)")
    for sid, place, fields in entries:
        if isinstance(sid, int) and 0 <= sid < total:
            s = safes[sid]
            got = f"location={s.location} board_pos={s.board_pos} holder={s.holder}"
            want = dict(kv.split("=") for kv in fields.split())
            have = {"location": str(s.location), "board_pos": str(s.board_pos),
                    "holder": str(s.holder)}
            if any(have[k] != v for k, v in want.items()):
                parts.append(f"Safe {sid} is {place} but has {got}; expected {fields}")
    return "Safes not conserved: " + ("; ".join(parts) or "inconsistent Safe fields")


# ---------------------------------------------------------------------------------------- players
def _check_players(game: Game, exp: _Expected) -> None:
    rules, n = game.rules, game.num_players
    players = game.players
    if len(players) != n:
        _fail(f"game.players has {len(players)} players, expected {n}")
    on_cards = [0] * n
    placed = [[0, 0, 0] for _ in range(n)]
    for s in game.safes:
        for owner, face in s.marks:
            if not (0 <= owner < n and 2 <= face <= 7):
                _fail(f"Safe {s.id} carries a Mark (owner {owner}, face {face}): owner must be a "
                      f"seat 0..{n - 1} and face 2..7")
            placed[owner][(face - 2) >> 1] += 1
    for p in players:
        for card in p.played:
            hench = card.henchmen
            if hench:
                if p.seat in hench:
                    _fail(f"p{p.seat} has a henchman on its own card in slot {card.slot}")
                if len(set(hench)) != len(hench):
                    _fail(f"p{p.seat}'s card in slot {card.slot} carries henchmen {hench}: more "
                          "than one of the same player")
                for owner in hench:
                    if not 0 <= owner < n:
                        _fail(f"p{p.seat}'s card in slot {card.slot} carries a henchman of seat "
                              f"{owner}, not a player")
                    on_cards[owner] += 1
    poker, slots_ok = exp.poker, exp.slots
    henchmen, mark_counts = rules.henchmen, exp.mark_counts
    rep_min, rep_max = rules.reputation_min, rules.reputation_max
    turns, day = rules.turns_per_day, game.day
    for seat, p in enumerate(players):
        if p.seat != seat:
            _fail(f"game.players[{seat}].seat is {p.seat}")
        if p.money < 0:
            _fail(f"p{seat} has {p.money} $ (money must never be negative)")
        if not rep_min <= p.reputation <= rep_max:
            _fail(f"p{seat} has reputation {p.reputation}, outside the track {rep_min}..{rep_max}")
        free, jailed, destroyed = p.free_henchmen, p.jailed_henchmen, p.destroyed_henchmen
        if free + jailed + on_cards[seat] + destroyed != henchmen or min(free, jailed, destroyed) < 0:
            _fail(
                f"p{seat} henchmen: free {free} + jailed {jailed} + on cards {on_cards[seat]} + "
                f"destroyed {destroyed} = {free + jailed + on_cards[seat] + destroyed}, expected "
                f"{henchmen} (none negative)"
            )
        played = p.played
        values = p.hand + p.deck
        values += [c.value for c in played]
        values.sort()
        if values != poker:
            _fail(
                f"p{seat} poker cards: hand {p.hand} + deck {p.deck} + played "
                f"{[c.value for c in played]} = {values}, expected each of {poker} exactly once"
            )
        if played:
            slots = {c.slot for c in played}
            if len(slots) != len(played) or not slots <= slots_ok or len(played) > turns:
                _fail(f"p{seat} played cards in slots {[c.slot for c in played]}: at most "
                      f"{turns} a day, in distinct slots of {sorted(slots_ok)} (0: face up)")
            if 0 in slots:
                for c in played:
                    if c.slot == 0 and c.value != 0:
                        _fail(f"p{seat} has a {c.value} face up (slot 0): only the 0 is played "
                              "face up (Honesto)")
        supply, on_safes = p.marks, placed[seat]
        if [supply[0] + on_safes[0], supply[1] + on_safes[1], supply[2] + on_safes[2]] != \
                mark_counts or min(supply) < 0:
            for t in range(3):
                if supply[t] < 0 or supply[t] + on_safes[t] != mark_counts[t]:
                    _fail(
                        f"p{seat} Marks {2 + 2 * t}/{3 + 2 * t}: {supply[t]} in supply + "
                        f"{on_safes[t]} on Safes = {supply[t] + on_safes[t]}, expected "
                        f"{mark_counts[t]} (supply never negative)"
                    )
        held = p.safes
        if held:
            if len(held) > day:
                frame = game.stack[-1] if game.stack and not game.game_over else None
                pending = frame is not None and frame.kind == "abandon" and frame.player == seat
                if not (pending and len(held) == day + 1):
                    _fail(
                        f"p{seat} holds {len(held)} Safes on day {day}: over the Safe limit {day}"
                        + (" by more than one" if pending else
                           f" with no abandon decision pending for p{seat}")
                    )
            known = p.known_safes
            for sid in held:
                if sid not in known:
                    _fail(f"p{seat} holds Safe {sid} but it is not among p{seat}'s known Safes")


# ---------------------------------------------------------------------------------------- Granujas
def _check_granujas(game: Game, exp: _Expected) -> None:
    saloon = game.saloon
    items = [g for g in saloon if g is not None]
    if None in saloon[len(saloon) - len(items):]:
        _fail(f"Saloon {['-' if x is None else x.uid for x in saloon]}: an empty spot right of "
              "a Granuja (new Granujas enter on the left, the rest shift right)")
    for p in game.players:
        items += [g for g in p.sheet if g is not None]
    items += game.discard
    if game.limbo is not None:
        items.append(game.limbo)
    occ = game.occ_deck + [g.occ for g in items]
    trait = game.trait_deck + [g.trait for g in items]
    if exp.occ is not None:
        occ.sort()
        trait.sort()
        ok = occ == exp.occ and trait == exp.trait
    else:
        ok = len(set(occ)) == len(occ) and len(set(trait)) == len(trait)
        if ok:
            catalog = game.catalog
            try:
                ok = Counter(catalog.occupation_cards[i].colour for i in occ) == Counter(
                    {c: k for c, k in exp.occ_colours.items() if k}
                ) and Counter(catalog.trait_cards[i].colour for i in trait) == Counter(
                    {c: k for c, k in exp.trait_colours.items() if k}
                )
            except (IndexError, TypeError):
                ok = False
    if not ok:
        _fail(_describe_halves(game, exp, occ, trait))
    uids = {g.uid for g in items}
    next_uid = game.next_uid
    if len(uids) != len(items) or len(items) != next_uid or (
        items and (min(uids) < 0 or max(uids) >= next_uid)
    ):
        seen: dict[int, str] = {}
        for where, g in _granujas(game):
            if g.uid in seen:
                _fail(f"Granuja uid {g.uid} appears twice: {seen[g.uid]} and {where}")
            if not 0 <= g.uid < next_uid:
                _fail(f"Granuja at {where} has uid {g.uid}, not in 0..next_uid-1 = {next_uid - 1}")
            seen[g.uid] = where
        _fail(f"{len(items)} Granujas are in play but {next_uid} were formed (next_uid): a "
              "Granuja was lost or created out of nothing")


def _describe_halves(game: Game, exp: _Expected, occ: list[int], trait: list[int]) -> str:
    places: dict[str, dict[int, list[str]]] = {"Occupation": {}, "Trait": {}}
    for i in game.occ_deck:
        places["Occupation"].setdefault(i, []).append("occupation deck")
    for i in game.trait_deck:
        places["Trait"].setdefault(i, []).append("trait deck")
    for where, g in _granujas(game):
        places["Occupation"].setdefault(g.occ, []).append(f"{where} (uid {g.uid})")
        places["Trait"].setdefault(g.trait, []).append(f"{where} (uid {g.uid})")
    parts = []
    for half, found, expected in (("Occupation", occ, exp.occ), ("Trait", trait, exp.trait)):
        where = places[half]
        for index, spots in sorted(where.items()):
            if len(spots) > 1:
                parts.append(f"{half} card {index} appears {len(spots)} times: {', '.join(spots)}")
        if expected is not None:
            missing = sorted((Counter(expected) - Counter(found)).elements())
            extra = sorted((Counter(found) - Counter(expected)).elements())
            if missing:
                parts.append(f"{half} cards dealt at setup but now nowhere: {missing}")
            if extra:
                parts.append(f"{half} cards not dealt at setup: {extra}")
        else:
            cards = game.catalog.occupation_cards if half == "Occupation" else game.catalog.trait_cards
            want = exp.occ_colours if half == "Occupation" else exp.trait_colours
            bad = [i for i in found if not 0 <= i < len(cards)]
            if bad:
                parts.append(f"{half} indices not in the catalog: {sorted(bad)}")
            else:
                have = Counter(cards[i].colour for i in found)
                parts.append(f"{half} cards by colour {dict(sorted(have.items()))}, expected "
                             f"{dict(sorted(want.items()))}")
    return "Granuja halves not conserved: " + "; ".join(parts or ["(no detail)"])


# ---------------------------------------------------------------------------------------- flow
def _check_flow(game: Game) -> None:
    n = game.num_players
    if not 1 <= game.day <= game.last_day:
        _fail(f"day {game.day} outside 1..{game.last_day}")
    if game.game_over:
        if game.stack:
            _fail(f"the game is over but the decision stack holds {game.stack}")
        if game.legal_actions():
            _fail(f"the game is over but legal_actions() is {game.legal_actions()}")
        if game.scores is None or len(game.scores) != n:
            _fail(f"the game is over but scores is {game.scores!r} (need one per seat)")
        if game.winner is None or not 0 <= game.winner < n:
            _fail(f"the game is over but winner is {game.winner!r}")
        return
    if not game.stack:
        _fail("the game is not over but no decision is pending (empty decision stack)")
    frame = game.stack[-1]
    if frame.kind not in DECISION_KINDS:
        _fail(f"the game is not over but the top of the stack is {frame!r}, not a decision")
    if not 0 <= frame.player < n:
        _fail(f"pending decision {frame.kind!r} is asked of seat {frame.player}, not a player")
    try:
        legal = game.legal_actions()
    except Exception as exc:  # noqa: BLE001 - any crash here is the finding
        raise InvariantError(
            f"legal_actions() raised {type(exc).__name__}: {exc} for pending decision "
            f"{frame.kind!r} of p{frame.player}"
        ) from exc
    if not legal:
        _fail(f"legal_actions() is empty for pending decision {frame.kind!r} of p{frame.player}: "
              "the game is stuck")
    if legal[0] < 0 or legal[-1] >= A.NUM_ACTIONS or any(
        a >= b for a, b in zip(legal, legal[1:])
    ):
        _fail(f"legal_actions() {legal} for {frame.kind!r} must be sorted, distinct ids in "
              f"0..{A.NUM_ACTIONS - 1}")


def check_invariants(game: Game) -> None:
    """Raise :class:`InvariantError` if ``game`` breaks a state invariant (module docstring)."""
    exp = _expected(game)
    _check_flow(game)
    _check_safes(game, exp)
    _check_players(game, exp)
    _check_granujas(game, exp)
