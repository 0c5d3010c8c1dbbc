"""Text interface for people and language-model agents: what one seat may know, in plain words.

Everything here is built from the seat's semantic view (:func:`granujas_env.view.seat_view`), which
holds exactly that seat's information, so no text shows a rival's hand, an unseen Safe value or a
deck order (tests/test_text.py checks it the way the observation leak tests do)::

    from granujas_env import text
    print(text.text_observation(env, seat=0))           # table, events, decision and menu
    for item in text.legal_action_menu(env.unwrapped.game):
        print(item.id, item.name, item.meaning)           # 13 slot:5 play the 4 face down in slot 5 (a bluff)
    action = text.parse_action("Action: 13", legal, names)

Action ids are the env's (``granujas_env.engine.actions``): a menu line and an answer use the same
id as ``env.step``. :func:`parse_action` reads a bare id, an action name (``slot:5``), a menu line's
words or a short phrase matching one line, ``Action: 13``, ``[13]`` or a JSON ``{"action": 13}``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .docs import _effect_words
from .engine import actions as A
from .engine.data import Catalog
from .engine.game import DECISION_KINDS, Game
from .engine.vocabulary import REQUIREMENTS
from .render import SLOT_NAMES
from .view import GranujaView, PlayerView, SeatView, seat_view

__all__ = [
    "RULES_SUMMARY",
    "MenuItem",
    "describe_action",
    "decision_text",
    "events_text",
    "granuja_text",
    "legal_action_menu",
    "menu_text",
    "narrate",
    "parse_action",
    "render_view",
    "resolve_view",
    "text_observation",
]


#: What a language model needs to know before its first decision (agents add the answer format).
RULES_SUMMARY = (
    "You are playing 3000 Granujas, a board game of bluffing and Safe-cracking for 2-4 players. "
    "Each turn a player plays a poker card face down in a slot (A, 2-6) and uses the abilities "
    "of that slot, whatever the card really is; rivals may challenge the card with a henchman "
    "(at the end of the day a caught bluff costs the bluffer 1 reputation and gives each "
    "challenger 1; an honest card sends the challengers' henchmen to jail). Peek at, mark and "
    "steal Safes, hire Granujas, and finish with the most tech: Safes, Marks matching a Safe's "
    "value, reputation and Granujas. You see only what your seat may know. At each of your "
    "decisions you get the table and the legal actions, one a line: id) name meaning."
)


class MenuItem(NamedTuple):
    """One legal action: its env id, its short name (``actions.describe``) and its meaning."""

    id: int
    name: str
    meaning: str


# ------------------------------------------------------------------------------------ sources
def resolve_view(source: Any, seat: int | None = None) -> SeatView:
    """The seat view of ``source``: a :class:`SeatView`, a :class:`Game`, or an env (wrapped or
    raw) holding ``.game``. ``seat`` defaults to the deciding seat (the view's own for a view)."""
    if isinstance(source, SeatView):
        if seat is not None and seat != source.seat:
            raise ValueError(f"this view is seat {source.seat}'s, not seat {seat}'s")
        return source
    game = _game_of(source)
    if seat is None:
        if game.decision is None:
            raise ValueError("the game is over: no seat is deciding; name the seat")
        seat = game.decision.player
    return seat_view(game, seat)


def _game_of(source: Any) -> Game:
    game = source if isinstance(source, Game) else getattr(
        getattr(source, "unwrapped", source), "game", None
    )
    if not isinstance(game, Game):
        raise TypeError(
            f"expected a SeatView, a Game or a granujas env with a game in progress, got "
            f"{type(source).__name__} (call env.reset() first)"
        )
    return game


# ------------------------------------------------------------------------------------ pieces
def _who(view: SeatView, seat: int) -> str:
    return "you" if seat == view.seat else f"p{seat}"


def _whose(view: SeatView, seat: int) -> str:
    return "your" if seat == view.seat else f"p{seat}'s"


def _location(view: SeatView, loc: int) -> str:
    return view.rules.locations[loc].name


_MODIFIERS = {"extra_money": "+1 $ when used", "use_twice": "usable twice"}


def granuja_text(g: GranujaView | None, catalog: Catalog, *, cost: int | None = None,
                 effect: bool = True) -> str:
    """A Granuja in words: names, when it acts, hire cost, tech, modifiers and (``effect``) what
    it does. ``cost`` overrides the printed cost (what hiring it costs a given seat)."""
    if g is None:
        return "(empty)"
    name = (f"{catalog.occupation_cards[g.occ].occupation.name} "
            f"{catalog.trait_cards[g.trait].trait.name}")
    if g.timing == "slots":
        when = "slot " + "/".join(SLOT_NAMES[s] for s in sorted(g.slots))
    elif g.timing == "response":
        when = "answers the Granuja on its " + "/".join(sorted(g.arrows))
    else:
        when = g.timing.replace("_", " ")
    parts = [when, f"{g.cost if cost is None else cost}$"]
    if g.tech:
        parts.append(f"{g.tech} tech")
    parts += sorted(_MODIFIERS.get(m, m) for m in g.modifiers)
    parts += [f"only if {REQUIREMENTS.get(r, r)}" for r in sorted(g.requires)]
    words = f"{name} [{', '.join(parts)}]"
    return f"{words}: {_effect_words(g.effect)}" if effect else words


def _safe_words(view: SeatView, sid: int) -> str:
    safe = view.safes[sid]
    value = "value unknown" if safe.value is None else f"value {safe.value}"
    marks = ", ".join(f"p{o}:{f}" for o, f in safe.marks)
    where = (f"{_location(view, safe.location)} {safe.board_pos + 1}" if safe.board_pos >= 0
             else f"{_whose(view, safe.holder)} {_location(view, safe.location)} Safe")
    return f"{where} ({value}{'; Marks ' + marks if marks else ''})"


def _board_sid(view: SeatView, index: int) -> int:
    loc, pos = divmod(index, A.BOARD_POSITIONS)
    sid = view.board[loc][pos]
    if sid is None:
        raise ValueError(f"no Safe at {_location(view, loc)} {pos + 1}")
    return sid


def narrate(event: tuple, catalog: Catalog) -> str | None:
    """One public history event as a sentence (None for events not worth a line)."""
    kind = event[0]
    if kind == "plan":
        _, _, seat, slot = event
        if slot == 0:
            return f"p{seat} plays the 0 face up (Honesto)"
        return f"p{seat} plays a card face down in slot {SLOT_NAMES[slot]}"
    if kind == "challenge":
        _, _, seat, target, slot = event
        return f"    p{seat} puts a henchman on p{target}'s slot {SLOT_NAMES[slot]} (challenge)"
    if kind == "reveal":
        _, _, seat, slot, value, bluff, owners = event
        who = ", ".join(f"p{o}" for o in owners)
        verdict = "BLUFF caught" if bluff else "honest: henchmen to jail"
        return f"  reveal p{seat} slot {SLOT_NAMES[slot]} = {A.CARD_NAMES[value]} ({verdict}; {who})"
    if kind == "hire":
        _, _, seat, occ, trait = event
        return (f"    p{seat} hires {catalog.occupation_cards[occ].occupation.name} "
                f"{catalog.trait_cards[trait].trait.name}")
    if kind == "day":
        return f"\n--- day {event[1]} begins; p{event[2]} plays first ---"
    line = _SIMPLE_EVENTS.get(kind)
    return None if line is None else line(event, catalog)


_SIMPLE_EVENTS = {
    "sheriff": lambda e, c: f"    p{e[2]} uses the Sheriff's Office and {_SHERIFF_DONE[e[3]]}",
    "steal": lambda e, c: f"    p{e[2]} takes a Safe",
    "abandon": lambda e, c: f"    p{e[2]} abandons a Safe (over the Safe limit)",
    "mark": lambda e, c: f"    p{e[2]} marks a Safe with a {e[4]}",
    "bail": lambda e, c: f"    p{e[2]} frees a henchman of p{e[3]}",
    "steal_money": lambda e, c: f"    p{e[2]} takes {e[4]} $ from p{e[3]}",
    "jail": lambda e, c: f"    a henchman of p{e[2]} goes to jail",
    "free": lambda e, c: f"    p{e[2]} frees a henchman of p{e[3]}",
    "place_henchman": lambda e, c: (
        f"    p{e[2]} puts p{e[3]}'s henchman on p{e[4]}'s slot {SLOT_NAMES[e[5]]}"
    ),
    "destroy": lambda e, c: f"    p{e[2]} destroys the henchmen on its slot {SLOT_NAMES[e[3]]}",
    "draw": lambda e, c: f"    p{e[2]} draws {e[3]} poker card(s)",
    "card_on_deck": lambda e, c: f"    p{e[2]} puts a card on top of its poker deck",
    "shuffle": lambda e, c: f"    p{e[2]} shuffles its poker deck",
    "deck_top": lambda e, c: f"    p{e[2]} reveals a {A.CARD_NAMES[e[3]]} from its deck",
    "peek_card": lambda e, c: f"    p{e[2]} peeks at p{e[3]}'s slot {SLOT_NAMES[e[4]]}",
    "jail_or_reputation": lambda e, c: f"    p{e[2]} chooses: {e[3]}",
    "swap": lambda e, c: f"    p{e[2]} swaps {('Occupations', 'Traits')[e[3]]} between two Granujas",
    "strategy": lambda e, c: f"    p{e[2]} uses its Strategy card {c.strategies[e[3]].name}",
    "strategies": lambda e, c: "Strategy cards: " + ", ".join(
        f"p{i}: {c.strategies[k].name}" for i, k in enumerate(e[1])
    ),
}
_SHERIFF_DONE = ("sells information (+2 $)", "pays bail", "bribes the sheriff (12 $)")


# ------------------------------------------------------------------------------------ the table
def render_view(view: SeatView) -> str:
    """The table as ``view.seat`` sees it: the board, the Saloon, every player (own hand and own
    card values included), earlier days' declarations and reveals, and whose decision it is."""
    catalog = view.catalog
    state = ("game over" if view.game_over
             else f"day {view.day}/{view.last_day}, turn {view.turn + 1} of "
                  f"{view.turns_per_day * view.num_players}")
    lines = [f"=== 3000 Granujas: {state}; first player p{view.first_player}; you are "
             f"p{view.seat} ==="]
    if view.game_over:
        lines.append(f"scores: {', '.join(f'p{s}: {v}' for s, v in enumerate(view.scores or ()))}"
                     f"; winner p{view.winner}")
    else:
        lines.append(f"p{view.current_player}'s turn; deciding: {_who(view, view.deciding_player)}"
                     f" ({view.decision})")
    lines.append("Safes on the board (value if you have seen it, else ?; Marks as owner:face):")
    for loc, row in enumerate(view.board):
        cells = " ".join(
            f"{pos + 1}:--" if sid is None else f"{pos + 1}:{_safe_cell(view, sid)}"
            for pos, sid in enumerate(row)
        )
        seen = view.unused_known[loc]
        lines.append(
            f"  {_location(view, loc):<12} values {'/'.join(map(str, view.location_values[loc]))}"
            f"  {cells}  unused: {view.unused_counts[loc]}"
            + (f" (you saw {', '.join(map(str, seen))})" if seen else "")
        )
    lines.append("Saloon (left to right; cost for you):")
    for i, (g, cost) in enumerate(zip(view.saloon, view.saloon_costs)):
        lines.append(f"  {i + 1}) {granuja_text(g, catalog, cost=cost)}")
    top = granuja_text(view.discard_top, catalog, effect=False) if view.discard_top else "none"
    lines.append(f"Discard pile: {view.discard_count} (top: {top}); decks: "
                 f"{view.trait_deck_count} Traits, {view.occupation_deck_count} Occupations")
    if view.limbo is not None:
        lines.append(f"Just hired, to place: {granuja_text(view.limbo, catalog)}")
    for p in view.players:
        lines += _player_lines(view, p)
    lines += _earlier_days(view)
    return "\n".join(lines)


def _safe_cell(view: SeatView, sid: int) -> str:
    safe = view.safes[sid]
    marks = " ".join(f"p{o}:{f}" for o, f in safe.marks)
    return f"[{'?' if safe.value is None else safe.value}{' ' + marks if marks else ''}]"


def _player_lines(view: SeatView, p: PlayerView) -> list[str]:
    catalog = view.catalog
    me = p.seat == view.seat
    marks = " ".join(f"{2 + 2 * t}/{3 + 2 * t}:{n}" for t, n in enumerate(p.marks_left))
    lines = [
        f"p{p.seat}{' (you)' if me else ''}: {p.money} $, reputation {p.reputation:+d}, henchmen "
        f"{p.free_henchmen} free / {p.jailed_henchmen} in jail / {p.henchmen_on_cards} on cards"
        + (f" / {p.destroyed_henchmen} destroyed" if p.destroyed_henchmen else "")
        + f"; Marks left {marks}; hand {p.hand_size}, deck {p.deck_size}"
    ]
    cards = []
    for c in p.played:
        value = "?" if c.value is None else A.CARD_NAMES[c.value]
        where = "face up" if c.slot == 0 else f"slot {SLOT_NAMES[c.slot]}"
        verdict = ""
        if c.value is not None and c.slot > 0:
            verdict = " honest" if c.value == c.slot else " bluff"
        hench = f" (henchmen of {', '.join(f'p{o}' for o in c.henchmen)})" if c.henchmen else ""
        cards.append(f"{where} = {value}{verdict}{hench}")
    lines.append(f"    played today: {'; '.join(cards) or '-'}")
    if me:
        lines.append(f"    hand: {' '.join(A.CARD_NAMES[v] for v in view.hand) or '-'}")
    for i, g in enumerate(p.sheet):
        if g is not None:
            lines.append(f"    sheet {i + 1}: {granuja_text(g, catalog)}")
    if not any(p.sheet):
        lines.append("    sheet: empty")
    safes = ", ".join(_safe_cell(view, sid) for sid in p.safes)
    lines.append(f"    Safes held: {safes or '-'}")
    if p.strategy >= 0:
        card = catalog.strategies[p.strategy]
        lines.append(f"    Strategy card: {card.name} ({card.gloss}): {_effect_words(card.effect)}")
    return lines


def _earlier_days(view: SeatView) -> list[str]:
    known = {(d, s, slot): v for d, s, slot, v in view.known_cards}
    revealed = {(d, s, slot) for d, s, slot, _ in view.reveals}
    lines = []
    for day, by_seat in enumerate(view.declared if view.game_over else view.declared[:-1]):
        parts = []
        for seat, slots in enumerate(by_seat):
            cards = []
            for slot in slots:
                value = known.get((day, seat, slot))
                shown = "" if value is None else f"={A.CARD_NAMES[value]}"
                tag = " revealed" if (day, seat, slot) in revealed else ""
                cards.append(f"{SLOT_NAMES[slot]}{shown}{tag}")
            parts.append(f"p{seat} {' '.join(cards) or '-'}")
        lines.append(f"Day {day + 1} declared slots (= value where you know it): {'; '.join(parts)}")
    return lines


# ------------------------------------------------------------------------------------ actions
def _granuja_at(view: SeatView, index: int) -> GranujaView | None:
    return view.players[view.seat].sheet[index]


def _use(view: SeatView, g: GranujaView | None, where: str) -> str:
    return f"use {where}: {granuja_text(g, view.catalog)}"


def _by_uid(view: SeatView, uid: Any) -> GranujaView | None:
    pool = [*view.players[view.seat].sheet, *view.saloon, view.limbo, view.discard_top]
    return next((g for g in pool if g is not None and g.uid == uid), None)


def _current_card(view: SeatView) -> str:
    return f"p{view.current_player}'s card in slot {SLOT_NAMES[view.current_slot]}"


def _pass_words(view: SeatView, kind: str | None) -> str:
    words = {
        "start_ability": "use no start-of-turn ability; go on to the Plan",
        "challenge": f"do not challenge {_current_card(view)}",
        "ability": "use no more abilities; end step 2",
        "response": "use no response Granuja",
        "trigger": "do not use it",
        "use_again": "do not use it a second time",
        "on_hire": "do not use its on-hire ability",
        "rearrange": "finish: keep the sheet in this order",
        "bail": "free no more henchmen",
        "mark_source": "place no Mark (move none of yours)",
        "preempt_jail": "do not challenge first",
        "jail_or_reputation": "lose 1 reputation instead",
        "shuffle_deck": "leave your poker deck as it is",
    }
    return words.get(kind or "", "pass")


def _confirm_words(view: SeatView, kind: str | None, context: Mapping[str, Any]) -> str:
    if kind == "challenge":
        return f"challenge {_current_card(view)} (put one of your henchmen on it)"
    if kind == "preempt_jail":
        return f"first challenge {_current_card(view)} with one of your free henchmen"
    if kind == "use_again":
        return "use the same Granuja a second time"
    if kind == "on_hire":
        return _use(view, _by_uid(view, context.get("uid")), "the on-hire ability of")
    words = {
        "jail_or_reputation": "put one of your free henchmen in jail",
        "shuffle_deck": "shuffle your poker deck",
    }
    return words.get(kind or "", "yes")


def describe_action(source: Any, action: int, *, seat: int | None = None) -> str:
    """The plain-words meaning of ``action`` (a legal id of the pending decision) for the deciding
    seat, e.g. ``play the 4 face down in slot 5 (a bluff)``; from a SeatView, a Game or an env.

    Raises ``ValueError`` when the view is not the deciding seat's or ``action`` is not legal."""
    view = resolve_view(source, seat)
    if not view.acting:
        raise ValueError(f"seat {view.seat} is not deciding now (p{view.deciding_player} is); "
                         "actions are described for the deciding seat only")
    if action not in view.legal_actions:
        raise ValueError(f"action {action!r} is not legal for the pending decision "
                         f"{view.decision!r}; legal ids: {list(view.legal_actions)}")
    return _describe(view, action)


def _describe(view: SeatView, action: int) -> str:
    kind, context = view.decision, view.context or {}
    block, index = A.block_of(action)
    me = view.players[view.seat]
    if block == "pass":
        return _pass_words(view, kind)
    if block == "confirm":
        return _confirm_words(view, kind, context)
    if block == "card":
        card = A.CARD_NAMES[index]
        if kind == "deck_top_card":
            return f"put the {card} from your hand on top of your poker deck"
        if kind == "plan_card":
            note = "a 0 in a slot is always a bluff; " if index == 0 else ""
            return f"play the {card} ({note}you choose its slot next)"
        return f"the {card} from your hand"
    if block == "slot":
        slot = index + 1
        if kind == "plan_slot":
            value = context["card"]
            verdict = "honest" if value == slot else "a bluff"
            return f"play the {A.CARD_NAMES[value]} face down in slot {SLOT_NAMES[slot]} ({verdict})"
        if kind == "destroy_target":
            card = next(c for c in me.played if c.slot == slot)
            owners = ", ".join(f"p{o}" for o in card.henchmen)
            return f"destroy the henchmen on your card in slot {SLOT_NAMES[slot]} ({owners})"
        return f"slot {SLOT_NAMES[slot]}"
    if block == "leader":
        slot = view.current_slot
        return (f"use your leader's slot-{SLOT_NAMES[slot]} ability: "
                f"{_effect_words(view.rules.leader[slot])}")
    if block == "sheet":
        return _sheet_words(view, kind, index)
    if block == "saloon":
        g, cost = view.saloon[index], view.saloon_costs[index]
        where = f"Saloon space {index + 1}"
        if kind in ("hire", "hire_target"):
            return f"hire from {where} for {cost} $: {granuja_text(g, view.catalog, cost=cost)}"
        if kind == "another_target":
            return _use(view, g, where)
        if kind == "swap_second":
            return f"swap with {granuja_text(g, view.catalog, effect=False)} in {where}"
        return f"{granuja_text(g, view.catalog, cost=cost)} in {where}"
    if block == "sheriff":
        return ("use the Sheriff's Office instead of hiring (the rightmost Saloon Granuja is "
                "discarded, then you choose an option)")
    if block == "sheriff_option":
        rules = view.rules
        return (
            f"sell information: gain {rules.sell_information} $",
            f"pay bail: {rules.bail_cost} $ per jailed henchman you free (anyone's, up to "
            f"{rules.bail_max})",
            f"bribe the sheriff: pay {rules.bribe_cost} $ and steal any Safe on the board",
        )[index]
    if block == "discard_new":
        return f"discard {granuja_text(view.limbo, view.catalog, effect=False)} instead of placing it"
    if block == "swap":
        i, j = A.SWAP_PAIRS[index]
        a = granuja_text(_granuja_at(view, i), view.catalog, effect=False)
        b = granuja_text(_granuja_at(view, j), view.catalog, effect=False)
        return f"swap sheet positions {i + 1} and {j + 1} ({a} <-> {b})"
    if block == "board_safe":
        verb = {
            "peek_target": "peek at the Safe at",
            "steal_target": "steal the Safe at",
            "blind_mark_target": "mark without peeking the Safe at",
            "mark_source": "move one of your Marks from the Safe at",
        }.get(kind or "", "the Safe at")
        return f"{verb} {_safe_words(view, _board_sid(view, index))}"
    if block == "held_safe":
        sid = me.safes[index]
        verb = {"abandon": "abandon", "mark_source": "move one of your Marks from"}.get(
            kind or "", "choose")
        return f"{verb} your Safe {index + 1}: {_safe_words(view, sid)}"
    if block == "location":
        name, count = _location(view, index), view.unused_counts[index]
        if kind == "steal_unused_target":
            return f"steal the top unused Safe of {name} ({count} unused there)"
        if kind == "unused_location":
            return f"peek at the top unused Safe of {name} ({count} unused there)"
        return name
    if block == "mark_face":
        return _mark_words(view, context, index + 2)
    if block == "seat":
        return _seat_words(view, kind, context, (view.seat + index) % view.num_players)
    if block == "poker_target":
        rel, slot_index = divmod(index, 6)
        target = (view.seat + rel) % view.num_players
        card = f"{_whose(view, target)} card in slot {SLOT_NAMES[slot_index + 1]}"
        if kind == "place_freed":
            return f"put p{context.get('owner')}'s freed henchman on {card}"
        if kind == "peek_card_target":
            return f"look at {card}"
        return card
    if block == "discard_top":
        return _use(view, view.discard_top, "the top of the discard pile")
    if block == "half":
        half = ("Occupation", "Trait")[index]
        return f"swap the {half}s" if kind == "swap_half" else f"the {half}"
    if block == "face_up":
        return "play the 0 face up beside your sheet (Honesto: honest, cannot be challenged)"
    if block == "strategy":
        catalog = view.catalog
        if kind == "choose_strategy":
            card = catalog.leader_strategies(view.seat % len(catalog.leaders))[index]
            return f"choose the Strategy card {card.name} ({card.gloss}): {_effect_words(card.effect)}"
        card = catalog.strategies[me.strategy]
        return f"use your Strategy card {card.name}: {_effect_words(card.effect)}"
    return A.describe(action)


def _sheet_words(view: SeatView, kind: str | None, index: int) -> str:
    g = _granuja_at(view, index)
    where = f"your sheet position {index + 1}"
    if kind == "place":
        new = granuja_text(view.limbo, view.catalog, effect=False)
        if g is None:
            return f"place {new} in {where}"
        return f"place {new} in {where}, discarding {granuja_text(g, view.catalog, effect=False)}"
    if kind == "swap_first":
        return f"take a half from {granuja_text(g, view.catalog, effect=False)} ({where})"
    if kind == "swap_second":
        return f"swap with {granuja_text(g, view.catalog, effect=False)} ({where})"
    if kind in ("start_ability", "ability", "response", "trigger", "another_target"):
        return _use(view, g, where)
    return f"{granuja_text(g, view.catalog, effect=False)} ({where})"


def _mark_words(view: SeatView, context: Mapping[str, Any], face: int) -> str:
    sid = context.get("safe", -1)
    if sid not in view.safes:
        return f"mark with a {face}"
    value = view.safes[sid].value
    truth = "" if value is None else (" (matches its value)" if face == value else " (false face)")
    moved = ""
    source = context.get("source", -1)
    if source in view.safes:
        moved = f", moving your Mark from {_safe_words(view, source)}"
    return f"mark this Safe ({_safe_words(view, sid)}) with a {face}{truth}{moved}"


def _seat_words(view: SeatView, kind: str | None, context: Mapping[str, Any], target: int) -> str:
    who = _who(view, target)
    if kind == "first_player":
        return f"{who} {'play' if target == view.seat else 'plays'} first on the new day"
    if kind == "end_of_day_order":
        own = target == view.seat
        return f"{who} {'use your' if own else 'uses its'} end-of-day abilities next"
    if kind == "bail":
        return f"pay {view.rules.bail_cost} $ to free a jailed henchman of {who}"
    if kind == "steal_money_target":
        return (f"take up to {context.get('amount')} $ from p{target} "
                f"(who has {view.players[target].money} $)")
    if kind == "jail_rival_target":
        return f"put a free henchman of p{target} in jail"
    if kind == "free_target":
        return f"free a jailed henchman of {who}"
    return who


def legal_action_menu(source: Any, *, seat: int | None = None) -> list[MenuItem]:
    """The legal actions of the pending decision for the deciding seat: id, short name, meaning.
    Empty for a seat that is not deciding (and at the end of the game)."""
    if seat is None and not isinstance(source, SeatView) and _game_of(source).decision is None:
        return []  # the game is over: nobody decides
    return _menu(resolve_view(source, seat))


def _menu(view: SeatView) -> list[MenuItem]:
    if not view.acting:
        return []
    return [MenuItem(a, A.describe(a), _describe(view, a)) for a in view.legal_actions]


def menu_text(menu: Iterable[MenuItem]) -> str:
    """The menu as lines ``  id) name  meaning`` (the id is what an answer gives)."""
    return "\n".join(f"{item.id:>4}) {item.name:<22} {item.meaning}" for item in menu)


def decision_text(view: SeatView) -> str:
    """What is being asked of ``view.seat`` now (or who is deciding, or the result)."""
    if view.game_over:
        return f"The game is over; p{view.winner} won."
    if not view.acting:
        return f"p{view.deciding_player} is deciding ({view.decision}); you have nothing to choose."
    kind = view.decision or ""
    about = DECISION_KINDS.get(kind, kind)
    return f"Your decision, {kind}: {about}"


def events_text(view: SeatView, since: int | None = None) -> str:
    """The public events of ``view.history[since:]`` narrated, one a line (None: the events
    since the start of the current day)."""
    history = view.history
    if since is None:
        starts = [i for i, e in enumerate(history) if e[0] == "day"]
        since = starts[-1] if starts else 0
    if not 0 <= since <= len(history):
        raise ValueError(f"since must be in 0..{len(history)} (events so far), got {since}")
    lines = (narrate(e, view.catalog) for e in history[since:])
    return "\n".join(line.strip("\n") for line in lines if line)


def text_observation(source: Any, seat: int | None = None, *, since: int | None = None,
                     menu: bool = True) -> str:
    """Everything ``seat`` may know, as text: the public events since ``since`` (an index into
    the view's public history; None: since the start of the current day), the table as the seat
    sees it (own hand and card values, the Safes it has seen) and the pending decision with the
    menu of legal actions when the seat is deciding (``menu=False`` leaves the menu out)."""
    view = resolve_view(source, seat)
    parts = [f"You are p{view.seat} in a {view.num_players}-player game of 3000 Granujas."]
    events = events_text(view, since)
    if events:
        parts.append("Events:\n" + events)
    parts.append(render_view(view))
    parts.append(decision_text(view))
    if menu and view.acting:
        parts.append("Legal actions (id, name, meaning):\n" + menu_text(_menu(view)))
    return "\n\n".join(parts)


# ------------------------------------------------------------------------------------ answers
_ID = re.compile(r"^#?\s*(-?\d+)\s*(?:[.):\-]\s*(.*))?$", re.S)  # 12, #12, 12), 12) copied line
_LABEL = re.compile(r"\baction(?:\s*id)?\s*[:=]\s*(.*)", re.I | re.S)  # Action: ..., action id = ...
_LABELLED_ID = re.compile(r"\baction(?:\s*id)?\s+#?(-?\d+)\b", re.I)  # "I take action 12"
_WRAPPERS = "[](){}<>\"'`*. \n\t"


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w$+-]+", " ", text.lower()).split())


def _json_action(text: str) -> object | None:
    """The ``action`` (or ``id``) of the first JSON object in ``text`` that has one."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start >= 0:
        try:
            obj, _ = decoder.raw_decode(text[start:])
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            for key in ("action", "id", "action_id"):
                if key in obj:
                    return obj[key]
        start = text.find("{", start + 1)
    return None


def parse_action(text: object, legal: Sequence[int],
                 names: Mapping[int, str | Sequence[str]] | None = None) -> int:
    """The legal action id meant by a free-text answer.

    Read, in this order: a JSON object ``{"action": 12}`` (or ``"id"``); the text after an
    ``Action:`` label; a bare id (``12``, ``#12``, ``[12]``, ``12)``, or a copied menu line
    ``12  slot:5 ...``); an action name (``slot:5``, ``slot 5``, ``pass``) or a menu meaning given
    in full; words that are part of exactly one legal item's name or meaning; ``action 12`` inside
    a sentence. ``names`` maps each legal id to its name and/or meaning (one string or several;
    default: the action names). Raises ``ValueError`` naming the answer and the legal options."""
    options = {int(a): _texts(int(a), names) for a in legal}
    if not options:
        raise ValueError("no legal action to choose from")
    if not isinstance(text, str):
        raise ValueError(f"the answer must be text, got {type(text).__name__}; "
                         f"{_options_text(options)}")
    answer = text.strip()
    found = _json_action(answer)
    if isinstance(found, int) and not isinstance(found, bool):
        return _legal_id(found, options, text)
    if isinstance(found, str):
        answer = found.strip()
    label = _LABEL.search(answer)
    if label and label.group(1).strip():
        answer = label.group(1).strip().splitlines()[0]
    answer = answer.strip(_WRAPPERS)
    if not answer:
        raise ValueError(f"empty answer; {_options_text(options)}")
    number = _ID.match(answer)
    if number:
        return _legal_id(int(number.group(1)), options, text)
    first, _, rest = answer.partition(" ")
    if first.isdigit() and int(first) in options:  # "12 slot:5 play the 4 ...": a copied line
        if f" {_norm(rest)} " in f" {_norm(' '.join(options[int(first)]))} ":
            return int(first)
    wanted = f" {_norm(answer)} "
    normed = {a: [f" {_norm(t)} " for t in texts if _norm(t)] for a, texts in options.items()}
    for matches in (
        [a for a, texts in normed.items() if wanted in texts],  # a name or meaning in full
        [a for a, texts in normed.items() if any(wanted in t or t in wanted for t in texts)],
    ):
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise ValueError(f"{text!r} matches several actions ({', '.join(map(str, matches))}):"
                             f" answer with one id; {_options_text(options)}")
    labelled = _LABELLED_ID.search(text)
    if labelled:
        return _legal_id(int(labelled.group(1)), options, text)
    raise ValueError(f"{text!r} is not a legal action; {_options_text(options)}")


def _texts(action: int, names: Mapping[int, str | Sequence[str]] | None) -> tuple[str, ...]:
    given = None if names is None else names.get(action)
    if given is None:
        return (A.describe(action),)
    return (given,) if isinstance(given, str) else tuple(given)


def _legal_id(action: int, options: Mapping[int, tuple[str, ...]], text: str) -> int:
    if action in options:
        return action
    raise ValueError(f"{text!r}: {action} is not a legal action id now; {_options_text(options)}")


def _options_text(options: Mapping[int, tuple[str, ...]]) -> str:
    return "legal options: " + "; ".join(f"{a} ({' - '.join(t)})" for a, t in options.items())
