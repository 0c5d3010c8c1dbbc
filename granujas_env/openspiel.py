"""3000 Granujas as an OpenSpiel game: ``pyspiel.load_game("python_granujas", {...})``.

Importing this module registers the game (it needs the ``[openspiel]`` extra: ``pip install -e
.[openspiel]``)::

    import pyspiel
    import granujas_env.openspiel  # noqa: F401  (registers "python_granujas")

    game = pyspiel.load_game("python_granujas", {"players": 2, "game_length": "short", "seed": 3})
    state = game.new_initial_state()  # a fresh deal at every call, the sequence fixed by seed

Choices, and why:

* **Chance: SAMPLED_STOCHASTIC.** The engine draws every chance event (the deal, shuffles under the
  deck, Apostador's draw) from its own ``random.Random``, seeded when the state is dealt, so there
  are no chance nodes, and a state and its clone stay identical after the same actions.
* **Deals.** By default every ``new_initial_state()`` deals a fresh game, so OpenSpiel's RL agents
  (``rl_environment``, policy gradient, NFSP) see varied deals: each call deals the game seeded by
  the next draw of a game-level ``random.Random(seed)``. The sequence is reproducible: a game
  loaded with the same ``seed`` and asked the same calls deals the same games. OpenSpiel also
  makes initial states of its own, and each takes a draw: ``state.clone()`` and
  ``game.deserialize_state()`` make one, then overwrite it with the original's (so a copy keeps
  the original's deal), and a Python game's ``information_state_tensor`` /
  ``observation_tensor`` sizes its tensor on one. ``fixed_deal=True`` keeps one deal instead:
  every ``new_initial_state()`` deals the game of ``seed`` (what search over one deal wants, and
  what makes replaying a state's action history from a new initial state rebuild it exactly).
* **Utility: ZERO_SUM, terminal rewards** (:meth:`Game.returns`): +1 to the winner and
  -1/(N-1) to each other player.
* **Parameters**: ``players`` (2-4, default 2), ``game_length`` ("short"/"long"), ``strategy_cards``
  (bool), ``seed`` (int, default 0), ``fixed_deal`` (bool, default False: see Deals). Actions are
  the engine's flat ids (``num_distinct_actions`` = ``actions.NUM_ACTIONS``; names from ``actions.describe``); the
  maximum game length is the documented step bound (:func:`granujas_env.fuzz.step_bound`).
* **Observations**: a player's tensor is its observation vector
  (:class:`granujas_env.codecs.ObservationLayout`; the observer's ``dict`` holds its named pieces);
  its observation string is a canonical text of its :func:`granujas_env.view.seat_view`
  (:func:`view_text`: the same information, with the pending decision's context and legal ids
  when that player is deciding). The information state tensor equals the observation tensor: the
  observation already holds the public record a player needs (declared slots of every day,
  revealed and peeked values, Marks, henchmen, Safes seen, Strategy cards once revealed) and the
  player's private knowledge accumulates in it. The information state string
  (:func:`infostate_key`) is a compact exact key: the observation vector's entries, the decision
  context and legal ids when deciding, and the public event log, so that two histories reaching
  the same table stay distinct (perfect recall for search trees); IS-MCTS looks it up at every
  node, so it skips the readable text. Strings and tensors are leak-tested like the observations
  (``tests/test_openspiel.py``).
* **IS-MCTS**: ``resample_from_infostate(player, sampler)`` returns a state whose hidden
  information is redrawn with :func:`granujas_env.determinize.sample_hidden` (seeded from
  ``sampler``), so ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays the game as is. Its
  time goes to rollouts: :class:`RolloutEvaluator` plays them on the engine, about 4x faster
  than OpenSpiel's ``mcts.RandomRolloutEvaluator`` (which works too).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms.mcts import Evaluator

from .codecs import ObservationLayout
from .determinize import resample_hidden
from .engine import actions as A
from .engine.game import Game, GameConfig
from .fuzz import step_bound
from .render import render_text
from .view import PUBLIC_EVENTS, GranujaView, SeatView, seat_view

__all__ = [
    "GAME_TYPE",
    "GranujasGame",
    "GranujasObserver",
    "GranujasState",
    "RolloutEvaluator",
    "infostate_key",
    "view_text",
]

SHORT_NAME = "python_granujas"
_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "game_length": "short",
    "strategy_cards": False,
    "seed": 0,
    "fixed_deal": False,
}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="3000 Granujas (granujas_env)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class GranujasGame(pyspiel.Game):
    """The pyspiel game: one configuration; a fresh deal per initial state from the sequence of
    ``seed``, or the one deal of ``seed`` with ``fixed_deal`` (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        unknown = sorted(set(params) - set(_DEFAULTS))
        if unknown:
            raise ValueError(f"unknown parameters {unknown}; allowed: {sorted(_DEFAULTS)}")
        seed = params["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an int, got {seed!r}")
        if not isinstance(params["fixed_deal"], bool):
            raise ValueError(f"fixed_deal must be a bool, got {params['fixed_deal']!r}")
        config = GameConfig(
            num_players=params["players"],
            game_length=params["game_length"],
            strategy_cards=params["strategy_cards"],
        )
        n = config.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=A.NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=step_bound(config),
        )
        super().__init__(GAME_TYPE, info, params)
        self.config = config
        self.fixed_deal = params["fixed_deal"]
        self.initial = Game(config, seed=seed)  # the deal of seed (fixed_deal's)
        self.layout = ObservationLayout(self.initial.catalog, self.initial.rules)
        self._deals = random.Random(seed)  # the seeds of the fresh deals, in order

    def new_initial_state(self) -> GranujasState:
        """A game before its first decision: the next deal of the sequence of ``seed``, or the
        deal of ``seed`` with ``fixed_deal``."""
        if self.fixed_deal:
            return GranujasState(self)
        return GranujasState(self, deal=self._deals.getrandbits(63))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict | None = None
    ) -> GranujasObserver:
        """The observer OpenSpiel asks for (observation, or information state with perfect recall)."""
        return GranujasObserver(
            self.layout, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class GranujasState(pyspiel.State):
    """A game in progress; ``engine`` is the :class:`~granujas_env.engine.Game` it wraps."""

    def __init__(
        self, game: GranujasGame, engine: Game | None = None, deal: int | None = None
    ) -> None:
        if engine is not None and engine.config != game.config:
            raise ValueError(f"engine plays {engine.config}, but the game is {game.config}")
        super().__init__(game)
        # None stands for the initial deal (the game of ``deal``, or the game's own of ``seed``),
        # built on first use: OpenSpiel's clone() builds a new initial state, then overwrites these
        # attributes with copy.deepcopy of the original's (for a Game, Game.clone()).
        self._engine = engine
        self._deal = deal
        # player -> (move number, information state key): IS-MCTS asks for the same key up to
        # three times per node visit; the move number changes with every applied action
        self._keys: dict[int, tuple[int, str]] = {}

    @property
    def engine(self) -> Game:
        """The engine game of this state (read it; change it only through ``apply_action``: the
        information state key is cached per move)."""
        if self._engine is None:
            game = self.get_game()
            if self._deal is None:
                self._engine = game.initial.clone()
            else:
                self._engine = Game(game.config, seed=self._deal, catalog=game.initial.catalog)
        return self._engine

    def information_state_key(self, player: int) -> str:
        """``information_state_string(player)``, computed once per move (:func:`infostate_key`)."""
        move = self.move_number()
        cached = self._keys.get(player)
        if cached is None or cached[0] != move:
            cached = self._keys[player] = (
                move,
                infostate_key(self.get_game().layout, self.engine, player),
            )
        return cached[1]

    def current_player(self) -> int:
        """Seat that decides now, or ``pyspiel.PlayerId.TERMINAL``."""
        engine = self.engine
        return pyspiel.PlayerId.TERMINAL if engine.game_over else engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.engine.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return A.describe(action)

    def is_terminal(self) -> bool:
        return self.engine.game_over

    def returns(self) -> list[float]:
        return self.engine.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GranujasState:
        """A state ``player_id`` cannot tell from this one: the same history, its hidden
        information redrawn (:func:`granujas_env.determinize.sample_hidden`) with a generator
        seeded from ``probability_sampler`` (a callable giving floats in [0, 1))."""
        seed = int(probability_sampler() * 2**32) << 32 | int(probability_sampler() * 2**32)
        state = self.clone()
        resample_hidden(state.engine, player_id, random.Random(seed))
        state._keys = {}  # other players' keys may have changed
        return state

    def __str__(self) -> str:
        """The table as every seat sees it (debug text: hands, face-down values, seen Safes)."""
        engine = self.engine
        return "\n".join(render_text(engine, viewer=seat) for seat in range(engine.num_players))


class RolloutEvaluator(Evaluator):
    """Uniformly random rollouts to the end, played on the engine itself: what OpenSpiel's
    ``mcts.RandomRolloutEvaluator`` computes, without a pyspiel round trip and a numpy draw per
    step (about 4x faster on this game). Usable by ``ISMCTSBot`` and ``MCTSBot``."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        if isinstance(n_rollouts, bool) or not isinstance(n_rollouts, int) or n_rollouts < 1:
            raise ValueError(f"n_rollouts must be an int >= 1, got {n_rollouts!r}")
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state: GranujasState) -> np.ndarray:
        """Mean returns of ``n_rollouts`` random play-outs from ``state`` (left unchanged)."""
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            game = state.engine.clone()
            while not game.game_over:
                game.apply(self._rng.choice(game.legal_actions()))
            total += game.returns()
        return total / self.n_rollouts

    def prior(self, state: GranujasState) -> list[tuple[int, float]]:
        """Equal prior for every legal action."""
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class GranujasObserver:
    """OpenSpiel observer: the seat's observation vector and its seat-view text."""

    def __init__(
        self, layout: ObservationLayout, iig_obs_type: pyspiel.IIGObservationType, params: dict | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if not iig_obs_type.public_info or (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "only a player's own view is provided (public_info=True, private_info="
                f"SINGLE_PLAYER), got public_info={iig_obs_type.public_info}, private_info="
                f"{iig_obs_type.private_info}"
            )
        self.layout = layout
        self.perfect_recall = iig_obs_type.perfect_recall
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {p.name: self.tensor[p.offset : p.offset + p.size] for p in layout.pieces}

    def set_from(self, state: GranujasState, player: int) -> None:
        """Write ``player``'s observation vector into ``tensor``."""
        self.tensor[:] = self.layout.encode(state.engine, player)

    def string_from(self, state: GranujasState, player: int) -> str:
        """Observation: ``player``'s seat view as text (:func:`view_text`). Information state: a
        compact exact key (:func:`infostate_key`)."""
        if self.perfect_recall:
            return state.information_state_key(player)
        return view_text(state.engine, player)


def view_text(game: Game, seat: int) -> str:
    """Canonical text of ``seat``'s :func:`~granujas_env.view.seat_view`, one ``field=value`` line
    per field but the public event log: equal texts, equal views."""
    view = seat_view(game, seat)
    return "\n".join(
        f"{name}={_text(getattr(view, name))}" for name in _field_names(SeatView) if name != "history"
    )


def infostate_key(layout: ObservationLayout, game: Game, seat: int) -> str:
    """``seat``'s information state as a compact exact string: the non-zero entries of its
    observation vector (``index`` for 1, ``index=value`` otherwise), then, when it is deciding,
    the decision's kind, context and legal ids, then the public event log.

    A tree-search key (IS-MCTS looks one up at every node), ~10x cheaper than :func:`view_text`.
    The decision context is part of it because the observation vector does not hold all of it
    (e.g. the half chosen in a swap), and legal ids must be equal within one information state.
    """
    obs = layout.encode(game, seat)
    index = np.flatnonzero(obs)
    values = obs[index]
    ones = values == 1.0
    parts = [",".join(map(str, index[ones].tolist()))]
    parts.append(",".join(f"{i}={v!r}" for i, v in zip(index[~ones].tolist(), values[~ones].tolist())))
    frame = game.decision
    if frame is not None and frame.player == seat:
        parts.append(f"{frame.kind} {sorted(frame.data.items())!r} {game.legal_actions()!r}")
    parts.append(repr([e for e in game.history if e and e[0] in PUBLIC_EVENTS]))
    return "|".join(parts)


_PLAIN = (int, str, float, bool, type(None))
_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.repr)
    return names


def _text(value: Any) -> str:
    if isinstance(value, _PLAIN):
        return repr(value)
    if isinstance(value, GranujaView):  # its other fields follow from the catalog
        return f"{value.uid}:{value.occupation_id}/{value.trait_id}"
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, _PLAIN) for v in value):
            return repr(list(value))
        return "[" + ",".join(map(_text, value)) + "]"
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted(map(_text, value))) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_text(k)}:{_text(v)}" for k, v in sorted(value.items(), key=repr)) + "}"
    if dataclasses.is_dataclass(value):  # the view's own records and the engine's Steps
        cls = type(value)
        return "(" + " ".join(f"{n}={_text(getattr(value, n))}" for n in _field_names(cls)) + ")"
    raise TypeError(f"no text form for {type(value).__name__} in a seat view")


pyspiel.register_game(GAME_TYPE, GranujasGame)
