"""What every game of the project offers the shared tools (envs, bots, tournaments).

A game is a rules engine (a :class:`GameState` per game in progress) and a spec (one
:class:`GameSpec` per game package, found by name in :mod:`granujas_env.games`). The tools read
a game only through these: the pending :class:`Decision` (kind, deciding seat, context), the
legal action ids, ``apply``, ``clone`` and, at the end, the :class:`Outcome`.

This module imports no game: games import it (layers point one way).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = ["Decision", "GameState", "GameSpec", "Outcome"]


@runtime_checkable
class Decision(Protocol):
    """The decision a game waits for: its kind, the seat that decides and its context."""

    kind: str
    player: int
    data: Mapping[str, Any]


@runtime_checkable
class GameState(Protocol):
    """A game in progress, driven one decision at a time."""

    num_players: int
    seed: int | None
    config: Any
    game_over: bool

    @property
    def decision(self) -> Decision | None:
        """The pending decision, None once the game is over."""

    def legal_actions(self) -> list[int]:
        """The ids the pending decision allows, ascending."""

    def apply(self, action: int) -> None:
        """Play ``action``; an illegal one raises ValueError with the state unchanged."""

    def clone(self) -> GameState:
        """An independent copy (random stream included)."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    ``winners``: the seats that won (granujas: the one winner; Bang!: every seat of the winning
    team, eliminated ones included). ``team_of[seat]``: the seat's team at the end (granujas:
    each seat its own team; Bang!: an index of the seat's role's team). ``scores``: final scores
    where the game has them (a rank tie-break), None where it has not.
    """

    winners: frozenset[int]
    team_of: tuple[int, ...]
    scores: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        n = len(self.team_of)
        if not self.winners or not all(0 <= s < n for s in self.winners):
            raise ValueError(
                f"winners must be a non-empty set of seats 0..{n - 1}, got {sorted(self.winners)}"
            )
        if self.scores is not None and len(self.scores) != n:
            raise ValueError(f"scores must have one entry per seat ({n}), got {len(self.scores)}")

    def returns(self) -> list[float]:
        """+1 to every winner, -1 to every other seat (the general-sum team reward)."""
        return [1.0 if seat in self.winners else -1.0 for seat in range(len(self.team_of))]


@runtime_checkable
class GameSpec(Protocol):
    """One game package's entry for the shared tools (see :mod:`granujas_env.games`).

    ``tools`` holds what the command lines need that is not code of the env: the default bot,
    the bots as ``"module:attr"`` strings (the specs import no bot: bots build on envs), the
    seat cycle of a rotation of seats.
    """

    name: str
    env_id: str
    env_name: str
    players: range
    num_actions: int
    state_type: type  # the class of the game's states (GameState)
    view_type: type  # the class of its seat views
    decision_kinds: Mapping[str, str]
    reward_modes: tuple[str, ...]
    tools: Mapping[str, Any]

    def make_config(self, num_players: int, **options: Any) -> Any:
        """The game's configuration for ``num_players`` (bad values raise ValueError)."""

    def new_game(self, config: Any, seed: int | None = None) -> GameState:
        """A new game of ``config`` dealt by ``seed``."""

    def outcome(self, game: Any) -> Outcome | None:
        """The game's :class:`Outcome`, None while it goes on."""

    def env(self, **kwargs: Any) -> Any:
        """The wrapped PettingZoo AEC env of the game."""

    def raw_env(self, **kwargs: Any) -> Any:
        """The unwrapped PettingZoo AEC env of the game."""

    def seat_view(self, game: Any, seat: int) -> Any:
        """What ``seat`` may know, as Python objects."""

    def describe(self, action: int) -> str:
        """A short text for an action id."""

    def render(self, game: Any, viewer: int | None = None) -> str:
        """The table as ``viewer`` sees it (None: the public state only)."""

    def check_invariants(self, game: Any) -> None:
        """Raise AssertionError naming the first broken invariant of ``game``."""

    def potential(self, game: Any, seat: int) -> float:
        """How well ``seat`` stands in the game in progress, about -1..1: the potential of
        potential-based reward shaping (``train.train --shaping``; 0 is used once it ends)."""
