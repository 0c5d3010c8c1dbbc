"""The PettingZoo AEC pattern every game of the project shares: a decision stack with masks.

A game (:class:`~granujas_env.protocol.GameState`) says who decides (``game.decision.player``);
:class:`GameAECEnv` turns that into PettingZoo's AEC loop:

- the game, not a round-robin selector, sets ``agent_selection``;
- observations are ``{"observation": float32[...], "action_mask": int8[num_actions]}``, the mask
  all zeros for every agent that is not acting (an eliminated seat of a game that eliminates
  players never acts, so its mask stays zero until the end);
- an illegal action is refused with an error naming the decision and the legal ids, the state
  unchanged (:meth:`GameAECEnv.check_action`); :func:`wrap` gives PettingZoo's way instead for
  an in-range id the decision does not allow (the game ends, -1 to the mover);
- every agent stays an agent until the game ends; then every agent, eliminated ones included,
  gets its reward and is terminated in the same step;
- ``info`` has the same keys, types and shapes on every step for every agent (RL libraries
  stack it): ``"decision"`` (the pending kind for the acting agent, ``""`` otherwise),
  ``"game_over"``, plus the game's own keys (:meth:`GameAECEnv._info_keys`).

A game's env subclasses :class:`GameAECEnv` and fills in the hooks marked "game's hook". This
module imports no game.
"""

from __future__ import annotations

import copy
import operator
import random
from collections.abc import Iterable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper

from .messages import shown

__all__ = [
    "GameAECEnv", "CheckedOrderEnforcingWrapper", "EnvState", "TurnBasedParallelEnv", "wrap",
    "shown", "copy_random",
]

RENDER_MODES = ("human", "ansi")



def copy_random(rng: random.Random) -> random.Random:
    """A copy of ``rng``, much faster than copy.deepcopy (setstate sets every field)."""
    out = random.Random.__new__(random.Random)
    out.setstate(rng.getstate())
    return out


def wrap(environment: GameAECEnv) -> AECEnv:
    """PettingZoo's wrapping of a raw env: an illegal in-range id ends the game (-1 to the
    mover); every other bad step raises the raw env's error."""
    wrapped = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    return CheckedOrderEnforcingWrapper(wrapped)


def _before_reset(method: str) -> RuntimeError:
    return RuntimeError(f"{method}() before reset(): call reset() before using the environment")


class CheckedOrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcing, with the raw env's errors for every bad step.

    PettingZoo's ``AssertOutOfBoundsWrapper`` would give a bare ``AssertionError`` for a wrong
    type or an out-of-range id, ``TerminateIllegalWrapper`` would index its mask with None or True,
    and ``OrderEnforcingWrapper`` only warns of a step after the end. Here every step is checked by
    :meth:`GameAECEnv.check_action` first, so only an in-range id that the pending decision does
    not allow reaches ``TerminateIllegalWrapper`` (which ends the game). ``observe()`` and
    ``last()`` before ``reset`` raise RuntimeError, and ``agent_selection`` assigned here is the
    unwrapped env's (so the next step raises, as on the raw env).
    """

    @property
    def agent_selection(self) -> str:
        # before reset the raw env has none: the AttributeError sends PettingZoo's __getattr__
        # its "cannot be accessed before reset"
        return self.unwrapped.agent_selection

    @agent_selection.setter
    def agent_selection(self, value: str) -> None:
        # The wrappers read agent_selection from the unwrapped env; a copy kept on this wrapper
        # would hide it, and the next step would be judged for the real agent. Passed on, it
        # makes the next step raise the raw env's RuntimeError, as when set on the raw env. (A
        # property, not __setattr__: the wrappers set other attributes at every step.)
        unwrapped = self.unwrapped
        unwrapped.agent_selection = value
        if self._has_reset and isinstance(value, str) and value in unwrapped.agents:
            # TerminateIllegalWrapper judges the next step by the mask it observed last
            self.env.observe(value)

    def __deepcopy__(self, memo: dict) -> CheckedOrderEnforcingWrapper:
        if not memo:
            # The root of the copy: the wrappers hold no part of the game, so the unwrapped env
            # is copied first as if alone (its game's fast clone()), and the wrappers share it.
            inner: dict = {}
            copy.deepcopy(self.unwrapped, inner)
            memo.update(inner)
        clone = self.__class__.__new__(self.__class__)
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            clone.__dict__[key] = copy.deepcopy(value, memo)
        return clone

    def step(self, action: Any) -> None:
        super().step(self.unwrapped.check_action(action))

    # RuntimeError before reset (PettingZoo's wrappers give a bare AssertionError for observe()
    # and an AttributeError for last()); checked inline: both run at every step
    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            raise _before_reset("observe")
        return super().observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise _before_reset("last")
        return super().last(observe)

    def set_state(self, snapshot: EnvState) -> None:
        """Restore a :meth:`GameAECEnv.state` snapshot through the wrappers."""
        self.unwrapped.set_state(snapshot)
        self._has_reset = self._has_updated = True
        # TerminateIllegalWrapper judges the next step by the mask it observed last: show it the
        # restored one.
        self.env.observe(self.unwrapped.agent_selection)


class TurnBasedParallelEnv(turn_based_aec_to_parallel_wrapper):
    """A turn-based AEC env as a PettingZoo ``ParallelEnv``: PettingZoo's
    ``turn_based_aec_to_parallel`` (``aec_to_parallel`` refuses an env that is not
    ``is_parallelizable``), with a clear error for a missing action and without writing into the
    AEC env's infos.

    One agent acts at a time: each ``step(actions)`` applies ``actions[acting]`` for the acting
    agent and ignores every other agent's action (give them any id, or leave them out). The acting
    agent is ``infos[agent]["active_agent"]`` (``""`` once the game is over), the one agent whose
    ``action_mask`` is not all zeros. ``step`` returns the observation, reward (of that step: the
    terminal rewards at the end), termination, truncation and info of every agent; after the last
    step ``agents`` is empty.
    """

    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        observations, infos = super().reset(seed=seed, options=options)
        return observations, self._infos_with_active(infos)

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        aec = self.aec_env
        if not self.agents:
            raise aec.unwrapped.game_over_error("the game is over: call reset() to play again")
        acting = aec.agent_selection
        if acting not in actions:
            raise ValueError(
                f"no action for {acting}, the agent that acts now (one agent acts at a time; the "
                f"others' actions are ignored); got actions for {sorted(actions)}"
            )
        aec.step(actions[acting])
        rewards = dict(aec.rewards)
        terminations = dict(aec.terminations)
        truncations = dict(aec.truncations)
        infos = dict(aec.infos)
        observations = {agent: aec.observe(agent) for agent in aec.agents}
        while aec.agents and (
            aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]
        ):
            aec.step(None)  # the dead steps of the agents that are done
        self.agents = aec.agents[:]
        return observations, rewards, terminations, truncations, self._infos_with_active(infos)

    def _infos_with_active(self, infos: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """``infos`` with ``active_agent`` added to copies (the AEC env's own stay as they are)."""
        active = self.aec_env.agent_selection if self.agents else ""
        return {agent: {**info, "active_agent": active} for agent, info in infos.items()}


class EnvState:
    """An opaque snapshot of a :class:`GameAECEnv` (from :meth:`GameAECEnv.state`), for
    :meth:`GameAECEnv.set_state` of an env of the same configuration, any number of times."""

    __slots__ = ("_key", "_game", "_book")

    def __init__(self, key: tuple, game: Any, book: dict[str, Any]) -> None:
        self._key = key
        self._game = game
        self._book = book

    def __repr__(self) -> str:
        decision = self._game.decision
        where = "game over" if decision is None else f"{decision.kind!r} of seat {decision.player}"
        return f"EnvState({self._game.num_players} players, reward={self._key[1]!r}, {where})"


class GameAECEnv(AECEnv):
    """The shared AEC env over a game engine; subclasses fill in the game's hooks.

    Subclass ``__init__``: call ``super().__init__()``, set ``config`` and ``reward_mode``, then
    :meth:`_init_env` with the player count, the observation bounds and the action count.
    """

    #: PettingZoo metadata every game shares; a game's class adds its "name" (its env version)
    metadata = {"render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 1}
    #: game's hook: the error classes of the engine (illegal action; step after the end)
    illegal_error: type[Exception] = ValueError
    game_over_error: type[Exception] = ValueError
    #: attributes fixed at construction, shared by deep copies
    _SHARED = frozenset({"config", "layout"})

    # ------------------------------------------------------------------ game's hooks
    def _new_game(self, seed: int) -> Any:
        """A new game of this env's configuration dealt by ``seed``."""
        raise NotImplementedError

    def _encode(self, game: Any, seat: int) -> np.ndarray:
        """The observation vector of ``seat``."""
        raise NotImplementedError

    def _final_rewards(self, game: Any) -> list[float]:
        """Every seat's reward at the end of ``game``."""
        raise NotImplementedError

    def _info_keys(self, game: Any) -> dict[str, Any]:
        """The game's own info entries (same keys and shapes at every step)."""
        return {}

    def describe(self, action: int) -> str:
        """A short text for an action id (in error messages)."""
        return str(action)

    def _render_text(self, game: Any, viewer: int | None) -> str:
        """The table as ``viewer`` sees it (None: public state only)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ construction
    def _init_env(
        self, num_players: int, low: np.ndarray, high: np.ndarray, num_actions: int,
        render_mode: str | None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
        self.render_mode = render_mode
        self.num_actions = num_actions
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game: Any = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    # ------------------------------------------------------------------ play
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; ``seed`` (an int, numpy ints too) fixes the deal and every later
        reset without a seed. ``options`` is not used (PettingZoo's API test passes some)."""
        if seed is None:
            seeds = self._seeds
            game_seed = seeds.getrandbits(63)
        else:
            if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
                raise TypeError(
                    f"seed must be an int (or a numpy int) or None, got {shown(seed)} "
                    f"({type(seed).__name__})"
                )
            game_seed = int(seed)
            # random.Random seeds with abs(n): the text of a negative seed gives it its own stream
            seeds = random.Random(game_seed if game_seed >= 0 else str(game_seed))
        self.game = self._new_game(game_seed)
        self._seeds = seeds
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.decision.player]
        self.infos = {}
        self._set_infos()

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """Every agent's info, brought up to the game's state when read (a loop that never reads
        it does not pay for it)."""
        if self._acted:
            acted, self._acted = self._acted, set()
            self._set_infos(acted)
        return self._infos

    @infos.setter
    def infos(self, value: dict[str, dict[str, Any]]) -> None:
        self._infos = value
        self._acted = set()

    def _set_infos(self, acted: Iterable[str] | None = None) -> None:
        """Bring ``infos`` up to the game's state: at the end every agent's; before, only those
        of the agents that acted (``acted``; None: all) and of the one acting now. An info dict
        handed out is never mutated."""
        game = self.game
        infos = self._infos
        decision = game.decision
        if decision is None:
            for agent in self.agents:
                infos[agent] = {"decision": "", "game_over": True, **self._info_keys(game)}
            return
        acting = self.possible_agents[decision.player]
        for agent in self.agents if acted is None else (*acted, acting):
            kind = decision.kind if agent == acting else ""
            info = infos.get(agent)
            if info is None or info["decision"] != kind:
                infos[agent] = {"decision": kind, "game_over": False, **self._info_keys(game)}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._require_game()
        seat = self._seat(agent)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        decision = game.decision
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        if decision is not None and decision.player == seat and not done:
            mask[game.legal_actions()] = 1
        return {"observation": self._encode(game, seat), "action_mask": mask}

    def check_action(self, action: Any) -> int | None:
        """The check :meth:`step` makes before applying ``action``, without applying it.

        Raises RuntimeError before ``reset`` or when ``agent_selection`` is not the deciding
        agent, the engine's game-over error after the end, its illegal-action error for None
        while the agent must act, a wrong type or an id out of range. Returns the action as an
        int, or None for the dead step of an agent that is done.
        """
        game = self._require_game()
        if not self.agents:
            raise self.game_over_error(
                "the game is over and every agent has taken its last step: call reset() to play again"
            )
        agent = self.agent_selection
        if agent not in self.terminations:
            raise RuntimeError(
                f"agent_selection is {shown(agent)}, not one of the agents in the game "
                f"{self.agents}; the env sets agent_selection, do not assign it"
            )
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise self.game_over_error(
                    f"the game is over: {agent} is done and its only step is step(None) "
                    f"(PettingZoo's dead step), got {shown(action)}"
                )
            return None
        decision = game.decision
        deciding = self.possible_agents[decision.player]
        if agent != deciding:
            raise RuntimeError(
                f"agent_selection is {agent} but the pending decision {decision.kind!r} is "
                f"{deciding}'s; the env sets agent_selection, do not assign it"
            )
        if action is None:
            raise self.illegal_error(
                f"{agent} must act: None is the step of an agent that is done; {self._pending(agent)}"
            )
        if type(action) is int and 0 <= action < self.num_actions:  # the common case first
            return action
        try:
            if isinstance(action, (bool, np.bool_)):  # True == 1 in Python, but never an id
                raise TypeError
            index = operator.index(action)
        except TypeError:
            raise self.illegal_error(
                f"action must be an integer id, got {shown(action)} ({type(action).__name__}); "
                f"{self._pending(agent)}"
            ) from None
        if not 0 <= index < self.num_actions:
            raise self.illegal_error(
                f"action {shown(index)} is out of range (ids are 0..{self.num_actions - 1}); "
                f"{self._pending(agent)}"
            )
        return index

    def _pending(self, agent: str) -> str:
        game = self.game
        legal = ", ".join(f"{a} ({self.describe(a)})" for a in game.legal_actions())
        return f"pending decision {game.decision.kind!r} of {agent}; legal ids: {legal}"

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (None for agents whose game has ended).

        Raises (state unchanged): see :meth:`check_action`, and the engine's illegal-action
        error for an id the pending decision does not allow.
        """
        action = self.check_action(action)
        if action is None:
            self._was_dead_step(action)
            return
        game = self.game
        agent = self.agent_selection
        game.apply(action)  # raises for an illegal id and leaves the state unchanged
        self._cumulative_rewards[agent] = 0.0
        if game.game_over:
            values = self._final_rewards(game)
            self.rewards = {a: float(values[self.agent_name_mapping[a]]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[game.decision.player]
        self._acted.add(agent)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ clone and state
    def _state_key(self) -> tuple:
        """What a snapshot must match to be restored here (first entry: the configuration)."""
        return (self.config, self.reward_mode)

    def state(self) -> EnvState:
        """An opaque snapshot of the game in progress and of all of the env's bookkeeping, for
        search: ``s = env.state()``, play on, ``env.set_state(s)``."""
        game = self._require_game()
        return EnvState(self._state_key(), game.clone(), self._copy_bookkeeping(self.__dict__))

    def set_state(self, snapshot: EnvState) -> None:
        """Restore a :meth:`state` snapshot exactly (it stays valid for more restores). Raises
        TypeError for anything but a snapshot, ValueError for one of another configuration."""
        if not isinstance(snapshot, EnvState):
            raise TypeError(f"set_state() takes a snapshot from state(), got {type(snapshot).__name__}")
        self._check_state_key(snapshot._key)
        self.game = snapshot._game.clone()
        self.__dict__.update(self._copy_bookkeeping(snapshot._book))

    def _check_state_key(self, key: tuple) -> None:
        """ValueError unless a snapshot of ``key`` can be restored here (a game may accept equal
        data loaded twice, or word the refusal its own way)."""
        if key != self._state_key():
            raise ValueError(f"the snapshot is of {key!r}; this env plays {self._state_key()!r}")

    @staticmethod
    def _copy_bookkeeping(source: dict[str, Any]) -> dict[str, Any]:
        book = {key: source[key] for key in ("agent_selection", "_skip_agent_selection")}
        for key in ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations"):
            book[key] = copy.copy(source[key])
        book["_infos"] = {
            agent: {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in info.items()}
            for agent, info in source["_infos"].items()
        }
        book["_acted"] = set(source["_acted"])
        book["_seeds"] = copy_random(source["_seeds"])
        return book

    def __deepcopy__(self, memo: dict) -> GameAECEnv:
        # Copied alone (an empty memo), nothing else can point into the game: its clone() is the
        # same and faster. Inside a larger object (train.single_seat holds the env and its game),
        # the game goes through the memo, so that the copy's references stay one game.
        alone = not memo
        clone = self.__class__.__new__(self.__class__)
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            if key == "game":
                if value is not None:
                    value = value.clone() if alone else copy.deepcopy(value, memo)
            elif key == "_seeds":
                value = copy_random(value)
            elif key not in self._SHARED:
                value = copy.deepcopy(value, memo)
            clone.__dict__[key] = value
        return clone

    # ------------------------------------------------------------------ views
    def render(self) -> str | None:
        """The public table (no hidden information): printed ("human") or returned ("ansi")."""
        if self.render_mode is None:
            return None
        text = self._render_text(self._require_game(), None)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def render_seat(self, agent: str) -> str:
        """The table as ``agent`` sees it: public state plus that seat's own information."""
        return self._render_text(self._require_game(), self._seat(agent))

    def close(self) -> None:
        pass

    def _seat(self, agent: str) -> int:
        try:
            return self.agent_name_mapping[agent]
        except (KeyError, TypeError):  # TypeError: an unhashable agent
            raise ValueError(
                f"unknown agent {shown(agent)}; the agents are {self.possible_agents}"
            ) from None

    def _require_game(self) -> Any:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game
