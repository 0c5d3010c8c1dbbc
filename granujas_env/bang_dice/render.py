"""A readable table of a Bang! game as one seat (or the public) sees it: no hidden role shown."""

from __future__ import annotations

from .engine.data import CHARACTERS
from .engine.game import BangGame
from .view import known_roles

__all__ = ["render_text", "seat_name"]


def seat_name(game: BangGame, seat: int) -> str:
    """``p2 (Lucky Duke)``: a seat and its character (public)."""
    return f"p{seat} ({CHARACTERS[game.characters[seat]].name})"


def render_text(game: BangGame, viewer: int | None = None) -> str:
    """The table: each player's character, role where ``viewer`` knows it (None: the public,
    who knows the revealed roles only), life, arrows; the dice; the pending decision."""
    n = game.num_players
    if viewer is None:
        roles = [game.roles[s] if game.role_revealed[s] or game.game_over else None for s in range(n)]
    else:
        roles = known_roles(game, viewer)
    lines = [f"Bang! The Dice Game, {n} players, turn {game.turn_number}: p{game.turn_player} plays"]
    for s in range(n):
        mark = ">" if s == game.turn_player and not game.game_over else " "
        you = " (you)" if s == viewer else ""
        state = (
            f"life {game.life[s]}/{game.max_life[s]}, arrows {game.arrows[s]}"
            if game.alive[s]
            else "eliminated"
        )
        lines.append(f"{mark} {seat_name(game, s)}{you}: {roles[s] or 'role hidden'}, {state}")
    dice = " ".join(game.dice) if game.dice else "-"
    lines.append(
        f"dice: {dice} (rolls {game.rolls_done}, rerolls left {game.rerolls_left}); "
        f"arrow pile {game.arrow_pile}"
    )
    frame = game.decision
    if frame is None:
        winners = ", ".join(f"p{s}" for s in sorted(game.winners or ()))
        lines.append(f"game over: winners {winners}")
    else:
        lines.append(f"waiting for p{frame.player}: {frame.kind}")
    return "\n".join(lines)
