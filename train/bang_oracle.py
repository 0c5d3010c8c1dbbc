"""What perfect role inference is worth in Bang! The Dice Game: the heuristic told every hidden
role (an *oracle*: it reads the deal, so it cheats by design and is never a bot of the registry),
rated by role like any agent (:mod:`train.roles`: seats in turn, roles from each game's deal).

Its margin over the plain heuristic bounds what better inference can give a bot that plays by
the heuristic's values: a policy that must beat the heuristic by more has to play better, not
only guess better (docs/bang_dice/training.md).

    python -m train.bang_oracle --players 5 --games 4000 --seed 1300000 [--weights tuned] \\
        [--json docs/results/bang_dice_oracle_5p.json]

The oracle takes one seat in turn among ``players - 1`` heuristics (the agent list
``oracle heuristic ...``); ``--weights tuned`` gives the oracle the ``tuned`` bot's weights
(the others stay default heuristics).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from agents.bang_dice.beliefs import RolePosterior
from agents.bang_dice.heuristic import BangHeuristic, load_weights
from agents.policy import make_bot
from granujas_env import games
from granujas_env.bang_dice.view import BangView
from granujas_env.cli import run_main
from train.roles import play_game, report, seating

__all__ = ["OracleHeuristic", "roles_of_deal", "seat_agents", "run_oracle", "main"]

GAME = "bang-dice"
ORACLE = "oracle"


class OracleHeuristic(BangHeuristic):
    """The Bang! heuristic whose posterior holds ``roles`` (every seat's true role) from the
    first decision: the same play, with perfect inference."""

    name = ORACLE

    def __init__(self, roles: Sequence[str], seed: int | None = None, weights: Any = None) -> None:
        super().__init__(seed=seed, weights=weights)
        self.roles = list(roles)

    def _sync(self, view: BangView) -> RolePosterior:
        belief = super()._sync(view)
        for seat in list(belief.unknown):
            belief.reveal(seat, self.roles[seat])
        return belief


def roles_of_deal(num_players: int, seed: int) -> list[str]:
    """The roles the game dealt by ``seed`` gives each seat (what :func:`train.roles.play_game`
    deals for that seed)."""
    environment = games.get(GAME).raw_env(num_players=num_players)
    environment.reset(seed=seed)
    return list(environment.game.roles)


def seat_agents(num_players: int) -> list[str]:
    """The agent list of the rating: the oracle, then ``num_players - 1`` heuristics."""
    return [ORACLE] + ["heuristic"] * (num_players - 1)


def run_oracle(num_players: int, num_games: int, seed: int, weights: str = "default") -> list[dict[str, Any]]:
    """The records of ``num_games`` games (game ``i`` dealt by ``seed + i``) of the oracle among
    heuristics, seats in turn; ``weights``: ``default`` or ``tuned`` (the oracle's)."""
    if weights not in ("default", "tuned"):
        raise ValueError(f"weights must be 'default' or 'tuned', not {weights!r}")
    oracle_weights = load_weights() if weights == "tuned" else None
    agents = seat_agents(num_players)
    records = []
    for i in range(num_games):
        roles = roles_of_deal(num_players, seed + i)

        def make(name: str, seed: int | None = None, roles: list[str] = roles) -> Any:
            if name == ORACLE:
                return OracleHeuristic(roles, seed=seed, weights=oracle_weights)
            return make_bot(name, seed=seed, game=GAME)

        records.append(play_game(GAME, seating(agents, num_players, i), seed + i, make))
    return records


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m train.bang_oracle", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    spec = games.get(GAME)
    parser.add_argument("--players", type=int, default=5,
                        help=f"{spec.players.start}..{spec.players.stop - 1} (3 players: roles are open, nothing to infer)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt by seed + i")
    parser.add_argument("--weights", choices=("default", "tuned"), default="default",
                        help="the oracle's weights: the heuristic's (default) or the tuned bot's")
    parser.add_argument("--json", metavar="FILE", help="write the summary (and the command) here")
    args = parser.parse_args(argv)
    if args.players not in spec.players or args.players == 3:
        parser.error(f"--players must be in 4..{spec.players.stop - 1} (3 players have open roles)")
    if args.games < 1:
        parser.error("--games must be at least 1")
    command = "python -m train.bang_oracle " + " ".join(sys.argv[1:] if argv is None else argv)
    report(GAME, seat_agents(args.players), args.players, args.games, args.seed, args.json, command,
           play=lambda: run_oracle(args.players, args.games, args.seed, args.weights),
           extra={"oracle_weights": args.weights})
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
