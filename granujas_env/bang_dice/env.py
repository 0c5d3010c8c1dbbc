"""PettingZoo AEC environment of Bang! The Dice Game (``granujas/bang-dice-v0``), 3 to 8 players.

The shared AEC pattern (:mod:`granujas_env.core.aec`) over the Bang! engine: every decision of the
engine is an agent step (which dice to reroll or stop, each bull's-eye's and each beer's target,
Sid Ketchum's heal, Slab the Killer's doubling, Kit Carlson's arrow discards, and the off-turn
reactions of Bart Cassidy and Pedro Ramirez), with an action mask over the 47 ids of
:mod:`~granujas_env.bang_dice.engine.actions`; the engine sets ``agent_selection``.

Observations: ``{"observation": float32[424], "action_mask": int8[47]}``, the same size at every
table (docs/bang_dice/observation.md); the mask is all zeros for every agent that is not acting.

**Eliminated players** stay agents until the game ends: they are never selected (the engine never
asks them), their masks are all zeros, their observations go on showing the table, their reward is
0 until the end. When the game ends every agent, eliminated or not, gets the team outcome, +1 for
a seat of the winning side and -1 for every other (:meth:`BangGame.returns`), and is terminated in
the same step. This keeps the AEC loop, the single-seat wrappers and RLlib, which assume agents
end with the game, correct, and credits a dead Deputy with his team's win.

``info`` has the same keys, types and shapes at every step for every agent:

- ``"decision"`` (str): the pending kind for the acting agent, ``""`` otherwise and at the end;
- ``"game_over"`` (bool);
- ``"winners"`` (int8 array of ``num_players``): 1 for each seat of the winning side, zeros
  until the end.

Errors: ``raw_env.step`` raises the engine's ``IllegalActionError`` for an action the pending
decision does not allow (wrong type, out of range, illegal id, None while the agent must act),
``GameOverError`` after the end, RuntimeError before ``reset``; the state is left unchanged.
:func:`env` does the same but ends the game with -1 to the mover for an in-range illegal id
(PettingZoo's ``TerminateIllegalWrapper``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv, ParallelEnv

from ..core.aec import GameAECEnv, TurnBasedParallelEnv, wrap
from . import ENV_ID
from .codecs import LAYOUT
from .engine import actions as A
from .engine.game import BangConfig, BangGame, GameOverError, IllegalActionError
from .render import render_text
from .version import ENV_VERSION
from .view import BangView, Tally, seat_view

__all__ = ["env", "parallel_env", "raw_env", "ENV_ID", "REWARD_MODES"]

REWARD_MODES = ("team",)


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment: an illegal move ends the game (-1 to the mover), PettingZoo's
    way; any other bad step raises the error of :class:`raw_env`."""
    return wrap(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The wrapped environment (:func:`env`) through PettingZoo's Parallel API, one seat acting
    per step (:class:`~granujas_env.core.aec.TurnBasedParallelEnv`);
    ``pettingzoo.make("parallel", "granujas/bang-dice-v0")``."""
    return TurnBasedParallelEnv(env(**kwargs))


class raw_env(GameAECEnv):
    """Bang! The Dice Game for 3-8 players; ``step`` raises on an illegal action.

    Args:
        num_players: 3..8.
        render_mode: None, "human" (prints) or "ansi" (returns the text).
        reward: "team" (+1 to every seat of the winning side, -1 to the others, at the end).
    """

    metadata = {**GameAECEnv.metadata, "name": ENV_VERSION}
    illegal_error = IllegalActionError
    game_over_error = GameOverError

    def __init__(self, num_players: int = 5, render_mode: str | None = None, reward: str = "team") -> None:
        super().__init__()
        self.config = BangConfig(num_players)
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
        self.reward_mode = reward
        self.layout = LAYOUT
        self._tally = Tally(num_players)
        self._init_env(num_players, LAYOUT.low, LAYOUT.high, A.NUM_ACTIONS, render_mode)

    def _new_game(self, seed: int) -> BangGame:
        return BangGame(self.config, seed)

    def _encode(self, game: BangGame, seat: int) -> np.ndarray:
        return self.layout.encode(game, seat, self._tally)

    def _final_rewards(self, game: BangGame) -> list[float]:
        return game.returns()

    def _info_keys(self, game: BangGame) -> dict[str, Any]:
        winners = np.zeros(game.num_players, dtype=np.int8)
        if game.winners is not None:
            winners[list(game.winners)] = 1
        return {"winners": winners}

    def describe(self, action: int) -> str:
        return A.describe(action)

    def _render_text(self, game: BangGame, viewer: int | None) -> str:
        return render_text(game, viewer)

    def seat_view(self, agent: str) -> BangView:
        """What ``agent`` may know, as Python objects (the same information as its observation)."""
        return seat_view(self._require_game(), self._seat(agent), self._tally)
