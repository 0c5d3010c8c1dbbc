"""Distributed self-play on Ray RLlib for every game: masked PPO with a league of snapshots.

    python -m train.rllib --quick --out runs/rllib-quick          # CI smoke run, < 2 minutes
    python -m train.rllib --players 2 --minutes 10 --env-runners 2 --out runs/rllib
    python -m train.rllib --game bang-dice --players 5 --minutes 10 --out runs/rllib-bang
    ray start --head                                              # on a cluster: the head node
    ray start --address=HEAD:6379                                 # on every worker node
    python -m train.rllib --address auto --env-runners 16 --minutes 60 --out runs/rllib

Ray runs locally by default (``ray.init()`` starts a private instance: nothing to start by
hand); ``--address`` joins a running cluster (every node needs this package installed).

``--game`` names a game of :mod:`granujas_env.games` (default granujas). Bang! The Dice Game
(``bang-dice``): ``--players`` 3..8 (default 5), reward ``team`` (+1 to every seat of the winning
side, eliminated ones included, -1 to the others), its bots by name (``heuristic``, ``random``) or
its models; ``--length`` is granujas' only.

How the AEC game becomes an RLlib multi-agent env (:class:`GranujasMultiAgentEnv`, any game):

* Each episode one seat (rotating) is the learner, RLlib module ``main``. Every other seat draws
  an opponent from ``--opponents``: ``main`` (the same shared policy: plain self-play),
  ``league`` (one of the ``--league-size`` frozen snapshot modules ``league_<k>``, never trained)
  or any bot spec of :func:`agents.policy.make_bot` (``heuristic``, ``random``, a shipped model,
  a ``.zip``...). Bots play *inside* the adapter's step with their seat view, as in
  :class:`train.single_seat.SingleSeatEnv`; only RLlib-played seats appear as RLlib agents,
  with ids ``"<module>@<seat>"`` so the policy mapping is ``agent_id.split("@")[0]``.
* League: the ``league_<k>`` modules start as copies of ``main``'s initial weights; every
  ``--league-every`` iterations the oldest slot gets ``main``'s current weights.
* Observations are ``{"observations": float32[D], "action_mask": float32[N]}``: RLlib's key
  convention (its example ``ActionMaskingTorchRLModule`` reads ``observations``); the env's
  own public format (``observation``/int8 ``action_mask``) is unchanged. The adapter checks
  every action against the mask before the env sees it and raises ``ValueError`` (naming the
  legal ids, state unchanged) otherwise; RLlib's env pre-check, which steps unmasked random
  actions, is switched off. :class:`MaskedActorCritic` adds ``log(mask)`` (clamped) to the
  logits, so sampling never picks an illegal id.
* Rewards are the env's terminal rewards (granujas ``--reward win|score``, Bang! ``team``); a
  reward earned while others decide is held and delivered with the seat's next observation or at
  the end.
* Eliminated players (Bang!) are never asked: an RLlib seat gets an observation only when it
  decides, so RLlib expects no action from a seat that is out. When the game ends every RLlib
  seat that has played gets a last observation, its team reward and ``terminated``, eliminated
  or not (a seat eliminated before its first decision has no experience to credit and is left out).
* Forced moves (a single legal id) are played by the adapter without asking anyone.

RLlib's own PettingZoo route works too: :func:`pettingzoo_env` is the game's wrapped AEC env
(:func:`granujas_env.env`, or ``{"game": "bang-dice", ...}``'s) as RLlib's ``PettingZooEnv``, its observations renamed to RLlib's keys (:class:`RLlibObservationKeys`:
``observations`` and a float32 ``action_mask``), which RLlib's example
``ActionMaskingTorchRLModule`` reads::

    from ray.tune.registry import register_env
    from train.rllib import pettingzoo_env
    register_env("granujas_pz", pettingzoo_env)  # env_config: the env's arguments (+ "game")

Every seat is then an RLlib agent (``player_<k>``); an illegal id ends the game with -1 to the
mover (``env()``'s rule), which the masked module never samples.

Outputs under ``--out``: ``checkpoints/iter_<n>`` (``Algorithm.save``; ``--resume`` restores
one), TensorBoard logs in ``tb/`` (``tensorboard --logdir runs``: return, win rate overall and
per opponent kind, samples/s, losses), ``metrics.jsonl`` (one line per iteration) and the export
``model.zip`` + ``model_card.json``: ``main``'s weights in sb3-contrib MaskablePPO's MlpPolicy
layout (the module's layers are the same), so ``agents.load(out)``, ``train.tournament --agents
OUT,heuristic`` and ``train.evaluate`` play it with no RLlib installed. The card records the
game's ``env_version`` (``granujas_v1``, ``bang_dice_v0``) and observation layout.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
import time
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import ray
import torch
from pettingzoo.utils.wrappers import BaseWrapper
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN
from tensorboardX import SummaryWriter

from agents.model_card import layout_record
from agents.policy import all_decisions, make_bot
from granujas_env import games
from granujas_env.cli import run_main
from train.single_seat import lazy_observation
from train.train import machine_info, save_slim

__all__ = [
    "GranujasMultiAgentEnv",
    "RLlibObservationKeys",
    "pettingzoo_env",
    "start_ray",
    "MaskedActorCritic",
    "LearnerResultCallback",
    "build_config",
    "snapshot_to_league",
    "export_policy",
    "build_parser",
    "main",
]

MAIN = "main"
#: players per game when --players is not given (another game: its fewest)
DEFAULT_PLAYERS = {"granujas": 2, "bang-dice": 5}


def default_players(game: str) -> int:
    """The player count of ``game`` when none is given."""
    return DEFAULT_PLAYERS.get(game, games.get(game).players[0])
SELF_PLAY = "main"  # opponent spec: the learner's own current policy
LEAGUE = "league"  # opponent spec: one of the frozen snapshot modules
QUICK = {
    "iterations": 2,
    "train_batch": 256,
    "minibatch": 128,
    "epochs": 2,
    "league_every": 1,
    "league_size": 2,
    "checkpoint_every": 2,
    "env_runners": 0,
}


def league_ids(size: int) -> list[str]:
    """The module ids of the ``size`` league snapshot slots."""
    return [f"{LEAGUE}_{k}" for k in range(size)]


def module_of(agent_id: str) -> str:
    """The RLlib module that plays ``agent_id`` (``"<module>@<seat>"``): the policy mapping."""
    return agent_id.rsplit("@", 1)[0]


def policy_mapping_fn(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """RLlib's ``policy_mapping_fn``: the module is named in the agent id by the adapter."""
    return module_of(agent_id)


class GranujasMultiAgentEnv(MultiAgentEnv):
    """A game's AEC env as an RLlib ``MultiAgentEnv`` (see the module docstring).

    ``config`` keys: ``game`` (a name of :mod:`granujas_env.games`, default granujas),
    ``num_players`` (granujas 2-4, default 2; Bang! 3-8, default 5), ``reward`` (default: the
    game's first reward mode, granujas ``win``), ``env_options`` (more keyword arguments of the
    game's env: granujas ``{"game_length": "long"}``; a bare ``game_length`` key is read as
    one), ``opponents`` (list of specs: ``"main"``, ``"league"`` or bot specs of the game;
    default ``["heuristic"]``), ``league_size`` (number of ``league_<k>`` modules), ``seed``.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.game = config.get("game", games.DEFAULT_GAME)
        spec = games.get(self.game)
        self.num_players = int(config.get("num_players", default_players(self.game)))
        self.opponent_specs: list[Any] = list(config.get("opponents") or ["heuristic"])
        self.league = league_ids(int(config.get("league_size", 0)))
        if LEAGUE in self.opponent_specs and not self.league:
            raise ValueError("opponent 'league' needs league_size >= 1")
        options = dict(config.get("env_options") or {})
        if "game_length" in config:
            options["game_length"] = config["game_length"]
        self.env = spec.raw_env(
            num_players=self.num_players, reward=config.get("reward", spec.reward_modes[0]), **options
        )
        self.outcome = spec.outcome
        self.roles = getattr(spec, "roles", None)  # games with roles: the learner's, per episode
        # EnvContext (RLlib) carries worker_index/vector_index: distinct streams per env copy
        offset = 1000 * getattr(config, "worker_index", 0) + getattr(config, "vector_index", 0)
        self._rng = random.Random(f"{config.get('seed')}/{offset}")
        self._seat_cursor = offset
        agent0 = self.env.possible_agents[0]
        base = self.env.observation_space(agent0)["observation"]
        n_actions = self.env.action_space(agent0).n
        space = gymnasium.spaces.Dict(
            {
                "observations": base,
                "action_mask": gymnasium.spaces.Box(0.0, 1.0, (n_actions,), np.float32),
            }
        )
        modules = [MAIN, *self.league]
        self.possible_agents = [f"{m}@{s}" for m in modules for s in range(self.num_players)]
        self.agents = []
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self.env.action_space(agent0))
        self._bots: dict[tuple[str, int], Any] = {}
        self.seat_agent: list[str | None] = []  # RLlib agent id per seat, None for bots
        self.seat_bot: list[Any] = []
        self.learner_seat = 0
        self.opponent_kind = ""
        self._pending: dict[str, float] = {}
        self._played: set[str] = set()  # RLlib agents observed this episode
        self.rllib_actions = 0  # actions received from RLlib and checked against the mask
        self.bot_actions = 0
        self.forced_actions = 0

    # ------------------------------------------------------------------ RLlib API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = random.Random(seed)
        n = self.num_players
        self.learner_seat = self._seat_cursor % n
        self._seat_cursor += 1
        self.seat_agent, self.seat_bot, kinds = [], [], []
        for seat in range(n):
            spec = MAIN if seat == self.learner_seat else self._rng.choice(self.opponent_specs)
            if seat != self.learner_seat:
                kinds.append(spec if isinstance(spec, str) else repr(spec))
            if spec == LEAGUE:
                spec = self._rng.choice(self.league)
            if spec == MAIN or spec in self.league:
                self.seat_agent.append(f"{spec}@{seat}")
                self.seat_bot.append(None)
            else:
                self.seat_agent.append(None)
                self.seat_bot.append(self._bot(spec, seat))
        self.opponent_kind = "+".join(sorted(set(kinds)))
        self.env.reset(seed=self._rng.getrandbits(63))
        for bot in self.seat_bot:
            if bot is not None:
                bot.reset(seed=self._rng.getrandbits(31))
        self.agents = [a for a in self.seat_agent if a is not None]
        self._pending = dict.fromkeys(self.agents, 0.0)
        self._played = set()
        self._advance()
        return self._observe(), {}

    def step(self, action_dict: Mapping[str, Any]):
        game = self.env.game
        if game is None or game.game_over:
            raise RuntimeError("step() after the game ended: call reset()")
        agent = self.seat_agent[game.decision.player]
        if set(action_dict) != {agent}:
            raise ValueError(
                f"expected an action for {agent} only (it is the one deciding), got actions "
                f"for {sorted(action_dict)}"
            )
        action = int(action_dict[agent])
        legal = game.legal_actions()
        if action not in legal:  # never let an illegal id reach the env
            raise ValueError(
                f"illegal action {action} for {agent} at decision {game.decision.kind!r}; "
                f"legal ids: {list(legal)}"
            )
        self.rllib_actions += 1
        self._step_env(action)
        self._advance()
        return self._observe(), self._rewards(), self._dones(), self._dones(False), self._infos()

    # ------------------------------------------------------------------ internals
    def _bot(self, spec: Any, seat: int) -> Any:
        key = (spec if isinstance(spec, str) else str(id(spec)), seat)
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = make_bot(spec, seed=self._rng.getrandbits(31), game=self.game)
        return bot

    def _step_env(self, action: int) -> None:
        self.env.step(action)
        for seat, agent in enumerate(self.seat_agent):
            if agent is not None:
                self._pending[agent] += float(self.env.rewards[self.env.possible_agents[seat]])

    def _advance(self) -> None:
        """Play forced moves and bot seats until an RLlib seat decides or the game ends."""
        game = self.env.game
        while not game.game_over:
            seat = game.decision.player
            legal = game.legal_actions()
            if len(legal) == 1:
                self.forced_actions += 1
                self._step_env(int(legal[0]))
                continue
            bot = self.seat_bot[seat]
            if bot is None:
                return
            name = self.env.possible_agents[seat]
            observation = lazy_observation(self.env, name, legal, self.env.action_space(name).n)
            view = self.env.seat_view(name) if getattr(bot, "wants_view", True) else None
            self.bot_actions += 1
            self._step_env(int(bot.act(observation, view=view)))

    def _obs_of(self, seat: int) -> dict[str, np.ndarray]:
        raw = self.env.observe(self.env.possible_agents[seat])
        return {
            "observations": raw["observation"],
            "action_mask": raw["action_mask"].astype(np.float32),
        }

    def _observe(self) -> dict[str, dict[str, np.ndarray]]:
        game = self.env.game
        if game.game_over:  # a last observation for every RLlib seat that has played
            return {
                a: self._obs_of(s) for s, a in enumerate(self.seat_agent) if a in self._played
            }
        seat = game.decision.player
        self._played.add(self.seat_agent[seat])
        return {self.seat_agent[seat]: self._obs_of(seat)}

    def _rewards(self) -> dict[str, float]:
        receivers = self._observe().keys()
        rewards = {a: self._pending[a] for a in receivers}
        for agent in receivers:
            self._pending[agent] = 0.0
        return rewards

    def _dones(self, terminal: bool = True) -> dict[str, bool]:
        over = bool(self.env.game.game_over) and terminal
        return {**dict.fromkeys(self._played, over), "__all__": over}

    def _infos(self) -> dict[str, dict[str, Any]]:
        game = self.env.game
        learner = self.seat_agent[self.learner_seat]
        if not game.game_over or learner not in self._played:
            return {}
        outcome = self.outcome(game)
        info: dict[str, Any] = {
            "learner": True,
            "won": int(self.learner_seat in outcome.winners),
            "vs": self.opponent_kind,
        }
        if outcome.scores is not None:
            info["score"] = int(outcome.scores[self.learner_seat])
        if self.roles is not None:
            info["role"] = self.roles(game)[self.learner_seat]
        return {learner: info}


class RLlibObservationKeys(BaseWrapper):
    """A game's AEC env whose observations carry RLlib's keys: ``{"observations": float32[D],
    "action_mask": float32[N]}`` instead of ``{"observation", "action_mask": int8[N]}`` (RLlib's
    ``ActionMaskingTorchRLModule`` reads ``observations`` and takes the log of the mask)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        agent0 = env.possible_agents[0]
        self._space = gymnasium.spaces.Dict(
            {
                "observations": env.observation_space(agent0)["observation"],
                "action_mask": gymnasium.spaces.Box(
                    0.0, 1.0, (env.action_space(agent0).n,), np.float32
                ),
            }
        )

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        self.env.observation_space(agent)  # an unknown agent raises, naming the agents
        return self._space

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observation = self.env.observe(agent)
        return {
            "observations": observation["observation"],
            "action_mask": observation["action_mask"].astype(np.float32),
        }


def pettingzoo_env(config: Mapping[str, Any] | None = None) -> PettingZooEnv:
    """The wrapped AEC env of ``config["game"]`` (default granujas: :func:`granujas_env.env`;
    the other keys: its keyword arguments, e.g. ``num_players``) as RLlib's ``PettingZooEnv``,
    with RLlib's observation keys (:class:`RLlibObservationKeys`): the env creator to give
    ``ray.tune.registry.register_env``."""
    kwargs = dict(config or {})
    spec = games.get(kwargs.pop("game", games.DEFAULT_GAME))
    return PettingZooEnv(RLlibObservationKeys(spec.env(**kwargs)))


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """PPO actor-critic with action masking for ``{"observations", "action_mask"}`` inputs.

    Separate policy and value MLPs (``model_config["hiddens"]``, tanh), laid out exactly like
    sb3's ``MlpPolicy`` (``policy_net``/``action_net``, ``value_body``/``value_head``), so the
    weights export to a MaskablePPO model (:func:`export_policy`). Illegal ids get a logit of
    ``FLOAT_MIN``: a finite floor, so an all-zero mask (the final observation) gives no NaN.
    """

    def setup(self) -> None:
        space = self.observation_space["observations"]
        hiddens = list(self.model_config.get("hiddens", [64, 64]))
        self.policy_net = _mlp(int(np.prod(space.shape)), hiddens)
        self.action_net = torch.nn.Linear(hiddens[-1], self.action_space.n)
        self.value_body = _mlp(int(np.prod(space.shape)), hiddens)
        self.value_head = torch.nn.Linear(hiddens[-1], 1)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        logits = self.action_net(self.policy_net(obs["observations"]))
        floor = torch.clamp(torch.log(obs["action_mask"]), min=FLOAT_MIN)
        return {Columns.ACTION_DIST_INPUTS: logits + floor}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        return self.value_head(self.value_body(batch[Columns.OBS]["observations"])).squeeze(-1)


def _mlp(inputs: int, hiddens: Sequence[int]) -> torch.nn.Sequential:
    layers: list[torch.nn.Module] = []
    for width in hiddens:
        layers += [torch.nn.Linear(inputs, width), torch.nn.Tanh()]
        inputs = width
    return torch.nn.Sequential(*layers)


class LearnerResultCallback(RLlibCallback):
    """Logs the learner seat's win rate per episode (overall, per opponent kind and, in games
    with roles, per role) and its score (in games with scores)."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        for info in episode.get_infos(-1).values():
            if isinstance(info, Mapping) and info.get("learner"):
                won = info["won"]
                metrics_logger.log_value("win_rate", won, reduce="mean", window=200)
                metrics_logger.log_value(f"win_rate_vs_{info['vs']}", won, reduce="mean", window=200)
                if "role" in info:
                    metrics_logger.log_value(f"win_rate_as_{info['role']}", won, reduce="mean", window=200)
                if "score" in info:
                    metrics_logger.log_value("learner_score", info["score"], reduce="mean", window=200)


def build_config(args: argparse.Namespace) -> PPOConfig:
    """The PPO config of a run: env, modules (``main`` trained, league slots frozen), mapping."""
    league = league_ids(args.league_size)
    spec = RLModuleSpec(
        module_class=MaskedActorCritic, model_config={"hiddens": list(args.hidden)}
    )
    env_config = {
        "game": args.game,
        "num_players": args.players,
        "env_options": env_options(args),
        "reward": args.reward,
        "opponents": list(args.opponents),
        "league_size": args.league_size,
        "seed": args.seed,
    }
    return (
        PPOConfig()
        .environment(GranujasMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=args.env_runners, num_cpus_per_env_runner=1)
        .multi_agent(
            policies={MAIN, *league},
            policy_mapping_fn=policy_mapping_fn,
            policies_to_train=[MAIN],
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(rl_module_specs={m: spec for m in [MAIN, *league]})
        )
        .training(
            train_batch_size_per_learner=args.train_batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
            gamma=0.995,
            entropy_coeff=args.ent_coef,
        )
        .callbacks(LearnerResultCallback)
        .debugging(seed=args.seed)
    )


def snapshot_to_league(algo: Any, slot: str) -> None:
    """Freeze ``main``'s current weights into the league module ``slot`` (learner and every env
    runner: ``Algorithm.set_weights`` syncs them)."""
    weights = algo.get_weights([MAIN])[MAIN]
    algo.set_weights({slot: weights})


class _Spaces(gymnasium.Env):
    """Only the spaces of one seat of a game: what MaskablePPO builds a policy for."""

    def __init__(self, game: str) -> None:
        spec = games.get(game)
        env = spec.raw_env(num_players=spec.players[0])
        agent0 = env.possible_agents[0]
        self.observation_space = env.observation_space(agent0)["observation"]
        self.action_space = env.action_space(agent0)


def export_policy(
    weights: Mapping[str, Any], hiddens: Sequence[int], path: Path, game: str = games.DEFAULT_GAME
) -> None:
    """Write ``main``'s weights (a :class:`MaskedActorCritic` state dict) as a MaskablePPO
    ``model.zip`` of ``game``'s spaces at ``path``, loadable by :class:`agents.policy.PolicyAgent`."""
    from sb3_contrib import MaskablePPO  # the [train] extra; only needed to export

    names = {
        "policy_net.": "mlp_extractor.policy_net.",
        "action_net.": "action_net.",
        "value_body.": "mlp_extractor.value_net.",
        "value_head.": "value_net.",
    }
    state = {}
    for key, value in weights.items():
        prefix = next(p for p in names if key.startswith(p))
        state[names[prefix] + key[len(prefix) :]] = torch.as_tensor(np.asarray(value))
    model = MaskablePPO(
        "MlpPolicy",
        _Spaces(game),  # every seat's spaces, at every table size
        policy_kwargs={
            "net_arch": {"pi": list(hiddens), "vf": list(hiddens)},
            "activation_fn": torch.nn.Tanh,
        },
        device="cpu",
    )
    model.policy.load_state_dict(state, strict=True)
    save_slim(model, path)


RAY_START_ATTEMPTS = 3
RAY_NODE_TIMEOUT = "timed out during startup"  # Ray's message when its raylet did not register


def start_ray(address: str | None = None, num_cpus: int | None = None) -> None:
    """``ray.init`` without the dashboard (nothing here reads it, and it is one more process to
    start), retried when a local start times out: Ray (2.5x, 2.60) gives the raylet a fixed 30 s
    to register, which a loaded small machine can miss. Other errors, and a start that times out
    ``RAY_START_ATTEMPTS`` times, are raised."""
    for attempt in range(1, RAY_START_ATTEMPTS + 1):
        try:
            ray.init(address=address, num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
            return
        except Exception as exc:  # Ray raises a bare Exception for the timeout
            if RAY_NODE_TIMEOUT not in str(exc) or attempt == RAY_START_ATTEMPTS:
                raise
            ray.shutdown()  # what the failed start left behind
            print(f"ray.init timed out (attempt {attempt}): starting Ray again", file=sys.stderr)


def _ints(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated ints, got {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected positive ints, got {text!r}")
    return values


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m train.rllib",
        description="Masked PPO self-play with a league on Ray RLlib (see the module docstring).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--out", default="runs/rllib", help="output folder")
    p.add_argument("--game", default=games.DEFAULT_GAME, choices=games.available(),
                   help="the game (bang-dice: Bang! The Dice Game, 3-8 players, team reward)")
    p.add_argument("--players", type=int, default=None,
                   help="players per game: granujas 2-4 (default 2), bang-dice 3-8 (default 5)")
    p.add_argument("--length", default=None, choices=("short", "long"),
                   help="granujas' game length (default short)")
    p.add_argument("--reward", default=None, choices=("win", "score", "team"),
                   help="terminal reward: granujas win (default) or score; bang-dice team")
    p.add_argument(
        "--opponents",
        type=lambda s: [x.strip() for x in s.split(",") if x.strip()],
        default=["heuristic", "league"],
        help="pool drawn from per opponent seat: 'main' (self-play), 'league' (a frozen "
        "snapshot) or a bot spec (heuristic, random, a model .zip, module:attribute)",
    )
    p.add_argument("--league-size", type=int, default=4, help="frozen snapshot slots")
    p.add_argument("--league-every", type=int, default=5, help="iterations between snapshots")
    p.add_argument("--iterations", type=int, default=1000, help="training iterations at most")
    p.add_argument("--minutes", type=float, default=None, help="wall-clock limit")
    p.add_argument("--env-runners", type=int, default=1, help="RLlib env runners (0: sample "
                   "in the driver process)")
    p.add_argument("--train-batch", type=int, default=4000, help="env steps per iteration")
    p.add_argument("--minibatch", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--hidden", type=_ints, default=[64, 64], help="MLP widths, e.g. 64,64")
    p.add_argument("--checkpoint-every", type=int, default=10, help="iterations")
    p.add_argument("--resume", default=None, help="checkpoint folder to restore")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--address", default=None, help="Ray cluster address ('auto' or HEAD:6379); "
                   "default: a local Ray instance")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray instance")
    p.add_argument("--quick", action="store_true", help="CI smoke run: " + json.dumps(QUICK))
    return p


def env_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's own env options of ``args`` (granujas: ``game_length``)."""
    return {"game_length": args.length} if args.game == games.DEFAULT_GAME else {}


def validate(args: argparse.Namespace) -> None:
    """Argument checks that argparse cannot make (exit status 2 before anything starts); fills
    in the game's defaults of ``--players``, ``--length`` and ``--reward``."""
    problems = []
    spec = games.get(args.game)
    if args.players is None:
        args.players = default_players(args.game)
    if args.players not in spec.players:
        problems.append(f"--players of {args.game} must be in {spec.players.start}..{spec.players.stop - 1}")
    if args.game == games.DEFAULT_GAME:
        args.length = args.length or "short"
    elif args.length is not None:
        problems.append(f"--length is granujas' game length; {args.game} has none")
    args.reward = args.reward or spec.reward_modes[0]
    if args.reward not in spec.reward_modes:
        problems.append(f"--reward of {args.game} must be one of {list(spec.reward_modes)}")
    if args.league_size < 0 or args.league_every < 1:
        problems.append("--league-size must be >= 0 and --league-every >= 1")
    if LEAGUE in args.opponents and args.league_size < 1:
        problems.append("--opponents names 'league' but --league-size is 0")
    for spec in args.opponents:
        if spec not in (SELF_PLAY, LEAGUE):
            try:
                make_bot(spec, game=args.game)
            except (ValueError, TypeError) as exc:
                problems.append(f"--opponents: {exc}")
    if args.env_runners < 0 or args.iterations < 1 or args.checkpoint_every < 1:
        problems.append("--env-runners must be >= 0, --iterations and --checkpoint-every >= 1")
    if args.minibatch > args.train_batch:
        problems.append(f"--minibatch {args.minibatch} exceeds --train-batch {args.train_batch}")
    if args.resume is not None and not Path(args.resume).is_dir():
        problems.append(f"--resume {args.resume}: no checkpoint folder there")
    if problems:
        build_parser().error("; ".join(problems))


def _scalars(prefix: str, tree: Any, out: dict[str, float]) -> dict[str, float]:
    """Flatten the finite numeric leaves of an RLlib result dict into ``{"a/b/c": value}``
    (metrics without data yet are NaN, which TensorBoard would warn about on every write)."""
    if isinstance(tree, Mapping):
        for key, value in tree.items():
            _scalars(f"{prefix}/{key}" if prefix else str(key), value, out)
    elif isinstance(tree, (int, float, np.number)) and not isinstance(tree, bool):
        if np.isfinite(tree):
            out[prefix] = float(tree)
    return out


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.quick:
        for key, value in QUICK.items():
            setattr(args, key, value)
    validate(args)
    out = Path(args.out)
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    command = "python -m train.rllib " + shlex.join(sys.argv[1:] if argv is None else argv)

    start_ray(args.address, args.num_cpus)
    started = time.time()
    algo = build_config(args).build_algo()
    league = league_ids(args.league_size)
    if args.resume:
        algo.restore(args.resume)  # the league slots come back with the checkpoint
    else:
        for slot in league:  # every slot starts as main's initial policy
            snapshot_to_league(algo, slot)
    writer = SummaryWriter(str(out / "tb"))
    metrics_path = out / "metrics.jsonl"
    deadline = None if args.minutes is None else started + 60 * args.minutes
    snapshots, env_steps, sample_rates = 0, 0, []
    status = "finished: iterations"
    try:
        with metrics_path.open("a", encoding="utf-8") as log:
            for iteration in range(1, args.iterations + 1):
                t0 = time.time()
                result = algo.train()
                seconds = time.time() - t0
                runners = result.get("env_runners", {})
                steps = int(runners.get("num_env_steps_sampled", 0))
                env_steps += steps
                sample_rates.append(steps / seconds)
                if league and iteration % args.league_every == 0:
                    snapshot_to_league(algo, league[snapshots % len(league)])
                    snapshots += 1
                flat = _scalars("", result, {})
                flat["perf/samples_per_s"] = steps / seconds
                for key, value in flat.items():
                    if key.startswith(("env_runners/", "learners/main/", "perf/")):
                        writer.add_scalar(key, value, env_steps)
                row = {
                    "iteration": iteration,
                    "env_steps": env_steps,
                    "seconds": round(seconds, 2),
                    "samples_per_s": round(steps / seconds, 1),
                    "win_rate": runners.get("win_rate"),
                    "return_mean": runners.get("episode_return_mean"),
                    "league_snapshots": snapshots,
                }
                log.write(json.dumps(row) + "\n")
                print(json.dumps(row), flush=True)
                if iteration % args.checkpoint_every == 0 or iteration == args.iterations:
                    algo.save(str((out / "checkpoints" / f"iter_{iteration}").resolve()))
                if deadline is not None and time.time() >= deadline:
                    status = "stopped: time limit"
                    break
        hiddens = list(args.hidden)
        export_policy(algo.get_weights([MAIN])[MAIN], hiddens, out / "model.zip", args.game)
        card = {
            "name": out.name,
            "game": args.game,
            "env_version": games.get(args.game).env_name,
            "observation_layout": layout_record(game=args.game),
            "command": command,
            "mode": "full",
            "decisions": sorted(all_decisions(args.game)),
            "delegate": None,
            "advisor": None,
            "opponents": list(args.opponents),
            "league": args.league_size > 0,
            "league_size": args.league_size,
            "league_snapshots_taken": snapshots,
            "players": [args.players],
            **env_options(args),
            "reward": args.reward,
            "seed": args.seed,
            "algorithm": f"ray[rllib] {ray.__version__} PPO (new API stack, MaskedActorCritic), "
            "exported to sb3_contrib.MaskablePPO MlpPolicy",
            "hyperparameters": {
                "env_runners": args.env_runners,
                "train_batch": args.train_batch,
                "minibatch": args.minibatch,
                "epochs": args.epochs,
                "learning_rate": args.lr,
                "gamma": 0.995,
                "ent_coef": args.ent_coef,
                "net_arch": hiddens,
            },
            "ray_address": args.address,
            "machine": machine_info(),
            "status": status,
            "iterations": iteration,
            "steps": env_steps,
            "wall_time_s": round(time.time() - started, 1),
            "samples_per_s_median": round(float(np.median(sample_rates)), 1),
            "win_rate_last": runners.get("win_rate"),
            "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        (out / "model_card.json").write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
        print(f"saved {out / 'model.zip'} ({env_steps} env steps, {card['wall_time_s']} s)")
    finally:
        writer.close()
        algo.stop()
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
