"""Single-seat Gymnasium view of a game's AEC env (granujas, or any game of
:mod:`granujas_env.games` with ``game=``), for MaskablePPO.

The learner holds one seat; the other seats are played *inside* :meth:`SingleSeatEnv.step` by bots
or frozen checkpoints drawn from an opponent pool, and so are the learner's own decisions of kinds
it does not control (played by a ``delegate`` bot). Every reward the learner's seat earns while
others decide is summed and delivered with its next step, or at the end of the game: PettingZoo's
SB3 action-masking tutorial wrapper returns only the mover's reward and so loses exactly the
bluffing signal (a bluff caught on a rival's turn or at the end of the day, a rival's steal).

    from train.single_seat import SingleSeatEnv
    env = SingleSeatEnv(num_players=4, decisions="bluff", opponents=["heuristic"], delegate="heuristic")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.action_masks().nonzero()[0][0])

* ``observation_space`` is the AEC env's flat float32 observation ``Box``; ``action_space`` its
  ``Discrete(N)``; :meth:`SingleSeatEnv.action_masks` the legal ids of the learner's pending
  decision (what sb3-contrib's ``MaskablePPO`` asks every env for, through ``SubprocVecEnv`` too).
* ``decisions``: the decision kinds the learner controls: a mode name of
  :data:`agents.decisions.MODES` (``"bluff"``: the Plan and challenges; ``"safe"``:
  peek/mark/steal/abandon/bribe; ``"full"``: every kind) or an explicit set of kinds.
* Opponents: a pool of *specs* (anything :func:`agents.policy.make_bot` accepts), one drawn per
  opponent seat and episode: a registered bot name, an import path ``module:attribute``, a shipped
  model name or a saved model ``.zip`` (a frozen checkpoint played by
  :class:`agents.policy.PolicyAgent`), an :class:`agents.Agent`, or any callable
  ``(observation, view) -> action``. :meth:`SingleSeatEnv.add_opponent` grows the pool while
  training (the league; call it through ``VecEnv.env_method``). ``opponents_by_players`` gives
  games of some player counts a pool of their own (e.g. exploiters in 2-player games, a table of
  sound players in 4-player ones); the others draw from ``opponents``. A frozen model's decisions are
  yielded by the generators :meth:`SingleSeatEnv.step_requests` / ``reset_requests`` (which
  ``step`` / ``reset`` answer one by one), so that :class:`train.vec.BatchedOpponentsVecEnv`
  answers those of several envs with one forward pass.
* Seat: ``seat=None`` rotates the learner's seat every episode (each env starts at its own
  offset), an int fixes it.
* ``reward``: the AEC env's terminal reward, ``"win"`` (+1 / -1/(N-1)) or ``"score"`` (score
  margin against the best rival, normalised). ``shaping`` (default 0) adds potential-based shaping
  ``shaping * (phi(s') - phi(s))`` with ``phi`` = the game spec's ``potential`` (granujas: the
  learner's current score margin, tech held now: Safes + matching Marks + reputation square +
  Granujas, against the best rival, scaled by the rules' score scale; Bang!: its side's life minus
  the others', over the table's starting life) and ``phi(end) = 0``, so it changes no optimal policy (Ng et al., 1999) but
  tells the learner at once that a caught bluff cost it reputation.

* ``illegal_reward``: None (default) makes :meth:`SingleSeatEnv.step` raise ``IllegalActionError``
  for an id the pending decision does not allow (MaskablePPO never sends one: an illegal id is a
  bug); a number ends the episode instead (``terminated``, that reward plus what the seat had
  pending, ``info["illegal_action"]`` = the id), PettingZoo's ``TerminateIllegalWrapper`` way.
  Checkers that step unmasked ``action_space.sample()`` ids need it: Gymnasium's and SB3's
  ``check_env`` pass on ``SingleSeatEnv(..., illegal_reward=-1.0)``.

Other games (``game="bang-dice"``, Bang! The Dice Game): the env is the game's own AEC env
(``spec.raw_env``), the bots are the game's (names of its registry, or its models), the learner
controls every decision kind (``decisions`` ``"full"`` or a set of the game's kinds), the seat
rotation cycles through ``spec.tools["seat_cycle"]`` seats (840 = lcm(3..8) for Bang!, so a
rotation covers every seat at every table size; granujas keeps 12 = lcm(2, 3, 4)) and the roles
come with each game's deal. The reward is the game's terminal one (Bang!: ``"team"``, +1 to every
seat of the winning side, -1 to the others), ``shaping`` its team-life potential. **A
learner eliminated before the end** (Bang!) has no decision left: the step in which it is
eliminated plays the rest of the game with the opponents and ends the episode with its side's
outcome (``terminated``, the team reward), so a dead Deputy whose Sheriff wins still gets +1 and
no no-op steps enter the rollouts. ``info`` at the end has ``won`` (its side won), ``score``
(the reward, +1/-1), ``winners`` (the seats of the winning side), ``role`` and ``alive``.

A game in which the learner never gets a decision of its kinds (possible in ``"safe"`` mode: no
peek, steal or Sheriff's Office for that seat) is skipped inside :meth:`reset`: an episode without
an action cannot be expressed in Gymnasium (its reward carries no signal for the learner's
choices anyway).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from functools import partial
from typing import Any, TypeVar

import gymnasium
import numpy as np

from agents.advice import advised_vector
from agents.base import LazyObservation
from agents.policy import PolicyAgent, all_decisions, game_decisions, make_bot
from agents.registry import ask
from granujas_env import games
from granujas_env.env import raw_env
from granujas_env.view import DecisionViews

__all__ = ["SingleSeatEnv", "PolicyRequest", "answer_serially"]

MAX_SKIPPED_GAMES = 100  # reset() gives up after this many games without a learner decision

# a frozen model's pending decision: (agent, observation, view), as agents.policy.act_together takes
PolicyRequest = tuple[PolicyAgent, LazyObservation, Any]
T = TypeVar("T")


def lazy_observation(
    env: Any, agent: str, legal: Sequence[int], num_actions: int
) -> LazyObservation:
    """The observation dict of ``agent`` of the AEC ``env``, whose legal ids are ``legal`` among
    ``num_actions``, encoded only when read (see :class:`agents.base.LazyObservation`)."""
    return LazyObservation(legal, num_actions, partial(_observed, env, agent))


def _observed(env: Any, agent: str) -> np.ndarray:
    """The observation vector of ``agent`` of the AEC ``env``."""
    return env.observe(agent)["observation"]


def answer_serially(requests: Generator[PolicyRequest, int, T]) -> T:
    """Run ``requests`` (:meth:`SingleSeatEnv.step_requests` or ``reset_requests``) to its end,
    answering each frozen-model decision with the agent's own ``act``; returns its result."""
    try:
        agent, observation, view = next(requests)
        while True:
            agent, observation, view = requests.send(agent.act(observation, view=view))
    except StopIteration as finished:
        return finished.value


def _grown(
    specs: list[Any], weights: list[float] | None, spec: Any, weight: float | None
) -> list[float] | None:
    """Append ``spec`` to ``specs``; returns the pool's weights (None while uniform)."""
    specs.append(spec)
    if weights is not None:
        return [*weights, 1.0 if weight is None else float(weight)]
    if weight is not None:
        return [1.0] * (len(specs) - 1) + [float(weight)]
    return None


def _spec_key(spec: Any) -> Any:
    return spec if isinstance(spec, str) else id(spec)


class EnvViews:
    """:class:`granujas_env.view.DecisionViews` for another game's AEC env: the seat views of
    the pending decision (``env.seat_view``), built on first use and shared until
    :meth:`expire`."""

    __slots__ = ("env", "_views")

    def __init__(self, env: Any) -> None:
        self.env = env
        self._views: dict[int, Any] = {}

    def __call__(self, seat: int) -> Any:
        """The view of ``seat`` at the pending decision."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.env.seat_view(self.env.possible_agents[seat])
        return view

    def expire(self) -> None:
        """The game is about to move: the next call builds new views."""
        self._views.clear()


class SingleSeatEnv(gymnasium.Env):
    """One seat of a game (granujas by default) as a Gymnasium env (see the module docstring).

    Args:
        num_players: players per game; a sequence (e.g. ``(2, 3, 4)``) draws one per episode.
        game_length: ``"short"`` or ``"long"``.
        decisions: mode name (``bluff``/``safe``/``full``) or set of decision kinds the learner controls.
        opponents: the opponent pool (specs, see the module docstring); default: the heuristic.
        opponent_weights: sampling weights of the pool entries (default uniform).
        opponents_by_players: ``{player count: specs}``, the pool of the games of that many
            players instead of ``opponents`` (uniform weights); counts must be in ``num_players``.
        delegate: spec of the bot that plays the learner's other decisions (default: the heuristic).
        seat: the learner's seat; None rotates it per episode.
        reward: ``"win"`` or ``"score"`` (the AEC env's terminal reward); None: ``"win"``
            (granujas), the game's first reward mode otherwise (Bang!: ``"team"``).
        shaping: coefficient of the potential-based shaping on the game's ``potential`` (0 = off).
        seed: seeds the deals, the seat rotation start, the pool draws and the bots.
        advisor: spec of a bot whose recommended action is appended to the learner's observation
            as a one-hot (:mod:`agents.advice`); None (default) appends nothing.
        env_fn: ``env_fn(num_players) -> raw_env``-like AEC env (tests use it to inject rewards).
        env_kwargs: extra keyword arguments of ``granujas_env.raw_env``.
        illegal_reward: None: an illegal id raises; a number: it ends the episode with that
            reward (see the module docstring).
        game: the game's name in :mod:`granujas_env.games` (default granujas).
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        num_players: int | Sequence[int] = 4,
        game_length: str = "short",
        decisions: str | Iterable[str] | None = "full",
        opponents: Sequence[Any] | None = None,
        opponent_weights: Sequence[float] | None = None,
        opponents_by_players: Mapping[int, Sequence[Any]] | None = None,
        delegate: Any = None,
        seat: int | None = None,
        reward: str | None = None,
        shaping: float = 0.0,
        seed: int | None = None,
        env_fn: Callable[[int], Any] | None = None,
        env_kwargs: Mapping[str, Any] | None = None,
        advisor: Any = None,
        illegal_reward: float | None = None,
        game: str = games.DEFAULT_GAME,
    ) -> None:
        super().__init__()
        self.player_counts = (num_players,) if isinstance(num_players, int) else tuple(num_players)
        if not self.player_counts:
            raise ValueError("num_players must name at least one player count")
        self.game_spec = games.get(game)
        self.game_name = game
        self._granujas = game == games.DEFAULT_GAME
        if not self._granujas:
            bad = [n for n in self.player_counts if n not in self.game_spec.players]
            if bad:
                allowed = self.game_spec.players
                raise ValueError(
                    f"{game} is played by {allowed.start}..{allowed.stop - 1} players, got {bad}"
                )
        self._all_decisions = all_decisions(game)
        self.decisions = game_decisions(decisions, game)
        self.game_length = game_length
        if reward is None:
            reward = "win" if self._granujas else self.game_spec.reward_modes[0]
        self.reward_mode = reward
        self.shaping = float(shaping)
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self._ended_illegally = False  # the episode was ended by an illegal id (illegal_reward)
        self.fixed_seat = seat
        self._env_fn = env_fn
        self._env_kwargs = dict(env_kwargs or {})
        self._envs: dict[int, Any] = {}
        for n in self.player_counts:
            if seat is not None and not 0 <= seat < n:
                raise ValueError(f"seat {seat} does not exist with {n} players")
            self._get_env(n)
        first = self._envs[self.player_counts[0]]
        agent0 = first.possible_agents[0]
        self.observation_space = first.observation_space(agent0)["observation"]
        self.action_space = first.action_space(agent0)
        self.advisor_spec = advisor
        if advisor is not None:
            base, n = self.observation_space, self.action_space.n
            self.observation_space = gymnasium.spaces.Box(
                low=np.concatenate([base.low, np.zeros(n, dtype=base.dtype)]),
                high=np.concatenate([base.high, np.ones(n, dtype=base.dtype)]),
                dtype=base.dtype,
            )
        self.advice: int | None = None  # the advisor's action at the learner's pending decision
        default_bot = self.game_spec.tools["default_bot"]
        self.pool: list[Any] = list(opponents) if opponents else [default_bot]
        self.pool_weights: list[float] | None = (
            [float(w) for w in opponent_weights] if opponent_weights is not None else None
        )
        if self.pool_weights is not None and len(self.pool_weights) != len(self.pool):
            raise ValueError("opponent_weights must have one weight per opponent")
        self.pools_by_players = self._checked_pools(
            {n: (specs, None) for n, specs in (opponents_by_players or {}).items()}
        )
        self.delegate_spec = delegate if delegate is not None else default_bot
        self._rng = random.Random(seed)
        self.seat_cycle = int(self.game_spec.tools["seat_cycle"])
        self._seat_cursor = self._rng.randrange(self.seat_cycle) if seed is not None else 0
        self._bots: dict[Any, Any] = {}
        self._delegate: Any = None
        self._advisor: Any = None
        self.env: Any = None
        self.game: Any = None
        self._views: Any = None  # DecisionViews of the game in progress
        self.seat = 0
        self.agent = ""
        self.opponents: list[Any] = []  # per seat: the bot (None at the learner's seat)
        self._deciders: list[tuple[Any, bool, bool]] = []  # per seat, see _start_game
        self.opponent_specs: list[Any] = []
        self._pending = 0.0  # rewards of the learner's seat not yet delivered
        self._phi = 0.0
        self.episode_reward = 0.0  # everything delivered this episode
        self.env_steps = 0  # AEC steps this episode (all seats)
        self.learner_steps = 0
        self.forced_steps = 0  # AEC steps with a single legal action, played without asking a bot

    # ------------------------------------------------------------------ pool
    def add_opponent(self, spec: Any, weight: float | None = None) -> int:
        """Add ``spec`` to the opponent pool and to every per-player-count pool (e.g. a new
        checkpoint path); returns the size of the main pool."""
        self.pool_weights = _grown(self.pool, self.pool_weights, spec, weight)
        for n, (specs, weights) in self.pools_by_players.items():
            self.pools_by_players[n] = (specs, _grown(specs, weights, spec, weight))
        return len(self.pool)

    def set_opponents(
        self,
        specs: Sequence[Any],
        weights: Sequence[float] | None = None,
        by_players: Mapping[int, tuple[Sequence[Any], Sequence[float] | None]] | None = None,
    ) -> None:
        """Replace the opponent pool, and the per-player-count pools with ``by_players``
        (``{count: (specs, weights or None)}``; None: every game draws from ``specs``)."""
        pools_by_players = self._checked_pools(by_players or {})
        self.pool = list(specs)
        self.pool_weights = None if weights is None else [float(w) for w in weights]
        self.pools_by_players = pools_by_players

    def _checked_pools(
        self, pools: Mapping[int, tuple[Sequence[Any], Sequence[float] | None]]
    ) -> dict[int, tuple[list[Any], list[float] | None]]:
        """``pools`` as lists, checked against the env's player counts (ValueError)."""
        checked: dict[int, tuple[list[Any], list[float] | None]] = {}
        for n, (specs, weights) in pools.items():
            if n not in self.player_counts:
                raise ValueError(
                    f"a pool for {n}-player games, but this env plays "
                    f"{', '.join(map(str, self.player_counts))} players"
                )
            if not specs:
                raise ValueError(f"the pool for {n}-player games is empty")
            if weights is not None and len(weights) != len(specs):
                raise ValueError(f"the pool for {n}-player games needs one weight per opponent")
            checked[n] = (list(specs), None if weights is None else [float(w) for w in weights])
        return checked

    def _bot(self, spec: Any, seat: int | str) -> Any:
        # one bot object per (spec, seat): bots may keep per-game state of their own seat
        key = (_spec_key(spec), seat)
        bot = self._bots.get(key)
        if bot is None:
            bot = make_bot(spec, seed=self._rng.getrandbits(31), game=self.game_name)
            self._bots[key] = bot
        return bot

    def _get_env(self, n: int) -> Any:
        env = self._envs.get(n)
        if env is None:
            if self._env_fn is not None:
                env = self._env_fn(n)
            elif not self._granujas:
                env = self.game_spec.raw_env(num_players=n, reward=self.reward_mode, **self._env_kwargs)
            else:
                env = raw_env(
                    num_players=n,
                    game_length=self.game_length,
                    reward=self.reward_mode,
                    **self._env_kwargs,
                )
            self._envs[n] = env
        return env

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        return answer_serially(self.reset_requests(seed=seed, options=options))

    def step(self, action: int):
        return answer_serially(self.step_requests(action))

    def reset_requests(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> Generator[PolicyRequest, int, tuple[np.ndarray, dict[str, Any]]]:
        """:meth:`reset` as a generator: yields each frozen-model decision of the seats played
        before the learner's first one as ``(agent, observation, view)``, takes its action back
        (``send``), and returns what :meth:`reset` returns."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
            self._seat_cursor = seed % self.seat_cycle
            # Start over as a new env would: a bot is built on first use with a seed drawn from
            # the RNG, so bots kept from earlier games would make this reset draw (and deal)
            # otherwise than one that builds them. Models are cached by path: rebuilding is cheap.
            self._bots = {}
        options = options or {}
        for _ in range(MAX_SKIPPED_GAMES):
            self._start_game(options)
            yield from self._advance()
            if not self.game.game_over:
                self._phi = self._potential() if self.shaping else 0.0
                return self._obs(), self._info()
        raise RuntimeError(
            f"{MAX_SKIPPED_GAMES} games in a row gave the learner no decision of kinds "
            f"{sorted(self.decisions)}"
        )

    def step_requests(
        self, action: int
    ) -> Generator[PolicyRequest, int, tuple[np.ndarray, float, bool, bool, dict[str, Any]]]:
        """:meth:`step` as a generator, like :meth:`reset_requests`: a vectorised env drives
        several envs in lock step and answers their frozen models' decisions together
        (:class:`train.vec.BatchedOpponentsVecEnv`)."""
        game = self.game
        if game is None or game.game_over or self._ended_illegally:
            raise RuntimeError("step() after the game ended: call reset()")
        if self.illegal_reward is not None and self._is_illegal_id(action):
            return self._end_illegally(int(action))
        self._step_env(int(action))
        self.learner_steps += 1
        yield from self._advance()
        terminated = bool(game.game_over)
        reward = self._take_reward(terminated)
        return self._obs(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal ids of the learner's pending decision, as a bool vector (all False at the end)."""
        mask = np.zeros(self.action_space.n, dtype=bool)
        if self.game is not None and not self.game.game_over and not self._ended_illegally:
            mask[self.game.legal_actions()] = True
        return mask

    def collect_demonstrations(
        self, samples: int, teacher: Any = None, seed: int | None = None, gamma: float = 0.995
    ) -> dict[str, np.ndarray]:
        """Play whole games in which ``teacher`` (default: the delegate, i.e. the heuristic) takes
        the learner's decisions too, and record them: ``{"obs": float16[k, D], "masks":
        bool[k, N], "actions": int64[k], "returns": float32[k]}`` (``returns``: discounted sum of
        the rewards from that decision on), ``k >= samples`` (the last game is finished).
        Used to warm-start a policy and its value by imitation before PPO
        (``train.train --bc-samples``). With an advisor and no ``teacher``, the advisor teaches:
        the recorded action is the advice in the observation."""
        spec = teacher if teacher is not None else self.delegate_spec
        teacher_bot = (
            None
            if teacher is None and self.advisor_spec is not None
            else self._bot(spec, "teacher")
        )
        obs_list, mask_list, action_list, return_list = [], [], [], []
        first = True
        while len(action_list) < samples:
            obs, _ = self.reset(seed=seed if first else None)
            first = False
            if teacher_bot is not None:
                teacher_bot.reset(seed=self._rng.getrandbits(31))
            done = False
            rewards = []
            while not done:
                mask = self.action_masks()
                if teacher_bot is None:
                    action = int(self.advice)
                else:
                    observation = self.env.observe(self.agent)  # the AEC one, without advice
                    wants = getattr(teacher_bot, "wants_view", True)
                    view = self._views(self.seat) if wants else None  # the advisor's, if any
                    # a search teacher (needs_game) samples what its seat may not know from the game
                    action = ask(teacher_bot, observation, self.env.game, view)
                obs_list.append(obs.astype(np.float16))
                mask_list.append(mask)
                action_list.append(action)
                obs, reward, done, _, _ = self.step(action)
                rewards.append(reward)
            returns, g = [], 0.0
            for reward in reversed(rewards):
                g = reward + gamma * g
                returns.append(g)
            return_list.extend(reversed(returns))
        return {
            "obs": np.stack(obs_list),
            "masks": np.stack(mask_list),
            "actions": np.asarray(action_list, dtype=np.int64),
            "returns": np.asarray(return_list, dtype=np.float32),
        }

    def render(self) -> str | None:
        return None if self.env is None else self.env.render_seat(self.agent)

    # ------------------------------------------------------------------ internals
    def _start_game(self, options: Mapping[str, Any]) -> None:
        n = int(options.get("num_players", self._rng.choice(self.player_counts)))
        self.env = self._get_env(n)
        if "seat" in options:
            self.seat = int(options["seat"])
        elif self.fixed_seat is not None:
            self.seat = self.fixed_seat
        else:
            self.seat = self._seat_cursor % n
            self._seat_cursor += 1
        if "opponents" in options:  # one spec per opponent seat, in seat order
            specs = list(options["opponents"])
        else:
            pool, weights = self.pools_by_players.get(n, (self.pool, self.pool_weights))
            specs = self._rng.choices(pool, weights=weights, k=n - 1)
        if len(specs) != n - 1:
            raise ValueError(f"{n - 1} opponent seats but {len(specs)} opponents")
        self.opponent_specs = specs
        it = iter(specs)
        self.opponents = [None if s == self.seat else self._bot(next(it), s) for s in range(n)]
        self._delegate = (
            None
            if self.decisions >= self._all_decisions
            else self._bot(self.delegate_spec, "delegate")
        )
        self._advisor = (
            self._bot(self.advisor_spec, "advisor") if self.advisor_spec is not None else None
        )
        game_seed = options.get("game_seed", self._rng.getrandbits(63))
        self.env.reset(seed=int(game_seed))
        self.game = self.env.game
        # one (lazy) view per seat and decision, shared
        self._views = DecisionViews(self.game) if self._granujas else EnvViews(self.env)
        self.agent = self.env.possible_agents[self.seat]
        bots = [*self.opponents, self._delegate, self._advisor]
        for bot in {id(b): b for b in bots if b is not None}.values():
            bot.reset(seed=self._rng.getrandbits(31))
        # per seat, the bot that plays the decisions _advance does not leave to the learner:
        # (bot, whether it reads the view, whether it is a frozen model to yield), looked up once
        self._deciders = [
            (bot, getattr(bot, "wants_view", True), isinstance(bot, PolicyAgent))
            for bot in (self._delegate if s == self.seat else self.opponents[s] for s in range(n))
        ]
        self._pending = 0.0
        self._phi = 0.0
        self._ended_illegally = False
        self.episode_reward = 0.0
        self.env_steps = 0
        self.learner_steps = 0
        self.forced_steps = 0

    def _step_env(self, action: int) -> None:
        self._views.expire()
        env = self.env
        env.step(action)
        self.env_steps += 1
        # PettingZoo semantics: env.rewards holds the rewards of the last step, for every agent
        self._pending += float(env.rewards.get(self.agent, 0.0))

    def _advance(self) -> Generator[PolicyRequest, int, None]:
        """Play every decision that is not the learner's until it must decide or the game ends;
        a frozen model's decision is yielded, for the driver to answer (see
        :func:`answer_serially`), every other bot's is taken here."""
        game, env = self.game, self.env
        learner, decisions = self.seat, self.decisions
        num_actions = self.action_space.n
        deciders, views, step = self._deciders, self._views, self._step_env
        while not game.game_over:
            frame = game.decision
            seat = frame.player
            if seat == learner and frame.kind in decisions:
                return
            legal = game.legal_actions()
            if len(legal) == 1:  # a forced move: no bot to ask (every bot would play it)
                self.forced_steps += 1
                step(int(legal[0]))
                continue
            bot, wants_view, frozen = deciders[seat]
            observation = lazy_observation(env, env.agent_selection, legal, num_actions)
            view = views(seat) if wants_view else None
            if frozen:
                action = yield bot, observation, view
            else:
                action = bot.act(observation, view=view)
            step(int(action))

    def _is_illegal_id(self, action: Any) -> bool:
        """Whether ``action`` is an id of the action space that the pending decision does not
        allow (anything that is no such id still goes to the env, which names what is wrong)."""
        if isinstance(action, (bool, np.bool_)):
            return False
        try:
            index = operator.index(action)
        except TypeError:
            return False
        return 0 <= index < self.action_space.n and index not in self.game.legal_actions()

    def _end_illegally(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """End the episode for the illegal id ``action`` (``illegal_reward`` mode); the game is
        left as it was."""
        self._ended_illegally = True
        self.learner_steps += 1
        reward = self._take_reward(True) + self.illegal_reward
        self.episode_reward += self.illegal_reward
        info = self._info()
        info["illegal_action"] = action
        return self._obs(), reward, True, False, info

    def _potential(self) -> float:
        game = self.game
        return 0.0 if game.game_over else self.game_spec.potential(game, self.seat)

    def _take_reward(self, terminated: bool) -> float:
        reward, self._pending = self._pending, 0.0
        if self.shaping:
            phi = 0.0 if terminated else self._potential()
            reward += self.shaping * (phi - self._phi)
            self._phi = phi
        self.episode_reward += reward
        return float(reward)

    def _obs(self) -> np.ndarray:
        observation = self.env.observe(self.agent)
        if self._advisor is None:
            return observation["observation"]
        view = None if self.game.game_over else self._views(self.seat)
        vector, self.advice = advised_vector(self._advisor, observation, view)
        return vector

    def _info(self) -> dict[str, Any]:
        game = self.game
        info: dict[str, Any] = {"seat": self.seat, "num_players": game.num_players}
        if not self._granujas:
            return self._team_info(info)
        if game.game_over:
            info["won"] = int(game.winner == self.seat)
            info["score"] = list(game.scores or [])[self.seat]
            info["scores"] = list(game.scores or [])
            info["winner"] = game.winner
            info["env_steps"] = self.env_steps
            info["learner_steps"] = self.learner_steps
            info["opponents"] = [s if isinstance(s, str) else repr(s) for s in self.opponent_specs]
        else:
            info["decision"] = game.decision.kind
        return info

    def _team_info(self, info: dict[str, Any]) -> dict[str, Any]:
        """:meth:`_info` of a team game: the learner's role; at the end whether its side won,
        its reward, the winning seats and who is alive (see the module docstring)."""
        game = self.game
        info["role"] = game.roles[self.seat]
        outcome = self.game_spec.outcome(game)
        if outcome is None:
            info["decision"] = game.decision.kind
            return info
        returns = outcome.returns()
        info["won"] = int(self.seat in outcome.winners)
        info["score"] = returns[self.seat]
        info["scores"] = returns
        info["winners"] = sorted(outcome.winners)
        info["alive"] = bool(game.alive[self.seat])
        info["env_steps"] = self.env_steps
        info["learner_steps"] = self.learner_steps
        info["opponents"] = [s if isinstance(s, str) else repr(s) for s in self.opponent_specs]
        return info
