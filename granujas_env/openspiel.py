"""The project's games as OpenSpiel games: ``python_granujas`` and ``python_bang_dice``.

Importing this module registers both (it needs the ``[openspiel]`` extra: ``pip install -e
.[openspiel]``)::

    import pyspiel
    import granujas_env.openspiel  # noqa: F401  (registers "python_granujas", "python_bang_dice")

    game = pyspiel.load_game("python_granujas", {"players": 2, "game_length": "short", "seed": 3})
    bang = pyspiel.load_game("python_bang_dice", {"players": 5, "seed": 3})
    state = game.new_initial_state()  # a fresh deal at every call, the sequence fixed by seed

One implementation serves both games: :class:`SpielGame` (parameters, deals, registration),
:class:`SpielState` (the engine wrapped, information state keys, resampling) and
:class:`SpielObserver` (tensors and strings per player); each game adds only its rules
(:class:`GranujasGame`, :class:`BangDiceGame`). Choices, and why:

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
* **Observations**: a player's tensor is its observation vector (the game's ``ObservationLayout``;
  the observer's ``dict`` holds its named pieces); its observation string is a canonical text of
  its seat view (:func:`view_text`: the same information, with the pending decision's context
  and legal ids when that player is deciding). The information state tensor equals the
  observation tensor: the observation already holds the public record a player needs, and the
  player's private knowledge accumulates in it. The information state string
  (:func:`information_key`) is a compact exact key: the observation vector's entries, the
  decision context and legal ids when deciding, and the public event log, so that two histories
  reaching the same table stay distinct (perfect recall for search trees); IS-MCTS looks it up
  at every node, so it skips the readable text. Strings and tensors are leak-tested like the
  observations (``tests/test_openspiel.py``, ``tests/test_bang_openspiel.py``).
* **IS-MCTS**: ``resample_from_infostate(player, sampler)`` returns a state whose hidden
  information is redrawn (seeded from ``sampler``), so
  ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays the games as they are. Its time goes
  to rollouts: :class:`RolloutEvaluator` plays them on the engine, about 4x faster than
  OpenSpiel's ``mcts.RandomRolloutEvaluator`` (which works too).

**python_granujas** (3000 Granujas, 2-4 players): chance SAMPLED_STOCHASTIC (the engine draws every
chance event, the deal, shuffles under the deck, Apostador's draw, from its own
``random.Random``, seeded when the state is dealt, so a state and its clone stay identical after
the same actions); utility ZERO_SUM, terminal: +1 to the winner and -1/(N-1) to each other
player. Parameters: ``players`` (2-4, default 2), ``game_length`` ("short"/"long"),
``strategy_cards`` (bool), ``seed`` (int, default 0), ``fixed_deal`` (bool, default False).
Actions are the engine's flat ids; the maximum game length is the fuzzer's step bound. Hidden
information is redrawn with :func:`granujas_env.determinize.sample_hidden`.

**python_bang_dice** (Bang! The Dice Game, 3-8 players): chance EXPLICIT_STOCHASTIC. The deal
(roles, characters, and the dice the engine rolls before the first decision) comes from the
engine seeded per initial state; every later die is a **chance node** with six equally likely
outcomes, the faces in :data:`granujas_env.bang_dice.engine.game.FACES` order (``arrow``,
``dynamite``, ``1``, ``2``, ``beer``, ``gatling``): a reroll of three dice is three chance nodes
after the player's action, and the first roll of the next turn five more after the action that
ends a turn. The engine rolls inside ``apply``; the wrapper replays the action on a copy with the
faces chosen so far (the engine's ``set_next_roll`` hook) and a generator that stops the engine
at the die it would roll. At a chance node the tensors describe the table before the pending
roll, and the strings add the action and the faces rolled so far (all public). Utility
GENERAL_SUM, terminal: +1 to every seat of the winning side (eliminated ones included), -1 to
every other (the env's team reward). Parameters: ``players`` (3-8, default 5), ``seed``,
``fixed_deal``. ``resample_from_infostate`` deals the roles a player does not know (neither its
own, the Sheriff's, nor those revealed by eliminations) again among the seats that hold them:
every such assignment agrees with the public history and the table size's role counts.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import numpy as np
import pyspiel
from open_spiel.python.algorithms.mcts import Evaluator

from . import games
from .bang_dice import view as bang_view
from .bang_dice.codecs import LAYOUT as BANG_LAYOUT
from .bang_dice.engine import actions as BA
from .bang_dice.engine.game import FACES, BangConfig, BangGame
from .codecs import ObservationLayout
from .determinize import resample_hidden
from .engine.game import Game, GameConfig
from .fuzz import BANG_STEP_BOUND, step_bound
from .view import PUBLIC_EVENTS, GranujaView, seat_view

__all__ = [
    "BANG_CHANCE_PER_STEP",
    "GAME_TYPE",
    "BangDiceGame",
    "BangDiceState",
    "GranujasGame",
    "GranujasObserver",
    "GranujasState",
    "RolloutEvaluator",
    "SpielGame",
    "SpielObserver",
    "SpielState",
    "information_key",
    "infostate_key",
    "register",
    "resample_roles",
    "view_text",
]


# ---------------------------------------------------------------------- shared machinery
class SpielGame(pyspiel.Game):
    """One game configuration as a pyspiel game: a fresh deal per initial state from the
    sequence of ``seed``, or the one deal of ``seed`` with ``fixed_deal`` (module docstring).

    A game names its :mod:`granujas_env.games` spec (``GAME_NAME``: players, configuration,
    seat views, action names, rendering come from it; the pyspiel name is ``python_`` and
    ``GAME_NAME`` with ``_`` for ``-``) and adds what OpenSpiel needs besides: a long name,
    chance (``CHANCE_OUTCOMES``: 0 for a sampled-stochastic engine, else explicit chance
    nodes with that many outcomes), utility, parameters (``DEFAULTS``, ``seed`` and ``fixed_deal`` among
    them), its :class:`SpielState` class, where its engine keeps its event log (``LOG``) and
    which events are public, how hidden information is redrawn (``RESAMPLE(engine, seat,
    rng)``), and the methods that raise NotImplementedError. :func:`register` registers it.
    """

    GAME_NAME: ClassVar[str]
    LONG_NAME: ClassVar[str]
    UTILITY: ClassVar[pyspiel.GameType.Utility]
    CHANCE_OUTCOMES: ClassVar[int] = 0  # 0: the engine samples chance itself
    DEFAULTS: ClassVar[dict[str, Any]]
    STATE: ClassVar[type[SpielState]]
    LOG: ClassVar[str]
    PUBLIC_EVENTS: ClassVar[frozenset[str]]
    RESAMPLE: ClassVar[Callable[[Any, int, random.Random], None]]
    GAME_TYPE: ClassVar[pyspiel.GameType]  # set by register()

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**self.DEFAULTS, **(params or {})}
        unknown = sorted(set(params) - set(self.DEFAULTS))
        if unknown:
            raise ValueError(f"unknown parameters {unknown}; allowed: {sorted(self.DEFAULTS)}")
        seed = params["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an int, got {seed!r}")
        if not isinstance(params["fixed_deal"], bool):
            raise ValueError(f"fixed_deal must be a bool, got {params['fixed_deal']!r}")
        self.spec = games.get(self.GAME_NAME)
        options = {k: v for k, v in params.items() if k not in ("players", "seed", "fixed_deal")}
        self.config = self.spec.make_config(params["players"], **options)
        n = self.config.num_players
        low, high, total = self.utilities(n)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.num_actions,
            max_chance_outcomes=self.CHANCE_OUTCOMES,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=self.max_length(self.config),
        )
        super().__init__(self.GAME_TYPE, info, params)
        self.fixed_deal = params["fixed_deal"]
        self.initial = self.deal(seed)  # the deal of seed (fixed_deal's)
        self.layout = self.make_layout()
        self._deals = random.Random(seed)  # the seeds of the fresh deals, in order

    # ------------------------------------------------------------------ the game's rules
    def utilities(self, num_players: int) -> tuple[float, float, float | None]:
        """Least and greatest return of a player, and the sum of the returns (None: varies)."""
        raise NotImplementedError

    def max_length(self, config: Any) -> int:
        """The most actions of one game of ``config`` (chance outcomes included)."""
        raise NotImplementedError

    def make_layout(self) -> Any:
        """The observation layout (``size``, ``pieces``, ``encode(game, seat)``)."""
        raise NotImplementedError

    def deal(self, seed: int) -> Any:
        """A new engine game of ``self.config`` dealt by ``seed``."""
        return self.spec.new_game(self.config, seed)

    def initial_engine(self) -> Any:
        """A copy of the deal of ``seed`` (``fixed_deal``'s)."""
        return self.initial.clone()

    def view_text(self, engine: Any, seat: int) -> str:
        """``seat``'s observation string of ``engine`` (:func:`view_text`)."""
        return view_text(engine, seat, self.spec.seat_view)

    def public_log(self, engine: Any) -> list[tuple]:
        """The public events of ``engine``, in order (part of the information state key)."""
        public = self.PUBLIC_EVENTS
        return [e for e in getattr(engine, self.LOG) if e and e[0] in public]

    # ------------------------------------------------------------------ pyspiel API
    def new_initial_state(self) -> SpielState:
        """A game before its first decision: the next deal of the sequence of ``seed``, or the
        deal of ``seed`` with ``fixed_deal``."""
        if self.fixed_deal:
            return self.STATE(self)
        return self.STATE(self, deal=self._deals.getrandbits(63))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict | None = None
    ) -> SpielObserver:
        """The observer OpenSpiel asks for (observation, or information state with perfect recall)."""
        return SpielObserver(
            self.layout, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class SpielState(pyspiel.State):
    """A game in progress; ``engine`` is the engine game it wraps."""

    def __init__(self, game: SpielGame, engine: Any = None, deal: int | None = None) -> None:
        if engine is not None and engine.config != game.config:
            raise ValueError(f"engine plays {engine.config}, but the game is {game.config}")
        super().__init__(game)
        # None stands for the initial deal (the game of ``deal``, or the game's own of ``seed``),
        # built on first use: OpenSpiel's clone() builds a new initial state, then overwrites these
        # attributes with copy.deepcopy of the original's.
        self._engine = engine
        self._deal = deal
        # player -> (move number, information state key): IS-MCTS asks for the same key up to
        # three times per node visit; the move number changes with every applied action
        self._keys: dict[int, tuple[int, str]] = {}

    @property
    def engine(self) -> Any:
        """The engine game of this state (read it; change it only through ``apply_action``: the
        information state key is cached per move)."""
        if self._engine is None:
            game = self.get_game()
            self._engine = game.initial_engine() if self._deal is None else game.deal(self._deal)
        return self._engine

    def pending_text(self) -> str:
        """What the engine does not show yet (a game with chance nodes: the roll under way)."""
        return ""

    def observation_text(self, player: int) -> str:
        """``player``'s observation string (:func:`view_text` and :meth:`pending_text`)."""
        return self.get_game().view_text(self.engine, player) + self.pending_text()

    def information_state_key(self, player: int) -> str:
        """``information_state_string(player)``, computed once per move (:func:`information_key`)."""
        move = self.move_number()
        cached = self._keys.get(player)
        if cached is None or cached[0] != move:
            game = self.get_game()
            key = information_key(game.layout, self.engine, player, game.public_log(self.engine))
            cached = self._keys[player] = (move, key + self.pending_text())
        return cached[1]

    def current_player(self) -> int:
        """Seat that decides now, or ``pyspiel.PlayerId.TERMINAL``."""
        frame = self.engine.decision
        return pyspiel.PlayerId.TERMINAL if frame is None else frame.player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.engine.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.get_game().spec.describe(action)

    def is_terminal(self) -> bool:
        return self.engine.game_over

    def returns(self) -> list[float]:
        return self.engine.returns()

    def rollout_engine(self, rng: random.Random) -> Any:
        """An engine copy to play a random rollout on from here (``rng``: the rollout's draws)."""
        return self.engine.clone()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state ``player_id`` cannot tell from this one: the same history, its hidden
        information redrawn (the game's ``resample``) with a generator seeded from
        ``probability_sampler`` (a callable giving floats in [0, 1))."""
        seed = int(probability_sampler() * 2**32) << 32 | int(probability_sampler() * 2**32)
        state = self.clone()
        self.get_game().RESAMPLE(state.engine, player_id, random.Random(seed))
        state._keys = {}  # other players' keys may have changed
        return state

    def __str__(self) -> str:
        """The table as every seat sees it (debug text: each seat's private information too)."""
        engine, spec = self.engine, self.get_game().spec
        return "\n".join(spec.render(engine, seat) for seat in range(engine.num_players))


class RolloutEvaluator(Evaluator):
    """Uniformly random rollouts to the end, played on the engine itself: what OpenSpiel's
    ``mcts.RandomRolloutEvaluator`` computes, without a pyspiel round trip and a numpy draw per
    step (about 4x faster). Usable by ``ISMCTSBot`` and ``MCTSBot`` on both games."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        if isinstance(n_rollouts, bool) or not isinstance(n_rollouts, int) or n_rollouts < 1:
            raise ValueError(f"n_rollouts must be an int >= 1, got {n_rollouts!r}")
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state: SpielState) -> np.ndarray:
        """Mean returns of ``n_rollouts`` random play-outs from ``state`` (left unchanged)."""
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            game = state.rollout_engine(self._rng)
            while not game.game_over:
                game.apply(self._rng.choice(game.legal_actions()))
            total += game.returns()
        return total / self.n_rollouts

    def prior(self, state: SpielState) -> list[tuple[int, float]]:
        """Equal prior for every legal action."""
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class SpielObserver:
    """OpenSpiel observer: the seat's observation vector and its seat-view text."""

    def __init__(self, layout: Any, iig_obs_type: pyspiel.IIGObservationType, params: dict | None) -> None:
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

    def set_from(self, state: SpielState, player: int) -> None:
        """Write ``player``'s observation vector into ``tensor``."""
        self.tensor[:] = self.layout.encode(state.engine, player)

    def string_from(self, state: SpielState, player: int) -> str:
        """Observation: ``player``'s seat view as text (:func:`view_text`). Information state: a
        compact exact key (:func:`information_key`)."""
        if self.perfect_recall:
            return state.information_state_key(player)
        return state.observation_text(player)


GranujasObserver = SpielObserver  # the name of earlier releases


def information_key(layout: Any, game: Any, seat: int, public_log: Iterable[tuple]) -> str:
    """``seat``'s information state as a compact exact string: the non-zero entries of its
    observation vector (``index`` for 1, ``index=value`` otherwise), then, when it is deciding,
    the decision's kind, context and legal ids, then the public event log.

    A tree-search key (IS-MCTS looks one up at every node), ~10x cheaper than :func:`view_text`.
    The decision context is part of it because the observation vector does not hold all of it
    (e.g. granujas' half chosen in a swap), and legal ids must be equal within one information
    state.
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
    parts.append(repr(list(public_log)))
    return "|".join(parts)


def infostate_key(layout: ObservationLayout, game: Game, seat: int) -> str:
    """A granujas game's :func:`information_key` (public events: :data:`granujas_env.view.PUBLIC_EVENTS`)."""
    return information_key(layout, game, seat, [e for e in game.history if e and e[0] in PUBLIC_EVENTS])


def view_text(game: Any, seat: int, view: Callable[[Any, int], Any] = seat_view) -> str:
    """Canonical text of ``seat``'s seat view (``view``: the game's ``seat_view``, granujas' by
    default), one ``field=value`` line per field but the public event log: equal texts, equal
    views."""
    shown = view(game, seat)
    return "\n".join(
        f"{name}={_text(getattr(shown, name))}"
        for name in _field_names(type(shown))
        if name not in _LOG_FIELDS
    )


_LOG_FIELDS = frozenset({"history", "events"})  # the public event logs of SeatView and BangView
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
    if dataclasses.is_dataclass(value):  # the views' own records and the engine's Steps
        cls = type(value)
        return "(" + " ".join(f"{n}={_text(getattr(value, n))}" for n in _field_names(cls)) + ")"
    raise TypeError(f"no text form for {type(value).__name__} in a seat view")


def register(cls: type[SpielGame]) -> pyspiel.GameType:
    """Describe ``cls`` to OpenSpiel (its ``GAME_TYPE``, from its attributes and spec) and
    register it; returns the game type."""
    players = games.get(cls.GAME_NAME).players
    chance = pyspiel.GameType.ChanceMode
    cls.GAME_TYPE = pyspiel.GameType(
        short_name="python_" + cls.GAME_NAME.replace("-", "_"),
        long_name=cls.LONG_NAME,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if cls.CHANCE_OUTCOMES else chance.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=cls.UTILITY,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[-1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(cls.DEFAULTS),
    )
    pyspiel.register_game(cls.GAME_TYPE, cls)
    return cls.GAME_TYPE


# ---------------------------------------------------------------------- 3000 Granujas
class GranujasState(SpielState):
    """A granujas game in progress; ``engine`` is the :class:`~granujas_env.engine.Game` it wraps."""


class GranujasGame(SpielGame):
    """3000 Granujas as a pyspiel game (module docstring)."""

    GAME_NAME = "granujas"
    LONG_NAME = "3000 Granujas (granujas_env)"
    UTILITY = pyspiel.GameType.Utility.ZERO_SUM
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "players": 2,
        "game_length": "short",
        "strategy_cards": False,
        "seed": 0,
        "fixed_deal": False,
    }
    STATE = GranujasState
    LOG = "history"
    PUBLIC_EVENTS = PUBLIC_EVENTS
    RESAMPLE = staticmethod(resample_hidden)

    def utilities(self, num_players: int) -> tuple[float, float, float]:
        return -1.0 / (num_players - 1), 1.0, 0.0

    def max_length(self, config: GameConfig) -> int:
        return step_bound(config)

    def deal(self, seed: int) -> Game:
        first = getattr(self, "initial", None)  # the deals after the first share its catalog
        return Game(self.config, seed=seed, catalog=None if first is None else first.catalog)

    def make_layout(self) -> ObservationLayout:
        return ObservationLayout(self.initial.catalog, self.initial.rules)


# ---------------------------------------------------------------------- Bang! The Dice Game
class _DieNeeded(Exception):
    """The engine is about to roll a die whose face no chance node has chosen yet."""


class _NoDice(random.Random):
    """The generator of a wrapped Bang! engine: it draws nothing, it stops the engine at the die
    it would roll (:class:`_DieNeeded`), where the state becomes a chance node."""

    def random(self) -> float:
        raise _DieNeeded

    def getrandbits(self, k: int) -> int:
        raise _DieNeeded

    def __deepcopy__(self, memo: dict) -> _NoDice:
        return self  # stateless: one instance serves every engine

    def __reduce__(self) -> str:
        return "_NO_DICE"  # pickles as the module's instance


_NO_DICE = _NoDice(0)
#: dice per decision in ``max_game_length``: a decision's action can roll up to 5 dice, then the
#: next turns' first rolls (turns without a decision chain them); 15 in a row at most in 300
#: random games, whose longest was 451 actions, dice included
BANG_CHANCE_PER_STEP = 15


def resample_roles(game: BangGame, seat: int, rng: random.Random) -> None:
    """Deal again, in place, the roles ``seat`` does not know among the seats that hold them
    (uniformly: every such assignment agrees with the public history: the Sheriff and the
    eliminated are shown, the table size fixes the counts, and a game that goes on has the same
    living roles). ``game.seed`` becomes None: it would tell the true deal."""
    n = game.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"seat must be an int in 0..{n - 1}, got {seat!r}")
    hidden = [s for s, role in enumerate(bang_view.known_roles(game, seat)) if role is None]
    roles = sorted(game.roles[s] for s in hidden)  # sorted: the true order must not shape the draw
    rng.shuffle(roles)
    for s, role in zip(hidden, roles):
        game.roles[s] = role
    game.seed = None


class BangDiceState(SpielState):
    """A Bang! game in progress: ``engine`` is the :class:`BangGame` as of the last decision;
    at a chance node ``rolling`` is the action being played and the faces chosen so far."""

    def __init__(self, game: BangDiceGame, engine: BangGame | None = None, deal: int | None = None) -> None:
        super().__init__(game, engine, deal)
        self.rolling: tuple[int, tuple[str, ...]] | None = None

    def _play(self, action: int | None, faces: tuple[str, ...], dice: random.Random) -> BangGame | None:
        """The engine after ``action`` (None: none) with the dice ``faces`` first, then ``dice``;
        None when ``dice`` is :data:`_NO_DICE` and one more die is needed."""
        game = self.engine.clone()
        game.rng = dice
        game.set_next_roll(list(faces))
        try:
            if action is not None:
                game.apply(action)
        except _DieNeeded:
            return None
        return game

    def current_player(self) -> int:
        """Seat that decides now, ``pyspiel.PlayerId.CHANCE`` during a roll, or ``TERMINAL``."""
        if self.rolling is not None:
            return pyspiel.PlayerId.CHANCE
        return super().current_player()

    def is_terminal(self) -> bool:
        return self.rolling is None and self.engine.game_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next die's six faces (index in ``FACES``), equally likely."""
        return [(face, 1.0 / len(FACES)) for face in range(len(FACES))]

    def _legal_actions(self, player: int) -> list[int]:
        if self.rolling is not None:
            return list(range(len(FACES)))
        return list(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        action = int(action)
        if self.rolling is None:
            move, faces = action, ()
        else:
            if not 0 <= action < len(FACES):
                raise ValueError(f"a die's outcome is a face index 0..{len(FACES) - 1}, got {action}")
            move, faces = self.rolling[0], (*self.rolling[1], FACES[action])
        after = self._play(move, faces, _NO_DICE)
        if after is None:
            self.rolling = (move, faces)
        else:
            self._engine, self.rolling = after, None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"die shows {FACES[action]}"
        return super()._action_to_string(player, action)

    def pending_text(self) -> str:
        if self.rolling is None:
            return ""
        move, faces = self.rolling
        return f"\nrolling after {BA.describe(move)!r}: {list(faces)!r}"

    def rollout_engine(self, rng: random.Random) -> BangGame:
        move, faces = self.rolling or (None, ())
        game = self._play(move, faces, random.Random(rng.getrandbits(64)))
        assert game is not None  # a real generator rolls every die
        return game


class BangDiceGame(SpielGame):
    """Bang! The Dice Game as a pyspiel game with chance nodes for the dice (module docstring)."""

    GAME_NAME = "bang-dice"
    LONG_NAME = "Bang! The Dice Game (granujas_env)"
    CHANCE_OUTCOMES = len(FACES)  # explicit chance nodes: a die's faces
    UTILITY = pyspiel.GameType.Utility.GENERAL_SUM
    DEFAULTS: ClassVar[dict[str, Any]] = {"players": 5, "seed": 0, "fixed_deal": False}
    STATE = BangDiceState
    LOG = "events"
    PUBLIC_EVENTS = bang_view.PUBLIC_EVENTS
    RESAMPLE = staticmethod(resample_roles)

    def utilities(self, num_players: int) -> tuple[float, float, None]:
        return -1.0, 1.0, None  # the team outcome: +1 to the winning side, -1 to the others

    def max_length(self, config: BangConfig) -> int:
        return BANG_STEP_BOUND * (1 + BANG_CHANCE_PER_STEP)

    def deal(self, seed: int) -> BangGame:
        game = super().deal(seed)
        game.rng = _NO_DICE  # every later die is a chance node
        return game

    def initial_engine(self) -> BangGame:
        game = self.initial.clone()
        game.rng = _NO_DICE
        return game

    def make_layout(self) -> Any:
        return BANG_LAYOUT


GAME_TYPE = register(GranujasGame)  # the name of earlier releases
register(BangDiceGame)
