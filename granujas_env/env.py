"""PettingZoo AEC environment for 3000 Granujas: a thin layer over the rules engine.

Every decision of the engine is an agent step; the engine, not a round-robin selector, sets
``agent_selection``. Observations are ``{"observation": float32[...], "action_mask": int8[N]}``
with the mask all zeros for every agent that is not acting.

``info`` has the same keys, types and shapes on every step for every agent, so that the replay
buffers of RL libraries (Tianshou's ``Batch``, ...) can stack it:

- ``"decision"`` (str): the kind of the pending decision (``plan_card``, ``challenge``, ...) for
  the acting agent, ``""`` for every other agent and once the game is over;
- ``"game_over"`` (bool): the game has ended;
- ``"winner"`` (int): the winner's seat, -1 until the end;
- ``"scores"`` (int64 array of ``num_players``): the final scores, zeros until the end.

Errors: ``raw_env.step`` raises :class:`~granujas_env.engine.game.IllegalActionError` for any
action the pending decision does not allow (a wrong type, an id out of range, an illegal id, None
while the agent must act), :class:`~granujas_env.engine.game.GameOverError` for a step after the
end, ``RuntimeError`` before ``reset`` or when ``agent_selection`` was assigned by hand; the
message names what was wrong, the pending decision and the legal ids, and the state is left
unchanged. :func:`env` raises the same errors, except for an id of the action space that the
decision does not allow: that ends the game with -1 to the mover (PettingZoo's
``TerminateIllegalWrapper``). Through :func:`env`, ``observe()`` and ``last()`` before ``reset``
raise ``RuntimeError`` too, and assigning ``agent_selection`` sets the unwrapped env's (so the
next step raises, as on ``raw_env``).

Parallel API: :func:`parallel_env` (``pettingzoo.make("parallel", "granujas/granujas-v1")``), one
acting agent per step (:class:`TurnBasedParallelEnv`).

Search: ``copy.deepcopy`` and ``pickle`` copy the game in progress with all of the env's
bookkeeping; :meth:`raw_env.state` / :meth:`raw_env.set_state` snapshot and restore it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
from pettingzoo import AECEnv, ParallelEnv

from .codecs import ObservationLayout
from .core.aec import CheckedOrderEnforcingWrapper, EnvState, GameAECEnv, TurnBasedParallelEnv, wrap
from .engine import actions as A
from .engine.data import Catalog, load_catalog
from .engine.game import Game, GameConfig, GameOverError, IllegalActionError, default_data
from .render import render_text
from .version import ENV_NAME
from .view import SeatView, seat_view

__all__ = [
    "env", "parallel_env", "raw_env", "REWARD_MODES", "CheckedOrderEnforcingWrapper", "EnvState",
    "TurnBasedParallelEnv",
]

REWARD_MODES = ("win", "score")


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment: an illegal move ends the game (-1 to the mover), PettingZoo's way;
    any other bad step raises the error of :class:`raw_env`."""
    return wrap(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The wrapped environment (:func:`env`) through PettingZoo's Parallel API (see
    :class:`~granujas_env.core.aec.TurnBasedParallelEnv`);
    ``pettingzoo.make("parallel", "granujas/granujas-v1")``."""
    return TurnBasedParallelEnv(env(**kwargs))


def _same_cards(a: Catalog, b: Catalog) -> bool:
    """Whether two catalogs hold the same cards (wherever they were loaded from)."""
    return all(
        getattr(a, f.name) == getattr(b, f.name) for f in dataclasses.fields(Catalog) if f.name != "source"
    )


class raw_env(GameAECEnv):
    """3000 Granujas for 2-4 players; ``raw_env.step`` raises on an illegal action.

    Args:
        num_players: 2, 3 or 4.
        game_length: "short" (2 days) or "long" (3 days).
        strategy_cards: the optional Strategy cards rule.
        render_mode: None, "human" (prints) or "ansi" (returns the text).
        reward: "win" (+1 winner, -1/(N-1) others) or "score" (normalised score margin).
        catalog: path of a card catalog file (docs/catalog_format.md), e.g. the printed cards of
            your own copy of the game; default: the shipped catalog.

    The observation ``Box`` has the finite bounds of :class:`~granujas_env.codecs.ObservationLayout`
    (money, the one unbounded quantity, is clipped). ``info``: see the module docstring. The AEC
    machinery (steps, checks, infos, snapshots, copies) is :class:`~granujas_env.core.aec.GameAECEnv`.
    """

    metadata = {**GameAECEnv.metadata, "name": ENV_NAME}
    illegal_error = IllegalActionError
    game_over_error = GameOverError
    # Fixed at construction and never changed by play: shared by copies, as a Game's clone shares
    # its catalog and rules.
    _SHARED = frozenset({"config", "catalog", "layout"})

    def __init__(
        self,
        num_players: int = 4,
        game_length: str = "short",
        strategy_cards: bool = False,
        render_mode: str | None = None,
        reward: str = "win",
        catalog: str | Path | None = None,
    ) -> None:
        super().__init__()
        self.config = GameConfig(num_players, game_length, strategy_cards)
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
        self.reward_mode = reward
        rules, default_catalog = default_data()
        self.catalog = default_catalog if catalog is None else load_catalog(catalog)
        if strategy_cards and not self.catalog.strategies:
            raise ValueError(f"strategy_cards=True needs Strategy cards; {catalog} has none")
        self.layout = ObservationLayout(self.catalog, rules)
        self._init_env(num_players, self.layout.low, self.layout.high, A.NUM_ACTIONS, render_mode)

    # ------------------------------------------------------------------ the game's hooks
    def _new_game(self, seed: int) -> Game:
        return Game(self.config, seed, catalog=self.catalog)

    def _encode(self, game: Game, seat: int) -> np.ndarray:
        return self.layout.encode(game, seat)

    def _final_rewards(self, game: Game) -> list[float]:
        return game.returns() if self.reward_mode == "win" else game.score_margins()

    def _info_keys(self, game: Game) -> dict[str, Any]:
        if game.game_over:
            winner = -1 if game.winner is None else game.winner
            scores = game.scores if game.scores is not None else [0] * game.num_players
            return {"winner": winner, "scores": np.array(scores, dtype=np.int64)}
        return {"winner": -1, "scores": np.zeros(game.num_players, dtype=np.int64)}

    def describe(self, action: int) -> str:
        return A.describe(action)

    def _render_text(self, game: Game, viewer: int | None) -> str:
        return render_text(game, viewer=viewer)

    # ------------------------------------------------------------------ snapshots
    def _state_key(self) -> tuple:
        return (self.config, self.reward_mode, self.catalog)

    def _check_state_key(self, key: tuple) -> None:
        """A snapshot of another configuration, reward mode or catalog is refused (a catalog
        loaded again from the same cards is the same)."""
        config, reward, catalog = key
        mine, my_reward, my_catalog = self._state_key()
        if (config, reward) != (mine, my_reward):
            raise ValueError(
                f"the snapshot is of a game of {config} with reward {reward!r}; this env plays "
                f"{mine} with reward {my_reward!r}"
            )
        if catalog is not my_catalog and not _same_cards(catalog, my_catalog):
            raise ValueError(
                f"the snapshot is of a game with the catalog {catalog.source!r}; this env plays "
                f"the catalog {my_catalog.source!r}, whose cards differ"
            )

    # ------------------------------------------------------------------ views
    def seat_view(self, agent: str) -> SeatView:
        """Semantic view of what ``agent`` may know (for rule-based bots); same information as
        its observation, as Python objects."""
        return seat_view(self._require_game(), self._seat(agent))
