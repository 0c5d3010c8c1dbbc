"""Bang! The Dice Game in plain words for people and language models (the text interface of
:mod:`granujas_env.core.textio`): a seat's screen, the menu of its legal actions, the answers.

Everything is built from the seat's view (:func:`granujas_env.bang_dice.view.seat_view`), which
holds its own role, the Sheriff, the revealed roles and the public table, never another seat's
hidden role (tests/test_bang_text_leak.py swaps those roles and requires identical text)::

    from granujas_env.bang_dice.prompts import TEXT
    view = env.seat_view(env.agent_selection)
    print(TEXT.observation(view))                 # role, events, table, dice, decision, menu
    for item in TEXT.menu(view):
        print(item.id, item.name, item.meaning)    # 10 reroll:2,4 reroll dice 2, 4 (ONE, BEER)

Dice are numbered 1-5 for people; action ids are the env's (:mod:`.engine.actions`): a reroll
id is the mask of the dice rerolled (0: keep all and resolve), a target id names a seat relative
to the decider, and the menu says which seat and character each one is. The public events are
narrated by :func:`granujas_env.bang_dice.text.narrate`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.textio import MenuItem, TextGameBase, menu_text
from .engine import actions as A
from .engine.data import CHARACTERS
from .engine.game import DECISION_KINDS, DEPUTY, DYNAMITE, OUTLAW, RENEGADE, SHERIFF, BangGame
from .render import render_text
from .text import final_text, narrate, winning_side
from .view import BangView, seat_view

__all__ = ["ANSWER_HELP", "FACE_WORDS", "GOALS", "PROMPTS", "RULES_SUMMARY", "TEXT", "WAITING",
           "BangText", "EventNarrator", "decision_text", "goal_text", "locked_dice", "question",
           "render_view", "result_text", "turn_events", "winners_text"]

#: What a language model needs to know before its first decision (agents add the answer format).
RULES_SUMMARY = (
    "You are playing Bang! The Dice Game, a hidden-role game for 3-8 players. Roles: the "
    "Sheriff (known to all) and his Deputies win when every Outlaw and Renegade is eliminated; "
    "the Outlaws win when the Sheriff is eliminated; a Renegade wins by being the last one in "
    "play. Other roles stay secret until their player is eliminated. On your turn you roll five "
    "dice and may reroll any of them twice (DYNAMITE cannot be rerolled; three DYNAMITE end the "
    "rolling and cost you a life point). Each ARROW takes an arrow token at once; when the pile "
    "runs out the Indians attack: everyone loses a life point per arrow held. When you stop, "
    "ONE hits a player next to you, TWO a player two seats away, BEER gives a life point to "
    "anyone (never above the maximum), three GATLING hit every other player and return your "
    "arrows to the pile. With only 2 or 3 players left, TWO acts as ONE. The Sheriff has 2 extra "
    "life points. Characters have "
    "abilities. You see only what your seat may know. At each of your decisions you get the "
    "table and the legal actions, one a line: id) name meaning."
)

ANSWER_HELP = (
    "Answer with the id before ')' (e.g. 10), the action name (e.g. reroll:2,4 or p3) or words "
    "that begin one line of the menu (e.g. 'reroll 2 4', 'keep all', 'Black Jack'); 'yes'/'no' "
    "answer a yes-or-no question. Dice are numbered 1-5 from the left. '?' shows the menu "
    "again, 'table' the whole screen, 'quit' leaves the game."
)

#: each face as the screens name it
FACE_WORDS = {"arrow": "ARROW", "dynamite": "DYNAMITE", "1": "ONE", "2": "TWO", "beer": "BEER",
              "gatling": "GATLING"}

#: what each role plays for (the seat's screen, the browser's goal line and help panel)
GOALS = {
    SHERIFF: "face up, with 2 extra life points; you win with your Deputies when every Outlaw "
             "and Renegade is eliminated",
    DEPUTY: "protect the Sheriff: you win with him when every Outlaw and Renegade is eliminated",
    OUTLAW: "you win with the other Outlaws when the Sheriff is eliminated",
    RENEGADE: "you win by being the last one in play (the Sheriff eliminated last)",
}

#: each decision kind as a question in plain words ({die}, {face}: the die being resolved)
PROMPTS: dict[str, str] = {
    "reroll": "Choose the dice to reroll (locked dice cannot be), or keep them all and resolve "
              "them. Arrows already took effect; the other dice act when you stop.",
    "sid_ketchum": "Sid Ketchum, start of your turn: choose the player who gains one life point.",
    "slab_double": "Slab the Killer: spend a BEER to double one bull's-eye (its target loses two "
                   "life points and the BEER heals nobody), or not.",
    "shoot": "Your {face} (die {die}) hits one player: choose whom.",
    "beer": "Your BEER (die {die}) gives one life point: choose to whom (yourself included).",
    "kit_carlson": "Kit Carlson: for each GATLING you may discard one arrow of any player: "
                   "choose whose, or stop.",
    "bart_cassidy": "Bart Cassidy: you are hit. Take an arrow instead of losing the life point?",
    "pedro_ramirez": "Pedro Ramirez: you lost a life point. Discard one of your arrows?",
}

#: each decision kind as the other seats read it while they wait: "p2 is deciding ..."
WAITING: dict[str, str] = {
    "reroll": "which dice to roll again, or to stop and resolve them",
    "sid_ketchum": "whom Sid Ketchum heals",
    "slab_double": "whether Slab the Killer doubles a bull's-eye with a beer",
    "shoot": "whom a bull's-eye hits",
    "beer": "who gets a beer's life point",
    "kit_carlson": "whose arrow Kit Carlson discards",
    "bart_cassidy": "whether Bart Cassidy takes an arrow instead of the life point",
    "pedro_ramirez": "whether Pedro Ramirez discards an arrow",
}

assert set(PROMPTS) == set(WAITING) == set(DECISION_KINDS)

# what a target id does, by decision kind: (for another seat, for yourself)
_TARGET_WORDS = {
    "shoot": ("shoot {who}", "shoot yourself"),
    "beer": ("give the beer to {who}", "drink it yourself"),
    "sid_ketchum": ("heal {who}", "heal yourself"),
    "kit_carlson": ("discard one arrow of {who}", "discard one of your arrows"),
}
_YES_NO_WORDS = {
    "bart_cassidy": ("take an arrow instead of losing the life point", "lose the life point"),
    "pedro_ramirez": ("discard one of your arrows", "keep your arrows"),
    "slab_double": ("", "do not double any die"),
    "kit_carlson": ("", "stop discarding arrows"),
}


def _character(view: BangView, seat: int) -> str:
    return CHARACTERS[view.players[seat].character].name


def _name(view: BangView, seat: int) -> str:
    return f"p{seat} ({_character(view, seat)})"


def _role(role: str | None) -> str:
    return "role hidden" if role is None else role.capitalize()


def _player(view: BangView, seat: int) -> str:
    """``p3 (Black Jack, Outlaw, life 4/8, 1 arrow)``: what the seat knows of a player."""
    p = view.players[seat]
    state = (f"life {p.life}/{p.max_life}, {p.arrows} arrow{'s' * (p.arrows != 1)}" if p.alive
             else "eliminated")
    return f"p{seat} ({_character(view, seat)}, {_role(p.role)}, {state})"


def locked_dice(view: BangView) -> list[bool]:
    """Which dice cannot be rerolled (the screens' and the browser's "locked"): for the roller's own decision, those no legal reroll
    touches; otherwise DYNAMITE (Black Jack may reroll it)."""
    if view.acting and view.decision == "reroll":
        free = 0
        for action in view.legal_actions:
            free |= action
        return [not free >> i & 1 for i in range(len(view.dice))]
    black_jack = view.players[view.turn_player].character == "black_jack"
    return [face == DYNAMITE and not black_jack for face in view.dice]


def _dice_line(view: BangView) -> str:
    if not view.dice:
        return f"Dice: p{view.turn_player} has not rolled yet."
    locked = locked_dice(view)
    dice = ", ".join(f"{i + 1} {FACE_WORDS[face]}{' (locked)' * locked[i]}"
                     for i, face in enumerate(view.dice))
    if view.decision == "reroll":
        return (f"Dice of p{view.turn_player}: {dice}; roll {view.rolls_done}, "
                f"{view.rerolls_left} reroll{'s' * (view.rerolls_left != 1)} left.")
    return f"Dice of p{view.turn_player} (final): {dice}."


def _tally_line(label: str, rows: Sequence[Sequence[int]]) -> str | None:
    pairs = [f"p{a}->p{b} {k}" for a, row in enumerate(rows) for b, k in enumerate(row)
             if k and a != b]
    return f"{label}: {', '.join(pairs)}." if pairs else None


def render_view(view: BangView) -> str:
    """The table as ``view.seat`` sees it: every player (its role where the seat knows it),
    their characters' abilities, who shot and healed whom, the arrow pile and the dice."""
    state = "game over" if view.game_over else f"turn {view.turn_number}, p{view.turn_player} plays"
    lines = [f"=== Bang! The Dice Game: {state}; arrow pile {view.arrow_pile}; you are "
             f"p{view.seat} ==="]
    for p in view.players:
        mark = ">" if p.seat == view.turn_player and not view.game_over else " "
        you = " (you)" if p.seat == view.seat else ""
        lines.append(f"{mark} {_player(view, p.seat)}{you}")
    lines.append("Abilities of the players in play:")
    lines += [f"  {CHARACTERS[p.character].name}: {CHARACTERS[p.character].text_en}"
              for p in view.players if p.alive]
    for line in (_tally_line("Life points aimed so far", view.shots),
                 _tally_line("Beers and heals given to others", view.heals)):
        if line:
            lines.append(line)
    lines.append(_dice_line(view))
    return "\n".join(lines)


def goal_text(view: BangView) -> str:
    """What ``view.seat`` plays for: its role's goal, or at 3 players its target."""
    if view.three_player_target < 0:
        return GOALS[view.role]
    target = view.players[view.three_player_target]
    if view.last_standing:
        return (f"your target {_name(view, target.seat)} fell to another hand: now be the last "
                "one standing")
    return f"eliminate your target {_name(view, target.seat)}, the {_role(target.role)}, yourself"


def _who_am_i(view: BangView) -> str:
    text = (f"You are p{view.seat} ({_character(view, view.seat)}) in a {view.num_players}-player "
            f"game of Bang! The Dice Game. Your role: {view.role.capitalize()}")
    if view.three_player_target >= 0:
        return f"{text} (roles are open at 3 players; {goal_text(view)})."
    secret = "" if view.role == SHERIFF else "secret; "
    return f"{text} ({secret}{goal_text(view)}). The Sheriff is {_name(view, view.sheriff)}."


def question(view: BangView) -> str:
    """The pending decision as a question to the deciding seat (:data:`PROMPTS`, with the die
    being resolved)."""
    data = view.decision_data
    die, face = data.get("die", -1) + 1, FACE_WORDS.get(data.get("face", ""), "")
    return PROMPTS[view.decision or ""].format(die=die, face=face)


def decision_text(view: BangView) -> str:
    """What is being asked of ``view.seat`` now in plain words (or who decides, or the end)."""
    if view.game_over:
        return result_text(view)
    if not view.acting:
        return (f"p{view.deciding_player} is deciding {WAITING[view.decision or '']}; you have "
                "nothing to choose.")
    return "Your decision: " + question(view)


def winners_text(view: BangView, names: Sequence[str] | None = None) -> str:
    """The end of the game: ``the Outlaws win (p1, p3)``, ``the Renegade wins (p2)``; ``names``
    labels the seats (default ``p0``, ``p1``, ...). Every role is public once the game is over."""
    winners = sorted(view.winners or ())
    if not winners:
        raise ValueError("the game is not over: there are no winners yet")
    role = view.players[winners[0]].role or ""
    three_player = view.num_players == 3
    alone = three_player or role == RENEGADE
    who = ", ".join(names[s] if names is not None else f"p{s}" for s in winners)
    return f"{winning_side(role, three_player)} win{'s' * alone} ({who})"


def result_text(view: BangView) -> str:
    """The end as the seat sees it: the winning side, every role revealed, whether it won."""
    roles = ", ".join(_player(view, p.seat) for p in view.players)
    verdict = "you win" if view.seat in (view.winners or ()) else "you lose"
    return f"The game is over: {winners_text(view)}; {verdict}. Roles: {roles}."


def _describe(view: BangView, action: int) -> tuple[str, str]:
    """An action's short name (one word) and its meaning for the deciding seat."""
    kind, dice = view.decision or "", view.dice
    if kind == "reroll":
        if action == A.STOP:
            return "resolve", f"keep all and resolve ({', '.join(FACE_WORDS[f] for f in dice)})"
        picked = [i for i in range(len(dice)) if action >> i & 1]
        numbers = ",".join(str(i + 1) for i in picked)
        faces = ", ".join(FACE_WORDS[dice[i]] for i in picked)
        return f"reroll:{numbers}", f"reroll dice {numbers.replace(',', ', ')} ({faces})"
    if A.TARGET_BASE <= action < A.YES:
        seat = A.target_seat(view.seat, action, view.num_players)
        other, yourself = _TARGET_WORDS[kind]
        words = yourself if seat == view.seat else other.format(who=_player(view, seat))
        return f"p{seat}", words
    if action in (A.YES, A.NO):
        yes, no = _YES_NO_WORDS[kind]
        name = "stop" if kind == "kit_carlson" else ("yes" if action == A.YES else "no")
        return name, yes if action == A.YES else no
    die = action - A.DIE_BASE
    return (f"die:{die + 1}", f"double die {die + 1} ({FACE_WORDS[dice[die]]}): its target loses "
                              "two life points")


def turn_events(view: BangView) -> str:
    """The public events of the current turn, narrated one a line."""
    events = view.events
    start = max((i for i, e in enumerate(events) if e[0] == "turn"), default=0)
    return "\n".join(line for line in map(narrate, events[start:]) if line)


class EventNarrator:
    """Narrates the public events of a game from a view's event log: ``update(view)`` returns
    the lines of the events since the last update. Every event is in the log, so fed after
    every action or only at decisions, it says the same."""

    def __init__(self, narrate_event: Callable[[tuple], str | None], *,
                 every_action: bool = True) -> None:
        self.narrate_event = narrate_event
        self.every_action = every_action
        self.seen = 0  # events already narrated

    def update(self, view: BangView) -> list[str]:
        if len(view.events) < self.seen:  # a new game
            self.seen = 0
        lines = [line for line in map(self.narrate_event, view.events[self.seen:]) if line]
        self.seen = len(view.events)
        return lines


class BangText(TextGameBase):
    """Bang! The Dice Game for the text tools (:class:`granujas_env.core.textio.TextGame`)."""

    def menu(self, view: BangView) -> list[MenuItem]:
        """The seat's legal actions in plain words (empty when it is not deciding)."""
        if not view.acting:
            return []
        return [MenuItem(action, *_describe(view, action)) for action in view.legal_actions]

    def observation(self, view: BangView, *, events: str | None = None, menu: bool = True) -> str:
        """Everything ``view.seat`` may know as text: who it is (role and goal), the events
        (``events``; default: the current turn's), the table, the decision and the menu when it
        decides (``menu=False`` leaves the menu out)."""
        parts = [_who_am_i(view)]
        if events is None:
            events = turn_events(view)
        if events.strip("\n"):
            parts.append("Events:\n" + events.strip("\n"))
        parts += [render_view(view), decision_text(view)]
        if menu and view.acting:
            parts.append("Legal actions (id, name, meaning):\n" + menu_text(self.menu(view)))
            if view.decision == "reroll":  # the long menu pushes the dice off a terminal's screen
                parts.append(f"{_dice_line(view)} Answer e.g. 'keep all' or 'reroll 2 4'.")
        return "\n\n".join(parts)

    def history(self, view: BangView) -> Sequence[tuple]:
        return view.events

    def result(self, view: BangView) -> str:
        """The end as the seat sees it: the winning side, every role revealed, whether it won."""
        return result_text(view)

    def narrator(self, view: BangView, *, every_action: bool = True) -> EventNarrator:
        return EventNarrator(narrate, every_action=every_action)

    def opening(self, game: BangGame) -> list[str]:
        """Who the Sheriff is (3 players: every role), as every seat sees it."""
        view = seat_view(game, game.turn_player)  # public fields only are read
        if view.three_player_target >= 0:
            who = "roles open at 3 players: " + ", ".join(
                f"{_name(view, p.seat)} {p.role}" for p in view.players)
        else:
            who = f"the Sheriff is {_name(view, game.sheriff)}; the other roles are secret"
        return [f"\n--- {who} ---"]

    def final_table(self, game: BangGame) -> str:
        """The table with every role, and the winners."""
        return render_text(game) + "\n" + final_text(game)

    outcome_text = staticmethod(final_text)


#: the text interface of Bang! The Dice Game (its spec's tools["text"])
TEXT = BangText("bang-dice", "Bang! The Dice Game", BangView, rules_summary=RULES_SUMMARY,
                answer_help=ANSWER_HELP, yes_no=(A.YES, A.NO))
