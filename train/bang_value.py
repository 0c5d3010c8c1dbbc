"""Train the win-probability network of the Bang! ``valued`` bot (agents/bang_dice/valued.py).

Plays ``--games`` games (game ``i`` dealt by ``--seed + i``, its table size drawn from
``--players`` and each seat's bot from ``--pool`` by a generator seeded the same way), and
records, at the start of every turn and once at the end, every seat's
:func:`~agents.bang_dice.valued.position_features` (read through that seat's view and the role
posterior the heuristic, hence the ``valued`` bot, would hold in that seat; at the end, the roles the game's end shows are hidden again, so a
position counts as known only what its seat knew) labelled 1 when that seat's side won. Then
fits a multilayer perceptron (``--hidden`` widths, ReLU, a logistic output) by cross-entropy
with Adam; the last tenth of the games (by seed) is held out and its loss reported beside the
loss of a constant guess. The ``.npz`` written is what
:class:`~agents.bang_dice.valued.WinProbability` reads; its ``meta`` holds the command, the seeds
and the losses.

    python -m train.bang_value --players 4 5 6 7 8 --pool heuristic expectimax --games 24000 \\
        --seed 1620000 --workers 2 --out agents/bang_dice/data/bang_value_net.npz

``--data F.npz`` saves the positions too (``--from-data F.npz ...`` fits on saved ones, several
files together, the last tenth of each file's games held out). A pool entry may carry options,
``valued:net=FILE`` (the ``valued`` bot playing another network, e.g. an earlier one, so that a
network can be trained on the games of the bot that uses the one before it). ``--init-from NET.npz``
starts from a network (same ``--hidden``) instead of a random one, a fine-tune on new positions
(``--lr``, e.g. 3e-4, and a few ``--epochs``); ``meta`` then keeps the starting network's own
``meta`` and its held-out loss on these positions.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TextIO

import numpy as np
import torch

from agents.bang_dice import BOTS, BangHeuristic
from agents.bang_dice.valued import FEATURE_SIZE, FEATURE_VERSION, WinProbability, position_features
from agents.policy import make_bot
from agents.registry import ask
from granujas_env import games as game_registry
from granujas_env.cli import run_main

__all__ = ["game_positions", "generate", "fit", "save_net", "main"]


def game_positions(seed: int, players: Sequence[int], pool: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """One game's positions (rows of features) and labels (1: that seat's side won)."""
    rng = random.Random(seed)
    n = rng.choice(list(players))
    env = game_registry.get("bang-dice").raw_env(num_players=n)
    env.reset(seed=seed)
    bots = [make_bot(rng.choice(list(pool)), seed=seed * 8 + s, game="bang-dice") for s in range(n)]
    # every seat's posterior is the one the valued bot would hold there, whoever plays the seat
    observers = [BangHeuristic() for _ in range(n)]
    game = env.game
    seats: list[int] = []
    rows: list[np.ndarray] = []
    beliefs: dict[int, dict] = {}
    turn = -1
    while not game.game_over:
        if game.turn_number != turn:
            turn = game.turn_number
            for s in range(n):
                view = env.seat_view(env.possible_agents[s])
                beliefs[s] = observers[s].posterior(view)
                seats.append(s)
                rows.append(position_features(view, beliefs[s]))
        agent = env.agent_selection
        env.step(ask(bots[env.agent_name_mapping[agent]], env.observe(agent), game, env.seat_view(agent)))
    for s in range(n):
        view = env.seat_view(env.possible_agents[s])
        # known at the end: own role, the Sheriff, the eliminated (not the roles the end shows)
        roles = [p.role if (not p.alive or p.seat in (s, game.sheriff)) else None for p in view.players]
        seats.append(s)
        rows.append(position_features(view, beliefs[s], roles=roles))
    winners = set(game.winners or ())
    return np.array(rows, dtype=np.float32), np.array([s in winners for s in seats], dtype=np.float32)


def _chunk(task: tuple[int, int, tuple[int, ...], tuple[str, ...]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lo, hi, players, pool = task
    xs, ys, gs = [], [], []
    for seed in range(lo, hi):
        x, y = game_positions(seed, players, pool)
        xs.append(x)
        ys.append(y)
        gs.append(np.full(len(y), seed, dtype=np.int64))
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(gs)


def generate(
    players: Sequence[int], pool: Sequence[str], num_games: int, seed: int, workers: int = 1
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions, labels and each position's game seed for games ``seed .. seed + num_games - 1``
    (the same whatever ``workers``)."""
    step = max(1, min(200, num_games // max(1, workers * 4)))
    tasks = [(lo, min(lo + step, seed + num_games), tuple(players), tuple(pool))
             for lo in range(seed, seed + num_games, step)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as executor:
            parts = list(executor.map(_chunk, tasks))
    else:
        parts = [_chunk(task) for task in tasks]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))  # type: ignore[return-value]


def _check_start(init: WinProbability, inputs: int, hidden: Sequence[int]) -> None:
    """ValueError unless ``init`` has the layers of a network of ``inputs`` and ``hidden`` widths."""
    widths = [w.shape[1] for w, _ in init.layers[:-1]]
    if init.layers[0][0].shape[0] != inputs or widths != list(hidden):
        raise ValueError(f"the network to start from has hidden widths {widths}; --hidden is {list(hidden)} "
                         f"(its inputs: {init.layers[0][0].shape[0]}, the positions': {inputs})")


def fit(
    x: np.ndarray, y: np.ndarray, held_out: np.ndarray, hidden: Sequence[int] = (128, 128),
    epochs: int = 6, seed: int = 0, log: TextIO | None = None,
    init: WinProbability | None = None, lr: float = 1e-3,
) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """Fit the network on the rows not ``held_out``; its arrays (``w0, b0, ...``) and the losses
    (train, held out, a constant guess on the held out, and with ``init``, the starting network's
    held-out loss). ``init``: a network of these widths to start from (a fine-tune) instead of a
    random one; ``lr``: Adam's step size, 0.3 of it over the last epochs."""
    torch.manual_seed(seed)
    sizes = [x.shape[1], *hidden, 1]
    layers: list[torch.nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*layers)
    train_x, train_y = torch.tensor(x[~held_out]), torch.tensor(y[~held_out])
    test_x, test_y = torch.tensor(x[held_out]), torch.tensor(y[held_out])
    loss_fn = torch.nn.BCEWithLogitsLoss()
    losses: dict[str, float] = {}
    if init is not None:
        _check_start(init, x.shape[1], hidden)
        with torch.no_grad():
            for linear, (w, b) in zip((m for m in net if isinstance(m, torch.nn.Linear)), init.layers):
                linear.weight.copy_(torch.from_numpy(w.T.copy()))
                linear.bias.copy_(torch.from_numpy(b))
            losses["init_held_out_loss"] = loss_fn(net(test_x).squeeze(1), test_y).item() if len(test_x) else float("nan")
        if log:
            print(f"the starting network: held out {losses['init_held_out_loss']:.4f}", file=log, flush=True)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    generator = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        if epoch == max(1, epochs - 2):
            for group in optimizer.param_groups:
                group["lr"] = lr * 0.3  # the last epochs settle (3e-4 exactly at the default)
        order = torch.randperm(len(train_x), generator=generator)
        total = 0.0
        for i in range(0, len(order), 2048):
            batch = order[i : i + 2048]
            loss = loss_fn(net(train_x[batch]).squeeze(1), train_y[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(batch)
        with torch.no_grad():
            held = loss_fn(net(test_x).squeeze(1), test_y).item() if len(test_x) else float("nan")
        losses |= {"train_loss": total / max(1, len(order)), "held_out_loss": held}
        if log:
            print(f"epoch {epoch + 1}/{epochs}: train {losses['train_loss']:.4f}, held out {held:.4f}",
                  file=log, flush=True)
    rate = float(train_y.mean()) if len(train_y) else 0.5
    rate = min(max(rate, 1e-6), 1 - 1e-6)
    guess = torch.full_like(test_y, float(np.log(rate / (1 - rate))))
    losses["constant_guess_loss"] = loss_fn(guess, test_y).item() if len(test_y) else float("nan")
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    arrays = {f"w{i}": m.weight.detach().numpy().T.copy() for i, m in enumerate(linears)}
    arrays |= {f"b{i}": m.bias.detach().numpy().copy() for i, m in enumerate(linears)}
    return arrays, losses


def save_net(path: Path, arrays: dict[str, np.ndarray], meta: dict) -> None:
    """Write a network file and check it loads."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        np.savez(handle, meta=np.array(json.dumps(meta | {"feature_version": FEATURE_VERSION})), **arrays)
    WinProbability(path)


def _last_tenth(game: np.ndarray) -> np.ndarray:
    """Which positions are held out: those of the last tenth of the games (by seed) of one
    set of games, none when it has a single game."""
    seeds = np.unique(game)
    return game >= seeds[int(len(seeds) * 0.9)] if len(seeds) > 1 else np.zeros(len(game), dtype=bool)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m train.bang_value", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 5, 6, 7, 8],
                        help="table sizes drawn per game (4-8; repeat one to weigh it)")
    parser.add_argument("--pool", nargs="+", default=["heuristic", "expectimax"],
                        help=f"bots drawn per seat, from {sorted(BOTS)}, each with options as "
                        "`name:key=value` (valued:net=FILE: another network)")
    parser.add_argument("--games", type=int, default=24000)
    parser.add_argument("--seed", type=int, default=1620000, help="game i is dealt by seed + i")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--hidden", type=int, nargs="+", default=[128, 128])
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--data", type=Path, help="also save the positions to this .npz")
    parser.add_argument("--from-data", type=Path, nargs="+", help="fit on saved positions instead of playing")
    parser.add_argument("--init-from", type=Path,
                        help="a network file (same --hidden widths) to start from: a fine-tune on these positions")
    parser.add_argument("--lr", type=float, default=1e-3,
                        help="Adam's step size (default 1e-3), 0.3 of it over the last two epochs")
    parser.add_argument("--out", type=Path, required=True, help="the network file to write (.npz)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Command line (module docstring)."""
    args = _parser().parse_args(argv)
    if any(not 4 <= n <= 8 for n in args.players):
        raise ValueError(f"--players must be 4..8 (the features' table sizes), got {args.players}")
    bad = [name for name in args.pool if name.split(":")[0] not in BOTS]
    if bad:
        raise ValueError(f"--pool: unknown bots {bad}; choose from {sorted(BOTS)}")
    for name in args.pool:  # a bad option or network file fails before any game
        make_bot(name, seed=0, game="bang-dice")
    for name in ("games", "workers", "epochs"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name} must be >= 1, got {getattr(args, name)}")
    if any(h < 1 for h in args.hidden):
        raise ValueError(f"--hidden widths must be >= 1, got {args.hidden}")
    if not 0 < args.lr < 1:
        raise ValueError(f"--lr must be in (0, 1), got {args.lr}")
    init = None
    if args.init_from:
        init = WinProbability(args.init_from)
        try:  # before any game is played
            _check_start(init, FEATURE_SIZE, args.hidden)
        except ValueError as exc:
            raise ValueError(f"--init-from {args.init_from}: {exc}") from None
    start = time.time()
    if args.from_data:
        parts = []
        for path in args.from_data:
            try:
                with np.load(path) as data:
                    parts.append((data["x"], data["y"], data["game"]))
            except (OSError, KeyError, ValueError) as exc:
                raise ValueError(f"--from-data {path}: not a positions file ({exc})") from None
            if parts[-1][0].ndim != 2 or parts[-1][0].shape[1] != FEATURE_SIZE:
                raise ValueError(f"--from-data {path}: rows of {FEATURE_SIZE} features expected")
        x, y, game = (np.concatenate([p[i] for p in parts]) for i in range(3))
        game_sets = [part[2] for part in parts]
    else:
        x, y, game = generate(args.players, args.pool, args.games, args.seed, args.workers)
        print(f"{len(y)} positions from {args.games} games in {time.time() - start:.0f} s", flush=True)
        if args.data:
            args.data.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(args.data, x=x, y=y, game=game)
        game_sets = [game]
    held_sets = [_last_tenth(games) for games in game_sets]
    held_out = np.concatenate(held_sets)
    # one entry per set of games (one per --from-data file): their seeds and the first held out
    seeds = [[int(games.min()), int(games.max())] for games in game_sets]
    first_held = [int(games[held].min()) if held.any() else None for games, held in zip(game_sets, held_sets)]
    arrays, losses = fit(x, y, held_out, args.hidden, args.epochs, log=sys.stdout, init=init, lr=args.lr)
    started = {} if init is None else {"init_from": {"file": str(args.init_from), "meta": init.meta}}
    save_net(args.out, arrays, started | {
        "command": "python -m train.bang_value " + " ".join(sys.argv[1:] if argv is None else argv),
        "positions": int(len(y)), "games": sum(len(np.unique(games)) for games in game_sets),
        "seeds": seeds[0] if len(seeds) == 1 else seeds,
        "held_out_from_seed": first_held[0] if len(first_held) == 1 else first_held,
        **{k: round(v, 5) for k, v in losses.items()},
        "wall_s": round(time.time() - start, 1),
    })
    print(f"wrote {args.out}: held-out loss {losses['held_out_loss']:.4f} "
          f"(a constant guess {losses['constant_guess_loss']:.4f})")
    return 0


if __name__ == "__main__":
    run_main(main)
