"""Bang! The Dice Game in words: a line per public event, and the final line of a game.

:func:`narrate` reads one public event (:data:`~granujas_env.bang_dice.view.PUBLIC_EVENTS`) and
names seats ``p0``, ``p1``, ...; :func:`final_text` reveals every role and names the winners once
the game is over (``python -m granujas_env.play --game bang-dice`` prints both).
"""

from __future__ import annotations

from collections.abc import Iterable

from .engine import actions as A
from .engine.data import CHARACTERS
from .engine.game import DEPUTY, OUTLAW, RENEGADE, SHERIFF, BangGame
from .view import PUBLIC_EVENTS

__all__ = ["narrate", "narrate_events", "final_text", "winning_side", "SIDES"]

_CAUSES = {"shot": "shot", "gatling": "the Gatling", "dynamite": "dynamite", "indians": "the Indians"}
#: how the winners of each ending are named
SIDES = {
    SHERIFF: "the Sheriff and his Deputies",
    DEPUTY: "the Sheriff and his Deputies",
    OUTLAW: "the Outlaws",
    RENEGADE: "the Renegade",
}


def winning_side(role: str, three_player: bool) -> str:
    """The winners named by the role of one of them: ``the Outlaws``, ``the Sheriff and his
    Deputies``; at 3 players, where each role plays alone, ``the Deputy``."""
    return f"the {role.capitalize()}" if three_player else SIDES[role]


def _dice(dice: Iterable[str], mask: int) -> str:
    return " ".join(f"[{face}]" if mask >> i & 1 else face for i, face in enumerate(dice))


def narrate(event: tuple) -> str | None:
    """One line for a public event, None for an event kind that is not public."""
    kind = event[0]
    if kind not in PUBLIC_EVENTS:
        return None
    if kind == "turn":
        return f"-- turn {event[2]}: p{event[1]}"
    if kind == "roll":
        _, p, dice, mask = event
        verb = "rolls" if mask == (1 << A.NUM_DICE) - 1 else "rerolls"
        return f"p{p} {verb}: {_dice(dice, mask)}"
    if kind == "arrow":
        return f"p{event[1]} takes an arrow"
    if kind == "indians":
        hurt = ", ".join(f"p{s} -{loss}" for s, loss in enumerate(event[1]) if loss) or "nobody hurt"
        return f"the Indians attack: {hurt}"
    if kind == "dynamite":
        return f"p{event[1]}'s dynamite explodes"
    if kind == "shot":
        _, p, target, face, amount = event
        double = " (doubled)" if amount == 2 else ""
        return f"p{p} shoots p{target} with a {face}{double}"
    if kind == "lose":
        return f"p{event[1]} loses a life point ({_CAUSES.get(event[2], event[2])})"
    if kind == "beer":
        _, p, target, gain = event
        whom = "himself" if p == target else f"p{target}"
        return f"p{p} gives a beer to {whom} (+{gain})"
    if kind == "gatling":
        return f"p{event[1]} fires the Gatling"
    if kind == "discard_arrows":
        return f"p{event[1]} discards his arrows"
    if kind == "eliminated":
        _, seat, role, cause = event
        return f"p{seat} is eliminated by {_CAUSES.get(cause, cause)}: the {role}"
    if kind == "ability":
        seat, name = event[1], event[2]
        return f"p{seat} uses {CHARACTERS[name].name}'s ability" + (
            f" on p{event[3]}" if name in ("sid_ketchum", "kit_carlson") else ""
        )
    return f"game over: {', '.join(f'p{s}' for s in event[1])} win"


def narrate_events(events: Iterable[tuple]) -> str:
    """The lines of the public events among ``events``, one per line."""
    lines = (narrate(e) for e in events)
    return "\n".join(line for line in lines if line is not None)


def final_text(game: BangGame) -> str:
    """Every seat's role and character, and the winners (ValueError before the end)."""
    if not game.game_over or game.winners is None:
        raise ValueError("the game is not over: roles are revealed only at the end")
    seats = ", ".join(
        f"p{s} {game.roles[s]} ({CHARACTERS[game.characters[s]].name}"
        f"{'' if game.alive[s] else ', eliminated'})"
        for s in range(game.num_players)
    )
    winners = sorted(game.winners)
    side = winning_side(game.roles[winners[0]], game.three_player)
    return f"Roles: {seats}. Winners: {side} ({', '.join(f'p{s}' for s in winners)})."
