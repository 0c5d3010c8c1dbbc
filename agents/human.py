"""A person at the terminal as a bot: ``python -m granujas_env.play --human 0``.

At each of its decisions the agent shows the seat's information only (the public events since
its last decision, the table as the seat sees it, the decision) and the legal actions as a
numbered menu in plain words (:mod:`granujas_env.text`), then reads an answer: the id before
``)``, the action name (``slot:5``) or words from one menu line. An answer that is not a legal
action is asked again with the reason. ``?`` repeats the menu, ``table`` the whole screen;
``quit``, the end of the input (Ctrl-D) raise :class:`QuitGame` (Ctrl-C raises
``KeyboardInterrupt`` as usual): the program running the game decides how to leave.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TextIO

import numpy as np

from agents.base import Agent, legal_actions
from granujas_env.text import (
    decision_text,
    events_text,
    legal_action_menu,
    menu_text,
    parse_action,
    text_observation,
)
from granujas_env.view import SeatView

__all__ = ["HumanAgent", "QuitGame"]

HELP = (
    "Answer with the id before ')' (e.g. 13), the action name (e.g. slot:5) or words from one "
    "line of the menu (e.g. 'slot 5'). '?' shows the menu again, 'table' the whole screen, "
    "'quit' leaves the game."
)


class QuitGame(Exception):
    """The person left the game (typed ``quit`` or closed the input)."""


class HumanAgent(Agent):
    """A person answering on a text stream (default: the terminal)."""

    name = "human"
    wants_view = True

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None,
                 seed: int | None = None) -> None:
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stdout
        self.seen = 0  # public events of the view's history already shown
        self.invalid_answers = 0  # answers re-asked because they were not a legal action

    def reset(self, seed: int | None = None) -> None:
        """A new game: its events start from the beginning."""
        self.seen = 0

    def _say(self, text: str) -> None:
        print(text, file=self.output, flush=True)

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
        # a new game without reset(): narrate it from its start
        screen = text_observation(view, since=self.seen if self.seen <= len(view.history) else 0)
        self.seen = len(view.history)
        names = {item.id: (item.name, item.meaning) for item in menu}
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
                self._say(text_observation(view, since=len(view.history)))
                continue
            try:
                action = parse_action(answer, legal, names)
            except ValueError as exc:
                self.invalid_answers += 1
                self._say(f"Not a legal action: {exc}")
                continue
            self._say(f"-> {action}) {names[action][0]}: {names[action][1]}")
            return action

    def game_over(self, view: SeatView) -> None:
        """Show the events since the seat's last decision and who won."""
        self._say("\n" + "=" * 100 + "\n" + events_text(view, self.seen) + "\n\n"
                  + decision_text(view))
        self.seen = len(view.history)
