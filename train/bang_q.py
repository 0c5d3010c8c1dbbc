"""The Bang! advantage probe: does any one-step deviation from the heuristic win more?

One step of policy iteration improves a policy wherever another action has a positive
*advantage* (its expected win minus the policy's own action's, the policy playing on). This
measures it for the Bang! heuristic:

- ``collect`` plays 5-player games of default heuristics on deals ``--seed`` on. At a decision
  with a choice, with probability ``--branch``, it plays every candidate action
  (:func:`agents.bang_dice.search.decision_candidates`, the rollout bot's) out ``--playouts``
  times from the true game, heuristics in every seat and
  the same dice for every candidate (common random numbers), and records the seat's features
  (:func:`features`: its observation vector and the heuristic's beliefs and enemy scores, so
  only what the seat may know) and each candidate's win rate minus the heuristic action's.
  The game goes on with the heuristic's action.
- ``report`` reads the records and writes a JSON: the mean advantage of the alternatives by
  decision kind and role, and by what a reroll alternative changes (with standard errors); then
  :class:`AdvantageNet` learns the advantage from the features on 90% of the decisions (the
  epoch of the lowest held-out error is kept) and, on the held-out 10%, the deviations it would
  make at each margin are scored with their measured advantage. A positive total there is a
  policy improvement the features can find; a negative one says the heuristic's choices are
  not beaten by what a network learns from these records.

    python -m train.bang_q collect --seed 1000000 --games 1750 --out runs/bang_q/a.npz
    python -m train.bang_q report runs/bang_q/a.npz --json docs/results/bang_dice_advantage_probe_5p.json
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.bang_dice.heuristic import BangHeuristic
from agents.bang_dice.search import decision_candidates, play_out
from agents.base import LazyObservation
from granujas_env.bang_dice.codecs import LAYOUT
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.game import (
    DEPUTY,
    FACES,
    OUTLAW,
    RENEGADE,
    ROLES,
    SHERIFF,
    BangConfig,
    BangGame,
)
from granujas_env.bang_dice.view import BangView, seat_view
from granujas_env.cli import run_main

__all__ = ["FEATURES", "KINDS", "AdvantageNet", "features", "heuristic_decisions", "collect", "fit", "report", "main"]

ROLES4 = (SHERIFF, DEPUTY, OUTLAW, RENEGADE)
P = A.MAX_PLAYERS
#: the size of :func:`features`
FEATURES = LAYOUT.size + P * len(ROLES4) + P
#: the decision kinds recorded apart (every other kind: "other")
KINDS = ("reroll", "shoot", "beer", "other")
MARGINS = (0.0, 0.02, 0.05, 0.1)


def features(observation: np.ndarray, view: BangView, heuristic: BangHeuristic) -> np.ndarray:
    """The decision of ``view.seat`` as a vector: its observation vector, then what
    ``heuristic`` (the seat's bot, synced with ``view``) believes: each relative seat's role
    probabilities and enemy score (zeros at 3 players, where roles are open)."""
    out = np.zeros(FEATURES, dtype=np.float32)
    out[: LAYOUT.size] = observation
    n, me = view.num_players, view.seat
    if n > 3:
        marginals = heuristic.posterior(view)
        scores = heuristic.enemy_scores(view)
        base = LAYOUT.size
        for s in range(n):
            rel = (s - me) % n
            for i, role in enumerate(ROLES4):
                out[base + rel * 4 + i] = marginals[s].get(role, 0.0)
            out[base + P * 4 + rel] = np.clip(scores[s] / 4.0, -1.0, 1.0)
    return out


class AdvantageNet(nn.Module):
    """Features -> the advantage of each of the 47 actions over the heuristic's."""

    def __init__(self, hidden: int = 64) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(FEATURES, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, A.NUM_ACTIONS),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def heuristic_decisions(
    deal: int, num_players: int = 5
) -> Iterator[tuple[BangGame, BangView, LazyObservation, BangHeuristic, int]]:
    """Every decision of a game of default heuristics dealt by ``deal``, as ``(game, view,
    observation, the deciding seat's bot, its action)``, each yielded before the action is
    applied (the game goes on when the caller asks for the next; it must not change ``game``)."""
    game = BangGame(BangConfig(num_players=num_players), seed=deal)
    bots = [BangHeuristic(seed=deal * 8 + s) for s in range(num_players)]
    while not game.game_over:
        seat = game.current_player
        observation = LazyObservation(game.legal_actions(), A.NUM_ACTIONS, partial(LAYOUT.encode, game, seat))
        view = seat_view(game, seat)
        action = bots[seat].act(observation, view=view)
        yield game, view, observation, bots[seat], action
        game.apply(action)


def collect(seed: int, games: int, num_players: int = 5, branch: float = 0.2, playouts: int = 4,
            out: Path | None = None, log: Any = None) -> dict[str, np.ndarray]:
    """Records of ``games`` games dealt from ``seed`` on (module docstring), as arrays: ``x``
    (features per decision), and per candidate ``point`` (its decision's row of ``x``),
    ``action``, ``advantage``, ``is_base``, ``kind`` (index in :data:`KINDS`); saved to ``out``
    (an .npz) every 50 games and at the end when given."""
    for name, value in (("games", games), ("playouts", playouts)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")
    if not 0 < branch <= 1:
        raise ValueError(f"branch must be a probability in (0, 1], got {branch!r}")
    rng = random.Random(seed)
    xs: list[np.ndarray] = []
    rows: list[tuple[int, int, float, bool, int]] = []
    start = time.time()

    def save() -> dict[str, np.ndarray]:
        columns = list(zip(*rows)) if rows else [[]] * 5
        data = {
            "x": np.array(xs, dtype=np.float16).reshape(-1, FEATURES),
            "point": np.array(columns[0], dtype=np.int32),
            "action": np.array(columns[1], dtype=np.int8),
            "advantage": np.array(columns[2], dtype=np.float32),
            "is_base": np.array(columns[3], dtype=np.int8),
            "kind": np.array(columns[4], dtype=np.int8),
        }
        if out is not None:
            np.savez_compressed(out, **data)
        return data

    for g in range(games):
        deal = seed + g
        for game, view, observation, bot, base in heuristic_decisions(deal, num_players):
            seat = view.seat
            legal = game.legal_actions()
            if len(legal) > 1 and rng.random() < branch:
                cands = decision_candidates(view, legal, base)
                wins = dict.fromkeys(cands, 0)
                for _ in range(playouts):
                    dice_seed = rng.getrandbits(62)
                    for action in cands:
                        trial = game.clone()
                        trial.rng = random.Random(dice_seed)
                        trial.apply(action)
                        play_out(trial, [BangHeuristic(seed=dice_seed + s) for s in range(num_players)])
                        wins[action] += seat in trial.winners
                point = len(xs)
                xs.append(features(observation["observation"], view, bot))
                kind = KINDS.index(view.decision) if view.decision in KINDS else KINDS.index("other")
                rows += [(point, a, (wins[a] - wins[base]) / playouts, a == base, kind) for a in cands]
        if (g + 1) % 50 == 0 or g + 1 == games:
            data = save()
            if log:
                print(f"{g + 1} games, {len(xs)} decisions, {len(rows)} candidates, "
                      f"{time.time() - start:.0f} s", file=log, flush=True)
    return data


def load(files: Sequence[Path]) -> dict[str, np.ndarray]:
    """The records of ``files`` joined (``point`` renumbered); ValueError naming a bad file."""
    parts = []
    offset = 0
    for path in files:
        try:
            with np.load(path) as raw:
                part = {k: raw[k] for k in ("x", "point", "action", "advantage", "is_base", "kind")}
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"cannot read the advantage records {path}: {exc}") from None
        if part["x"].ndim != 2 or part["x"].shape[1] != FEATURES:
            raise ValueError(f"{path}: features of size {part['x'].shape[1:]}, expected {FEATURES}")
        part["point"] = part["point"].astype(np.int64) + offset
        offset += len(part["x"])
        parts.append(part)
    if not parts:
        raise ValueError("no advantage records given")
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def fit(data: dict[str, np.ndarray], split: int, epochs: int = 8, hidden: int = 64, seed: int = 0,
        log: Any = None) -> AdvantageNet:
    """:class:`AdvantageNet` trained on the candidates of the decisions before ``split``
    (mean squared error), the epoch of the lowest error on the others kept."""
    torch.manual_seed(seed)
    x = torch.from_numpy(data["x"].astype(np.float32))
    point = torch.from_numpy(data["point"])
    action = torch.from_numpy(data["action"].astype(np.int64))
    target = torch.from_numpy(data["advantage"])
    net = AdvantageNet(hidden)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-5)
    train_rows = torch.nonzero(point < split).flatten()
    test_rows = torch.nonzero(point >= split).flatten()

    def error(rows: torch.Tensor) -> float:
        with torch.no_grad():
            pred = net(x[point[rows]]).gather(1, action[rows, None])[:, 0]
            return ((pred - target[rows]) ** 2).mean().item()

    best = (error(test_rows), copy.deepcopy(net.state_dict()))
    for epoch in range(epochs):
        net.train()
        order = train_rows[torch.randperm(len(train_rows))]
        for i in range(0, len(order), 512):
            rows = order[i : i + 512]
            loss = ((net(x[point[rows]]).gather(1, action[rows, None])[:, 0] - target[rows]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        net.eval()
        held_out = error(test_rows)
        if held_out < best[0]:
            best = (held_out, copy.deepcopy(net.state_dict()))
        if log:
            print(f"epoch {epoch + 1}: held-out error {held_out:.5f}", file=log, flush=True)
    net.load_state_dict(best[1])
    net.eval()
    return net


def _mean(values: np.ndarray) -> dict[str, float]:
    n = len(values)
    return {"n": int(n), "mean": float(values.mean()) if n else 0.0,
            "se": float(values.std() / np.sqrt(n)) if n > 1 else 0.0,
            "positive": float((values > 0).mean()) if n else 0.0}


def report(data: dict[str, np.ndarray], epochs: int = 8, hidden: int = 64, log: Any = None) -> dict[str, Any]:
    """The probe's findings from ``data`` (module docstring) as a JSON-ready dict."""
    x, point, action = data["x"], data["point"], data["action"].astype(np.int64)
    adv, is_base, kind = data["advantage"], data["is_base"].astype(bool), data["kind"]
    o = LAYOUT.offset
    role = x[:, o["own_role"] : o["own_role"] + len(ROLES)].astype(np.float32).argmax(1)[point]
    alt = ~is_base
    by_kind = {
        f"{k} / {r}": _mean(adv[alt & (kind == ki) & (role == ri)])
        for ki, k in enumerate(KINDS) for ri, r in enumerate(ROLES)
    }
    base_action = np.zeros(len(x), dtype=np.int64)
    base_action[point[is_base]] = action[is_base]
    dice = x[:, o["dice"] : o["dice"] + A.NUM_DICE * len(FACES)].reshape(-1, A.NUM_DICE, len(FACES))
    by_change: dict[str, dict[str, float]] = {"stop": _mean(adv[alt & (kind == 0) & (action == A.STOP)])}
    diff = action ^ base_action[point]
    single = alt & (kind == 0) & (diff > 0) & ((diff & (diff - 1)) == 0)
    die = np.log2(np.maximum(diff, 1)).astype(np.int64)
    face = dice[point, die].astype(np.float32).argmax(1)
    rerolled = (action & diff) > 0
    for fi, f in enumerate(FACES):
        by_change[f"also reroll a {f}"] = _mean(adv[single & (face == fi) & rerolled])
        by_change[f"also keep a {f}"] = _mean(adv[single & (face == fi) & ~rerolled])
    split = int(0.9 * len(x))
    net = fit(data, split, epochs=epochs, hidden=hidden, log=log)
    with torch.no_grad():
        pred = net(torch.from_numpy(x[split:].astype(np.float32))).numpy()
    held: dict[int, list[int]] = {}
    for j in np.nonzero(point >= split)[0]:
        held.setdefault(int(point[j]), []).append(int(j))
    rows = point >= split
    predicted = pred[point[rows] - split, action[rows]]
    errors = {"network": float(((predicted - adv[rows]) ** 2).mean()), "zero": float((adv[rows] ** 2).mean())}
    deviations = []
    for margin in MARGINS:
        made, gain = 0, []
        for p, js in held.items():
            values = pred[p - split]
            base = next(j for j in js if is_base[j])
            best = max(js, key=lambda j: values[action[j]])
            if values[action[best]] - values[action[base]] > margin:
                made += 1
                gain.append(adv[best])
        gains = np.array(gain, dtype=np.float64)
        deviations.append({"margin": margin, "decisions": len(held), "deviations": made,
                           "advantage_per_deviation": _mean(gains),
                           "advantage_per_decision": float(gains.sum() / max(1, len(held)))})
    return {
        "kind": "advantage_probe",
        "game": "bang-dice",
        "players": 5,
        "decisions": int(len(x)),
        "candidates": int(len(adv)),
        "note": "mean advantage (win share) of one-step deviations from the heuristic, the "
                "heuristic playing on; then a network's suggested deviations on held-out decisions",
        "by_kind_and_role": by_kind,
        "reroll_changes": by_change,
        "held_out_squared_error": errors,
        "held_out_deviations": deviations,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m train.bang_q", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play heuristic games and record the candidates' advantages")
    c.add_argument("--seed", type=int, required=True, help="the first deal")
    c.add_argument("--games", type=int, default=1000)
    c.add_argument("--branch", type=float, default=0.2, help="the share of decisions probed")
    c.add_argument("--playouts", type=int, default=4, help="playouts per candidate")
    c.add_argument("--out", type=Path, required=True, help="the .npz to write")
    r = sub.add_parser("report", help="the advantages by kind and role, and a network's deviations")
    r.add_argument("files", type=Path, nargs="+", help="records written by collect")
    r.add_argument("--epochs", type=int, default=8)
    r.add_argument("--json", type=Path, required=True, help="the JSON to write")
    args = parser.parse_args(argv)
    if args.command == "collect":
        args.out.parent.mkdir(parents=True, exist_ok=True)
        collect(args.seed, args.games, branch=args.branch, playouts=args.playouts, out=args.out, log=sys.stdout)
        return 0
    result = report(load(args.files), epochs=args.epochs, log=sys.stdout)
    result["command"] = "python -m train.bang_q report " + " ".join(str(f) for f in args.files)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    for d in result["held_out_deviations"]:
        print(f"margin {d['margin']}: {d['deviations']} deviations of {d['decisions']} decisions, "
              f"{d['advantage_per_deviation']['mean']:+.4f} each")
    return 0


if __name__ == "__main__":
    run_main(main)
