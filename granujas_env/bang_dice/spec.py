"""Bang! The Dice Game as a :class:`~granujas_env.protocol.GameSpec` (``--game bang-dice``)."""

from __future__ import annotations

from typing import Any

from ..protocol import Outcome
from . import env as bang_env
from .engine import actions as A
from .engine.game import DECISION_KINDS, DEPUTY, RENEGADE, SHERIFF, BangConfig, BangGame
from .invariants import check_invariants as _check_invariants
from .render import render_text
from .version import ENV_VERSION
from .view import BangView, seat_view

__all__ = ["SPEC", "BangDiceSpec"]


class BangDiceSpec:
    """The bang-dice entry of :mod:`granujas_env.games`."""

    name = "bang-dice"
    env_id = bang_env.ENV_ID
    env_name = ENV_VERSION
    players = range(3, A.MAX_PLAYERS + 1)
    num_actions = A.NUM_ACTIONS
    view_type = BangView
    state_type = BangGame
    decision_kinds = DECISION_KINDS
    reward_modes = bang_env.REWARD_MODES
    # the bots and the text interface are named, not imported: they build on envs. seat_cycle: lcm(3..8), a full
    # rotation of seats at every table size.
    tools = {
        "default_bot": "heuristic",
        "registry": "agents.bang_dice:make",
        "stats": "granujas_env.bang_dice.stats",
        "text": "granujas_env.bang_dice.prompts:TEXT",
        "seat_cycle": 840,
    }

    def make_config(self, num_players: int, **options: Any) -> BangConfig:
        if options:
            raise ValueError(f"bang-dice has no options besides num_players, got {sorted(options)}")
        return BangConfig(num_players)

    def new_game(self, config: BangConfig, seed: int | None = None) -> BangGame:
        return BangGame(config, seed)

    def outcome(self, game: BangGame) -> Outcome | None:
        return game.outcome()

    def roles(self, game: BangGame) -> tuple[str, ...]:
        """Each seat's role (what the tools rate by)."""
        return tuple(game.roles)

    def env(self, **kwargs: Any) -> Any:
        return bang_env.env(**kwargs)

    def raw_env(self, **kwargs: Any) -> Any:
        return bang_env.raw_env(**kwargs)

    def seat_view(self, game: BangGame, seat: int) -> BangView:
        return seat_view(game, seat)

    def describe(self, action: int) -> str:
        return A.describe(action)

    def render(self, game: BangGame, viewer: int | None = None) -> str:
        return render_text(game, viewer)

    def check_invariants(self, game: BangGame) -> None:
        _check_invariants(game)

    def potential(self, game: BangGame, seat: int) -> float:
        """The life of ``seat``'s side minus everyone else's, over the table's starting life.

        A side is the Sheriff with the Deputies, the Outlaws, or one Renegade alone (in 3 players
        every seat is alone). It reads the true roles: a training signal only, never an input."""
        roles = game.roles
        mine = roles[seat]
        alone = game.num_players == 3 or mine == RENEGADE
        law = (SHERIFF, DEPUTY)

        def friend(other: int) -> bool:
            if alone:
                return other == seat
            return roles[other] == mine or (mine in law and roles[other] in law)

        margin = sum(life if friend(s) else -life for s, life in enumerate(game.life))
        return margin / float(sum(game.max_life))


SPEC = BangDiceSpec()
