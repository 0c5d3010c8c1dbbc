"""3000 Granujas as a :class:`~granujas_env.protocol.GameSpec`: the existing granujas modules,
wired for the shared tools (nothing of the game moves here; its paths stay)."""

from __future__ import annotations

from typing import Any

from .engine import actions as A
from .engine.game import DECISION_KINDS, Game, GameConfig
from .env import REWARD_MODES
from .env import env as _env
from .env import raw_env as _raw_env
from .invariants import check_invariants as _check_invariants
from .protocol import Outcome
from .render import render_text
from .version import ENV_ID, ENV_NAME
from .view import SeatView
from .view import seat_view as _seat_view

__all__ = ["SPEC", "GranujasSpec", "outcome"]


def outcome(game: Game) -> Outcome | None:
    """The granujas outcome: one winner (scores, then money, break ties), each seat its team."""
    if not game.game_over or game.winner is None:
        return None
    scores = None if game.scores is None else tuple(game.scores)
    return Outcome(frozenset({game.winner}), tuple(range(game.num_players)), scores)


class GranujasSpec:
    """The granujas entry of :mod:`granujas_env.games`."""

    name = "granujas"
    env_id = ENV_ID
    env_name = ENV_NAME
    players = range(2, A.MAX_PLAYERS + 1)
    num_actions = A.NUM_ACTIONS
    view_type = SeatView
    state_type = Game
    decision_kinds = DECISION_KINDS
    reward_modes = REWARD_MODES
    # the bots are named, not imported: bots build on envs (agents.registry makes them)
    # text: the text interface of granujas_env.core.textio (a module that builds on the envs)
    tools = {
        "default_bot": "heuristic",
        "registry": "agents.registry:make",
        "text": "granujas_env.text:TEXT",
        "seat_cycle": 12,
    }

    def make_config(self, num_players: int, **options: Any) -> GameConfig:
        return GameConfig(num_players, **options)

    def new_game(self, config: GameConfig, seed: int | None = None) -> Game:
        return Game(config, seed)

    def outcome(self, game: Game) -> Outcome | None:
        return outcome(game)

    def env(self, **kwargs: Any) -> Any:
        return _env(**kwargs)

    def raw_env(self, **kwargs: Any) -> Any:
        return _raw_env(**kwargs)

    def seat_view(self, game: Game, seat: int) -> Any:
        return _seat_view(game, seat)

    def describe(self, action: int) -> str:
        return A.describe(action)

    def render(self, game: Game, viewer: int | None = None) -> str:
        return render_text(game, viewer=viewer)

    def check_invariants(self, game: Game) -> None:
        _check_invariants(game)

    def potential(self, game: Game, seat: int) -> float:
        """The seat's score margin over its best rival, in units of the rules' score scale."""
        totals = [game.score_breakdown(s)["total"] for s in range(game.num_players)]
        best = max(t for s, t in enumerate(totals) if s != seat)
        return (totals[seat] - best) / float(game.rules.score_scale)


SPEC = GranujasSpec()
