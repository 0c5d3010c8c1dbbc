"""Play one full game, narrated, ending with the final table: bots only, or you against the bots.

    python -m granujas_env.play --players 4 --seed 0 [--length short] [--agents random,random,...]
    python -m granujas_env.play --human 0 --agents full,heuristic,heuristic [--record game.json]
    python -m granujas_env.play --game bang-dice --players 5 --seed 0 [--human 0]

``--game`` names the game (default granujas; ``bang-dice``: Bang! The Dice Game). Bots only:
every public event is narrated as a spectator at the table would see it. In 3000 Granujas that
is every declared slot, challenge, reveal, hire and Safe taken, with every change of money,
reputation, henchmen and Safes and its cause, ending with the game-over line and each score's
sources; in Bang! every roll, arrow, shot, beer, Indian attack and elimination, ending with every
role revealed and the winners. With ``--human SEAT`` you play that seat: at each of your
decisions the screen shows exactly your seat's information (the events since your last
decision, the table as your seat sees it: in granujas your hand, card values and the Safes you
have seen; in Bang! your role, the Sheriff, the revealed roles, every player's life and arrows,
the dice with the locked ones and the rerolls left) and the legal actions as a numbered menu in
plain words; answer with an id, an action name or words that begin a menu line (``challenge``,
``pass``, ``yes``/``no``, ``reroll 2 4``, ``keep all``, a character's name). Decisions with no
real choice (one legal action, rearranging a sheet whose order changes nothing) are played for
you and said; ``--auto-pass`` passes every granujas challenge window for you.
``quit``, Ctrl-D or Ctrl-C abandon the game (exit status 130). The final table shows every
secret (granujas: every Safe and the score breakdown; Bang!: every role). ``--record FILE``
saves the game (also an abandoned one, up to where it stopped) as a game record that
``python -m granujas_env.record show FILE`` replays.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any, TextIO

import agents
from agents.human import HumanAgent, QuitGame
from agents.policy import available_models, make_bot
from agents.registry import ask

from . import games
from .cli import run_main
from .core.textio import text_game
from .record import record_game

DEFAULT_AGENTS = "heuristic,honest,random,heuristic"  # granujas' bots-only table
HUMAN_OPPONENT = "heuristic"  # the bots of a granujas --human game when --agents is not given
ABANDONED = 130  # exit status of an abandoned game (128 + SIGINT, as a shell reports Ctrl-C)
#: bots that play any game through its text (the granujas registry holds them)
TEXT_BOTS = ("llm",)
GRANUJAS_OPTIONS = {"length": "short", "strategy_cards": False}  # --length, --strategy-cards


def _players_words(players: range) -> str:
    seats = [str(n) for n in players]
    return f"{', '.join(seats[:-1])} or {seats[-1]}" if len(seats) <= 3 else \
        f"{seats[0]} to {seats[-1]}"


def seat_names(players: int | None, agent_list: str | None, human: int | None,
               *, game: str = games.DEFAULT_GAME) -> list[str]:
    """One agent name per seat (``"human"`` at the human's seat), from the command line's
    ``--players``, ``--agents`` and ``--human``. Raises ``ValueError`` naming what does not fit.
    Defaults: granujas' mixed table of :data:`DEFAULT_AGENTS` (4 seats); another game's
    default bot (its spec's ``tools["default_bot"]``) at every seat of 5 (or its fewest)."""
    spec = games.get(game)
    if players is not None and players not in spec.players:
        raise ValueError(f"--players must be {_players_words(spec.players)}, got {players}")
    granujas = game == games.DEFAULT_GAME
    default_n = 4 if granujas else max(5, spec.players.start)
    names = agent_list.split(",") if agent_list else None
    if any(not name.strip() for name in names or ()):
        raise ValueError(f"--agents has an empty name: {agent_list!r}")
    seats = _seats(players, names, human, default_n, granujas, spec.tools["default_bot"])
    if len(seats) not in spec.players:
        raise ValueError(f"{game} is played by {_players_words(spec.players)} players; "
                         f"--agents{' and --human' * (human is not None)} name {len(seats)} seats")
    return seats


def _seats(players: int | None, names: list[str] | None, human: int | None, default_n: int,
           granujas: bool, default_bot: str) -> list[str]:
    if human is None:
        if names is None:
            if granujas:
                return DEFAULT_AGENTS.split(",")[: default_n if players is None else players]
            names = [default_bot]
        n = players if players is not None else (len(names) if len(names) > 1 else default_n)
        if len(names) == 1:
            names = names * n
        if len(names) != n:
            raise ValueError(f"--agents needs 1 or {n} names (one per seat), got {len(names)}")
        return names
    names = names or [HUMAN_OPPONENT if granujas else default_bot]
    n = players if players is not None else (len(names) + 1 if len(names) > 1 else default_n)
    if len(names) == 1:
        names = names * (n - 1)
    if len(names) != n - 1:
        raise ValueError(f"with --human, --agents names the other {n - 1} seats: 1 or {n - 1} "
                         f"names, got {len(names)}")
    if not 0 <= human < n:
        raise ValueError(f"--human must be a seat 0..{n - 1} of the {n} players, got {human}")
    return [*names[:human], "human", *names[human:]]


def make_seat_bot(game: str, name: str, seed: int) -> Any:
    """The bot ``name`` of ``game``: granujas' through :func:`agents.policy.make_bot` (shipped
    models and model paths too), another game's through its registry, and the text bots
    (:data:`TEXT_BOTS`) for every game."""
    if game == games.DEFAULT_GAME:
        return make_bot(name, seed=seed)
    if name in TEXT_BOTS:
        return agents.make(name, seed=seed)
    return agents.make(name, game=game, seed=seed)


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's options from the command line (ValueError for another game's option)."""
    given = {k: getattr(args, k) for k in GRANUJAS_OPTIONS if getattr(args, k) is not None}
    if args.game == games.DEFAULT_GAME:
        options = {**GRANUJAS_OPTIONS, **given}
        return {"game_length": options["length"], "strategy_cards": options["strategy_cards"]}
    if given:
        flags = ", ".join("--" + k.replace("_", "-") for k in given)
        raise ValueError(f"{flags}: options of granujas, not of {args.game}")
    return {}


def main(argv: list[str] | None = None, *, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    """The command line; ``stdin``/``stdout`` replace the terminal (for tests). Returns the exit
    status: 0 played, 2 bad arguments, 130 abandoned."""
    out = stdout if stdout is not None else sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m granujas_env.play", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", default=games.DEFAULT_GAME, choices=games.available(),
                        help=f"the game (default {games.DEFAULT_GAME})")
    parser.add_argument("--players", type=int, default=None,
                        help="granujas: 2, 3 or 4; bang-dice: 3 to 8 (default: as many as "
                        "--agents and --human name, else 4 for granujas, 5 for bang-dice)")
    parser.add_argument("--length", default=None,
                        help="granujas: short (2 days, the default) or long (3 days)")
    parser.add_argument("--seed", type=int, default=0, help="deal and bot seed (default 0)")
    parser.add_argument("--strategy-cards", action="store_const", const=True, default=None,
                        help="granujas: use the Strategy cards rule")
    parser.add_argument(
        "--agents", default=None,
        help="comma-separated bots, one per seat (the other seats with --human) or one for all. "
        f"granujas: registered bots ({', '.join(agents.available())}), shipped models "
        f"({', '.join(available_models()) or 'none'}), a model .zip or run folder, or an import "
        f"path module:attribute (default: {DEFAULT_AGENTS}; {HUMAN_OPPONENT} with --human); "
        "another game: its bots (bang-dice: "
        f"{', '.join(agents.available(game='bang-dice'))}; default heuristic) or llm",
    )
    parser.add_argument("--human", type=int, default=None, metavar="SEAT",
                        help="play this seat yourself at the terminal")
    parser.add_argument("--auto-pass", action="store_true",
                        help="granujas, with --human: never ask whether to challenge (always pass)")
    parser.add_argument("--record", default=None, metavar="FILE",
                        help="save the game as a game record (python -m granujas_env.record show)")
    args = parser.parse_args(argv)
    try:
        names = seat_names(args.players, args.agents, args.human, game=args.game)
        if args.record is not None and Path(args.record).is_dir():
            raise ValueError(f"--record {args.record!r} is a folder; name a file")
        env = games.get(args.game).raw_env(num_players=len(names), **_game_options(args))
        bots = [
            HumanAgent(input=stdin, output=out, auto_pass=args.auto_pass) if name == "human"
            else make_seat_bot(args.game, name, args.seed + seat)
            for seat, name in enumerate(names)
        ]
    except (ValueError, ImportError) as exc:  # ImportError: a model without the [train] extra
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return _play(env, bots, names, args, out)


def _play(env: Any, bots: list, names: list[str], args: argparse.Namespace,
          out: TextIO) -> int:
    env.reset(seed=args.seed)
    game = env.game
    assert game is not None
    text = text_game(args.game)
    for seat, bot in enumerate(bots):
        bot.reset(seed=args.seed + seat)
    humans = [seat for seat, bot in enumerate(bots) if isinstance(bot, HumanAgent)]
    # seats whose agent narrates the game (people, language models): fed after every action
    observers = [seat for seat, bot in enumerate(bots) if callable(getattr(bot, "observe", None))]
    for seat in observers:  # the start: their narrators then follow every action
        bots[seat].observe(text.seat_view(game, seat))
    say = functools.partial(print, file=out, flush=True)
    say(f"{text.headline(game)}, seed {args.seed}")
    say(", ".join(f"p{i}: {name}" for i, name in enumerate(names)))
    # a spectator's narration (every change with its cause); a human sees it at its decisions
    spectator = None
    if not humans:
        for line in text.opening(game):
            say(line)
        spectator = text.narrator(text.seat_view(game, 0))
        for line in spectator.update(text.seat_view(game, 0)):  # only public fields are narrated
            say(line)
    actions: list[int] = []
    status = 0
    try:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            bot = bots[env.agent_name_mapping[agent]]
            view = env.seat_view(agent) if getattr(bot, "wants_view", True) else None
            action = ask(bot, obs, game, view=view)  # the search bot gets the game too
            env.step(action)
            actions.append(action)
            for seat in observers:  # narrated after every action: each change with its cause
                bots[seat].observe(text.seat_view(game, seat))
            if spectator is not None:
                for line in spectator.update(text.seat_view(game, 0)):
                    say(line)
    except (KeyboardInterrupt, QuitGame) as exc:
        reason = "interrupted" if isinstance(exc, KeyboardInterrupt) else str(exc)
        print(f"\n{reason}: game abandoned after {len(actions)} actions", file=sys.stderr)
        status = ABANDONED
    else:
        for seat in humans:
            bots[seat].game_over(text.seat_view(game, seat))
        say("")
        say(text.final_table(game))
    if args.record is not None:
        record = record_game(game.config, game.seed, actions, catalog=getattr(env, "catalog", None),
                             meta={"tool": "granujas_env.play", "agents": names,
                                   "finished": game.game_over})
        path = record.save(args.record)
        print(f"game record saved to {path} (python -m granujas_env.record show {path})",
              file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(run_main(main))
