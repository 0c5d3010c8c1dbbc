"""A semantic per-seat view of a game: exactly what one seat may know, as Python objects.

The observation vector (:mod:`granujas_env.codecs`) is what learning bots read; rule-based bots
read the same information as plain frozen dataclasses, tuples and dicts::

    from granujas_env.view import seat_view
    view = seat_view(env.unwrapped.game, seat)
    view.hand, view.players[1].money, view.safes[sid].value, view.declared[day][seat], ...

What a seat may know (DESIGN.md, "Observations"): its own hand and its own face-down cards with
their values; every player's declared slots, day by day (public); the cards revealed by challenges;
henchmen positions, money, reputation, Marks left, hand and deck sizes of every player; every
Safe on the board or held, with its Marks (owner and face) and its value only if this seat has seen
it (``players[seat].known_safes``); Safes held per player (ids, values only if known); the unused
piles (counts, and the values this seat has seen there); the Saloon, every sheet, the top of the
discard pile and the deck counts (public cards); day, turn, first and current player; the pending
decision's kind (public) and, only when this seat is the one deciding, its context and its legal
action ids; the public event log. Nothing else: no opponent hand or face-down value, no unseen Safe
value, no deck order (tests/test_view.py changes only those and checks the view stays equal).

Seats in the view are *absolute* (0..N-1); action ids that name a seat use relative seats
(see :func:`relative_seat`).

``seat_view(game, seat)`` is a complete snapshot. Drivers that hand a view to a bot and then move
the game on (the AEC loop of :func:`agents.driver.play_game`, the training wrapper) use
:class:`DecisionViews` instead: one *lazy* view per seat and decision, shared by every consumer
(the bot that acts, an advisor, a policy's delegate), whose fields are computed on first read,
so a bot pays only for what it reads (a challenge it passes reads two fields). The driver
expires the views before it applies the action; a field read after that raises ``RuntimeError``
instead of describing a later state.
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .engine.data import Catalog, Rules, Step
from .engine.game import Game
from .engine.state import Granuja

__all__ = [
    "GranujaView",
    "PlayedView",
    "PlayerView",
    "SafeView",
    "SeatView",
    "DecisionViews",
    "PUBLIC_EVENTS",
    "relative_seat",
    "seat_view",
]

# Kinds of ``game.history`` events that carry only public information (a player at the table
# sees each of them happen), plus those the engine declares public in
# ``engine.verbs_extra.HISTORY_EVENTS``. Events of any other kind are left out of the view, so a
# future event that records something private cannot leak through it.
PUBLIC_EVENTS = frozenset(
    {
        "plan",
        "challenge",
        "reveal",
        "hire",
        "sheriff",
        "bail",
        "steal",
        "abandon",
        "mark",
        "day",
        "end",
        "strategy",
        "strategies",
        "swap",
        "steal_money",
        "jail",
        "jail_or_reputation",
        "free",
        "place_henchman",
        "destroy",
        "draw",
        "card_on_deck",
        "shuffle",
        "deck_top",
        "peek_card",
    }
)


@dataclass(frozen=True)
class GranujaView:
    """A public Granuja (Saloon, sheet, discard pile): both card halves, resolved from the catalog."""

    uid: int
    occ: int  # index into catalog.occupation_cards
    trait: int  # index into catalog.trait_cards
    occupation_id: str
    trait_id: str
    timing: str  # "slots", "response", "start_of_turn", "on_hire", "after_gain_reputation", ...
    slots: frozenset[int]  # poker-slot icons of this Trait card (timing "slots")
    arrows: frozenset[str]  # response arrows ("left": answers the Granuja on its left)
    modifiers: frozenset[str]  # "extra_money", "use_twice"
    effect: tuple[Step, ...]  # trait.before + occupation effect + trait.after, in order
    cost: int  # hire cost: Trait dollar icons not covered by the Occupation's bullet holes
    tech: int  # tech icons of both halves
    colour: str  # Occupation colour
    requires: frozenset[str] = frozenset()  # conditions to use it (e.g. "money_zero")


class _LazyField:
    """The class attribute of a lazy field. Python consults it only while the instance has no
    value of that name (a non-data descriptor) and it hands the read to the view's
    ``__getattr__``, which computes the field: cheaper than reaching ``__getattr__`` through a
    failed attribute lookup."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, view: Any, owner: type | None = None) -> Any:
        if view is None:
            return self
        return view.__getattr__(self.name)


class _Lazy:
    """Fields computed on first read, for the views built by ``seat_view(..., lazy=True)``.

    A lazy view keeps what it reads from in ``__dict__["_source"]`` and fills a field listed in
    its class's ``_LAZY`` (name -> ``compute(source, view)``, set by :func:`_lazy_fields`) when it
    is first read (``__getattr__``, reached through the field's :class:`_LazyField`): the value
    lands in the instance's ``__dict__``, so a field read again costs nothing. A complete view
    (the default) has every field set and no source."""

    _LAZY: ClassVar[dict[str, Callable[[Any, Any], Any]]] = {}

    def __getattr__(self, name: str) -> Any:
        compute = type(self)._LAZY.get(name)
        if compute is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        fields = self.__dict__
        source = fields.get("_source")
        if source is None:
            raise RuntimeError(
                f"{type(self).__name__}.{name} read after the game moved on: a lazy view "
                "(seat_view(..., lazy=True), DecisionViews) is valid for one decision; read it "
                "before the action is applied, or build a complete one with seat_view(game, seat)"
            )
        value = fields[name] = compute(source, self)
        return value

    def _materialize(self) -> None:
        """Compute every field not read yet and let go of the source (a snapshot from now on)."""
        fields = self.__dict__
        for name, compute in type(self)._LAZY.items():
            if name not in fields:
                if fields.get("_source") is None:
                    getattr(self, name)  # raises: the source has expired
                fields[name] = compute(fields["_source"], self)
        fields.pop("_source", None)

    def _expire(self) -> None:
        """Stop reading the source: fields not computed yet can no longer be read."""
        if "_source" in self.__dict__:
            self.__dict__["_source"] = None

    def __getstate__(self) -> dict[str, Any]:
        # a copy or a pickle is a complete snapshot, never a second reader of the game
        if self.__dict__.get("_source") is not None:
            self._materialize()
        return {k: v for k, v in self.__dict__.items() if k != "_source"}


def _lazy_fields(cls: type[_Lazy], compute: dict[str, Callable[[Any, Any], Any]]) -> None:
    """Make the fields named in ``compute`` lazy fields of ``cls`` (see :class:`_Lazy`)."""
    cls._LAZY = compute
    for name in compute:
        setattr(cls, name, _LazyField(name))


@dataclass(frozen=True)
class PlayedView:
    """A poker card of this day. ``value`` is set only when the viewer knows it: its own cards,
    a card it peeked at, a card played face up (slot 0)."""

    slot: int  # 1..6; 0 = played face up beside the sheet (a 0, public)
    turn: int  # turn of the day in which it was played
    henchmen: tuple[int, ...]  # seats of the henchmen on it
    value: int | None


@dataclass(frozen=True)
class PlayerView(_Lazy):
    seat: int
    money: int
    reputation: int
    free_henchmen: int
    jailed_henchmen: int
    henchmen_on_cards: int
    destroyed_henchmen: int
    marks_left: tuple[int, ...]  # per Mark type 2/3, 4/5, 6/7
    hand_size: int
    deck_size: int
    safes: tuple[int, ...]  # held Safe ids in the order taken (values: SeatView.safes[id].value)
    sheet: tuple[GranujaView | None, ...]
    played: tuple[PlayedView, ...]  # this day's face-down cards, in play order
    strategy: int  # index into catalog.strategies: own, or anyone's once revealed; -1 unknown/none


@dataclass(frozen=True)
class SafeView:
    """A Safe on the board or held by a player. ``value`` is None unless this seat has seen it."""

    id: int
    location: int
    board_pos: int  # 0..4 on the board, -1 if held
    holder: int  # seat holding it, -1 if on the board
    value: int | None
    marks: tuple[tuple[int, int], ...]  # (owner seat, face shown), in the order placed


@dataclass(frozen=True)
class SeatView(_Lazy):
    """Everything ``seat`` may know at this moment (see the module docstring)."""

    seat: int
    num_players: int
    day: int  # 1-based
    last_day: int
    turn: int  # index of the turn within the day (0 .. turns_per_day * N - 1)
    turns_per_day: int  # turns of each player per day
    first_player: int
    current_player: int  # seat whose turn it is
    game_over: bool
    scores: tuple[int, ...] | None
    winner: int | None
    # own secret information
    hand: tuple[int, ...]  # sorted poker values (0, 1 = A, 2..6)
    own_values: tuple[tuple[tuple[int, int], ...], ...]  # [day index] -> ((slot, value), ...)
    # (day index, seat, slot, value) of every played card whose value this seat knows: its own,
    # those revealed by challenges, those it peeked at
    known_cards: tuple[tuple[int, int, int, int], ...]
    # players and their public state (own played cards carry values)
    players: tuple[PlayerView, ...]
    # [day index][seat] -> declared slots in play order (public)
    declared: tuple[tuple[tuple[int, ...], ...], ...]
    reveals: tuple[tuple[int, int, int, int], ...]  # (day index, seat, slot, value)
    # Safes
    safes: dict[int, SafeView]  # board and held Safes by id
    board: tuple[tuple[int | None, ...], ...]  # [location][board position] -> Safe id
    unused_counts: tuple[int, ...]  # per location
    unused_known: tuple[tuple[int, ...], ...]  # per location: sorted values seen among them
    location_values: tuple[tuple[int, ...], ...]  # the rules' Safe values of each location
    # Granujas (public cards)
    saloon: tuple[GranujaView | None, ...]
    saloon_costs: tuple[int | None, ...]  # what hiring each costs *this seat* (Strategy discounts)
    limbo: GranujaView | None  # a Granuja just hired, on its way to a sheet
    discard_top: GranujaView | None
    discard_count: int
    trait_deck_count: int
    occupation_deck_count: int
    # the turn in progress (public)
    used: frozenset[int]  # uids of Granujas already used this turn / end of day
    leader_used: bool
    strategy_used: bool  # own Strategy card already used this turn
    current_slot: int  # slot of the card the current player played this turn, 0 if none
    current_henchmen: tuple[int, ...]  # seats of the henchmen on that card
    window: int  # open challenge window: 1 after the Plan, 2 after step 2, 3 after step 3; 0 none
    turn_stage: str  # the engine's stage of the current turn (what runs next), "" outside turns
    # the pending decision: kind and decider are public; context and legal ids only if acting
    decision: str | None
    deciding_player: int
    acting: bool
    context: dict[str, Any] | None
    legal_actions: tuple[int, ...]
    history: tuple[tuple, ...]  # public events of game.history (see PUBLIC_EVENTS)
    rules: Rules = field(compare=False, repr=False)
    catalog: Catalog = field(compare=False, repr=False)

    def _materialize(self) -> None:
        super()._materialize()
        for player in self.players:
            player._materialize()

    def _expire(self) -> None:
        super()._expire()
        for player in self.__dict__.get("players", ()):
            player._expire()

    @property
    def last_round_start(self) -> int:
        """The turn index at which the day's last round begins (every player's last card)."""
        return (self.turns_per_day - 1) * self.num_players

    @property
    def free_slots(self) -> tuple[int, ...]:
        """The slots this seat has not yet played a card into today, in the rules' order."""
        taken = {card.slot for card in self.players[self.seat].played}
        return tuple(s for s in self.rules.slots if s not in taken)

    def rel(self, seat: int) -> int:
        """Relative seat of absolute ``seat`` as seen from this view's seat (0 = self)."""
        return (seat - self.seat) % self.num_players

    def abs_seat(self, rel: int) -> int:
        """Absolute seat of relative seat ``rel``."""
        return (self.seat + rel) % self.num_players


def relative_seat(seat: int, of: int, num_players: int) -> int:
    """Relative position of ``seat`` seen from ``of`` (0 = self, 1 = next clockwise, ...)."""
    return (seat - of) % num_players


# ------------------------------------------------------------------------------- builders
_GRANUJA_CACHE: dict[tuple[int, int, int, int], GranujaView] = {}
_CATALOGS: dict[int, Catalog] = {}  # keeps every cached catalog alive so its id() stays unique


def _granujas(catalog: Catalog, cards: list[Granuja | None]) -> tuple[GranujaView | None, ...]:
    """:func:`_granuja` of each of ``cards``, the cache read inline (a sheet is read at most
    decisions)."""
    get, cid = _GRANUJA_CACHE.get, id(catalog)
    out = []
    for g in cards:
        view = None if g is None else get((cid, g.uid, g.occ, g.trait))
        out.append(view if view is not None or g is None else _granuja(catalog, g))
    return tuple(out)


def _granuja(catalog: Catalog, g: Granuja | None) -> GranujaView | None:
    if g is None:
        return None
    key = (id(catalog), g.uid, g.occ, g.trait)
    view = _GRANUJA_CACHE.get(key)
    if view is None:
        if len(_GRANUJA_CACHE) > 50_000:
            _GRANUJA_CACHE.clear()
        _CATALOGS[id(catalog)] = catalog
        occ_card = catalog.occupation_cards[g.occ]
        trait_card = catalog.trait_cards[g.trait]
        trait = trait_card.trait
        view = GranujaView(
            uid=g.uid,
            occ=g.occ,
            trait=g.trait,
            occupation_id=occ_card.occupation.id,
            trait_id=trait.id,
            timing=trait.timing,
            slots=trait_card.slots,
            arrows=frozenset(trait.arrows),
            modifiers=frozenset(trait.modifiers),
            effect=tuple(trait.before) + tuple(occ_card.occupation.effect) + tuple(trait.after),
            cost=max(0, trait_card.cost - occ_card.bullet_holes),
            tech=occ_card.tech + trait_card.tech,
            colour=occ_card.colour,
            requires=frozenset(getattr(trait, "requires", ()))
            | frozenset(getattr(occ_card.occupation, "requires", ())),
        )
        _GRANUJA_CACHE[key] = view
    return view


def _hire_cost(game: Game, g: Granuja, seat: int) -> int:
    try:
        return game.hire_cost(g, seat)
    except TypeError:  # an engine whose hire cost does not depend on the seat
        return game.hire_cost(g)


_WINDOW_BY_STAGE = {"abilities": 1, "step3": 2, "end": 3}


def _turn_stage(game: Game) -> str:
    if game.game_over:
        return ""
    for frame in reversed(game.stack):
        if frame.kind == "turn":
            return str(frame.data.get("stage", ""))
    return ""


def _open_window(game: Game) -> int:
    """Which challenge window of the turn is open (public), from the turn frame's stage: 0 unless
    a window frame is on the stack."""
    if game.game_over:
        return 0
    window, stage = False, None  # stage: of the topmost turn frame
    for frame in reversed(game.stack):  # one pass: challenge windows read this every time
        if frame.kind == "window":
            window = True
        elif stage is None and frame.kind == "turn":
            stage = str(frame.data.get("stage"))
        if window and stage is not None:
            break
    return _WINDOW_BY_STAGE.get(stage, 0) if window else 0


# Played cards and Safes recur unchanged from one view to the next: one frozen object per
# content, so views share them (and a bot can compare views' parts cheaply, by identity first).
_INTERNED: dict[tuple, Any] = {}


def _interned(cls: type, *fields: Any) -> Any:
    key = (cls, *fields)
    obj = _INTERNED.get(key)
    if obj is None:
        if len(_INTERNED) > 100_000:
            _INTERNED.clear()
        obj = _INTERNED[key] = cls(*fields)
    return obj


def _played(source: tuple[Game, SeatView], view: PlayerView) -> tuple[PlayedView, ...]:
    game, seat_view_ = source
    p = view.seat
    if p == seat_view_.seat:  # own cards: their values
        known: dict[int, int] | None = None
    else:  # a rival's: the values this seat knows (peeked at today)
        today = len(game.played_log) - 1
        known = {
            slot: value for day, s, slot, value in seat_view_.known_cards if day == today and s == p
        }
    get = _INTERNED.get  # _interned() inlined, as in _safes()
    out = []
    for c in game.players[p].played:
        key = (
            PlayedView,
            c.slot,
            c.turn,
            tuple(c.henchmen),
            c.value if known is None or c.slot == 0 else known.get(c.slot),
        )
        obj = get(key)
        out.append(obj if obj is not None else _interned(*key))
    return tuple(out)


def _on_cards(source: tuple[Game, SeatView], view: PlayerView) -> int:
    seat = view.seat
    return sum(
        1
        for player in source[0].players
        for card in player.played
        for owner in card.henchmen
        if owner == seat
    )


def _strategy(source: tuple[Game, SeatView], view: PlayerView) -> int:
    game, seat_view_ = source
    if view.seat == seat_view_.seat or getattr(game, "strategies_revealed", False):
        return getattr(game.players[view.seat], "strategy", -1)
    return -1


def _number(name: str) -> Callable[[tuple[Game, SeatView], PlayerView], int]:
    """The lazy field ``name`` of a rival's PlayerView: the engine player's attribute."""
    return lambda src, v: getattr(src[0].players[v.seat], name)


_PLAYER_NUMBERS = ("money", "reputation", "free_henchmen", "jailed_henchmen", "destroyed_henchmen")

# The PlayerView fields not set by _players(), from (game, the seat's view) (see _Lazy); the
# numbers are set at once in the viewer's own PlayerView only.
_lazy_fields(
    PlayerView,
    {
        "henchmen_on_cards": _on_cards,
        "marks_left": lambda src, v: tuple(src[0].players[v.seat].marks),
        "safes": lambda src, v: tuple(src[0].players[v.seat].safes),
        "sheet": lambda src, v: _granujas(src[0].catalog, src[0].players[v.seat].sheet),
        "played": _played,
        **{name: _number(name) for name in _PLAYER_NUMBERS},
        "hand_size": lambda src, v: len(src[0].players[v.seat].hand),
        "deck_size": lambda src, v: len(src[0].players[v.seat].deck),
        "strategy": _strategy,
    },
)


def _players(game: Game, view: SeatView) -> tuple[PlayerView, ...]:
    """Lazy PlayerViews (complete once the seat view is materialized): the viewer's numbers are
    set, every other field computed on first read (a bot reads its own sheet, cards and numbers,
    at most decisions none of the rivals')."""
    source = (game, view)
    viewer = view.seat
    new, set_dict = object.__new__, object.__setattr__
    players = []
    for player in game.players:
        pv = new(PlayerView)
        seat = player.seat
        # the instance dict given whole: cheaper than setting the fields one by one
        if seat == viewer:
            fields = {
                "seat": seat,
                "money": player.money,
                "reputation": player.reputation,
                "free_henchmen": player.free_henchmen,
                "jailed_henchmen": player.jailed_henchmen,
                "destroyed_henchmen": player.destroyed_henchmen,
                "hand_size": len(player.hand),
                "deck_size": len(player.deck),
                "strategy": getattr(player, "strategy", -1),
                "_source": source,
            }
        else:
            fields = {"seat": seat, "_source": source}
        set_dict(pv, "__dict__", fields)
        players.append(pv)
    return tuple(players)


def _safes(game: Game, view: SeatView) -> dict[int, SafeView]:
    known = game.players[view.seat].known_safes
    out = {}
    get = _INTERNED.get  # _interned() inlined: a bot reads the Safes at most decisions
    for safe in game.safes:
        if safe.board_pos < 0 and safe.holder < 0:
            continue  # the unused piles: counts and seen values only
        sid = safe.id
        key = (
            SafeView,
            sid,
            safe.location,
            safe.board_pos,
            safe.holder,
            safe.value if sid in known else None,
            tuple(safe.marks),
        )
        obj = get(key)
        out[sid] = obj if obj is not None else _interned(*key)
    return out


def _current_card(game: Game) -> tuple[int, tuple[int, ...]]:
    card = game.current_card()
    return (0, ()) if card is None else (card.slot, tuple(card.henchmen))


_IMMUTABLE = (int, float, str, bool, type(None))


def _context(game: Game, view: SeatView) -> dict[str, Any] | None:
    frame = game.decision
    if not view.acting or frame is None:
        return None
    # a copy that shares nothing mutable with the game (most values are plain numbers)
    return {k: v if type(v) in _IMMUTABLE else copy.deepcopy(v) for k, v in frame.data.items()}


class _Logs:
    """What the views of one game read from its append-only logs, recomputed only when a log grew
    (or was replaced, e.g. after a snapshot is restored): ``game.history`` filtered to
    PUBLIC_EVENTS (extended with the new events only), the declared slots of ``game.played_log``
    and each seat's known card values (``game.known_card_values``: the played log, the reveals and
    the seat's peeks). The engine only appends to those logs (a day's cards to the last day of
    the played log, a new day at its end, reveals and peeks at the end), so a log that is the same
    object with the same lengths holds the same entries."""

    __slots__ = ("source", "length", "events", "played", "declared", "known")

    def __init__(self) -> None:
        self.source: list[tuple] | None = None
        self.length = 0
        self.events: tuple[tuple, ...] = ()
        self.played: tuple = (None, ())  # (played log, its shape) the declared slots were read from
        self.declared: tuple[tuple[tuple[int, ...], ...], ...] = ()
        self.known: dict[int, tuple] = {}  # seat -> (the logs read, their shape, the values)

    def history(self, history: list[tuple]) -> tuple[tuple, ...]:
        if history is not self.source or len(history) < self.length:
            self.source, self.length, self.events = history, 0, ()
        if len(history) > self.length:
            new = tuple(e for e in history[self.length :] if e and e[0] in PUBLIC_EVENTS)
            self.events += new
            self.length = len(history)
        return self.events

    def declared_slots(self, game: Game) -> tuple[tuple[tuple[int, ...], ...], ...]:
        log = game.played_log
        shape = (len(log), *[len(cards) for cards in log[-1]])
        if log is not self.played[0] or shape != self.played[1]:
            self.declared = tuple(
                [
                    tuple([tuple([slot for slot, _ in cards]) for cards in by_seat])
                    for by_seat in log
                ]
            )
            self.played = (log, shape)
        return self.declared

    def known_cards(self, game: Game, seat: int) -> tuple[tuple[int, int, int, int], ...]:
        logs = (game.played_log, game.reveals, game.players[seat].peeked)
        played = logs[0]
        shape = (len(played), *[len(cards) for cards in played[-1]], len(logs[1]), len(logs[2]))
        got = self.known.get(seat)
        if got is None or any(a is not b for a, b in zip(got[0], logs)) or got[1] != shape:
            got = self.known[seat] = (logs, shape, tuple(game.known_card_values(seat)))
        return got[2]


_LOGS: weakref.WeakKeyDictionary[Game, _Logs] = weakref.WeakKeyDictionary()


def _logs(game: Game) -> _Logs:
    logs = _LOGS.get(game)
    if logs is None:
        logs = _LOGS[game] = _Logs()
    return logs


def _unused_known(game: Game, view: SeatView) -> tuple[tuple[int, ...], ...]:
    known, safes = game.players[view.seat].known_safes, game.safes
    return tuple(
        tuple(sorted([safes[s].value for s in pile if s in known])) for pile in game.unused
    )


_LOCATION_VALUES: dict[int, tuple[Rules, tuple[tuple[int, ...], ...]]] = {}  # by id(rules)


def _location_values(game: Game, view: SeatView) -> tuple[tuple[int, ...], ...]:
    """The rules' Safe values of each location, one tuple per rules object (they never change)."""
    rules = game.rules
    got = _LOCATION_VALUES.get(id(rules))
    if got is None or got[0] is not rules:
        got = _LOCATION_VALUES[id(rules)] = (
            rules,
            tuple(tuple(loc.values) for loc in rules.locations),
        )
    return got[1]


# Field name -> how to compute it from the game and the (partly built) view: every field of
# SeatView not set by seat_view() itself (see _Lazy).
_lazy_fields(
    SeatView,
    {
        "hand": lambda g, v: tuple(sorted(g.players[v.seat].hand)),
        "own_values": lambda g, v: tuple(tuple(by_seat[v.seat]) for by_seat in g.played_log),
        "known_cards": lambda g, v: _logs(g).known_cards(g, v.seat),
        "players": _players,
        "declared": lambda g, v: _logs(g).declared_slots(g),
        "reveals": lambda g, v: tuple(g.reveals),
        "safes": _safes,
        "board": lambda g, v: tuple(tuple(row) for row in g.board),
        "unused_counts": lambda g, v: tuple(len(pile) for pile in g.unused),
        "unused_known": _unused_known,
        "location_values": _location_values,
        "saloon": lambda g, v: _granujas(g.catalog, g.saloon),
        "saloon_costs": lambda g, v: tuple(
            None if x is None else _hire_cost(g, x, v.seat) for x in g.saloon
        ),
        "limbo": lambda g, v: _granuja(g.catalog, g.limbo),
        "discard_top": lambda g, v: _granuja(g.catalog, g.discard[-1]) if g.discard else None,
        "discard_count": lambda g, v: len(g.discard),
        "trait_deck_count": lambda g, v: len(g.trait_deck),
        "occupation_deck_count": lambda g, v: len(g.occ_deck),
        "used": lambda g, v: frozenset(u for u in g.used if isinstance(u, int)),
        "leader_used": lambda g, v: "leader" in g.used,
        "strategy_used": lambda g, v: ("strategy", v.seat) in g.used,
        "current_slot": lambda g, v: _current_card(g)[0],
        "current_henchmen": lambda g, v: _current_card(g)[1],
        "window": lambda g, v: _open_window(g),
        "turn_stage": lambda g, v: _turn_stage(g),
        "context": _context,
        "legal_actions": lambda g, v: tuple(g.legal_actions()) if v.acting else (),
        "history": lambda g, v: _logs(g).history(g.history),
    },
)


def seat_view(game: Game, seat: int, *, lazy: bool = False) -> SeatView:
    """The semantic view of ``seat`` (0..N-1): exactly what that seat may know now.

    By default a complete snapshot, independent of the game. With ``lazy=True`` each field is
    computed on its first read (a bot reads a few of them at most decisions): such a view reads
    the game as it is *now*, so it must be read before the game moves on. Drivers hand lazy views
    out through :class:`DecisionViews`, which expires them when the game moves (a later read of a
    field not computed by then raises ``RuntimeError``)."""
    n = game.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat must be in 0..{n - 1}, got {seat}")
    frame = game.decision
    view = object.__new__(SeatView)
    view.__dict__.update(
        seat=seat,
        num_players=n,
        day=game.day,
        last_day=game.last_day,
        turn=game.turn,
        turns_per_day=game.rules.turns_per_day,
        first_player=game.first_player,
        current_player=game.current,
        game_over=game.game_over,
        scores=tuple(game.scores) if game.scores is not None else None,
        winner=game.winner,
        decision=frame.kind if frame is not None else None,
        deciding_player=frame.player if frame is not None else -1,
        acting=frame is not None and frame.player == seat,
        rules=game.rules,
        catalog=game.catalog,
        _source=game,
    )
    if not lazy:
        view._materialize()
    return view


class DecisionViews:
    """Lazy seat views of the pending decision of one game, one per seat, shared by every
    consumer at that decision (the bot that acts, an advisor, a policy's delegate).

    A driver calls :meth:`expire` before it applies an action: the views handed out so far stop
    reading the game (the fields already read stay readable) and the next call builds new ones::

        views = DecisionViews(game)
        action = bot.act(observation, view=views(seat))
        views.expire()
        game.apply(action)
    """

    __slots__ = ("game", "_views")

    def __init__(self, game: Game) -> None:
        self.game = game
        self._views: dict[int, SeatView] = {}

    def __call__(self, seat: int) -> SeatView:
        """The lazy view of ``seat`` at the game's pending decision."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = seat_view(self.game, seat, lazy=True)
        return view

    def expire(self) -> None:
        """The game is about to move: expire every view handed out since the last call."""
        for view in self._views.values():
            view._expire()
        self._views.clear()
