"""Plain dataclasses for the game state. No rules here: see :mod:`granujas_env.engine.game`."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Granuja:
    """A hired or hireable Granuja: one Occupation card sleeved with one Trait card."""

    uid: int
    occ: int  # index into Catalog.occupation_cards
    trait: int  # index into Catalog.trait_cards

    def copy(self) -> Granuja:
        return Granuja(self.uid, self.occ, self.trait)


@dataclass
class PlayedCard:
    """A poker card played this day, face down in ``slot`` (1..6, 1 = A)."""

    value: int
    slot: int
    turn: int  # index of the turn of the day in which it was played
    henchmen: list[int] = field(default_factory=list)  # owners' seats

    def copy(self) -> PlayedCard:
        return PlayedCard(self.value, self.slot, self.turn, self.henchmen.copy())


@dataclass
class Safe:
    id: int
    location: int
    value: int
    marks: list[tuple[int, int]] = field(default_factory=list)  # (owner seat, face shown)
    holder: int = -1  # seat holding it, -1 if none
    board_pos: int = -1  # position 0..4 in its location, -1 if not on the board

    def copy(self) -> Safe:
        return Safe(self.id, self.location, self.value, self.marks.copy(), self.holder, self.board_pos)


@dataclass
class Player:
    seat: int
    hand: list[int]
    deck: list[int]  # top of the deck is the end of the list
    money: int
    reputation: int
    free_henchmen: int
    jailed_henchmen: int
    marks: list[int]  # Marks left in supply, per type (2/3, 4/5, 6/7)
    sheet: list[Granuja | None]
    played: list[PlayedCard] = field(default_factory=list)
    destroyed_henchmen: int = 0
    safes: list[int] = field(default_factory=list)  # held Safe ids, in the order taken
    known_safes: set[int] = field(default_factory=set)  # Safe ids whose value this player saw
    peeked: set[tuple[int, int, int]] = field(default_factory=set)  # (day index, seat, slot) seen
    strategy: int = -1  # index of the chosen Strategy card (optional rule), -1 if none

    def copy(self) -> Player:
        """An independent copy (what ``copy.deepcopy`` gives, faster)."""
        return Player(
            seat=self.seat,
            hand=self.hand.copy(),
            deck=self.deck.copy(),
            money=self.money,
            reputation=self.reputation,
            free_henchmen=self.free_henchmen,
            jailed_henchmen=self.jailed_henchmen,
            marks=self.marks.copy(),
            sheet=[None if g is None else g.copy() for g in self.sheet],
            played=[c.copy() for c in self.played],
            destroyed_henchmen=self.destroyed_henchmen,
            safes=self.safes.copy(),
            known_safes=self.known_safes.copy(),
            peeked=self.peeked.copy(),
            strategy=self.strategy,
        )

    def card_in_slot(self, slot: int) -> PlayedCard | None:
        for card in self.played:
            if card.slot == slot:
                return card
        return None


class Frame:
    """One entry of the decision stack: a pending decision or an engine continuation.

    ``data`` values are immutable (numbers, strings, None, tuples of immutables, frozen Steps) or
    lists of immutables (a queue of seats, uids, pending timing events): :meth:`copy` relies on it,
    and so does the snapshot format.
    """

    __slots__ = ("kind", "player", "data")

    def __init__(self, kind: str, player: int = -1, **data: object) -> None:
        self.kind = kind
        self.player = player
        self.data = data

    @classmethod
    def holding(cls, kind: str, player: int, data: dict[str, object]) -> Frame:
        """``Frame(kind, player, **data)`` holding ``data`` itself: no keyword arguments packed
        twice (the engine pushes a few frames at every step)."""
        frame = cls.__new__(cls)
        frame.kind = kind
        frame.player = player
        frame.data = data
        return frame

    def __repr__(self) -> str:
        return f"Frame({self.kind!r}, player={self.player}, {self.data})"

    def copy(self) -> Frame:
        """An independent copy (what ``copy.deepcopy`` gives, faster)."""
        new = Frame.__new__(Frame)
        new.kind, new.player = self.kind, self.player
        new.data = {k: v.copy() if type(v) is list else v for k, v in self.data.items()}
        return new

    def __getstate__(self) -> tuple:
        return (self.kind, self.player, self.data)

    def __setstate__(self, state: tuple) -> None:
        self.kind, self.player, self.data = state

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Frame)
            and (self.kind, self.player, self.data) == (other.kind, other.player, other.data)
        )
