"""Train the Bang! heuristic's weights, role by role, by the cross-entropy method.

The heuristic (agents/bang_dice/heuristic.py) plays by a :class:`Weights` set per role. This
searches each role's set for the one that wins that role most often at a table of the default
heuristic: every generation draws ``--population`` sets around the current mean (the first is
the mean itself), plays each in ``--games`` games in the role's seat (the same deals for every
set of the generation, so their differences are measured, not the deals' luck; new deals each
generation), and moves the mean and the spread to the best quarter. Deals come from
``--seed`` on (generation ``g``'s from ``seed + g * games``); rate the result on other seeds.
``--bot expectimax`` trains the weights of the ``expectimax`` bot instead (the heuristic with
planned rerolls, agents/bang_dice/expectimax.py) in that seat, the table still default heuristics;
the weights only the heuristic's own rerolls read (:data:`REROLL_ONLY`) are left out.

    python -m train.bang_tune --roles outlaw renegade --players 5 --generations 8 \\
        --population 20 --games 800 --seed 600000 --out runs/bang_tune/a.json

The file holds ``{"weights": {role: {name: value}}, "history": [...], "arguments": {...}}``;
``weights`` is what :func:`agents.bang_dice.heuristic.weights_from` reads (the ``tuned`` bot's
data file, agents/bang_dice/data/tuned_weights.json, is one).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from agents.bang_dice.expectimax import ExpectimaxHeuristic
from agents.bang_dice.heuristic import DEFAULT_WEIGHTS, BangHeuristic, Weights
from agents.bang_dice.search import play_out
from granujas_env.bang_dice.engine.game import (
    DEPUTY,
    OUTLAW,
    RENEGADE,
    SHERIFF,
    BangConfig,
    BangGame,
)
from granujas_env.cli import run_main

__all__ = ["BOTS", "REROLL_ONLY", "TUNED", "evaluate", "tuned_names", "tune", "main"]

_COMMON = ("self_value", "beer_weight", "reroll_risk", "arrow_risk", "arrow_weight", "kill_bonus",
           "heal_urgency", "gatling_threshold", "gatling_bonus", "dynamite_stop_life")
#: the weights tuned for each role (the others do not change what that role does at 4-8 players,
#: or, as Bart Cassidy's, matter in too few games to be measured)
TUNED: dict[str, tuple[str, ...]] = {
    SHERIFF: ("hurt_deputy", "hurt_outlaw", "hurt_renegade", "hurt_renegade_alone", *_COMMON),
    DEPUTY: ("hurt_deputy", "hurt_outlaw", "hurt_renegade", "hurt_renegade_alone", *_COMMON),
    OUTLAW: ("hurt_sheriff", "hurt_deputy", "hurt_outlaw", "hurt_renegade", *_COMMON),
    RENEGADE: ("hurt_sheriff", "hurt_deputy", "hurt_outlaw", "renegade_balance", "renegade_guard",
               "renegade_guard_value", "renegade_last_sheriff", *_COMMON),
}
#: the bots whose weights can be trained, by name
BOTS: dict[str, type[BangHeuristic]] = {"heuristic": BangHeuristic, "expectimax": ExpectimaxHeuristic}
#: weights read by the heuristic's own reroll rule only (the ``expectimax`` bot plans instead)
REROLL_ONLY = frozenset({"reroll_risk", "arrow_risk", "gatling_threshold", "gatling_bonus", "dynamite_stop_life"})


def tuned_names(role: str, bot: str = "heuristic") -> tuple[str, ...]:
    """The weights of ``role`` that training ``bot`` searches."""
    names = TUNED[role]
    return names if bot == "heuristic" else tuple(n for n in names if n not in REROLL_ONLY)


def evaluate(
    role: str, weights: Weights, num_players: int, seeds: Sequence[int], bot: str = "heuristic"
) -> float:
    """The share of the games dealt by ``seeds`` that ``bot`` (a name of :data:`BOTS`) playing
    ``role`` with ``weights`` wins among default heuristics (it takes the deal's first seat of
    that role, the next one of that role in every other game when there are several)."""
    wins = 0
    for i, seed in enumerate(seeds):
        game = BangGame(BangConfig(num_players=num_players), seed=seed)
        seats = [s for s, r in enumerate(game.roles) if r == role]
        seat = seats[i % len(seats)]
        bots = [BangHeuristic(seed=seed * 8 + s) for s in range(num_players)]
        bots[seat] = BOTS[bot](seed=seed * 8 + seat, weights={role: weights})
        play_out(game, bots)
        wins += seat in game.winners
    return wins / len(seeds)


def tune(
    role: str,
    num_players: int,
    generations: int,
    population: int,
    games: int,
    seed: int,
    log: Any = None,
    bot: str = "heuristic",
) -> tuple[Weights, list[dict[str, Any]]]:
    """Cross-entropy search of ``role``'s weights for ``bot`` (module docstring); the final mean
    and the history (per generation: the mean's and the best set's win rates, the spread)."""
    names = tuned_names(role, bot)
    start = DEFAULT_WEIGHTS[role]
    mean = np.array([getattr(start, n) for n in names])
    spread = 0.25 * np.maximum(np.abs(mean), 0.4)
    floor = 0.03 * np.maximum(np.abs(mean), 0.4)
    rng = np.random.default_rng(seed)
    elites = max(2, population // 4)
    history = []
    for g in range(generations):
        seeds = range(seed + g * games, seed + (g + 1) * games)
        sets = [mean] + [mean + spread * rng.standard_normal(len(names)) for _ in range(population - 1)]
        scores = [
            evaluate(role, _weights(start, names, v), num_players, seeds, bot) for v in sets
        ]
        order = np.argsort(scores)[::-1][:elites]
        best = np.array([sets[i] for i in order])
        mean = best.mean(axis=0)
        spread = np.maximum(0.5 * spread + 0.5 * best.std(axis=0), floor)
        row = {"generation": g, "mean_rate": scores[0], "best_rate": float(scores[order[0]]),
               "elite_rate": float(np.mean([scores[i] for i in order]))}
        history.append(row)
        if log is not None:
            print(f"{role} {row}", file=log, flush=True)
    return _weights(start, names, mean), history


def _weights(start: Weights, names: Sequence[str], values: np.ndarray) -> Weights:
    return Weights(**{**asdict(start), **{n: float(round(v, 4)) for n, v in zip(names, values)}})


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m train.bang_tune",
        description="Train the Bang! heuristic's weights per role by the cross-entropy method.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--roles", nargs="+", choices=sorted(TUNED), default=sorted(TUNED), help="roles to tune")
    p.add_argument("--players", type=int, default=5, help="players per game, 4-8")
    p.add_argument("--generations", type=int, default=8, help="generations of the search")
    p.add_argument("--population", type=int, default=20, help="weight sets per generation (>= 4)")
    p.add_argument("--games", type=int, default=800, help="games per weight set and generation")
    p.add_argument("--seed", type=int, default=600_000, help="first deal (and the search's seed)")
    p.add_argument("--bot", choices=sorted(BOTS), default="heuristic", help="the bot whose weights to train")
    p.add_argument("--out", type=Path, required=True, help="JSON file to write")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Command line (module docstring)."""
    args = _parser().parse_args(argv)
    if not 4 <= args.players <= 8:
        raise ValueError(f"--players must be 4..8 (3 players have no hidden roles), got {args.players}")
    for name in ("generations", "games"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name} must be >= 1, got {getattr(args, name)}")
    if args.population < 4:
        raise ValueError(f"--population must be >= 4, got {args.population}")
    start = time.time()
    weights, history = {}, {}
    for role in args.roles:
        tuned, history[role] = tune(role, args.players, args.generations, args.population, args.games,
                                    args.seed, log=sys.stdout, bot=args.bot)
        weights[role] = {n: getattr(tuned, n) for n in tuned_names(role, args.bot)}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({
            "weights": weights,
            "history": history,
            "arguments": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
            "wall_s": round(time.time() - start, 1),
        }, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    run_main(main)
