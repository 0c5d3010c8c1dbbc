"""A person at the terminal as a bot: ``python -m granujas_env.play [--game G] --human 0``.

At each of its decisions the agent shows the seat's information only (the public events since
its last decision, narrated with the cause of every change, the table as the seat sees it, the
question in plain words) and the legal actions as a numbered menu, then reads an answer: the id
before ``)``, the action name, words that begin or sit inside one menu line or yes/no/pass. An
answer that is not a legal action is asked again with the reason (quoted cut to 80 characters).
Decisions with no real choice are played for the person and said (:meth:`HumanAgent.act`).
``?`` repeats the menu, ``table`` the whole screen; ``quit``, the end of the input (Ctrl-D)
raise :class:`QuitGame` (Ctrl-C raises ``KeyboardInterrupt`` as usual): the program running the
game decides how to leave.

The words come from the game's text interface (:mod:`granujas_env.core.textio`), found from the
view the agent is given, so one agent serves every game: 3000 Granujas
(:mod:`granujas_env.text`) and Bang! The Dice Game (:mod:`granujas_env.bang_dice.prompts`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, TextIO

import numpy as np

from agents.base import Agent, legal_actions
from granujas_env.core.textio import menu_names, menu_text, parse_action, text_for
from granujas_env.text import order_matters

__all__ = ["HumanAgent", "QuitGame", "order_matters"]


class QuitGame(Exception):
    """The person left the game (typed ``quit`` or closed the input)."""


class HumanAgent(Agent):
    """A person answering on a text stream (default: the terminal).

    Decisions that leave no real choice are not asked: a single legal action, or what the game's
    text interface plays for a person (granujas: rearranging a sheet whose order changes
    nothing, :func:`order_matters`), are played and the screen says so. ``auto_pass=True``
    passes every granujas challenge window without asking (said on the screen too).
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
        self.narrator: Any = None
        self.pending: list[str] = []  # narrated lines not shown yet
        self.invalid_answers = 0  # answers re-asked because they were not a legal action
        self.automatic = 0  # decisions played without asking (no real choice)

    def reset(self, seed: int | None = None) -> None:
        """A new game: its events start from the beginning."""
        self.narrator, self.pending = None, []

    def _say(self, text: str) -> None:
        print(text, file=self.output, flush=True)

    def observe(self, view: object, *, every_action: bool = True) -> None:
        """Narrate what happened since the last call (public events only)."""
        text = text_for(view)
        if self.narrator is None or len(text.history(view)) < self.narrator.seen:  # a new game
            self.narrator = text.narrator(view, every_action=every_action)
        self.pending += self.narrator.update(view)

    def _events(self, view: object) -> str:
        # not observed after every action: the changes in between are summed
        self.observe(view, every_action=self.narrator is not None and self.narrator.every_action)
        lines, self.pending = self.pending, []
        return "\n".join(lines)

    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        """Show the seat's screen and read answers until one is a legal action."""
        try:
            text = text_for(view)
        except TypeError as exc:
            raise ValueError(f"HumanAgent needs the seat's view: act(observation, "
                             f"view=env.seat_view(agent)) ({exc})") from None
        legal = [int(a) for a in legal_actions(observation)]
        menu = text.menu(view)
        if sorted(item.id for item in menu) != legal:
            raise ValueError(f"the view's legal actions {[i.id for i in menu]} differ from the "
                             f"observation's mask {legal}: view and observation of different moments")
        names = menu_names(menu)
        automatic = text.automatic(view, legal, auto_pass=self.auto_pass)
        seat = view.seat  # type: ignore[union-attr]  # every game's view names its seat
        if automatic is not None:
            action, why = automatic
            events = self._events(view)
            self.automatic += 1
            self._say((events + "\n" if events else "") + f"(p{seat}: {why}: {names[action][1]})")
            return action
        screen = text.observation(view, events=self._events(view))
        self._say("\n" + "=" * 100 + "\n" + screen)
        while True:
            self.output.write(f"p{seat}, your choice ('?' for help)> ")
            self.output.flush()
            line = self.input.readline()
            if not line:
                raise QuitGame("the input ended")
            answer = line.strip()
            if answer.lower() in ("quit", "exit"):
                raise QuitGame(f"p{seat} quit")
            if answer in ("?", "help"):
                self._say(text.answer_help + "\n" + menu_text(menu))
                continue
            if answer.lower() == "table":
                self._say(text.observation(view, events=""))
                continue
            try:
                action = parse_action(answer, legal, names, yes_no=text.yes_no)
            except ValueError as exc:
                self.invalid_answers += 1
                self._say(f"Not a legal action: {exc}")
                continue
            self._say(f"-> {action}) {names[action][0]}: {names[action][1]}")
            return action

    def game_over(self, view: object) -> None:
        """Show the events since the seat's last decision and who won."""
        text = text_for(view)
        self._say("\n" + "=" * 100 + "\n" + self._events(view) + "\n\n" + text.result(view))
