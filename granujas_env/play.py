"""Play one full game, narrated, ending in the score table: bots only, or you against the bots.

    python -m granujas_env.play --players 4 --seed 0 [--length short] [--agents random,random,...]
    python -m granujas_env.play --human 0 --agents full,heuristic,heuristic [--record game.json]

Bots only: every public event is narrated (declared slots, challenges, reveals, hires, Safes
taken...) with every change of money, reputation, henchmen and Safes and its cause, as a
spectator at the table would see them, ending with the game-over line and each score's sources. With ``--human SEAT`` you play that seat:
at each of your decisions the screen shows exactly your seat's information (the events since your
last decision, the table with your hand, your card values and the Safes you have seen) and the
legal actions as a numbered menu; answer with an id, an action name or words that begin a menu
line (``challenge``, ``pass``, ``yes``/``no``). Decisions with no real choice (one legal action,
rearranging a sheet whose order changes nothing) are played for you and said; ``--auto-pass``
passes every challenge window for you.
``quit``, Ctrl-D or Ctrl-C abandon the game (exit status 130). The final table shows every Safe and
the score breakdown. ``--record FILE`` saves the game (also an abandoned one, up to where it
stopped) as a game record that ``python -m granujas_env.record show FILE`` replays.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import TextIO

import agents
from agents.human import HumanAgent, QuitGame
from agents.policy import available_models, make_bot
from agents.registry import ask

from .cli import run_main
from .env import raw_env
from .record import record_game
from .render import render_text
from .text import Narrator
from .view import seat_view

DEFAULT_AGENTS = "heuristic,honest,random,heuristic"
HUMAN_OPPONENT = "heuristic"  # the bots of a --human game when --agents is not given
ABANDONED = 130  # exit status of an abandoned game (128 + SIGINT, as a shell reports Ctrl-C)


def seat_names(players: int | None, agent_list: str | None, human: int | None) -> list[str]:
    """One agent name per seat (``"human"`` at the human's seat), from the command line's
    ``--players``, ``--agents`` and ``--human``. Raises ``ValueError`` naming what does not fit."""
    if players is not None and not 2 <= players <= 4:
        raise ValueError(f"--players must be 2, 3 or 4, got {players}")
    names = agent_list.split(",") if agent_list else None
    if any(not name.strip() for name in names or ()):
        raise ValueError(f"--agents has an empty name: {agent_list!r}")
    if human is None:
        if names is None:
            return DEFAULT_AGENTS.split(",")[: 4 if players is None else players]
        n = players if players is not None else (len(names) if len(names) > 1 else 4)
        if len(names) == 1:
            names = names * n
        if len(names) != n:
            raise ValueError(f"--agents needs 1 or {n} names (one per seat), got {len(names)}")
        return names
    names = names or [HUMAN_OPPONENT]
    n = players if players is not None else (len(names) + 1 if len(names) > 1 else 4)
    if len(names) == 1:
        names = names * (n - 1)
    if len(names) != n - 1:
        raise ValueError(f"with --human, --agents names the other {n - 1} seats: 1 or {n - 1} "
                         f"names, got {len(names)}")
    if not 0 <= human < n:
        raise ValueError(f"--human must be a seat 0..{n - 1} of the {n} players, got {human}")
    return [*names[:human], "human", *names[human:]]


def main(argv: list[str] | None = None, *, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    """The command line; ``stdin``/``stdout`` replace the terminal (for tests). Returns the exit
    status: 0 played, 2 bad arguments, 130 abandoned."""
    out = stdout if stdout is not None else sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m granujas_env.play", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--players", type=int, default=None,
                        help="2, 3 or 4 (default: as many as --agents and --human name, else 4)")
    parser.add_argument("--length", default="short", help="short (2 days) or long (3 days)")
    parser.add_argument("--seed", type=int, default=0, help="deal and bot seed (default 0)")
    parser.add_argument("--strategy-cards", action="store_true", help="use the Strategy cards rule")
    parser.add_argument(
        "--agents", default=None,
        help="comma-separated bots, one per seat (the other seats with --human) or one for all: "
        f"registered bots ({', '.join(agents.available())}), shipped models "
        f"({', '.join(available_models()) or 'none'}), a model .zip or run folder, or an import "
        f"path module:attribute (default: {DEFAULT_AGENTS}; {HUMAN_OPPONENT} with --human)",
    )
    parser.add_argument("--human", type=int, default=None, metavar="SEAT",
                        help="play this seat yourself at the terminal")
    parser.add_argument("--auto-pass", action="store_true",
                        help="with --human: never ask whether to challenge (always pass)")
    parser.add_argument("--record", default=None, metavar="FILE",
                        help="save the game as a game record (python -m granujas_env.record show)")
    args = parser.parse_args(argv)
    try:
        names = seat_names(args.players, args.agents, args.human)
        if args.record is not None and Path(args.record).is_dir():
            raise ValueError(f"--record {args.record!r} is a folder; name a file")
        env = raw_env(num_players=len(names), game_length=args.length,
                      strategy_cards=args.strategy_cards)
        bots = [
            HumanAgent(input=stdin, output=out, auto_pass=args.auto_pass) if name == "human"
            else make_bot(name, seed=args.seed + seat)
            for seat, name in enumerate(names)
        ]
    except (ValueError, ImportError) as exc:  # ImportError: a model without the [train] extra
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return _play(env, bots, names, args, out)


def _play(env: raw_env, bots: list, names: list[str], args: argparse.Namespace,
          out: TextIO) -> int:
    env.reset(seed=args.seed)
    game = env.game
    assert game is not None
    for seat, bot in enumerate(bots):
        bot.reset(seed=args.seed + seat)
    humans = [seat for seat, bot in enumerate(bots) if isinstance(bot, HumanAgent)]
    # seats whose agent narrates the game (people, language models): fed after every action
    observers = [seat for seat, bot in enumerate(bots) if callable(getattr(bot, "observe", None))]
    for seat in observers:  # the start: their narrators then follow every action
        bots[seat].observe(seat_view(game, seat))
    say = functools.partial(print, file=out, flush=True)
    say(f"3000 Granujas, {len(names)} players, {args.length} game, seed {args.seed}")
    say(", ".join(f"p{i}: {name}" for i, name in enumerate(names)))
    # a spectator's narration (every change with its cause); a human sees it at its decisions
    spectator = None if humans else Narrator(game.catalog, game.rules)
    if spectator is not None:
        say(f"\n--- day 1 begins; p{game.first_player} plays first ---")
        spectator.update(seat_view(game, 0))  # only public fields are narrated
    actions: list[int] = []
    status = 0
    try:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = env.agent_name_mapping[agent]
            bot = bots[seat]
            view = env.seat_view(agent) if getattr(bot, "wants_view", True) else None
            action = ask(bot, obs, game, view=view)  # the search bot gets the game too
            env.step(action)
            actions.append(action)
            for seat in observers:  # narrated after every action: each change with its cause
                bots[seat].observe(seat_view(game, seat))
            if spectator is not None:
                for line in spectator.update(seat_view(game, 0)):
                    say(line)
    except (KeyboardInterrupt, QuitGame) as exc:
        reason = "interrupted" if isinstance(exc, KeyboardInterrupt) else str(exc)
        print(f"\n{reason}: game abandoned after {len(actions)} actions", file=sys.stderr)
        status = ABANDONED
    else:
        for seat in humans:
            bots[seat].game_over(seat_view(game, seat))
        say("")
        say(render_text(game))
    if args.record is not None:
        record = record_game(game.config, game.seed, actions, catalog=env.catalog,
                             meta={"tool": "granujas_env.play", "agents": names,
                                   "finished": game.game_over})
        path = record.save(args.record)
        print(f"game record saved to {path} (python -m granujas_env.record show {path})",
              file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(run_main(main))
