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

import copy
import dataclasses
import operator
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper

from .codecs import ObservationLayout
from .engine import actions as A
from .engine.data import Catalog, load_catalog, shown
from .engine.game import Game, GameConfig, GameOverError, IllegalActionError, default_data
from .render import render_text
from .version import ENV_NAME
from .view import SeatView, seat_view

REWARD_MODES = ("win", "score")
RENDER_MODES = ("human", "ansi")


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment: an illegal move ends the game (-1 to the mover), PettingZoo's way;
    any other bad step raises the error of :class:`raw_env`."""
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    return CheckedOrderEnforcingWrapper(environment)


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The wrapped environment (:func:`env`) through PettingZoo's Parallel API (see
    :class:`TurnBasedParallelEnv`); ``pettingzoo.make("parallel", "granujas/granujas-v1")``."""
    return TurnBasedParallelEnv(env(**kwargs))


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
            raise GameOverError("the game is over: call reset() to play again")
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


def _same_cards(a: Catalog, b: Catalog) -> bool:
    """Whether two catalogs hold the same cards (wherever they were loaded from)."""
    return all(
        getattr(a, f.name) == getattr(b, f.name) for f in dataclasses.fields(Catalog) if f.name != "source"
    )


def _copy_random(rng: random.Random) -> random.Random:
    """A copy of ``rng``, ~15x faster than copy.deepcopy (which pickles and seeds from urandom):
    setstate() sets every field __init__ would."""
    out = random.Random.__new__(random.Random)
    out.setstate(rng.getstate())
    return out


class CheckedOrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcing, with :class:`raw_env`'s errors for every bad step.

    PettingZoo's ``AssertOutOfBoundsWrapper`` would give a bare ``AssertionError`` for a wrong
    type or an out-of-range id, ``TerminateIllegalWrapper`` would index its mask with None or True,
    and ``OrderEnforcingWrapper`` only warns of a step after the end. Here every step is checked by
    :meth:`raw_env.check_action` first, so only an in-range id that the pending decision does not
    allow reaches ``TerminateIllegalWrapper`` (which ends the game).
    """

    def __setattr__(self, name: str, value: Any) -> None:
        # The wrappers read agent_selection from the unwrapped env; a copy kept on this wrapper
        # would hide it, and the next step would be judged for the real agent. Passed on, it
        # makes the next step raise raw_env's RuntimeError, as when set on raw_env.
        if name == "agent_selection":
            unwrapped = self.unwrapped
            unwrapped.agent_selection = value
            if self._has_reset and isinstance(value, str) and value in unwrapped.agents:
                # TerminateIllegalWrapper judges the next step by the mask it observed last
                self.env.observe(value)
        else:
            super().__setattr__(name, value)

    def __deepcopy__(self, memo: dict) -> CheckedOrderEnforcingWrapper:
        if not memo:
            # The root of the copy: the wrappers hold no part of the game, so the unwrapped env
            # is copied first as if alone (its fast Game.clone()), and the wrappers share it.
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

    def observe(self, agent: str) -> Any:
        self._require_reset("observe")
        return super().observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._require_reset("last")
        return super().last(observe)

    def _require_reset(self, method: str) -> None:
        """RuntimeError for ``method`` before reset (PettingZoo's wrappers give a bare
        AssertionError for observe() and an AttributeError for last())."""
        if not self._has_reset:
            raise RuntimeError(f"{method}() before reset(): call reset() before using the environment")

    def set_state(self, snapshot: EnvState) -> None:
        """Restore a :meth:`raw_env.state` snapshot (see there) through the wrappers."""
        self.unwrapped.set_state(snapshot)
        self._has_reset = self._has_updated = True
        # TerminateIllegalWrapper judges the next step by the mask it observed last: show it the
        # restored one.
        self.env.observe(self.unwrapped.agent_selection)


class EnvState:
    """An opaque snapshot of a :class:`raw_env` (from :meth:`raw_env.state`), to give to
    :meth:`raw_env.set_state` of an env of the same configuration and catalog, any number of
    times. It can be pickled."""

    __slots__ = ("_key", "_game", "_book")

    def __init__(self, key: tuple, game: Game, book: dict[str, Any]) -> None:
        self._key = key
        self._game = game
        self._book = book

    def __repr__(self) -> str:
        config, reward, _catalog = self._key
        return (
            f"EnvState({config.num_players} players, {config.game_length}, reward={reward!r}, "
            f"day {self._game.day}, turn {self._game.turn}, game_over={self._game.game_over})"
        )


class raw_env(AECEnv):
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
    (money, the one unbounded quantity, is clipped). ``info``: see the module docstring.
    """

    metadata = {
        "name": ENV_NAME,
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

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
                "observation": spaces.Box(self.layout.low, self.layout.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (A.NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(A.NUM_ACTIONS) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

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
        self.game = Game(self.config, game_seed, catalog=self.catalog)
        self._seeds = seeds
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.current_player]
        self.infos = {}
        self._set_infos()

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """Every agent's info (see the module docstring), brought up to the game's state when
        read: a training loop that never reads it (train.single_seat) does not pay for it."""
        if self._acted:
            acted, self._acted = self._acted, set()
            self._set_infos(acted)
        return self._infos

    @infos.setter
    def infos(self, value: dict[str, dict[str, Any]]) -> None:
        self._infos = value
        self._acted = set()

    def _set_infos(self, acted: Iterable[str] | None = None) -> None:
        """Bring ``infos`` up to the game's state. A step changes the info of at most two agents
        before the end (the decision of the one that acted and of the one that acts now): those
        get a new dict, the others keep theirs (never mutated, so an info handed out earlier keeps
        its values). ``acted``: the agents that acted since the last update (then only they and
        the agent acting now are looked at), None to look at every agent."""
        game = self.game
        infos = self._infos
        if game.game_over:
            winner = -1 if game.winner is None else game.winner
            scores = game.scores if game.scores is not None else [0] * game.num_players
            for agent in self.agents:
                infos[agent] = {
                    "decision": "",
                    "game_over": True,
                    "winner": winner,
                    "scores": np.array(scores, dtype=np.int64),
                }
            return
        frame = game.stack[-1]
        acting = self.possible_agents[frame.player]
        for agent in self.agents if acted is None else (*acted, acting):
            decision = frame.kind if agent == acting else ""
            info = infos.get(agent)
            if info is None or info["decision"] != decision:
                infos[agent] = {
                    "decision": decision,
                    "game_over": False,
                    "winner": -1,
                    "scores": np.zeros(game.num_players, dtype=np.int64),
                }

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._require_game()
        seat = self._seat(agent)
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        if not game.game_over and game.current_player == seat and not done:
            mask[game.legal_actions()] = 1
        return {"observation": self.layout.encode(game, seat), "action_mask": mask}

    def check_action(self, action: Any) -> int | None:
        """The check :meth:`step` makes before it applies ``action``, without applying it.

        Raises what ``step`` raises for anything but an id of the action space that the pending
        decision does not allow (that one is the engine's to refuse, or ``env()``'s to punish):
        RuntimeError before ``reset`` or when ``agent_selection`` is not the deciding agent,
        GameOverError after the end, IllegalActionError for None while the agent must act, a
        wrong type or an id out of range. Returns the action as an int, or None for the dead step
        of an agent that is done.
        """
        game = self._require_game()
        if not self.agents:
            raise GameOverError(
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
                raise GameOverError(
                    f"the game is over: {agent} is done and its only step is step(None) "
                    f"(PettingZoo's dead step), got {shown(action)}"
                )
            return None
        deciding = self.possible_agents[game.current_player]
        if agent != deciding:
            raise RuntimeError(
                f"agent_selection is {agent} but the pending decision {game.stack[-1].kind!r} is "
                f"{deciding}'s; the env sets agent_selection, do not assign it"
            )
        if action is None:
            raise IllegalActionError(
                f"{agent} must act: None is the step of an agent that is done; "
                f"{self._pending(agent)}"
            )
        if type(action) is int and 0 <= action < A.NUM_ACTIONS:  # the common case, checked first
            return action
        try:
            if isinstance(action, (bool, np.bool_)):  # True == 1 in Python, but never an id
                raise TypeError
            index = operator.index(action)
        except TypeError:
            raise IllegalActionError(
                f"action must be an integer id, got {shown(action)} ({type(action).__name__}); "
                f"{self._pending(agent)}"
            ) from None
        if not 0 <= index < A.NUM_ACTIONS:
            raise IllegalActionError(
                f"action {shown(index)} is out of range (ids are 0..{A.NUM_ACTIONS - 1}); "
                f"{self._pending(agent)}"
            )
        return index

    def _pending(self, agent: str) -> str:
        game = self.game
        legal = ", ".join(f"{a} ({A.describe(a)})" for a in game.legal_actions())
        return f"pending decision {game.stack[-1].kind!r} of {agent}; legal ids: {legal}"

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (None for agents whose game has ended).

        Raises (state unchanged): see :meth:`check_action`, and IllegalActionError for an id the
        pending decision does not allow.
        """
        action = self.check_action(action)
        if action is None:
            self._was_dead_step(action)
            return
        game = self.game
        agent = self.agent_selection
        game.apply(action)  # raises IllegalActionError and leaves the state unchanged
        self._cumulative_rewards[agent] = 0.0
        if game.game_over:
            values = game.returns() if self.reward_mode == "win" else game.score_margins()
            self.rewards = {a: float(values[i]) for i, a in enumerate(self.agents)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        # the infos of the agents that acted are brought up to date when read (the infos property)
        self._acted.add(agent)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ clone and state
    def state(self) -> EnvState:
        """An opaque snapshot of the game in progress and of all of the env's bookkeeping (agents,
        rewards, terminations, infos, agent_selection, the seed stream of later resets).

        Unlike PettingZoo's optional ``state()`` (a global-state array for centralised training,
        announced by a ``state_space`` this env does not have), this is for search: branch with
        ``s = env.state()``, play on, come back with ``env.set_state(s)``.
        """
        game = self._require_game()
        return EnvState(self._state_key(), game.clone(), self._copy_bookkeeping(self.__dict__))

    def set_state(self, snapshot: EnvState) -> None:
        """Restore a :meth:`state` snapshot exactly; the snapshot stays valid for more restores.

        Raises TypeError for anything but a snapshot, ValueError for one of another configuration,
        reward mode or catalog (the state is then left unchanged). Through :func:`env`, call the
        outer env's ``set_state`` (it also refreshes the wrappers).
        """
        if not isinstance(snapshot, EnvState):
            raise TypeError(f"set_state() takes a snapshot from state(), got {type(snapshot).__name__}")
        config, reward, catalog = snapshot._key
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
        self.game = snapshot._game.clone()
        self.__dict__.update(self._copy_bookkeeping(snapshot._book))

    def _state_key(self) -> tuple:
        return (self.config, self.reward_mode, self.catalog)

    @staticmethod
    def _copy_bookkeeping(source: dict[str, Any]) -> dict[str, Any]:
        """A copy of the env's bookkeeping besides the game (what state() saves): agents,
        rewards, flags and infos (of immutable values, but for the scores arrays), the seed
        stream."""
        book = {key: source[key] for key in ("agent_selection", "_skip_agent_selection")}
        for key in ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations"):
            book[key] = copy.copy(source[key])
        book["_infos"] = {
            agent: {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in info.items()}
            for agent, info in source["_infos"].items()
        }
        book["_acted"] = set(source["_acted"])
        book["_seeds"] = _copy_random(source["_seeds"])
        return book

    def __deepcopy__(self, memo: dict) -> raw_env:
        # Copied alone (an empty memo), nothing else can point into the game: Game.clone() is
        # the same and faster. Inside a larger object (train.single_seat holds the env and its
        # game), the game goes through the memo, so that the copy's references stay one game.
        alone = not memo
        clone = self.__class__.__new__(self.__class__)
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            if key == "game":
                if value is not None:
                    value = value.clone() if alone else copy.deepcopy(value, memo)
            elif key == "_seeds":
                value = _copy_random(value)
            elif key not in self._SHARED:
                value = copy.deepcopy(value, memo)
            clone.__dict__[key] = value
        return clone

    # ------------------------------------------------------------------ views
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
        return render_text(self._require_game(), viewer=self._seat(agent))

    def seat_view(self, agent: str) -> SeatView:
        """Semantic view of what ``agent`` may know (for rule-based bots); same information as
        its observation, as Python objects."""
        return seat_view(self._require_game(), self._seat(agent))

    def close(self) -> None:
        pass

    def _seat(self, agent: str) -> int:
        try:
            return self.agent_name_mapping[agent]
        except (KeyError, TypeError):  # TypeError: an unhashable agent
            raise ValueError(
                f"unknown agent {shown(agent)}; the agents are {self.possible_agents}"
            ) from None

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game
