"""Train a bot (granujas, or Bang! The Dice Game with ``--game bang-dice``) with sb3-contrib
MaskablePPO on the single-seat wrapper.

    python -m train.train --mode bluff --steps 200000 --seed 0 --out runs/bluffer
    python -m train.train --mode safe  --minutes 12 --out runs/safecracker
    python -m train.train --mode full  --league --minutes 15 --out runs/full
    python -m train.train --mode bluff --quick                      # CI smoke run, < 1 minute
    python -m train.train --mode bluff --steps 50000 --resume runs/bluffer/checkpoints/ckpt_20000_steps.zip
    python -m train.train --mode full --advisor heuristic --init-from full --kl-coef 0.02 --league
    python -m train.train --game bang-dice --players 5 --minutes 40 --out runs/bang_train/run

Games: ``--game`` (default granujas) names a game of :mod:`granujas_env.games`. For
``bang-dice`` the learner plays every decision (``--mode full``), the bots are Bang!'s
(``heuristic``, ``random``, Bang! models), ``--players`` takes 3..8, the reward is ``team`` (+1 to
every seat of the winning side, eliminated ones included, -1 to the others; a learner eliminated
early ends its episode with the outcome of the game played out by the others, see
:mod:`train.single_seat`), no shaping, no advisor; the card records ``env_version``
``bang_dice_v0`` and the Bang! observation layout.

Modes (the decision kinds the learner controls; its other decisions are played by ``--delegate``,
the heuristic by default): ``bluff`` = Plan (card, slot) and challenges; ``safe`` = peek, mark,
mark source, steal, abandon, unused-location peek, Sheriff's Office option (bribe); ``full`` =
every decision.

Opponents: ``--opponents heuristic,random`` is the pool drawn from per opponent seat and episode
(bot names, shipped models, saved model ``.zip`` files, import paths ``module:attribute``: any spec
of :func:`agents.policy.make_bot`). ``--league`` adds, every ``--league-every``
steps, a frozen copy of the learner to the pool (the latest ``--league-size`` copies are kept):
plain self-play cycles in bluffing games, so the pool mixes past checkpoints with the heuristic
and random bots (``--league-bot-weight`` is each bot's sampling weight relative to one
checkpoint). ``--opponents-for N=SPECS`` (repeatable) gives the games of N players a pool of
their own instead of ``--opponents``, e.g. exploiters in 2-player games and sound players at the
4-player tables; league snapshots and followed models join every pool. ``--follow DIR[,DIR...]`` co-trains with other runs: the newest ``--follow-keep``
models each writes to its ``DIR`` (its ``checkpoints/`` or ``league/``) join the pool after every
rollout, each weighing ``--follow-weight`` -- a learner against exploiters that keep learning
against it, and each exploiter following the learner's league snapshots (README, "Co-training").

Outputs under ``--out``: ``model.zip`` (the final policy, saved without the optimizer's moment
estimates so it stays small; resume from ``checkpoints/`` to keep them), ``model_card.json``
(environment version and observation layout, command, steps, wall time, machine, opponents, seed,
hyper-parameters, last win rate; :mod:`agents.model_card`),
``checkpoints/ckpt_<steps>_steps.zip`` every ``--checkpoint-every`` steps and at the end, and
TensorBoard logs in ``tb/`` (``tensorboard --logdir runs``) including ``rollout/win_rate`` and
``rollout/score`` over the last 100 episodes.

``--steps`` is a budget of learner steps (decisions of the controlled kinds); ``--minutes`` stops
earlier at a wall-clock limit, ``--until`` at a time of day (ISO 8601, UTC unless it names an
offset), and so does SIGTERM or Ctrl-C (the model and card are saved in every case). With
``--resume`` the steps are added to the resumed model's count.

Runs that keep going: with ``--continue``, the same command starts the run or, when ``--out``
holds it already, continues it from its newest checkpoint (a crash, ``kill -9``, a reboot, a
stop by signal): each checkpoint ``checkpoints/ckpt_<n>_steps.zip`` has its run state beside it
(``.json``: the steps the run started at, the training time spent, the league snapshots in the
pool and the next one's step, the followed models), so the league, the ``--opponents-for`` pools
and ``--follow`` come back as they were, the ``--kl-coef`` term keeps pulling toward the first
start's policy (``kl_start.zip``), and ``--steps`` and ``--minutes`` count what the run spent
before (the time lost after the last checkpoint is not counted; ``--until`` is a fixed time). A
finished run (steps reached, time spent) is left as it is, so a loop such as
``until python -m train.train ... --continue; do sleep 60; done`` is safe. Only ``--steps``,
``--minutes``, ``--until`` and ``--no-progress`` may differ from the run's first command (its
card's ``argv``); the card lists every start under ``continued`` and ``wall_time_s`` is the time
of all starts together.

Warm starts: ``--resume`` continues a model of today's observation layout with its saved
hyper-parameters, except the PPO settings given as flags (``--ent-coef``, ``--lr``...; ``--net``
is refused); ``--init-from`` starts a fresh model (this command's hyper-parameters) from a
trained model's weights, also one trained on an older layout (e.g. the shipped ``full``, trained
before the ``end_of_day_order`` decision): its inputs are mapped onto today's layout as
:class:`agents.policy.PolicyAgent` maps them at play time, and the inputs it never saw start at zero
weight, so the new model first plays exactly as the old one. ``--kl-coef C`` keeps a long run near
where PPO started (after the warm start): every learner step's reward is reduced by
``C * (log pi(a|s) - log pi0(a|s))``, ``pi0`` the frozen starting policy, whose expectation is
``C * KL(pi || pi0)`` (the KL-regularised reward of RLHF-style PPO); the mean per-step KL is logged
as ``train/kl_to_start``. Long league runs without it drifted (issue 11). Bad arguments
(player counts, limits, the model to resume, unknown bots) exit with status 2 before the output
folder is created.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import math
import multiprocessing
import os
import platform
import re
import shlex
import signal
import sys
import time
import zipfile
from collections import deque
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from agents.decisions import MODES
from agents.model_card import ModelCardError, find_card, layout_record, read_card, trained_layout
from agents.policy import PolicyAgent, all_decisions, make_bot, resolve_model
from granujas_env import games
from granujas_env.cli import run_main
from train.single_seat import SingleSeatEnv

__all__ = [
    "main",
    "build_parser",
    "budget_left",
    "continuation",
    "newest_checkpoint",
    "parse_until",
    "recorded_arguments",
    "save_checkpoint",
    "choose_vec",
    "make_env_fn",
    "make_vec_env",
    "model_hyperparameters",
    "newest_models",
    "save_slim",
    "usable_cpus",
]

DEFAULT_STEPS = 300_000
DEFAULT_N_ENVS = 8
# --vec auto runs several envs in worker processes, a chunk of envs per core
# (ChunkedSubprocVecEnv), from this many usable cores; below, in this process: on 2 shared
# cores 2 workers x 4 envs were slower than DummyVecEnv (figures in --vec's help)
CHUNKED_MIN_CPUS = 4
VEC_KINDS = ("dummy", "batched", "subproc", "chunked")  # --vec choices besides auto
STEPS_IN_NAME = re.compile(r"_(\d+)_steps\.zip$")  # checkpoint and league snapshot names
#: PPO settings of a new model: flag's ``args`` name -> (MaskablePPO attribute, default). A
#: resumed model keeps its saved values except those given as flags (``ppo_overrides``).
PPO_SETTINGS: dict[str, tuple[str, float]] = {
    "n_steps": ("n_steps", 1024),
    "batch_size": ("batch_size", 256),
    "n_epochs": ("n_epochs", 5),
    "lr": ("learning_rate", 1e-4),
    "gamma": ("gamma", 0.995),
    "ent_coef": ("ent_coef", 0.003),
    "clip_range": ("clip_range", 0.1),
}
DEFAULT_NET = "64,64"
QUICK = {
    "steps": 2048,
    "n_envs": 4,
    "n_steps": 256,
    "batch_size": 128,
    "n_epochs": 2,
    "checkpoint_every": 1024,
}


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows ``(default: X)`` only where the help text does not already say the default and X
    is a value (not None or False)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or action.default is None or action.default is False:
            return text
        return super()._get_help_string(action)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m train.train",
        description="Train a granujas (or Bang!) bot with MaskablePPO (single-seat wrapper).",
        formatter_class=_HelpFormatter,
    )
    p.add_argument(
        "--game",
        choices=games.available(),
        default=games.DEFAULT_GAME,
        help="the game (bang-dice: every decision, team reward, players 3-8)",
    )
    p.add_argument(
        "--mode", choices=sorted(MODES), default="full", help="decision kinds the learner controls"
    )
    p.add_argument(
        "--steps",
        type=int,
        default=None,
        help=f"learner steps to train (default {DEFAULT_STEPS:,}; {QUICK['steps']:,} with --quick)",
    )
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="stop after this many minutes of training (with --continue: of every start "
        "together) even if --steps is not reached",
    )
    p.add_argument(
        "--until",
        default=None,
        help="stop at this wall-clock time, ISO 8601 (e.g. 2026-11-27T06:00, UTC unless it "
        "names an offset such as +01:00), even if --steps is not reached",
    )
    p.add_argument(
        "--continue",
        dest="continue_run",
        action="store_true",
        help="start this run, or continue it if --out holds its checkpoints from a start that "
        "did not finish (killed, crashed, stopped by a signal): from the newest checkpoint, "
        "with its league snapshots, followed models and KL start policy, and what is left of "
        "--steps and --minutes (both count the training before; --until is a fixed time). The "
        "other arguments must be the run's own (its model card records them); a finished run "
        "is left as it is",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="seeds the deals, seats, opponent draws and network"
    )
    p.add_argument("--out", default=None, help="output folder (default runs/<mode>)")
    p.add_argument(
        "--quick",
        action="store_true",
        help=f"smoke run: {QUICK['steps']} steps, {QUICK['n_envs']} envs, small rollouts "
        "(< 1 minute)",
    )
    p.add_argument(
        "--resume",
        default=None,
        help="continue training a saved model: a .zip (e.g. a checkpoint) or a run folder "
        "holding model.zip; its steps add to the model's count",
    )
    p.add_argument(
        "--init-from",
        default=None,
        help="start from a trained model's weights (a .zip, run folder or shipped model name), "
        "also one trained on an older observation layout; needs the same --net and --advisor "
        "setting; no imitation warm start",
    )
    p.add_argument(
        "--kl-coef",
        type=float,
        default=0.0,
        help="per-step reward penalty C * (log pi - log pi0) toward the policy PPO starts from "
        "(after --resume, --init-from or the imitation warm start); 0 = off",
    )
    p.add_argument(
        "--opponents",
        default=None,
        help="comma-separated opponent pool: bot names, shipped models, model .zip paths or "
        "import paths module:attribute (default: heuristic; heuristic,random with --league)",
    )
    p.add_argument(
        "--opponents-for",
        action="append",
        default=[],
        metavar="N=SPECS",
        help="the pool of the N-player games instead of --opponents (comma-separated specs, as "
        "--opponents); repeat it for several player counts, each one of --players",
    )
    p.add_argument(
        "--delegate",
        default=None,
        help="bot for the learner's decisions outside --mode (default: heuristic)",
    )
    p.add_argument(
        "--advisor",
        default=None,
        help="bot whose recommended action the policy reads after the observation (e.g. "
        "heuristic; see agents/advice.py); it also teaches the imitation warm start",
    )
    p.add_argument(
        "--league",
        action="store_true",
        help="add frozen checkpoints of the learner to the opponent pool while training",
    )
    p.add_argument(
        "--league-every", type=int, default=25_000, help="steps between league snapshots"
    )
    p.add_argument(
        "--league-size", type=int, default=5, help="most recent snapshots kept in the pool"
    )
    p.add_argument(
        "--league-bot-weight",
        type=float,
        default=1.5,
        help="sampling weight of each --opponents bot with --league or --follow (a snapshot "
        "weighs 1, a followed model --follow-weight)",
    )
    p.add_argument(
        "--follow",
        default=None,
        help="folder where another run writes models (its checkpoints/ or league/), or a comma "
        "list of them: the newest --follow-keep of each join the opponent pool, checked after "
        "every rollout (co-training against live exploiters, or an exploiter tracking a learner)",
    )
    p.add_argument(
        "--follow-keep", type=int, default=1, help="newest models of --follow kept in the pool"
    )
    p.add_argument(
        "--follow-weight",
        type=float,
        default=1.0,
        help="sampling weight of each followed model (an --opponents bot weighs "
        "--league-bot-weight)",
    )
    p.add_argument(
        "--players",
        default="4",
        help="players per game, 2-4 (bang-dice: 3-8); a comma list (e.g. 2,3,4) draws one per "
        "episode",
    )
    p.add_argument("--length", choices=("short", "long"), default="short", help="game length")
    p.add_argument(
        "--reward",
        choices=("win", "score", "team"),
        default=None,
        help="terminal reward: win (+1/-1/(N-1)) or score (margin over the best rival); default "
        "score; bang-dice: team (the only one)",
    )
    p.add_argument(
        "--shaping",
        type=float,
        default=None,
        help="potential-based shaping on the game's potential (granujas: the current score "
        "margin; bang-dice: the side's life margin); 0 = off (default 1 for granujas, 0 for "
        "bang-dice)",
    )
    p.add_argument(
        "--n-envs",
        type=int,
        default=None,
        help=f"envs stepped together, the learner's forward pass batched over them (default "
        f"{DEFAULT_N_ENVS}; {QUICK['n_envs']} with --quick): the forward pass costs ~870 us at "
        "batch 1 and ~120 us per sample at batch 8",
    )
    p.add_argument(
        "--vec",
        choices=("auto", *VEC_KINDS),
        default="auto",
        help="how the envs run: dummy = all in this process (DummyVecEnv); batched = as dummy, "
        "the frozen-model opponents' decisions of all the envs answered together, one forward "
        "pass per model and round (train.vec.BatchedOpponentsVecEnv: the same games; measured "
        "no faster, far slower unless OPENBLAS_NUM_THREADS=1, see train/vec.py); subproc = one "
        "process per env (SubprocVecEnv); chunked = one worker process per usable CPU core, "
        "each stepping a chunk of the envs (train.vec.ChunkedSubprocVecEnv: the same games as "
        "dummy, one pipe round trip per worker and step, the action masks in it); auto "
        f"(default) picks chunked for more than one env on at least {CHUNKED_MIN_CPUS} usable "
        "CPU cores, else dummy: on 2 shared cores (one busy with another job) 2 workers x 4 "
        "envs ran at 0.95x dummy's learner steps/s (python -m train.bench --mode full "
        "--n-envs 8; 0.66x in train.train runs under heavier load) and cost ~10%% more CPU per "
        "learner step, which projects to ~1.15x on 2 idle cores: too little for the risk",
    )
    for flag, kind, (_, default), text in (
        ("--n-steps", int, PPO_SETTINGS["n_steps"], "rollout steps per env per update"),
        ("--batch-size", int, PPO_SETTINGS["batch_size"], "minibatch size of the updates"),
        ("--n-epochs", int, PPO_SETTINGS["n_epochs"], "passes over each rollout"),
        ("--lr", float, PPO_SETTINGS["lr"], "Adam learning rate"),
        ("--gamma", float, PPO_SETTINGS["gamma"], "discount factor"),
        ("--ent-coef", float, PPO_SETTINGS["ent_coef"], "entropy bonus coefficient"),
        ("--clip-range", float, PPO_SETTINGS["clip_range"], "PPO clipping range"),
    ):
        p.add_argument(
            flag,
            type=kind,
            default=None,
            help=f"{text} (default {default}; with --resume, the resumed model's own value)",
        )
    p.add_argument(
        "--net",
        default=None,
        help=f"hidden layers of the policy and value MLPs (default {DEFAULT_NET}; not with "
        "--resume, which keeps the resumed model's network)",
    )
    p.add_argument(
        "--bc-samples",
        type=int,
        default=None,
        help="warm start: imitate the heuristic (the delegate) on this many learner "
        "decisions before PPO (default 20,000; 0 with --quick or --resume)",
    )
    p.add_argument("--bc-epochs", type=int, default=4, help="passes over the imitation data")
    p.add_argument(
        "--teacher",
        default=None,
        help="bot the warm start imitates: a bot name, a shipped model (e.g. bluffer), a model "
        ".zip or an import path (default: the advisor, else the delegate)",
    )
    p.add_argument("--checkpoint-every", type=int, default=25_000, help="steps between checkpoints")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def _split(text: str | None) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]


def _players(text: str, game: str = games.DEFAULT_GAME) -> tuple[int, ...]:
    """``--players``: a comma list of player counts of ``game`` (granujas 2-4; ValueError
    otherwise)."""
    try:
        players = tuple(int(p) for p in _split(text))
    except ValueError:
        players = ()
    if game != games.DEFAULT_GAME:
        allowed = games.get(game).players
        if not players or any(n not in allowed for n in players):
            raise ValueError(
                f"--players of {game} must be {allowed.start}..{allowed.stop - 1}, or a comma list "
                f"of them; got {text!r}"
            )
        return players
    if not players or any(not 2 <= n <= 4 for n in players):
        raise ValueError(f"--players must be 2, 3 or 4, or a comma list of them (e.g. 2,4); got {text!r}")
    return players


def game_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The game-dependent settings of ``args``: ``reward``, ``shaping``, the ``default_bot``
    and the env version; ValueError for a setting the game does not have."""
    spec = games.get(args.game)
    if args.game == games.DEFAULT_GAME:
        return {
            "reward": args.reward or "score",
            "shaping": 1.0 if args.shaping is None else args.shaping,
            "default_bot": spec.tools["default_bot"],
            "env_version": spec.env_name,
        }
    if args.reward is not None and args.reward not in spec.reward_modes:
        raise ValueError(f"--reward of {args.game} must be one of {list(spec.reward_modes)}, got {args.reward!r}")
    if args.init_from is not None:
        raise ValueError(f"--init-from is not available with --game {args.game}")
    if args.mode != "full":
        raise ValueError(f"--mode of {args.game} is full (the learner plays every decision), got {args.mode!r}")
    return {
        "reward": args.reward or spec.reward_modes[0],
        "shaping": args.shaping or 0.0,
        "default_bot": spec.tools["default_bot"],
        "env_version": spec.env_name,
    }


def _opponents_for(items: Sequence[str], players: tuple[int, ...]) -> dict[int, list[str]]:
    """``--opponents-for N=SPECS`` (each N once, one of ``players``): ``{N: specs}``."""
    pools: dict[int, list[str]] = {}
    for item in items:
        count, sep, specs = item.partition("=")
        try:
            n = int(count)
        except ValueError:
            n = 0
        if not sep or not _split(specs) or n not in players:
            raise ValueError(
                f"--opponents-for takes N=SPECS with N one of --players "
                f"({', '.join(map(str, players))}) and at least one spec; got {item!r}"
            )
        if n in pools:
            raise ValueError(f"--opponents-for: {n}-player games are given two pools")
        pools[n] = _split(specs)
    return pools


def _resume_path(text: str, game: str = games.DEFAULT_GAME) -> Path:
    """``--resume``: the model ``.zip`` it names, checked to be one this env can train further."""
    path = resolve_model(text)
    if path is None:
        raise ValueError(
            f"--resume: no model at {text!r} (expected a .zip file, e.g. "
            "runs/x/checkpoints/ckpt_20000_steps.zip, or a run folder holding model.zip)"
        )
    card_path = find_card(path)
    if card_path is not None:
        trained = trained_layout(read_card(card_path), card_path)
        current = layout_record(game=game)
        same = all(trained.get(k) == current[k] for k in ("decision_kinds", "pieces", "num_actions"))
        if not same:
            env_name = games.get(game).env_name
            raise ModelCardError(
                f"--resume: {path} was trained on another observation layout than {env_name}'s "
                f"(see {card_path}); it can be played, not trained further"
            )
    return path


def _init_from_agent(spec: str, advisor: str | None) -> PolicyAgent:
    """``--init-from``: the trained model as a :class:`PolicyAgent` (its card checked, its input
    index into today's observation known), with an advisor setting matching ``advisor``."""
    path = resolve_model(spec)
    if path is None:
        raise ValueError(
            f"--init-from: no model at {spec!r} (expected a .zip file, a run folder holding "
            "model.zip or a shipped model name)"
        )
    try:
        agent = PolicyAgent(path)
    except ModelCardError as exc:
        raise ValueError(f"--init-from: {exc}") from None
    if (agent.advisor is None) != (advisor is None):
        had = "an advisor" if agent.advisor is not None else "no advisor"
        raise ValueError(
            f"--init-from: {path} was trained with {had}; give the same --advisor setting"
        )
    return agent


def transplant(source: PolicyAgent, model: Any) -> None:
    """Copy ``source``'s weights into ``model`` (same network shape), mapping the first layers'
    input columns through the source's input index: inputs the source never saw get zero weight,
    so ``model`` computes the same outputs as ``source`` on every observation.

    Raises:
        ValueError: the networks' shapes differ (another ``--net``).
    """
    import torch

    index = source.input_index
    old, new = source.model.policy.state_dict(), model.policy.state_dict()
    if old.keys() != new.keys():
        raise ValueError("--init-from: the model's network has other layers than this --net")
    inputs = int(np.prod(model.observation_space.shape))
    for name, weight in old.items():
        target = new[name]
        first_layer = index is not None and weight.ndim == 2 and weight.shape[1] == index.size
        if first_layer and target.shape == (weight.shape[0], inputs):
            target.zero_()
            target[:, torch.as_tensor(index)] = weight
        elif weight.shape == target.shape:
            target.copy_(weight)
        else:
            raise ValueError(
                f"--init-from: layer {name} is {tuple(weight.shape)} in the model, "
                f"{tuple(target.shape)} here (another --net?)"
            )
    model.policy.load_state_dict(new)


def validate(args: argparse.Namespace) -> dict[str, Any]:
    """Check the arguments before anything is created; ValueError names the first bad one.
    Returns the parsed ``players`` and ``resume`` path."""
    if args.steps is not None and args.steps < 1:
        raise ValueError(f"--steps must be at least 1, got {args.steps}")
    if args.minutes is not None and not args.minutes > 0:
        raise ValueError(f"--minutes must be a positive number of minutes, got {args.minutes}")
    if args.until is not None:
        parse_until(args.until)
    if args.n_envs is not None and args.n_envs < 1:
        raise ValueError(f"--n-envs must be at least 1, got {args.n_envs}")
    if not (args.kl_coef >= 0 and math.isfinite(args.kl_coef)):
        raise ValueError(f"--kl-coef must be a finite number >= 0, got {args.kl_coef}")
    if args.follow_keep < 1:
        raise ValueError(f"--follow-keep must be at least 1, got {args.follow_keep}")
    if not (args.follow_weight > 0 and math.isfinite(args.follow_weight)):
        raise ValueError(f"--follow-weight must be a finite number > 0, got {args.follow_weight}")
    for folder in _split(args.follow):
        if Path(folder).exists() and not Path(folder).is_dir():
            raise ValueError(f"--follow takes folders (they may not exist yet), got {folder!r}")
    players = _players(args.players, args.game)
    settings = game_settings(args)
    checked = {
        "settings": settings,
        "players": players,
        "opponents_for": _opponents_for(args.opponents_for, players),
        "resume": None,
        "init_from": None,
    }
    if args.resume and args.init_from:
        raise ValueError("--resume and --init-from are exclusive: use one warm start")
    if args.resume and args.net:
        raise ValueError(
            "--net cannot change a resumed model's network: leave it out with --resume"
        )
    if args.resume:
        checked["resume"] = _resume_path(args.resume, args.game)
    if args.init_from:
        checked["init_from"] = _init_from_agent(args.init_from, args.advisor)
    # every bot spec builds (names, import paths, models), so a typo fails before the run starts
    for flag, specs in (
        ("--opponents", _split(args.opponents)),
        *((f"--opponents-for {n}", specs) for n, specs in checked["opponents_for"].items()),
        ("--delegate", _split(args.delegate)),
        ("--advisor", _split(args.advisor)),
        ("--teacher", _split(args.teacher)),
    ):
        for spec in specs:
            try:
                make_bot(spec, game=args.game)
            except (ValueError, FileNotFoundError) as exc:
                raise ValueError(f"{flag}: {exc}") from None
    return checked


#: Arguments a continued run may change (``--continue``): its budget, the progress bar, and the
#: folder (the run is the folder's).
CONTINUE_MAY_CHANGE = ("steps", "minutes", "until", "no_progress", "continue_run", "out")
KL_START = "kl_start.zip"  # the policy --kl-coef pulls toward, kept for a continued run


def parse_until(text: str) -> datetime:
    """``--until``: an ISO 8601 time, UTC unless it names an offset (ValueError otherwise)."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            "--until takes an ISO 8601 time such as 2026-11-27T06:00 (UTC) or "
            f"2026-11-27T06:00+01:00, got {text!r}"
        ) from None
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)


def save_checkpoint(model: Any, out: Path, run_state: dict[str, Any]) -> Path:
    """Save ``model`` (optimizer included) as ``out/checkpoints/ckpt_<steps>_steps.zip`` and the
    run's state at that point beside it (``.json``: what ``--continue`` restores). Each file is
    written whole under a temporary name, then renamed: a kill leaves no half checkpoint."""
    folder = out / "checkpoints"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"ckpt_{model.num_timesteps}_steps.zip"
    buffer = io.BytesIO()
    model.save(buffer)
    for target, data in (
        (path, buffer.getvalue()),
        (
            path.with_suffix(".json"),
            (json.dumps(run_state | {"steps": int(model.num_timesteps)}, indent=2) + "\n").encode(),
        ),
    ):
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
    return path


def newest_checkpoint(out: Path) -> tuple[Path, dict[str, Any]] | None:
    """The newest checkpoint of the run in ``out`` that has its run state beside it (written by
    :func:`save_checkpoint`), with that state; None if there is none."""
    found = []
    for path in (out / "checkpoints").glob("ckpt_*_steps.zip"):
        match = STEPS_IN_NAME.search(path.name)
        if match and path.with_suffix(".json").is_file():
            found.append((int(match.group(1)), path))
    if not found:
        return None
    path = max(found)[1]
    return path, json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))


def recorded_arguments(card: dict[str, Any]) -> list[str]:
    """The command-line arguments of the run a model card describes."""
    if isinstance(card.get("argv"), list):
        return [str(a) for a in card["argv"]]
    return shlex.split(str(card.get("command", "")))[3:]  # "python -m train.train ..."


def budget_left(
    args: argparse.Namespace, start_steps: int, steps: int, elapsed_s: float
) -> str | None:
    """Why a run at ``steps`` learner steps after ``elapsed_s`` seconds of training has nothing
    left to do under ``args``' budget (``"done"``, ``"stopped: time limit"``), or None."""
    if steps >= start_steps + args.steps:
        return "done"
    if args.minutes is not None and elapsed_s >= args.minutes * 60:
        return "stopped: time limit"
    if args.until is not None and time.time() >= parse_until(args.until).timestamp():
        return "stopped: time limit"
    return None


def continuation(args: argparse.Namespace, out: Path) -> dict[str, Any] | None:
    """What ``--continue`` finds in ``out``: None (no run there yet, or one that never reached a
    checkpoint: start afresh), else ``{"card", "checkpoint", "run_state"}`` of the run to
    continue. ValueError when ``out`` holds another run (other arguments, named) or checkpoints
    without their run state (saved before ``--continue`` existed: use ``--resume``)."""
    card_path = out / "model_card.json"
    if not card_path.is_file():
        return None
    card = read_card(card_path)
    recorded = vars(build_parser().parse_args(recorded_arguments(card)))
    differ = [
        f"--{name.replace('_', '-')} (the run's {recorded[name]!r}, given {value!r})"
        for name, value in vars(args).items()
        if name not in CONTINUE_MAY_CHANGE and recorded.get(name) != value
    ]
    if differ:
        raise ValueError(
            f"--continue: {out} holds a run with other arguments: {'; '.join(differ)} (only "
            f"--steps, --minutes, --until and --no-progress may change)"
        )
    found = newest_checkpoint(out)
    if found is None:
        if any((out / "checkpoints").glob("ckpt_*_steps.zip")):
            raise ValueError(
                f"--continue: the checkpoints in {out / 'checkpoints'} have no run state beside "
                "them (saved before --continue existed): continue one with --resume"
            )
        return None
    return {"card": card, "checkpoint": found[0], "run_state": found[1]}


def usable_cpus() -> int:
    """CPU cores this process may run on (its affinity, e.g. under ``taskset``)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def choose_vec(vec: str, n_envs: int, cpus: int | None) -> str:
    """One of :data:`VEC_KINDS`: ``vec`` unless it is ``"auto"``, which picks worker processes
    holding chunks of the envs for several envs on at least :data:`CHUNKED_MIN_CPUS` cores
    (``cpus``), else one process."""
    if vec != "auto":
        return vec
    return "chunked" if n_envs > 1 and (cpus or 1) >= CHUNKED_MIN_CPUS else "dummy"


def make_vec_env(kind: str, fns: list[Callable[[], Any]], cpus: int | None) -> Any:
    """The vectorised env of kind ``kind`` (one of :data:`VEC_KINDS`) over the env factories
    ``fns``; ``chunked`` runs one worker per core (``cpus``), at most one per env."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from train.vec import BatchedOpponentsVecEnv, ChunkedSubprocVecEnv

    if kind == "chunked":
        return ChunkedSubprocVecEnv(fns, n_workers=min(len(fns), cpus or 1))
    return {"dummy": DummyVecEnv, "batched": BatchedOpponentsVecEnv, "subproc": SubprocVecEnv}[
        kind
    ](fns)


def make_env_fn(
    rank: int,
    *,
    mode: str,
    players: tuple[int, ...],
    length: str,
    opponents: list[Any],
    weights: list[float] | None,
    delegate: Any,
    opponents_by_players: dict[int, list[Any]] | None = None,
    reward: str,
    shaping: float,
    seed: int,
    advisor: Any = None,
    game: str = games.DEFAULT_GAME,
):
    """A picklable factory of one :class:`SingleSeatEnv` (for ``SubprocVecEnv``) of ``game``."""

    def _init() -> SingleSeatEnv:
        if multiprocessing.parent_process() is not None:
            # a SubprocVecEnv worker: Ctrl-C reaches the whole process group, and the main
            # process must keep its workers to finish the step and save
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        env = SingleSeatEnv(
            num_players=players,
            game_length=length,
            decisions=mode,
            opponents=opponents,
            opponent_weights=weights,
            opponents_by_players=opponents_by_players,
            delegate=delegate,
            reward=reward,
            shaping=shaping,
            seed=seed + 1000 * rank,
            advisor=advisor,
            game=game,
        )
        env._seat_cursor = rank  # envs start their seat rotation at different seats
        return env

    return _init


def machine_info() -> dict[str, Any]:
    info: dict[str, Any] = {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
    }
    try:
        import sb3_contrib
        import stable_baselines3
        import torch

        info.update(
            torch=torch.__version__,
            stable_baselines3=stable_baselines3.__version__,
            sb3_contrib=sb3_contrib.__version__,
            torch_threads=torch.get_num_threads(),
        )
    except ImportError:  # pragma: no cover
        pass
    return info


def save_slim(model: Any, path: Path) -> None:
    """Save ``model`` without the Adam moment estimates (a third of the size) and deflated.
    ``MaskablePPO.load`` reads it as usual; training it further starts fresh moments."""
    policy = model.policy
    optimizer = policy.optimizer
    policy.optimizer = optimizer.__class__(policy.parameters(), **optimizer.defaults)
    try:
        tmp = path.with_suffix(".tmp.zip")
        model.save(tmp)
    finally:
        policy.optimizer = optimizer
    with zipfile.ZipFile(tmp) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            dst.writestr(item.filename, src.read(item.filename))
    tmp.unlink()


def behaviour_cloning(
    model: Any,
    vec_env: Any,
    samples: int,
    epochs: int,
    teacher: Any,
    seed: int,
    batch_size: int = 256,
    lr: float = 1e-3,
) -> dict[str, Any]:
    """Warm-start ``model``'s policy (and value) by imitating ``teacher`` on the learner's decisions.

    The envs of ``vec_env`` play games with the teacher in the learner's seat
    (:meth:`SingleSeatEnv.collect_demonstrations`, in parallel under ``SubprocVecEnv``); the
    actor is then fitted by maximum likelihood of the teacher's actions under the action mask and
    the critic by regression on the discounted returns of those games (without it, PPO's first
    updates follow the advantages of an untrained critic and undo the imitation).
    PPO starts from a policy about as strong as the teacher instead of a random one, which
    matters when training time is minutes."""
    import torch

    start = time.time()
    per_env = -(-samples // vec_env.num_envs)
    # each env plays with its own seed stream
    parts = vec_env.env_method("collect_demonstrations", per_env, teacher, None, model.gamma)
    obs = np.concatenate([p["obs"] for p in parts])
    masks = np.concatenate([p["masks"] for p in parts])
    actions = np.concatenate([p["actions"] for p in parts])
    returns = np.concatenate([p["returns"] for p in parts])
    collected = time.time() - start
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    n = len(actions)
    losses, value_losses, accuracy = [], [], 0.0
    for _ in range(epochs):
        order = rng.permutation(n)
        hits = 0
        for i in range(0, n, batch_size):
            idx = order[i : i + batch_size]
            x = torch.as_tensor(obs[idx], dtype=torch.float32)
            m = torch.as_tensor(masks[idx])
            a = torch.as_tensor(actions[idx])
            dist = policy.get_distribution(x, action_masks=m.numpy())
            value = policy.predict_values(x).flatten()
            target = torch.as_tensor(returns[idx])
            policy_loss = -dist.log_prob(a).mean()
            value_loss = torch.nn.functional.mse_loss(value, target)
            loss = policy_loss + 0.5 * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            losses.append(float(policy_loss.detach()))
            value_losses.append(float(value_loss.detach()))
            with torch.no_grad():
                hits += int((dist.distribution.probs.argmax(dim=1) == a).sum())
        accuracy = hits / n
    policy.set_training_mode(False)
    return {
        "samples": int(n),
        "epochs": epochs,
        "collect_s": round(collected, 1),
        "fit_s": round(time.time() - start - collected, 1),
        "final_loss": round(float(np.mean(losses[-10:])), 4) if losses else None,
        "final_value_loss": round(float(np.mean(value_losses[-10:])), 4) if value_losses else None,
        "return_std": round(float(returns.std()), 4),
        "train_accuracy": round(accuracy, 4),
    }


def _callbacks(
    args: argparse.Namespace,
    out: Path,
    vec_env: Any,
    state: dict[str, Any],
    run_state: Callable[[], dict[str, Any]],
):
    """The training callbacks: statistics, time limits, league snapshots, followed models and
    checkpoints (:func:`save_checkpoint`, with ``run_state()``). A continued run's league,
    next snapshot and time already spent come in ``state`` (``league``, ``next_snapshot``,
    ``elapsed_before``)."""
    from stable_baselines3.common.callbacks import BaseCallback

    until = None if args.until is None else parse_until(args.until).timestamp()
    save_every = max(1, args.checkpoint_every // max(1, vec_env.num_envs))

    class StatsCallback(BaseCallback):
        """Win rate and score over the last 100 episodes; the time limits; the league;
        checkpoints."""

        def __init__(self) -> None:
            super().__init__()
            self.won: deque[float] = deque(maxlen=100)
            self.score: deque[float] = deque(maxlen=100)
            self.start = state.get("t0", time.time())
            self.snapshots: list[str] = list(state.get("league", []))
            self.unreadable: set[str] = set()  # --follow files that did not load (said once)

        def _on_step(self) -> bool:
            for info in self.locals.get("infos", ()):
                if "won" in info and "episode" in info:
                    self.won.append(float(info["won"]))
                    self.score.append(float(info["score"]))
            state["episodes"] = state.get("episodes", 0) + sum(
                1 for info in self.locals.get("infos", ()) if "episode" in info
            )
            if args.league and self.num_timesteps >= state["next_snapshot"]:
                state["next_snapshot"] += args.league_every
                self._snapshot()
            if self.n_calls % save_every == 0:
                save_checkpoint(self.model, out, run_state())
            now = time.time()
            spent = state.get("elapsed_before", 0.0) + now - self.start
            if (args.minutes is not None and spent > args.minutes * 60) or (
                until is not None and now >= until
            ):
                state["stopped"] = "time limit"
            return "stopped" not in state

        def _snapshot(self) -> None:
            path = out / "league" / f"snapshot_{self.num_timesteps}_steps.zip"
            path.parent.mkdir(parents=True, exist_ok=True)
            save_slim(self.model, path)
            self.snapshots = (self.snapshots + [str(path)])[-args.league_size :]
            state["league"] = list(self.snapshots)
            self._set_pool()

        def _set_pool(self) -> None:
            league, followed = state.get("league", []), state.get("followed", [])

            def pool(bots: list[Any]) -> tuple[list[Any], list[float]]:
                weights = (
                    [args.league_bot_weight] * len(bots)
                    + [1.0] * len(league)
                    + [args.follow_weight] * len(followed)
                )
                return list(bots) + league + followed, weights

            by_players = {n: pool(bots) for n, bots in state["bots_by_players"].items()}
            vec_env.env_method("set_opponents", *pool(state["bots"]), by_players)

        def _follow(self) -> None:
            followed = state.get("followed", [])
            usable = []
            keep = args.follow_keep
            for path in (p for d in _split(args.follow) for p in newest_models(Path(d), keep)):
                if path not in followed:
                    try:  # the other run may still be writing it: tried again after each rollout
                        make_bot(path, game=args.game)
                    except Exception as exc:  # noqa: BLE001 - an unreadable file is only skipped
                        if path not in self.unreadable:
                            self.unreadable.add(path)
                            print(f"--follow: skipping {path} for now ({exc})", flush=True)
                        continue
                usable.append(path)
            if usable != followed:
                state["followed"] = usable
                history = state.setdefault("followed_history", [])
                history.extend(p for p in usable if p not in history)
                self._set_pool()
                print(f"following {usable} at {self.num_timesteps} steps", flush=True)

        def _on_training_start(self) -> None:
            # a resumed model starts at its saved step count: the first snapshot comes
            # --league-every steps into this run, not one per step until the count catches up
            # (a continued run keeps its schedule)
            state.setdefault("next_snapshot", self.model.num_timesteps + args.league_every)
            if self.snapshots:  # a continued run's league joins the pools again
                self._set_pool()
            if args.follow:
                self._follow()

        def _on_rollout_end(self) -> None:
            if args.follow:
                self._follow()
            if self.won:
                self.logger.record("rollout/win_rate", sum(self.won) / len(self.won))
                self.logger.record("rollout/score", sum(self.score) / len(self.score))
                state["win_rate_last100"] = sum(self.won) / len(self.won)
                state["score_last100"] = sum(self.score) / len(self.score)

    return [StatsCallback()]


def newest_models(folder: Path, keep: int) -> list[str]:
    """The ``keep`` newest model ``.zip`` files in ``folder`` (oldest first), newest by the step
    count in their names (``ckpt_<n>_steps.zip``, ``snapshot_<n>_steps.zip``), then by
    modification time; none if the folder does not exist yet."""
    if not folder.is_dir():
        return []

    def age(path: Path) -> tuple[int, float]:
        match = STEPS_IN_NAME.search(path.name)
        return (int(match.group(1)) if match else -1, path.stat().st_mtime)

    models = sorted(folder.glob("*.zip"), key=age)
    return [str(p) for p in models[-keep:]] if keep > 0 else []


def kl_to_start_callback(start_policy: Any, coef: float) -> Any:
    """A callback that subtracts ``coef * (log pi(a|s) - log pi0(a|s))`` from every learner
    step's reward before it enters the rollout buffer, ``pi0`` a frozen copy of
    ``start_policy`` as it is now (see the module docstring), and logs the mean per-step KL
    estimate as ``train/kl_to_start``."""
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    reference = copy.deepcopy(start_policy)
    reference.set_training_mode(False)
    for parameter in reference.parameters():
        parameter.requires_grad_(False)

    class _KLToStart(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.total = 0.0
            self.count = 0

        def _on_step(self) -> bool:
            # MaskablePPO.collect_rollouts passes these locals; ``rewards`` is the array it
            # adds to the buffer after this call, so the in-place update is what PPO learns from
            loc = self.locals
            with torch.no_grad():
                dist = reference.get_distribution(loc["obs_tensor"], action_masks=loc["action_masks"])
                start_logp = dist.log_prob(torch.as_tensor(loc["actions"]).flatten())
            gap = (loc["log_probs"] - start_logp).cpu().numpy()
            loc["rewards"] -= (coef * gap).astype(loc["rewards"].dtype)
            self.total += float(gap.sum())
            self.count += gap.size
            return True

        def _on_rollout_end(self) -> None:
            if self.count:
                self.logger.record("train/kl_to_start", self.total / self.count)
            self.total, self.count = 0.0, 0

    return _KLToStart()


def ppo_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The PPO settings given as flags, by MaskablePPO attribute (what ``--resume`` changes)."""
    return {
        attribute: getattr(args, name)
        for name, (attribute, _) in PPO_SETTINGS.items()
        if getattr(args, name, None) is not None
    }


def model_hyperparameters(model: Any) -> dict[str, Any]:
    """The PPO settings ``model`` trains with, read back from it (for the model card)."""

    def value(setting: Any) -> float:
        return float(setting(1.0)) if callable(setting) else float(setting)

    arch = model.policy.net_arch
    return {
        "n_steps": int(model.n_steps),
        "batch_size": int(model.batch_size),
        "n_epochs": int(model.n_epochs),
        "learning_rate": value(model.learning_rate),
        "gamma": float(model.gamma),
        "ent_coef": float(model.ent_coef),
        "clip_range": value(model.clip_range),
        "net_arch": [int(x) for x in (arch["pi"] if isinstance(arch, dict) else arch)],
    }


def new_model(args: argparse.Namespace, vec_env: Any, tensorboard_log: str | None = None) -> Any:
    """A fresh MaskablePPO MlpPolicy with this script's hyperparameters (``args``; the
    :data:`PPO_SETTINGS` defaults where a flag is not given), on CPU."""
    from sb3_contrib import MaskablePPO

    net = [int(x) for x in _split(args.net or DEFAULT_NET)]
    settings = {attribute: default for attribute, default in PPO_SETTINGS.values()}
    return MaskablePPO(
        "MlpPolicy",
        vec_env,
        **(settings | ppo_overrides(args)),
        policy_kwargs={"net_arch": {"pi": net, "vf": net}},
        tensorboard_log=tensorboard_log,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import VecMonitor
    except ImportError as exc:
        print(
            f"training needs torch and sb3-contrib ({exc}): pip install torch==2.13.0 && "
            "pip install -e '.[train]'",
            file=sys.stderr,
        )
        return 2
    argv = list(argv if argv is not None else sys.argv[1:])
    out = Path(args.out or f"runs/{args.mode}{'-quick' if args.quick else ''}")
    try:
        checked = validate(args)
        continued = continuation(args, out) if args.continue_run else None
    except (ValueError, ModelCardError) as exc:  # before the run folder exists
        parser.error(str(exc))

    quick = args.quick
    if quick:
        args.steps = args.steps or QUICK["steps"]
        args.n_steps = args.n_steps or QUICK["n_steps"]
        args.batch_size = args.batch_size or QUICK["batch_size"]
        args.n_epochs = args.n_epochs or QUICK["n_epochs"]
        args.checkpoint_every = QUICK["checkpoint_every"]
        args.league_every = min(args.league_every, QUICK["checkpoint_every"])
        if args.n_envs is None:
            args.n_envs = QUICK["n_envs"]
    args.steps = args.steps or DEFAULT_STEPS
    n_envs = args.n_envs or DEFAULT_N_ENVS
    cpus = usable_cpus()
    vec_kind = choose_vec(args.vec, n_envs, cpus)
    if continued is not None:
        start_steps = int(continued["run_state"]["start_steps"])
        finished = budget_left(
            args, start_steps, continued["run_state"]["steps"], continued["run_state"]["elapsed_s"]
        )
        if finished is not None:
            print(f"{out}: nothing left to do ({finished}; see {out / 'model_card.json'})")
            return 0
    elif args.until is not None and budget_left(args, 0, 0, 0.0) is not None:
        parser.error(f"--until {args.until} has passed")
    out.mkdir(parents=True, exist_ok=True)
    players = checked["players"]
    settings = checked["settings"]
    default_bot = settings["default_bot"]
    bots = _split(args.opponents) or ([default_bot, "random"] if args.league else [default_bot])
    delegate = args.delegate or default_bot
    weights = None
    bots_by_players = checked["opponents_for"]
    state: dict[str, Any] = {"bots": bots, "bots_by_players": bots_by_players}
    command = "python -m train.train " + " ".join(shlex.quote(a) for a in argv)
    card: dict[str, Any] = {
        "name": out.name,
        "game": args.game,
        "env_version": settings["env_version"],
        "observation_layout": layout_record(game=args.game),
        "command": command,
        "mode": args.mode,
        "decisions": sorted(
            MODES[args.mode] if args.game == games.DEFAULT_GAME else all_decisions(args.game)
        ),
        "delegate": None if args.mode == "full" else delegate,
        "advisor": args.advisor,
        "opponents": bots,
        "opponents_for": {str(n): specs for n, specs in bots_by_players.items()},
        "league": bool(args.league),
        "follow": _split(args.follow),
        "players": list(players),
        "game_length": args.length,
        "reward": settings["reward"],
        "shaping": settings["shaping"],
        "seed": args.seed,
        "algorithm": "sb3_contrib.MaskablePPO (MlpPolicy)",
        "hyperparameters": {"n_envs": n_envs, "vec_env": vec_kind},  # + the model's, below
        "resumed_from": None if checked["resume"] is None else str(checked["resume"]),
        "initialized_from": None
        if checked["init_from"] is None
        else str(checked["init_from"].model_path),
        "kl_coef": args.kl_coef,
        "machine": machine_info(),
        "status": "training",
        "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "argv": argv,
        "minutes": args.minutes,
        "until": None if args.until is None else parse_until(args.until).isoformat(),
    }
    if continued is not None:
        # the run's own card, the budget of this command; each start listed
        card = continued["card"] | {
            "status": "training",
            "minutes": args.minutes,
            "until": None if args.until is None else parse_until(args.until).isoformat(),
        }
        card.setdefault("continued", []).append(
            {
                "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "command": command,
                "from_checkpoint": str(continued["checkpoint"]),
                "steps": int(continued["run_state"]["steps"]),
                "elapsed_s": continued["run_state"]["elapsed_s"],
            }
        )
    card_path = out / "model_card.json"
    card_path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")

    torch.set_num_threads(1)  # small MLP: more threads only spin on a 2-core machine
    fns = [
        make_env_fn(
            i,
            mode=args.mode,
            players=players,
            length=args.length,
            opponents=bots,
            weights=weights,
            delegate=delegate,
            opponents_by_players=bots_by_players,
            reward=settings["reward"],
            shaping=settings["shaping"],
            seed=args.seed,
            advisor=args.advisor,
            game=args.game,
        )
        for i in range(n_envs)
    ]
    vec_env = VecMonitor(make_vec_env(vec_kind, fns, cpus), info_keywords=("won", "score"))
    # a continued run plays other deals than the ones its first start began with
    vec_env.seed(args.seed + 100_003 * len(card.get("continued", [])))

    if continued is not None:
        model = MaskablePPO.load(
            continued["checkpoint"], env=vec_env, device="cpu", **ppo_overrides(args)
        )
        model.tensorboard_log = str(out / "tb")
        steps_before = model.num_timesteps
    elif checked["resume"] is not None:
        # the saved settings, except those given as flags (MaskablePPO.load sets them before
        # it rebuilds the schedules and the rollout buffer)
        model = MaskablePPO.load(
            checked["resume"], env=vec_env, device="cpu", **ppo_overrides(args)
        )
        model.tensorboard_log = str(out / "tb")
        steps_before = model.num_timesteps
    else:
        model = new_model(args, vec_env, tensorboard_log=str(out / "tb"))
        steps_before = 0
        if checked["init_from"] is not None:
            transplant(checked["init_from"], model)
    card["hyperparameters"].update(model_hyperparameters(model))
    card_path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    state["t0"] = run_start = time.time()
    if continued is None:
        start_steps, episodes_before = steps_before, 0
    else:
        previous = continued["run_state"]
        state["elapsed_before"] = float(previous["elapsed_s"])
        # the snapshots by name in this run's league/ (the folder may have moved since)
        league = [out / "league" / Path(p).name for p in previous.get("league", [])]
        state["league"] = [str(p) for p in league if p.is_file()]
        if previous.get("next_snapshot") is not None:
            state["next_snapshot"] = int(previous["next_snapshot"])
        state["followed_history"] = list(previous.get("followed_history", []))
        episodes_before = int(previous.get("episodes", 0))

    def run_state() -> dict[str, Any]:
        """What a checkpoint keeps for ``--continue``."""
        return {
            "start_steps": int(start_steps),
            "elapsed_s": round(state.get("elapsed_before", 0.0) + time.time() - run_start, 1),
            "league": list(state.get("league", [])),
            "next_snapshot": state.get("next_snapshot"),
            "followed_history": list(state.get("followed_history", [])),
            "episodes": episodes_before + int(state.get("episodes", 0)),
        }

    bc_samples = args.bc_samples
    if bc_samples is None:
        bc_samples = 0 if (quick or args.resume or args.init_from) else 20_000
    if bc_samples > 0 and not (args.resume or args.init_from or continued):
        teacher = args.teacher or (None if args.advisor else delegate)  # None: the advisor
        print(f"imitating {teacher or args.advisor} on {bc_samples} decisions ...", flush=True)
        card["behaviour_cloning"] = behaviour_cloning(
            model, vec_env, bc_samples, args.bc_epochs, teacher, args.seed
        )
        card["behaviour_cloning"]["teacher"] = teacher or args.advisor
        print(f"behaviour cloning: {card['behaviour_cloning']}", flush=True)
    progress = not args.no_progress
    if progress:
        try:
            import rich  # noqa: F401
            import tqdm  # noqa: F401
        except ImportError:
            progress = False
    callbacks = _callbacks(args, out, vec_env, state, run_state)
    if args.kl_coef > 0:
        if continued is None:  # the start policy, kept for a continued run
            save_slim(model, out / KL_START)
        # read back from the file, not copied from the live policy: after imitation the live
        # policy holds tensors that are not graph leaves, which deepcopy refuses
        start_policy = MaskablePPO.load(out / KL_START, device="cpu").policy
        callbacks.append(kl_to_start_callback(start_policy, args.kl_coef))

    def stop(signum: int, _frame: Any) -> None:  # finish the step, then save model and card
        state["stopped"] = f"signal {signal.Signals(signum).name}"

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    start = time.time()
    try:
        model.learn(
            # the steps left of the run's budget (--continue: --steps counts the steps before)
            total_timesteps=start_steps + args.steps - model.num_timesteps,
            callback=callbacks,
            progress_bar=progress,
            reset_num_timesteps=not (args.resume or continued),
            tb_log_name=f"{args.mode}",
        )
    except KeyboardInterrupt:  # a second interrupt during an update, or a SubprocVecEnv worker
        state["stopped"] = "interrupted"
    wall = time.time() - run_start
    ppo_wall = time.time() - start
    trained = model.num_timesteps - steps_before
    final = run_state()
    save_checkpoint(model, out, final)
    save_slim(model, out / "model.zip")
    vec_env.close()
    card.update(
        status="done" if "stopped" not in state else f"stopped: {state['stopped']}",
        steps=int(model.num_timesteps),
        steps_this_run=int(trained),
        episodes_this_run=int(state.get("episodes", 0)),
        # all starts together (the time --minutes counts); this start's alone
        wall_time_s=final["elapsed_s"],
        wall_time_this_start_s=round(wall, 1),
        ppo_wall_time_s=round(ppo_wall, 1),
        steps_per_s=round(trained / ppo_wall, 1) if ppo_wall > 0 else None,
        win_rate_last100=state.get("win_rate_last100"),
        score_last100=state.get("score_last100"),
        league_snapshots=state.get("league", []),
        followed_models=state.get("followed_history", []),
        finished=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        model_bytes=(out / "model.zip").stat().st_size,
    )
    card_path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    print(
        f"saved {out / 'model.zip'} ({card['model_bytes']} bytes): {trained} steps in {wall:.0f} s "
        f"({card['steps_per_s']} steps/s), win rate (last 100 episodes) {card['win_rate_last100']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
