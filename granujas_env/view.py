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
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .engine.data import Catalog, Rules, Step
from .engine.game import Game
from .engine.state import Granuja

__all__ = [
    "GranujaView",
    "PlayedView",
    "PlayerView",
    "SafeView",
    "SeatView",
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


@dataclass(frozen=True)
class PlayedView:
    """A poker card of this day. ``value`` is set only when the viewer knows it: its own cards,
    a card it peeked at, a card played face up (slot 0)."""

    slot: int  # 1..6; 0 = played face up beside the sheet (a 0, public)
    turn: int  # turn of the day in which it was played
    henchmen: tuple[int, ...]  # seats of the henchmen on it
    value: int | None


@dataclass(frozen=True)
class PlayerView:
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
class SeatView:
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
    """Which challenge window of the turn is open (public), from the turn frame's stage."""
    if game.game_over or not any(f.kind == "window" for f in game.stack):
        return 0
    for frame in reversed(game.stack):
        if frame.kind == "turn":
            return _WINDOW_BY_STAGE.get(str(frame.data.get("stage")), 0)
    return 0


def seat_view(game: Game, seat: int) -> SeatView:
    """The semantic view of ``seat`` (0..N-1): exactly what that seat may know now."""
    n = game.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat must be in 0..{n - 1}, got {seat}")
    catalog = game.catalog
    known = game.players[seat].known_safes
    known_cards = tuple(game.known_card_values(seat))
    today = len(game.played_log) - 1
    known_today = {(s, slot): value for day, s, slot, value in known_cards if day == today}
    revealed_strategies = bool(getattr(game, "strategies_revealed", False))

    on_cards = [0] * n
    players = []
    for player in game.players:
        for card in player.played:
            for owner in card.henchmen:
                on_cards[owner] += 1
    for player in game.players:
        own = player.seat == seat
        players.append(
            PlayerView(
                seat=player.seat,
                money=player.money,
                reputation=player.reputation,
                free_henchmen=player.free_henchmen,
                jailed_henchmen=player.jailed_henchmen,
                henchmen_on_cards=on_cards[player.seat],
                destroyed_henchmen=player.destroyed_henchmen,
                marks_left=tuple(player.marks),
                hand_size=len(player.hand),
                deck_size=len(player.deck),
                safes=tuple(player.safes),
                sheet=tuple(_granuja(catalog, g) for g in player.sheet),
                played=tuple(
                    PlayedView(
                        slot=c.slot,
                        turn=c.turn,
                        henchmen=tuple(c.henchmen),
                        value=c.value
                        if own or c.slot == 0
                        else known_today.get((player.seat, c.slot)),
                    )
                    for c in player.played
                ),
                strategy=getattr(player, "strategy", -1) if own or revealed_strategies else -1,
            )
        )

    safes: dict[int, SafeView] = {}
    for safe in game.safes:
        if safe.board_pos < 0 and safe.holder < 0:
            continue  # unused pile: only counts and seen values (below)
        safes[safe.id] = SafeView(
            id=safe.id,
            location=safe.location,
            board_pos=safe.board_pos,
            holder=safe.holder,
            value=safe.value if safe.id in known else None,
            marks=tuple(safe.marks),
        )

    current_slot, current_henchmen = 0, ()
    card = game.current_card()
    if card is not None:
        current_slot, current_henchmen = card.slot, tuple(card.henchmen)

    frame = game.decision
    acting = frame is not None and frame.player == seat
    return SeatView(
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
        hand=tuple(sorted(game.players[seat].hand)),
        own_values=tuple(tuple(by_seat[seat]) for by_seat in game.played_log),
        known_cards=known_cards,
        players=tuple(players),
        declared=tuple(
            tuple(tuple(slot for slot, _ in cards) for cards in by_seat)
            for by_seat in game.played_log
        ),
        reveals=tuple(game.reveals),
        safes=safes,
        board=tuple(tuple(row) for row in game.board),
        unused_counts=tuple(len(pile) for pile in game.unused),
        unused_known=tuple(
            tuple(sorted(game.safes[s].value for s in pile if s in known)) for pile in game.unused
        ),
        location_values=tuple(tuple(loc.values) for loc in game.rules.locations),
        saloon=tuple(_granuja(catalog, g) for g in game.saloon),
        saloon_costs=tuple(None if g is None else _hire_cost(game, g, seat) for g in game.saloon),
        limbo=_granuja(catalog, game.limbo),
        discard_top=_granuja(catalog, game.discard[-1]) if game.discard else None,
        discard_count=len(game.discard),
        trait_deck_count=len(game.trait_deck),
        occupation_deck_count=len(game.occ_deck),
        used=frozenset(u for u in game.used if isinstance(u, int)),
        leader_used="leader" in game.used,
        strategy_used=("strategy", seat) in game.used,
        current_slot=current_slot,
        current_henchmen=current_henchmen,
        window=_open_window(game),
        turn_stage=_turn_stage(game),
        decision=frame.kind if frame is not None else None,
        deciding_player=frame.player if frame is not None else -1,
        acting=acting,
        context=copy.deepcopy(dict(frame.data)) if acting and frame is not None else None,
        legal_actions=tuple(game.legal_actions()) if acting else (),
        history=tuple(e for e in game.history if e and e[0] in PUBLIC_EVENTS),
        rules=game.rules,
        catalog=catalog,
    )
