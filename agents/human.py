"""A person at the terminal as a bot: ``python -m granujas_env.play --human 0``.

At each of its decisions the agent shows the seat's information only (the public events since
its last decision, narrated with the cause of every change, the table as the seat sees it, the
question in plain words) and the legal actions as a numbered menu (:mod:`granujas_env.text`),
then reads an answer: the id before ``)``, the action name (``slot:5``), words that begin or sit
inside one menu line (``challenge``, ``Finca 2``, ``S1``) or yes/no/pass. An answer that is not a
legal action is asked again with the reason (quoted cut to 80 characters). Decisions with no
real choice are played for the person and said (:meth:`HumanAgent.act`). ``?`` repeats the menu,
``table`` the whole screen; ``quit``, the end of the input (Ctrl-D) raise :class:`QuitGame`
(Ctrl-C raises ``KeyboardInterrupt`` as usual): the program running the game decides how to leave.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TextIO

import numpy as np

from agents.base import Agent, legal_actions
from granujas_env.engine import actions as A
from granujas_env.text import (
    Narrator,
    decision_text,
    legal_action_menu,
    menu_text,
    parse_action,
    text_observation,
)
from granujas_env.view import SeatView

__all__ = ["HumanAgent", "QuitGame", "order_matters"]

HELP = (
    "Answer with the id before ')' (e.g. 13), the action name (e.g. slot:5) or words that begin "
    "one line of the menu (e.g. 'slot 5', 'challenge'); 'yes'/'no' answer a yes-or-no question "
    "('no' and 'pass' pass). Saloon spaces are S1-S3, never plain numbers. '?' shows the menu "
    "again, 'table' the whole screen, 'quit' leaves the game."
)


def order_matters(view: SeatView) -> bool:
    """Whether the order of the seat's sheet can change anything: only Granujas with a
    response arrow care about their neighbours, and only with two Granujas or more."""
    sheet = [g for g in view.players[view.seat].sheet if g is not None]
    return len(sheet) >= 2 and any(g.arrows for g in sheet)


class QuitGame(Exception):
    """The person left the game (typed ``quit`` or closed the input)."""


class HumanAgent(Agent):
    """A person answering on a text stream (default: the terminal).

    Decisions that leave no real choice are not asked: a single legal action, or rearranging a
    sheet whose order changes nothing (:func:`order_matters`), are played and the screen says so.
    ``auto_pass=True`` passes every challenge window without asking (said on the screen too).
    Call :meth:`observe` with the seat's view after every action of the game (``play`` does) to
    have every change narrated with its cause; without it the changes between two decisions are
    summed."""

    name = "human"
    wants_view = True

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None,
                 seed: int | None = None, *, auto_pass: bool = False) -> None:
        self.input = input if input is not None else sys.stdin
        self.auto_pass = auto_pass  # never asked whether to challenge: always passes
        self.output = output if output is not None else sys.stdout
        self.narrator: Narrator | None = None
        self.pending: list[str] = []  # narrated lines not shown yet
        self.invalid_answers = 0  # answers re-asked because they were not a legal action
        self.automatic = 0  # decisions played without asking (no real choice)

    def reset(self, seed: int | None = None) -> None:
        """A new game: its events start from the beginning."""
        self.narrator, self.pending = None, []

    def _say(self, text: str) -> None:
        print(text, file=self.output, flush=True)

    def observe(self, view: SeatView) -> None:
        """Narrate what happened since the last call (public events only)."""
        if self.narrator is None or len(view.history) < self.narrator.seen:  # a new game
            self.narrator = Narrator(view.catalog, view.rules)
        self.pending += self.narrator.update(view)

    def _events(self, view: SeatView) -> str:
        if self.narrator is None:  # not observed after every action: changes are summed
            self.narrator = Narrator(view.catalog, view.rules, every_action=False)
        self.observe(view)
        lines, self.pending = self.pending, []
        return "\n".join(lines)

    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        """Show the seat's screen and read answers until one is a legal action."""
        if not isinstance(view, SeatView):
            raise ValueError("HumanAgent needs the seat's view: act(observation, "
                             "view=env.seat_view(agent))")
        legal = [int(a) for a in legal_actions(observation)]
        menu = legal_action_menu(view)
        if sorted(item.id for item in menu) != legal:
            raise ValueError(f"the view's legal actions {[i.id for i in menu]} differ from the "
                             f"observation's mask {legal}: view and observation of different moments")
        names = {item.id: (item.name, item.meaning) for item in menu}
        automatic = self._automatic(view, legal)
        if automatic is not None:
            action, why = automatic
            events = self._events(view)
            self.automatic += 1
            self._say((events + "\n" if events else "")
                      + f"(p{view.seat}: {why}: {names[action][1]})")
            return action
        screen = text_observation(view, events=self._events(view))
        self._say("\n" + "=" * 100 + "\n" + screen)
        while True:
            self.output.write(f"p{view.seat}, your choice ('?' for help)> ")
            self.output.flush()
            line = self.input.readline()
            if not line:
                raise QuitGame("the input ended")
            answer = line.strip()
            if answer.lower() in ("quit", "exit"):
                raise QuitGame(f"p{view.seat} quit")
            if answer in ("?", "help"):
                self._say(HELP + "\n" + menu_text(menu))
                continue
            if answer.lower() == "table":
                self._say(text_observation(view, events=""))
                continue
            try:
                action = parse_action(answer, legal, names)
            except ValueError as exc:
                self.invalid_answers += 1
                self._say(f"Not a legal action: {exc}")
                continue
            self._say(f"-> {action}) {names[action][0]}: {names[action][1]}")
            return action

    def _automatic(self, view: SeatView, legal: list[int]) -> tuple[int, str] | None:
        """The action to play without asking, and why; None to ask."""
        if len(legal) == 1:
            return legal[0], "the only legal choice, played for you"
        if self.auto_pass and view.decision == "challenge":
            return A.PASS, "challenge windows pass automatically (--auto-pass)"
        if view.decision == "rearrange" and A.PASS in legal and not order_matters(view):
            alone = sum(g is not None for g in view.players[view.seat].sheet) < 2
            why = ("one Granuja on your sheet" if alone
                   else "no Granuja on your sheet answers a neighbour")
            return A.PASS, f"{why}, so the order changes nothing; played for you"
        return None

    def game_over(self, view: SeatView) -> None:
        """Show the events since the seat's last decision and who won."""
        self._say("\n" + "=" * 100 + "\n" + self._events(view) + "\n\n" + decision_text(view))
