"""Text for people and language models, shared by every game: menus, answers, and each game's
text interface found by name.

A game's text interface (:class:`TextGame`, one object per game, named by its spec's
``tools["text"]`` as ``"module:attribute"`` and imported on first use) turns a seat's view into
words: the narration of the public events, the table as the seat sees it, the decision in plain
words and the menu of legal actions (:class:`MenuItem`). The tools that show a game to a person
or a model (``python -m granujas_env.play``, :mod:`agents.human`, :mod:`agents.llm`,
:mod:`granujas_env.textarena_env`) are written once against it.

:func:`parse_action` reads a free-text answer: a bare id, an action name, words that begin or
sit inside one menu line, yes/no words, ``Action: 13``, ``[13]`` or a JSON ``{"action": 13}``;
two different answers in one reply are invalid.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from .. import games

__all__ = [
    "ECHO_LIMIT",
    "NO_WORDS",
    "YES_WORDS",
    "MenuItem",
    "TextGame",
    "TextGameBase",
    "menu_names",
    "menu_text",
    "parse_action",
    "quote",
    "text_for",
    "text_game",
]


class MenuItem(NamedTuple):
    """One legal action: its env id, its short name and its meaning in plain words."""

    id: int
    name: str
    meaning: str


def menu_text(menu: Iterable[MenuItem]) -> str:
    """The menu as lines ``  id) name  meaning`` (the id is what an answer gives)."""
    return "\n".join(f"{item.id:>4}) {item.name:<22} {item.meaning}" for item in menu)


def menu_names(menu: Iterable[MenuItem]) -> dict[int, tuple[str, str]]:
    """``{id: (name, meaning)}``: the texts :func:`parse_action` matches answers against."""
    return {item.id: (item.name, item.meaning) for item in menu}


class TextGame(Protocol):
    """What a game gives the text tools (see the module docstring). ``View`` is the game's seat
    view (what one seat may know); every text is built from it alone, so no text can show what
    the seat may not know."""

    name: str  # the game's name in granujas_env.games
    title: str  # the game's name for people
    view_type: type  # the class of the game's seat views
    rules_summary: str  # what a language model needs before its first decision
    answer_help: str  # how a person at the terminal answers
    yes_no: tuple[int, int]  # the ids a bare "yes" and "no" answer when both are legal

    def seat_view(self, game: Any, seat: int) -> Any:
        """The view of ``seat``."""

    def history(self, view: Any) -> Sequence[Any]:
        """The public events the view holds (a shorter one than before means a new game)."""

    def narrator(self, view: Any, *, every_action: bool = True) -> Any:
        """A narrator of the game of ``view``: ``update(view) -> list[str]`` returns the lines of
        the public events since its last update; fed after every action or less often."""

    def menu(self, view: Any) -> list[MenuItem]:
        """The legal actions of the seat in plain words (empty when it is not deciding)."""

    def observation(self, view: Any, *, events: str | None = None, menu: bool = True) -> str:
        """The seat's screen: ``events`` (default: the current turn's or day's, narrated), the
        table as the seat sees it, the decision in plain words and the menu when it decides."""

    def result(self, view: Any) -> str:
        """The end of the game as the seat sees it (who won)."""

    def automatic(self, view: Any, legal: Sequence[int], *, auto_pass: bool = False
                  ) -> tuple[int, str] | None:
        """An action to play for a person without asking (no real choice) and why, or None."""

    def headline(self, game: Any) -> str:
        """The game and its settings in one line (``3000 Granujas, 4 players, short game``)."""

    def opening(self, game: Any) -> list[str]:
        """The spectator's first lines of a game (what every seat sees at the start)."""

    def final_table(self, game: Any) -> str:
        """The whole table at the end, every secret revealed (for the play command's end)."""

    def outcome_text(self, game: Any) -> str:
        """Who won and why, in one line (for TextArena's end)."""


class TextGameBase:
    """What the text interfaces share: their identity and the defaults a game may keep (the
    seat view from the game's spec, only a single legal action played for a person, a headline
    of the game's name and table size)."""

    def __init__(self, name: str, title: str, view_type: type, *, rules_summary: str,
                 answer_help: str, yes_no: tuple[int, int]) -> None:
        self.name, self.title, self.view_type = name, title, view_type
        self.rules_summary, self.answer_help, self.yes_no = rules_summary, answer_help, yes_no

    def seat_view(self, game: Any, seat: int) -> Any:
        """The view of ``seat``, from the game's spec."""
        return games.get(self.name).seat_view(game, seat)

    def automatic(self, view: Any, legal: Sequence[int], *, auto_pass: bool = False
                  ) -> tuple[int, str] | None:
        """A single legal action is played for a person; every other decision is asked."""
        return (legal[0], "the only legal choice, played for you") if len(legal) == 1 else None

    def headline(self, game: Any) -> str:
        """``Bang! The Dice Game, 5 players``."""
        return f"{self.title}, {game.num_players} players"

    def __repr__(self) -> str:
        return f"<text interface of {self.name}>"


_loaded: dict[str, Any] = {}


def text_game(name: str = games.DEFAULT_GAME) -> Any:
    """The text interface of the game ``name`` (its spec's ``tools["text"]``; ValueError naming
    the games otherwise)."""
    found = _loaded.get(name) if isinstance(name, str) else None
    if found is None:
        found = games.load(games.get(name).tools["text"])
        _loaded[name] = found
    return found


def text_for(view: object) -> Any:
    """The text interface of the game whose seat view ``view`` is (TypeError for anything that
    is no game's seat view)."""
    try:
        return text_game(games.of_view(view).name)
    except TypeError as exc:
        raise TypeError(f"{exc}: pass view=env.seat_view(agent)") from None


# ------------------------------------------------------------------------------------ answers
_ID = re.compile(r"^#?\s*(-?\d+)\s*(?:[.):\-]\s*(.*))?$", re.S)  # 12, #12, 12), 12) copied line
# Action: ..., action id = ... (each label's answer runs to its line's end)
_LABEL_ALL = re.compile(r"\baction(?:\s*id)?\s*[:=]\s*(.*)", re.I)
_LABELLED_ID = re.compile(r"\baction(?:\s*id)?\s+#?(-?\d+)\b", re.I)  # "I take action 12"
_WRAPPERS = "[](){}<>\"'`*. \n\t"

#: One-word answers for the two halves of a yes/no decision (exact answers only).
YES_WORDS = frozenset({"yes", "y", "confirm", "challenge", "use", "shuffle"})
NO_WORDS = frozenset({"no", "n", "pass", "skip", "decline"})
ECHO_LIMIT = 80  # characters of a wrong answer quoted back in an error message


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w$+-]+", " ", text.lower()).split())


def _json_actions(text: str) -> list[object]:
    """The ``action`` (or ``id``, ``action_id``) of every JSON object in ``text`` that has one."""
    decoder = json.JSONDecoder()
    found = []
    start = text.find("{")
    while start >= 0:
        try:
            obj, end = decoder.raw_decode(text[start:])
        except ValueError:
            obj, end = None, 1
        if isinstance(obj, dict):
            key = next((k for k in ("action", "id", "action_id") if k in obj), None)
            if key is not None:
                found.append(obj[key])
        start = text.find("{", start + max(end, 1))
    return found


def quote(text: str) -> str:
    """A wrong answer as quoted in an error: its first ``ECHO_LIMIT`` characters."""
    if len(text) <= ECHO_LIMIT:
        return repr(text)
    return repr(text[:ECHO_LIMIT]) + f"… ({len(text)} characters)"


def _labelled_answers(text: str) -> list[str]:
    """The answer after every ``Action:`` label of ``text`` (each up to its line's end)."""
    return [m.group(1).strip().splitlines()[0].strip(_WRAPPERS)
            for m in _LABEL_ALL.finditer(text) if m.group(1).strip()]


def parse_action(text: object, legal: Sequence[int],
                 names: Mapping[int, str | Sequence[str]] | None = None, *,
                 yes_no: tuple[int, int] | None = None,
                 describe: Callable[[int], str] = str) -> int:
    """The legal action id meant by a free-text answer.

    Read, in this order: a JSON object ``{"action": 12}`` (or ``"id"``); the text after an
    ``Action:`` label; a bare id (``12``, ``#12``, ``[12]``, ``12)``, or a copied menu line
    ``12  slot:5 ...``); a yes/no word (``yes``, ``challenge``, ``use`` -> the yes id; ``no``,
    ``pass``, ``skip`` -> the no id) when ``yes_no = (yes id, no id)`` are the two legal
    actions, and a no word alone whenever the no id is legal; an action name (``slot:5``,
    ``slot 5``) or a menu meaning given in full; words that begin exactly one legal item's name
    or meaning (``challenge`` is the challenge, not "do not challenge ..."); words inside exactly
    one meaning; words that are part of exactly one item; ``action 12`` inside a sentence.
    ``names`` maps each legal id to its name and/or meaning (one string or several; default:
    ``describe(id)``).

    Contradictions are invalid: two ``Action:`` labels (or JSON objects) that name different
    answers raise, whatever the first one says. Raises ``ValueError`` naming the answer (cut to
    ``ECHO_LIMIT`` characters) and the legal options."""
    options = {int(a): _texts(int(a), names, describe) for a in legal}
    if not options:
        raise ValueError("no legal action to choose from")
    if not isinstance(text, str):
        raise ValueError(f"the answer must be text, got {type(text).__name__}; "
                         f"{_options_text(options)}")
    answer = text.strip()
    found = _json_actions(answer)
    if len({repr(f) for f in found}) > 1:
        raise ValueError(f"{quote(text)} names several actions ({', '.join(map(repr, found))}): "
                         f"answer with one; {_options_text(options)}")
    if found and isinstance(found[0], int) and not isinstance(found[0], bool):
        return _legal_id(found[0], options, text)
    if found and isinstance(found[0], str):
        answer = found[0].strip()
    labels = _labelled_answers(answer)
    if len({_norm(label) for label in labels}) > 1:
        raise ValueError(f"{quote(text)} gives several answers ({', '.join(labels)}): answer "
                         f"with one line Action: <id>; {_options_text(options)}")
    if labels:
        answer = labels[0]
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
    word = _norm(answer)
    if yes_no is not None:
        yes, no = yes_no
        if set(options) == {yes, no} and word in YES_WORDS | NO_WORDS:
            return yes if word in YES_WORDS else no
        if word in NO_WORDS and no in options:
            return no
    wanted = f" {word} "
    normed = {a: [f" {_norm(t)} " for t in texts if _norm(t)] for a, texts in options.items()}
    for matches in (
        [a for a, texts in normed.items() if wanted in texts],  # a name or meaning in full
        [a for a, texts in normed.items() if any(t.startswith(wanted) for t in texts)],
        # words inside one meaning (the plain words a person reads; "Finca 2" is the meaning's
        # place, not the name "board_safe:Finca/2" of the next position)
        [a for a, texts in normed.items() if any(wanted in t for t in texts[1:])],
        [a for a, texts in normed.items() if any(wanted in t or t in wanted for t in texts)],
    ):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise ValueError(f"{quote(text)} matches several actions "
                             f"({', '.join(map(str, matches))}): answer with one id; "
                             f"{_options_text(options)}")
    labelled = _LABELLED_ID.search(text)
    if labelled:
        return _legal_id(int(labelled.group(1)), options, text)
    raise ValueError(f"{quote(text)} is not a legal action; {_options_text(options)}")


def _texts(action: int, names: Mapping[int, str | Sequence[str]] | None,
           describe: Callable[[int], str]) -> tuple[str, ...]:
    given = None if names is None else names.get(action)
    if given is None:
        return (describe(action),)
    return (given,) if isinstance(given, str) else tuple(given)


def _legal_id(action: int, options: Mapping[int, tuple[str, ...]], text: str) -> int:
    if action in options:
        return action
    raise ValueError(f"{quote(text)}: {action} is not a legal action id now; "
                     f"{_options_text(options)}")


def _options_text(options: Mapping[int, tuple[str, ...]]) -> str:
    return "legal options: " + "; ".join(f"{a} ({' - '.join(t)})" for a, t in options.items())
