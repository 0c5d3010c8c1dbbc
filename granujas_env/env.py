"""PettingZoo AEC environment for 3000 Granujas: a thin layer over the rules engine.

Every decision of the engine is an agent step; the engine, not a round-robin selector, sets
``agent_selection``. Observations are ``{"observation": float32[...], "action_mask": int8[N]}``
with the mask all zeros for every agent that is not acting.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .codecs import ObservationLayout
from .engine import actions as A
from .engine.data import load_catalog
from .engine.game import Game, GameConfig, default_data
from .render import render_text
from .view import SeatView, seat_view

REWARD_MODES = ("win", "score")
RENDER_MODES = ("human", "ansi")


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment: an illegal move ends the game (-1 to the mover), PettingZoo's way."""
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


class raw_env(AECEnv, EzPickle):
    """3000 Granujas for 2-4 players; ``raw_env.step`` raises on an illegal action.

    Args:
        num_players: 2, 3 or 4.
        game_length: "short" (2 days) or "long" (3 days).
        strategy_cards: the optional Strategy cards rule.
        render_mode: None, "human" (prints) or "ansi" (returns the text).
        reward: "win" (+1 winner, -1/(N-1) others) or "score" (normalised score margin).
        catalog: path of a card catalog file (docs/catalog_format.md), e.g. the printed cards of
            your own copy of the game; default: the shipped catalog.
    """

    metadata = {
        "name": "granujas_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 4,
        game_length: str = "short",
        strategy_cards: bool = False,
        render_mode: str | None = None,
        reward: str = "win",
        catalog: str | Path | None = None,
    ) -> None:
        EzPickle.__init__(self, num_players, game_length, strategy_cards, render_mode, reward, catalog)
        super().__init__()
        self.config = GameConfig(num_players, game_length, strategy_cards)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
        self.render_mode = render_mode
        self.reward_mode = reward
        rules, default_catalog = default_data()
        self.catalog = default_catalog if catalog is None else load_catalog(catalog)
        if strategy_cards and not self.catalog.strategies:
            raise ValueError(f"strategy_cards=True needs Strategy cards; {catalog} has none")
        self.layout = ObservationLayout(self.catalog, rules)
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (A.NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(A.NUM_ACTIONS) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; ``seed`` fixes the deal and every later reset without a seed."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        self.game = Game(self.config, game_seed, catalog=self.catalog)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.current_player]
        self._set_info()

    def _set_info(self) -> None:
        game = self.game
        if game is not None and not game.game_over:
            self.infos[self.agent_selection] = {"decision": game.stack[-1].kind}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._require_game()
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        if not game.game_over and game.current_player == seat:
            mask[game.legal_actions()] = 1
        return {"observation": self.layout.encode(game, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (None for agents whose game has ended)."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        game = self._require_game()
        agent = self.agent_selection
        if action is None:
            raise ValueError(
                f"{agent} must act (pending decision {game.stack[-1].kind!r}); "
                f"legal ids: {game.legal_actions()}"
            )
        game.apply(action)  # raises IllegalActionError and leaves the state unchanged
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        if game.game_over:
            values = game.returns() if self.reward_mode == "win" else game.score_margins()
            self.rewards = {a: float(values[i]) for i, a in enumerate(self.agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"scores": list(game.scores or []), "winner": game.winner}
        else:
            self.agent_selection = self.agents[game.current_player]
            self._set_info()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """Readable table of the public state (no hidden information)."""
        if self.render_mode is None:
            return None
        text = render_text(self._require_game(), viewer=None)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def render_seat(self, agent: str) -> str:
        """The table as ``agent`` sees it: public state plus that seat's own information."""
        return render_text(self._require_game(), viewer=self.agent_name_mapping[agent])

    def seat_view(self, agent: str) -> SeatView:
        """Semantic view of what ``agent`` may know (for rule-based bots); same information as
        its observation, as Python objects."""
        return seat_view(self._require_game(), self.agent_name_mapping[agent])

    def close(self) -> None:
        pass

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game
