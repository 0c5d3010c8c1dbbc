"""Bang! statistics for the shared rating tools: per game, who played which role and who won;
per bot that keeps beliefs, how much probability it put on the true hidden roles, by turn.

Plain functions over a finished (or running) game and plain dicts, so that the tournament code
(``train.roles``) stays generic: it asks the game's ``stats`` module for the rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .engine.game import BangGame

__all__ = ["game_record", "hidden_seats", "posterior_accuracy", "TURN_BUCKETS", "turn_bucket"]

#: posterior accuracy is reported for these turn ranges (first turn of each bucket)
TURN_BUCKETS = (1, 3, 6, 11, 21)


def game_record(game: BangGame) -> dict[str, Any]:
    """One finished game: each seat's role, whether it won, whether it survived; the turns."""
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    return {
        "roles": list(game.roles),
        "won": [s in outcome.winners for s in range(game.num_players)],
        "alive": list(game.alive),
        "turns": game.turn_number,
    }


def hidden_seats(game: BangGame, seat: int) -> list[int]:
    """The seats whose role ``seat`` does not know now."""
    return [
        s for s in range(game.num_players)
        if s != seat and not game.role_revealed[s] and not game.game_over
    ]


def posterior_accuracy(game: BangGame, seat: int, posterior: Mapping[int, Mapping[str, float]]) -> list[float]:
    """The probability ``posterior`` (``seat``'s beliefs) puts on the true role of each seat
    hidden from it."""
    return [float(posterior[s][game.roles[s]]) for s in hidden_seats(game, seat)]


def turn_bucket(turn: int) -> str:
    """The label of the bucket of :data:`TURN_BUCKETS` holding ``turn``: ``"1-2"``, ``"21+"``."""
    for start, end in zip(TURN_BUCKETS, TURN_BUCKETS[1:]):
        if start <= turn < end:
            return f"{start}-{end - 1}"
    return f"{TURN_BUCKETS[-1]}+"
