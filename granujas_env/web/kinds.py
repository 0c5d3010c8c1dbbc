"""What the browser server needs of each game, one :class:`TableKind` per game of
:mod:`granujas_env.games`: one server (:mod:`.server`) plays every game through these.

A kind builds the env, seats and asks the bots, validates the game's own creation fields, turns
a seat's view into the page's JSON (:mod:`.state` for granujas, :mod:`.bang_state` for Bang!),
describes actions in words, answers a human seat's automatic choices and writes the game record.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from agents import make_bot
from agents.base import Agent
from agents.policy import available_models
from agents.registry import DEFAULT_BOT, ask
from agents.registry import available as available_bots
from agents.registry import make as make_agent

from .. import games
from ..bang_dice.engine.game import BangConfig, BangGame
from ..bang_dice.env import raw_env as bang_raw_env
from ..bang_dice.view import seat_view as bang_seat_view
from ..core.textio import text_game
from ..engine import actions as A
from ..engine.game import Game, GameConfig
from ..env import raw_env
from ..record import PRIVATE_DECISIONS, GameRecord, record_game
from ..text import describe_action
from ..view import seat_view
from . import bang_state, state

__all__ = ["BangTable", "GranujasTable", "KINDS", "TableKind", "kind_of"]

# Registered bots a server cannot seat: the terminal's human, and the language-model bot (it
# needs an endpoint URL, which a page must not be able to choose).
NOT_SERVED = frozenset({"human", "llm"})


class TableKind:
    """One game as the server plays it (subclasses fill in every method)."""

    name: str  # the game's name in granujas_env.games
    title: str
    players: range
    default_players: int
    fields: tuple[str, ...] = ()  # creation fields of this game besides seats, seed, public
    auto_pass = False  # whether a seat may pass its challenge windows automatically
    private_decisions: frozenset[str] = frozenset()
    config_type: type
    fallback_bot = DEFAULT_BOT
    #: the module that turns this game's views into the page's JSON: ``seat_json(view, names,
    #: decision_id)``, ``public_json(game, names)``, ``final_json(game)``
    tables: ModuleType

    def bots(self) -> list[str]:
        """The bots a seat can be given, by name."""
        raise NotImplementedError

    def options(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """This game's options from a creation body (already checked to hold only known
        fields); raises ValueError naming a bad value."""
        return {}

    def new_env(self, num_players: int, options: Mapping[str, Any]) -> Any:
        """The unwrapped env of a new game (not reset)."""
        raise NotImplementedError

    def new_game(self, config: Any, seed: int) -> Any:
        """The game of ``config`` dealt by ``seed`` (a replay's start)."""
        raise NotImplementedError

    def make_bot(self, name: str, seed: int) -> Agent:
        """The bot ``name`` seeded with ``seed``."""
        raise NotImplementedError

    def ask(self, bot: Agent, env: Any, game: Any) -> int:
        """The bot's answer at the pending decision, asked as every driver asks
        (:func:`agents.registry.ask`, with this kind's view of the deciding seat)."""
        seat = game.decision.player
        view = self.view(game, seat, env) if getattr(bot, "wants_view", True) else None
        return ask(bot, env.observe(env.possible_agents[seat]), game, view=view)

    def view(self, game: Any, seat: int, env: Any = None) -> Any:
        """What ``seat`` may know (``env``: the live game's env, which may keep counts)."""
        raise NotImplementedError

    def seat_json(self, view: Any, names: Sequence[str], decision_id: str | None = None) -> dict:
        """The page's JSON of a seat's view."""
        return self.tables.seat_json(view, names, decision_id)

    def public_json(self, game: Any, names: Sequence[str]) -> dict:
        """The page's JSON of what every seat knows."""
        return self.tables.public_json(game, names)

    def final_json(self, game: Any) -> dict:
        """What is revealed once the game is over."""
        return self.tables.final_json(game)

    def describe(self, game: Any, action: int, seat: int | None) -> str:
        """``action`` at ``game``'s pending decision in words, as ``seat`` may read it."""
        raise NotImplementedError

    def automatic(self, game: Any, seat: int, legal: list[int],
                  auto_pass: bool) -> tuple[int, str] | None:
        """The answer the server gives for a human seat without asking, and why; None when the
        seat must decide. The only legal action is played for the seat."""
        return (legal[0], "your only choice, played for you") if len(legal) == 1 else None

    def record(self, config: Any, seed: int, actions: list[int], meta: dict[str, Any],
               env: Any) -> GameRecord:
        """The game record of a finished game."""
        return record_game(config, seed, actions, meta=meta)

    def lobby_json(self) -> dict[str, Any]:
        """What the home page offers for this game."""
        return {"name": self.name, "title": self.title, "players": [self.players.start,
                self.players.stop - 1], "default_players": self.default_players,
                "seats": ["human", *self.bots()], "default_bot": self.fallback_bot}


class GranujasTable(TableKind):
    """3000 Granujas, 2 to 4 players."""

    name = "granujas"
    title = text_game(name).title
    players = games.get(name).players
    default_players = 4
    fields = ("length", "strategy_cards")
    auto_pass = True
    private_decisions = PRIVATE_DECISIONS
    config_type = GameConfig
    tables = state

    def bots(self) -> list[str]:
        return [*(b for b in available_bots() if b not in NOT_SERVED), *available_models()]

    def options(self, body: Mapping[str, Any]) -> dict[str, Any]:
        length = body.get("length", "short")
        if length not in ("short", "long"):
            raise ValueError(f'length must be "short" or "long", got {json.dumps(length)[:40]}')
        strategy = body.get("strategy_cards", False)
        if not isinstance(strategy, bool):
            raise ValueError(f"strategy_cards must be true or false, got "
                             f"{json.dumps(strategy)[:40]}")
        return {"game_length": length, "strategy_cards": strategy}

    def new_env(self, num_players: int, options: Mapping[str, Any]) -> Any:
        return raw_env(num_players=num_players, **options)

    def new_game(self, config: GameConfig, seed: int) -> Game:
        return Game(config, seed)

    def make_bot(self, name: str, seed: int) -> Agent:
        return make_bot(name, seed=seed)

    def view(self, game: Game, seat: int, env: Any = None) -> Any:
        return seat_view(game, seat)

    def describe(self, game: Game, action: int, seat: int | None) -> str:
        if seat is None:
            return A.describe(action)
        return describe_action(game, action, seat=seat)

    def automatic(self, game: Game, seat: int, legal: list[int],
                  auto_pass: bool) -> tuple[int, str] | None:
        frame = game.decision
        if len(legal) > 1 and auto_pass and frame.kind == "challenge" and A.PASS in legal:
            return A.PASS, "auto-pass"
        return super().automatic(game, seat, legal, auto_pass)

    def record(self, config: Any, seed: int, actions: list[int], meta: dict[str, Any],
               env: Any) -> GameRecord:
        return record_game(config, seed, actions, catalog=env.catalog, meta=meta)

    def lobby_json(self) -> dict[str, Any]:
        return {**super().lobby_json(), "lengths": ["short", "long"]}


class BangTable(TableKind):
    """Bang! The Dice Game, 3 to 8 players (the engine plays a single choice itself)."""

    name = "bang-dice"
    title = text_game(name).title
    players = games.get(name).players
    default_players = 5
    config_type = BangConfig
    fallback_bot = games.get(name).tools["default_bot"]
    tables = bang_state

    def bots(self) -> list[str]:
        return [b for b in available_bots(game=self.name) if b not in NOT_SERVED]

    def new_env(self, num_players: int, options: Mapping[str, Any]) -> Any:
        return bang_raw_env(num_players=num_players)

    def new_game(self, config: BangConfig, seed: int) -> BangGame:
        return BangGame(config, seed)

    def make_bot(self, name: str, seed: int) -> Agent:
        return make_agent(name, game=self.name, seed=seed)

    def view(self, game: BangGame, seat: int, env: Any = None) -> Any:
        if env is not None:
            return env.seat_view(env.possible_agents[seat])
        return bang_seat_view(game, seat)

    def describe(self, game: BangGame, action: int, seat: int | None) -> str:
        # every Bang! decision is public: its words are the same to every seat
        return bang_state.meaning(game, action)

    def lobby_json(self) -> dict[str, Any]:
        return {**super().lobby_json(), "help": bang_state.help_json()}


#: the games the server offers, by name
KINDS: dict[str, TableKind] = {kind.name: kind for kind in (GranujasTable(), BangTable())}


def kind_of(config: Any) -> TableKind:
    """The kind whose games ``config`` configures (a record's config)."""
    for kind in KINDS.values():
        if isinstance(config, kind.config_type):
            return kind
    raise ValueError(f"no game of this server has a {type(config).__name__} configuration")
