"""The table as JSON for the browser, built from seat views only.

:func:`seat_json` turns one seat's semantic view (:func:`granujas_env.view.seat_view`, exactly what
that seat may know) into the plain JSON the page draws: the board with its Safes and Marks, the
Saloon, every player's sheet, played cards (values only where the seat knows them), henchmen,
money, reputation, the seat's own hand, the narrated public events and, when the seat is deciding,
the legal actions in plain words (:func:`granujas_env.text.legal_action_menu`).

:func:`public_json` is what *every* seat knows: the seat JSONs of all seats, merged so that any
value on which two seats' JSONs differ is blanked (``None``). It never reads the game's hidden
fields, so it cannot show more than any single seat sees.

:func:`final_json` is the score table of a finished game (every held Safe is shown then, as at the
table), read from the game: the server adds it only once the game is over.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..docs import _effect_words
from ..engine import actions as A
from ..engine.game import DECISION_KINDS, Game
from ..render import SLOT_NAMES
from ..text import granuja_text, legal_action_menu, narrate
from ..view import GranujaView, PlayerView, SeatView, seat_view

__all__ = ["final_json", "plain_decision", "public_json", "seat_json"]

# The engine's action-group names in a decision's description, "(card)", "(sheet / saloon)": a
# player reads the menu's words instead
_GROUP_NAMES = re.compile(r" ?\((?:[a-z_]+)(?: / [a-z_]+)*\)")

# Keys of the seat JSON that belong to the seat that looks, not to the table: blank in the public
# view whatever the merge gives (a 2-player merge of two hands of equal size would keep the
# positions where both hands hold the same card).
_OWN_KEYS = {"seat": None, "acting": False, "hand": [], "menu": [], "decision_id": None}


def plain_decision(kind: str) -> str:
    """What a decision of ``kind`` asks, in words (the engine's description without its action
    group names): "step 1 Plan: choose the poker card to play" for ``plan_card``."""
    return _GROUP_NAMES.sub("", DECISION_KINDS.get(kind, kind.replace("_", " ")))


def _prompt(names: Sequence[str], winner: int | None, kind: str | None, player: int,
            acting: bool) -> str:
    """The line over the menu: the result, the seat's own question, or whom it waits for."""
    if kind is None:
        return "The game is over." if winner is None else f"The game is over: {names[winner]} wins."
    if acting:
        return f"Your move: {plain_decision(kind)}."
    return f"Waiting for {names[player]}: {plain_decision(kind)}."


def _card(value: int | None) -> str | None:
    return None if value is None else A.CARD_NAMES[value]


def _granuja(g: GranujaView | None, view: SeatView, cost: int | None = None) -> dict | None:
    if g is None:
        return None
    catalog = view.catalog
    return {
        "uid": g.uid,
        "occupation": catalog.occupation_cards[g.occ].occupation.name,
        "trait": catalog.trait_cards[g.trait].trait.name,
        "colour": g.colour,
        "tech": g.tech,
        "cost": g.cost if cost is None else cost,
        "label": granuja_text(g, catalog, cost=cost, effect=False),
        "text": granuja_text(g, catalog, cost=cost),
        "used": g.uid in view.used,
    }


def _player(view: SeatView, p: PlayerView, names: Sequence[str]) -> dict:
    strategy = view.catalog.strategies[p.strategy] if p.strategy >= 0 else None
    played = []
    for c in p.played:
        verdict = None
        if c.value is not None and c.slot > 0:
            verdict = "honest" if c.value == c.slot else "bluff"
        played.append({"slot": c.slot, "slot_name": SLOT_NAMES[c.slot], "turn": c.turn,
                       "henchmen": list(c.henchmen), "value": _card(c.value), "verdict": verdict})
    return {
        "seat": p.seat,
        "name": names[p.seat],
        "money": p.money,
        "reputation": p.reputation,
        "henchmen": {"free": p.free_henchmen, "jail": p.jailed_henchmen,
                     "on_cards": p.henchmen_on_cards, "destroyed": p.destroyed_henchmen},
        "marks_left": [{"faces": f"{2 + 2 * t}/{3 + 2 * t}", "count": n}
                       for t, n in enumerate(p.marks_left)],
        "hand_size": p.hand_size,
        "deck_size": p.deck_size,
        "safes": list(p.safes),
        "sheet": [_granuja(g, view) for g in p.sheet],
        "played": played,
        "strategy": None if strategy is None else f"{strategy.name}: {_effect_words(strategy.effect)}",
    }


def _earlier_days(view: SeatView) -> list[list[list[dict]]]:
    """[day][seat] -> the declared slots of each finished day, with the values the seat knows."""
    known = {(d, s, slot): v for d, s, slot, v in view.known_cards}
    revealed = {(d, s, slot) for d, s, slot, _ in view.reveals}
    days = view.declared if view.game_over else view.declared[:-1]
    return [
        [
            [{"slot_name": SLOT_NAMES[slot], "value": _card(known.get((day, seat, slot))),
              "revealed": (day, seat, slot) in revealed} for slot in slots]
            for seat, slots in enumerate(by_seat)
        ]
        for day, by_seat in enumerate(days)
    ]


def seat_json(view: SeatView, names: Sequence[str], decision_id: str | None = None) -> dict:
    """The table as ``view.seat`` may see it, as JSON types. ``names`` labels the seats;
    ``decision_id`` (sent only to the deciding seat) names the pending decision, so that an action
    meant for an earlier one is refused."""
    if len(names) != view.num_players:
        raise ValueError(f"names must name the {view.num_players} seats, got {len(names)}")
    safes = sorted(view.safes.values(), key=lambda s: s.id)
    events = [narrate(e, view.catalog) for e in view.history]
    return {
        "seat": view.seat,
        "num_players": view.num_players,
        "day": view.day,
        "last_day": view.last_day,
        "turn": view.turn + 1,
        "turns": view.turns_per_day * view.num_players,
        "first_player": view.first_player,
        "current_player": view.current_player,
        "game_over": view.game_over,
        "scores": None if view.scores is None else list(view.scores),
        "winner": view.winner,
        "decision": None if view.decision is None else {
            "kind": view.decision,
            "player": view.deciding_player,
            "about": DECISION_KINDS.get(view.decision, view.decision),
            "question": plain_decision(view.decision),
        },
        "prompt": _prompt(names, view.winner, view.decision, view.deciding_player, view.acting),
        "acting": view.acting,
        "decision_id": decision_id if view.acting else None,
        "menu": [item._asdict() for item in legal_action_menu(view)],
        "hand": [A.CARD_NAMES[v] for v in view.hand],
        "leader": [{"slot_name": SLOT_NAMES[slot],
                    "ability": _effect_words(view.rules.leader[slot])
                    if slot in view.rules.leader else "no ability"} for slot in range(1, 7)],
        "players": [_player(view, p, names) for p in view.players],
        "board": [
            {"name": loc.name, "values": list(view.location_values[i]),
             "cells": list(view.board[i]), "unused": view.unused_counts[i],
             "unused_seen": list(view.unused_known[i])}
            for i, loc in enumerate(view.rules.locations)
        ],
        "safes": [{"id": s.id, "location": s.location, "position": s.board_pos,
                   "holder": s.holder, "value": s.value, "marks": [list(m) for m in s.marks]}
                  for s in safes],
        "saloon": [_granuja(g, view, cost) for g, cost in zip(view.saloon, view.saloon_costs)],
        "limbo": _granuja(view.limbo, view),
        "discard": {"count": view.discard_count, "top": _granuja(view.discard_top, view)},
        "decks": {"traits": view.trait_deck_count, "occupations": view.occupation_deck_count},
        "current": {"slot_name": SLOT_NAMES[view.current_slot] if view.current_slot else None,
                    "henchmen": list(view.current_henchmen), "window": view.window},
        "earlier_days": _earlier_days(view),
        "events": [line.strip("\n") for line in events if line],
    }


def _common(values: list[Any]) -> Any:
    """What all the seat JSONs agree on: equal values kept, dicts and equal-length lists merged
    item by item, anything else blanked."""
    first = values[0]
    if all(type(v) is type(first) for v in values):
        if isinstance(first, dict) and all(v.keys() == first.keys() for v in values):
            return {k: _common([v[k] for v in values]) for k in first}
        if isinstance(first, list) and all(len(v) == len(first) for v in values):
            return [_common([v[i] for v in values]) for i in range(len(first))]
        if all(v == first for v in values):
            return first
    return None


def public_json(game: Game, names: Sequence[str]) -> dict:
    """The table as every seat sees it: what all seats' JSONs agree on (no hand, no menu)."""
    merged = _common([seat_json(seat_view(game, s), names) for s in range(game.num_players)])
    merged.update(_OWN_KEYS)
    frame = game.decision
    merged["prompt"] = _prompt(names, game.winner, None if frame is None else frame.kind,
                               -1 if frame is None else frame.player, False)
    return merged


def final_json(game: Game) -> dict:
    """Scores by source and every held Safe's value: public once the game is over."""
    if not game.game_over:
        raise ValueError("the score table is shown only when the game is over")
    return {
        "breakdown": [game.score_breakdown(s) for s in range(game.num_players)],
        # the reputation track's value; breakdown's "reputation" is the tech it is worth
        "reputation": [p.reputation for p in game.players],
        "money": [p.money for p in game.players],
        "safe_values": {str(s.id): s.value for s in game.safes if s.holder >= 0},
        "winner": game.winner,
    }
