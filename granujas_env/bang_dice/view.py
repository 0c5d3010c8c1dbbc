"""What one seat of Bang! The Dice Game may know, as Python objects.

A seat knows: its own role; the Sheriff (his role is face up); every role revealed by an
elimination (and, at 3 players, every role: they are dealt face up), and every role once the game
is over; every player's character, life, maximum life, arrows and whether it is in play; the dice,
the rolls made and left, the arrow pile, whose turn it is and whose decision is pending (its kind
and its public context); its own legal action ids when it decides; the public event log and the
history of who shot and who healed whom (:class:`Tally`). Nothing else: no hidden role of another
seat, no dice to come (tests/test_bang_no_leak.py permutes the hidden roles and checks that
nothing a seat sees changes).

Seats in the view are absolute (0..N-1); action ids that name a player are relative to the
decider (:func:`~granujas_env.bang_dice.engine.actions.target_action`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .engine.game import BangGame

__all__ = ["PUBLIC_EVENTS", "PlayerView", "BangView", "Tally", "known_roles", "seat_view"]

#: event kinds a player at the table sees happen; any other kind is left out of views, so a
#: future event that records something private cannot leak through them. The one event holding
#: a role, ``eliminated``, reveals it publicly (the seed: "Muestra tu Rol a todos").
PUBLIC_EVENTS = frozenset(
    {
        "turn", "roll", "arrow", "indians", "dynamite", "shot", "lose", "beer", "gatling",
        "discard_arrows", "eliminated", "ability", "game_over",
    }
)


@dataclass(frozen=True)
class PlayerView:
    """One player as a seat sees it; ``role`` is None where that seat does not know it."""

    seat: int
    role: str | None
    character: str
    life: int
    max_life: int
    arrows: int
    alive: bool


class Tally:
    """The public history of who shot and who healed whom, counted from the event log.

    ``shots[a, b]`` (an int array): life points ``a``'s bull's-eyes took aim at ``b`` for (a doubled
    die counts 2); ``heals[a, b]``: beers and Sid Ketchum heals ``a`` gave ``b`` (given, whether or not
    ``b`` was full). Kept in step with a game by :meth:`sync`, which reads only the new events.
    """

    __slots__ = ("counts", "_events", "_seen")

    def __init__(self, num_players: int) -> None:
        self.counts = np.zeros((2, num_players, num_players), dtype=np.int64)  # shots, heals
        self._events: list | None = None
        self._seen = 0

    @property
    def shots(self) -> np.ndarray:
        return self.counts[0]

    @property
    def heals(self) -> np.ndarray:
        return self.counts[1]

    def sync(self, game: BangGame) -> Tally:
        """Bring the counts up to ``game``'s event log; returns self."""
        events = game.events
        if events is not self._events or len(events) < self._seen:  # another game, or a clone
            n = game.num_players
            self.counts = np.zeros((2, n, n), dtype=np.int64)
            self._events, self._seen = events, 0
        counts = self.counts
        for event in events[self._seen :]:
            kind = event[0]
            if kind == "shot":
                counts[0, event[1], event[2]] += event[4]
            elif kind == "beer":
                counts[1, event[1], event[2]] += 1
            elif kind == "ability" and event[2] == "sid_ketchum":
                counts[1, event[1], event[3]] += 1
        self._seen = len(events)
        return self


def known_roles(game: BangGame, seat: int) -> list[str | None]:
    """Each seat's role as ``seat`` knows it: its own, the revealed ones (the Sheriff, the
    eliminated, all at 3 players or after the end), None for the others."""
    roles, revealed = game.roles, game.role_revealed
    return [
        roles[s] if s == seat or revealed[s] or game.game_over else None
        for s in range(game.num_players)
    ]


@dataclass(frozen=True)
class BangView:
    """Everything ``seat`` may know now (see the module docstring)."""

    seat: int
    num_players: int
    role: str
    sheriff: int  # -1 at 3 players (no Sheriff)
    three_player_target: int  # 3 players: the seat this seat must kill; -1 otherwise
    last_standing: bool  # 3 players: a target fell to another hand, last one standing wins
    players: tuple[PlayerView, ...]
    turn_player: int
    turn_number: int
    dice: tuple[str, ...]
    rolls_done: int
    rerolls_left: int
    arrow_pile: int
    decision: str | None  # the pending decision's kind (public), None once the game is over
    deciding_player: int  # -1 once the game is over
    decision_data: dict[str, Any]  # its public context (the die and face of a shot, ...)
    acting: bool
    legal_actions: tuple[int, ...]  # this seat's legal ids when it decides, () otherwise
    game_over: bool
    winners: tuple[int, ...] | None
    shots: tuple[tuple[int, ...], ...]
    heals: tuple[tuple[int, ...], ...]
    events: tuple[tuple, ...]

    def alive_seats(self) -> list[int]:
        """The seats still in play, in seat order."""
        return [p.seat for p in self.players if p.alive]


def seat_view(game: BangGame, seat: int, tally: Tally | None = None) -> BangView:
    """The view of ``seat`` (0..N-1); ``tally``: a :class:`Tally` kept for this game (saves
    recounting the history), synced here."""
    n = game.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"seat must be an int in 0..{n - 1}, got {seat!r}")
    tally = (tally or Tally(n)).sync(game)
    roles = known_roles(game, seat)
    frame = game.decision
    acting = frame is not None and frame.player == seat
    return BangView(
        seat=seat,
        num_players=n,
        role=game.roles[seat],
        sheriff=game.sheriff,
        three_player_target=game.target_of[seat] if game.three_player else -1,
        last_standing=game.last_standing,
        players=tuple(
            PlayerView(s, roles[s], game.characters[s], game.life[s], game.max_life[s],
                       game.arrows[s], game.alive[s])
            for s in range(n)
        ),
        turn_player=game.turn_player,
        turn_number=game.turn_number,
        dice=tuple(game.dice),
        rolls_done=game.rolls_done,
        rerolls_left=game.rerolls_left,
        arrow_pile=game.arrow_pile,
        decision=None if frame is None else frame.kind,
        deciding_player=-1 if frame is None else frame.player,
        decision_data={} if frame is None else dict(frame.data),
        acting=acting,
        legal_actions=tuple(game.legal_actions()) if acting else (),
        game_over=game.game_over,
        winners=None if game.winners is None else tuple(sorted(game.winners)),
        shots=tuple(map(tuple, tally.shots.tolist())),
        heals=tuple(map(tuple, tally.heals.tolist())),
        events=tuple(e for e in game.events if e[0] in PUBLIC_EVENTS),
    )
