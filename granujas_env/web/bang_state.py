"""The Bang! The Dice Game table as JSON for the browser, built from seat views only.

:func:`seat_json` turns one seat's view (:func:`granujas_env.bang_dice.view.seat_view`, exactly
what that seat may know) into the JSON the page draws: the seats around the table with character,
life, arrows and the roles that seat knows, the dice (kept, locked, to roll), the rerolls left,
the arrow pile, the narrated public events (:func:`granujas_env.bang_dice.text.narrate`) and, when
the seat decides, its question and legal actions in plain words as the Bang! text interface
(:mod:`granujas_env.bang_dice.prompts`) gives them to the terminal and to language models.

:func:`public_json` is the table as every seat sees it: built from a view whose hidden roles are
blanked (the Sheriff and the revealed roles only), no menu. :func:`final_json` reveals every role
once the game is over. :func:`help_json` is the how-to-play panel: the dice faces and the
characters' abilities from the character data file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..bang_dice.engine.data import CHARACTERS
from ..bang_dice.engine.game import FACES, BangGame
from ..bang_dice.prompts import GOALS, TEXT, WAITING, goal_text, locked_dice, question, winners_text
from ..bang_dice.text import final_text, narrate
from ..bang_dice.view import BangView, PlayerView, seat_view

__all__ = ["FACE_TEXT", "final_json", "help_json", "meaning", "menu", "public_json", "seat_json"]

#: what each die face does, in the order the faces are resolved (the how-to-play panel)
FACE_TEXT: dict[str, str] = {
    "arrow": "take an arrow from the pile at once (the last one sets off the Indians: each "
             "player loses a life point per arrow he holds, then all arrows go back)",
    "dynamite": "cannot be rerolled; three or more end your rolling and cost you a life point",
    "1": "a player next to you (one seat away) loses a life point",
    "2": "a player two seats away loses a life point (with 2 or 3 players in play: next to "
         "you)",
    "beer": "a player of your choice (you too) gains a life point, up to his maximum",
    "gatling": "three of them fire the Gatling: every other player loses a life point and you "
               "give your arrows back",
}
def menu(view: BangView) -> list[dict[str, Any]]:
    """The seat's legal actions as the Bang! text interface words them (the terminal's and the
    language models' menu): ``id``, ``name``, ``meaning``; empty when the seat does not
    decide."""
    return [item._asdict() for item in TEXT.menu(view)]


def meaning(game: BangGame, action: int) -> str:
    """``action`` at ``game``'s pending decision in the deciding seat's words (every Bang!
    decision is public, and the decider's view holds no role that is not public)."""
    frame = game.decision
    if frame is None:
        raise ValueError("the game is over: there is no decision")
    view = seat_view(game, frame.player)
    return next(item.meaning for item in TEXT.menu(view) if item.id == action)


def _last_roll_mask(view: BangView) -> int:
    """The dice rolled by the turn's last roll (the others were kept); 0 before any roll."""
    for event in reversed(view.events):
        if event[0] == "roll" and event[1] == view.turn_player:
            return event[3]
        if event[0] == "turn":
            return 0
    return 0


def _dice(view: BangView) -> list[dict[str, Any]]:
    rolled = _last_roll_mask(view)
    locked = locked_dice(view)
    return [{"die": i, "face": face, "kept": view.rolls_done > 1 and not rolled >> i & 1,
             "locked": locked[i]}
            for i, face in enumerate(view.dice)]


def _player(view: BangView, p: PlayerView, names: Sequence[str]) -> dict[str, Any]:
    character = CHARACTERS[p.character]
    return {
        "seat": p.seat,
        "name": names[p.seat],
        "character": character.name,
        "ability": character.text_en,
        "life": p.life,
        "max_life": p.max_life,
        "arrows": p.arrows,
        "alive": p.alive,
        "role": p.role,
        "sheriff": p.seat == view.sheriff,
        "turn": p.seat == view.turn_player and not view.game_over,
        "deciding": p.seat == view.deciding_player,
    }


def _prompt(view: BangView, names: Sequence[str]) -> str:
    if view.game_over:
        return f"The game is over: {winners_text(view, names)}."
    if view.acting:
        return f"Your move: {question(view)}"
    return f"Waiting for {names[view.deciding_player]}: {WAITING[view.decision or '']}."


def seat_json(view: BangView, names: Sequence[str], decision_id: str | None = None) -> dict:
    """The table as ``view.seat`` may see it, as JSON types. ``names`` labels the seats;
    ``decision_id`` (sent only to the deciding seat) names the pending decision."""
    if len(names) != view.num_players:
        raise ValueError(f"names must name the {view.num_players} seats, got {len(names)}")
    public = view.seat < 0
    return {
        "kind": "bang-dice",
        "seat": None if public else view.seat,
        "num_players": view.num_players,
        "role": None if public else view.role,
        "goal": None if public else f"You are the {view.role.title()}: {goal_text(view)}.",
        "sheriff": view.sheriff,
        "turn_player": view.turn_player,
        "turn": view.turn_number,
        "game_over": view.game_over,
        "winners": None if view.winners is None else list(view.winners),
        "decision": None if view.decision is None else {
            "kind": view.decision,
            "player": view.deciding_player,
            "question": question(view) if view.acting else WAITING[view.decision],
            "data": {k: v for k, v in view.decision_data.items() if isinstance(v, (int, str))},
        },
        "prompt": _prompt(view, names),
        "acting": view.acting,
        "decision_id": decision_id if view.acting else None,
        "menu": menu(view),
        "players": [_player(view, p, names) for p in view.players],
        "dice": _dice(view),
        "rolls_done": view.rolls_done,
        "rerolls_left": view.rerolls_left,
        "arrow_pile": view.arrow_pile,
        "events": [line for line in map(narrate, view.events) if line],
    }


def _public_view(game: BangGame) -> BangView:
    """What every seat knows: seat 0's view with the roles only seat 0 knows blanked, no seat,
    no decision of its own."""
    view = seat_view(game, 0)
    roles = [r if game.role_revealed[s] or game.game_over else None
             for s, r in enumerate(game.roles)]
    players = tuple(dataclasses.replace(p, role=roles[p.seat]) for p in view.players)
    return dataclasses.replace(view, seat=-1, role="", three_player_target=-1, players=players,
                               acting=False, legal_actions=())


def public_json(game: BangGame, names: Sequence[str]) -> dict:
    """The table as every seat (and a spectator of a replay) sees it: no hidden role, no menu."""
    return seat_json(_public_view(game), names)


def final_json(game: BangGame) -> dict:
    """Every role and the winners: public once the game is over."""
    if not game.game_over:
        raise ValueError("the roles are revealed only when the game is over")
    return {"roles": list(game.roles), "winners": sorted(game.winners or ()),
            "text": final_text(game)}


def help_json() -> dict:
    """The how-to-play panel: the dice faces, the roles and the 16 characters' abilities."""
    return {
        "faces": [{"face": f, "text": FACE_TEXT[f]} for f in FACES],
        "roles": [{"role": r, "text": t} for r, t in GOALS.items()],
        "characters": [{"name": c.name, "life": c.life, "ability": c.text_en}
                       for c in CHARACTERS.values()],
    }
