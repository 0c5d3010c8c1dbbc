"""Play one full game between bots and print it readably, ending in the score table.

    python -m granujas_env.play --players 4 --seed 0 [--length short] [--agents random,random,...]

Only public events are narrated (declared slots, challenges, reveals, hires, Safes taken...), as a
spectator at the table would see them; the final table shows every Safe and the score breakdown.
"""

from __future__ import annotations

import argparse
import sys

import agents
from granujas_env.engine import actions as A
from granujas_env.engine.game import Game

from .env import raw_env
from .render import SLOT_NAMES, granuja_name, render_text

DEFAULT_AGENTS = "heuristic,honest,random,heuristic"
_OPTIONS = ("sells information (+2 $)", "pays bail", "bribes the sheriff (12 $)")


def narrate(game: Game, event: tuple) -> str | None:
    """One public history event as a sentence (None for events not worth a line)."""
    kind = event[0]
    if kind == "plan":
        _, _, seat, slot = event
        if slot == 0:
            return f"p{seat} plays the 0 face up (Honesto)"
        return f"p{seat} plays a card face down in slot {SLOT_NAMES[slot]}"
    if kind == "challenge":
        _, _, seat, target, slot = event
        return f"    p{seat} puts a henchman on p{target}'s slot {SLOT_NAMES[slot]} (challenge)"
    if kind == "reveal":
        _, _, seat, slot, value, bluff, owners = event
        who = ", ".join(f"p{o}" for o in owners)
        verdict = "BLUFF caught" if bluff else "honest: henchmen to jail"
        return f"  reveal p{seat} slot {SLOT_NAMES[slot]} = {A.CARD_NAMES[value]} ({verdict}; {who})"
    if kind == "hire":
        _, _, seat, occ, trait = event
        from .engine.state import Granuja

        return f"    p{seat} hires {granuja_name(game, Granuja(-1, occ, trait))}"
    if kind == "sheriff":
        return f"    p{event[2]} uses the Sheriff's Office and {_OPTIONS[event[3]]}"
    if kind == "steal":
        return f"    p{event[2]} takes a Safe"
    if kind == "abandon":
        return f"    p{event[2]} abandons a Safe (over the Safe limit)"
    if kind == "mark":
        return f"    p{event[2]} marks a Safe with a {event[4]}"
    if kind == "bail":
        return f"    p{event[2]} frees a henchman of p{event[3]}"
    simple = {
        "steal_money": lambda e: f"    p{e[2]} takes {e[4]} $ from p{e[3]}",
        "jail": lambda e: f"    a henchman of p{e[2]} goes to jail",
        "free": lambda e: f"    p{e[2]} frees a henchman of p{e[3]}",
        "place_henchman": lambda e: f"    p{e[2]} puts p{e[3]}'s henchman on p{e[4]}'s slot {SLOT_NAMES[e[5]]}",
        "destroy": lambda e: f"    p{e[2]} destroys the henchmen on its slot {SLOT_NAMES[e[3]]}",
        "draw": lambda e: f"    p{e[2]} draws {e[3]} poker card(s)",
        "card_on_deck": lambda e: f"    p{e[2]} puts a card on top of its poker deck",
        "shuffle": lambda e: f"    p{e[2]} shuffles its poker deck",
        "deck_top": lambda e: f"    p{e[2]} reveals a {A.CARD_NAMES[e[3]]} from its deck",
        "peek_card": lambda e: f"    p{e[2]} peeks at p{e[3]}'s slot {SLOT_NAMES[e[4]]}",
        "jail_or_reputation": lambda e: f"    p{e[2]} chooses: {e[3]}",
        "swap": lambda e: f"    p{e[2]} swaps {('Occupations', 'Traits')[e[3]]} between two Granujas",
        "strategy": lambda e: f"    p{e[2]} uses its Strategy card {game.catalog.strategies[e[3]].name}",
        "strategies": lambda e: "Strategy cards: " + ", ".join(
            f"p{i}: {game.catalog.strategies[k].name}" for i, k in enumerate(e[1])
        ),
    }
    if kind in simple:
        return simple[kind](event)
    if kind == "day":
        return f"\n--- day {event[1]} begins; p{event[2]} plays first ---"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4, help="2, 3 or 4 (default 4)")
    parser.add_argument("--length", default="short", help="short (2 days) or long (3 days)")
    parser.add_argument("--seed", type=int, default=0, help="deal and bot seed (default 0)")
    parser.add_argument("--strategy-cards", action="store_true", help="use the Strategy cards rule")
    parser.add_argument(
        "--agents",
        default=DEFAULT_AGENTS,
        help=f"comma-separated bot names, one per seat or one for all (known: {', '.join(agents.available())})",
    )
    args = parser.parse_args(argv)
    try:
        env = raw_env(
            num_players=args.players, game_length=args.length, strategy_cards=args.strategy_cards
        )
        names = args.agents.split(",")
        if len(names) == 1:
            names = names * args.players
        elif args.agents == DEFAULT_AGENTS:
            names = names[: args.players]
        if len(names) != args.players:
            raise ValueError(f"--agents needs 1 or {args.players} names, got {len(names)}")
        bots = [agents.make(name, seed=args.seed + i) for i, name in enumerate(names)]
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    env.reset(seed=args.seed)
    game = env.game
    assert game is not None
    print(f"3000 Granujas, {args.players} players, {args.length} game, seed {args.seed}")
    print(", ".join(f"p{i}: {name}" for i, name in enumerate(names)))
    print(f"\n--- day 1 begins; p{game.first_player} plays first ---")
    seen = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        seat = env.agent_name_mapping[agent]
        if term or trunc:
            env.step(None)
            continue
        bot = bots[seat]
        view = env.seat_view(agent) if getattr(bot, "wants_view", True) else None
        env.step(bot.act(obs, view))
        for event in game.history[seen:]:
            line = narrate(game, event)
            if line:
                print(line)
        seen = len(game.history)
    print()
    print(render_text(game))
    return 0


if __name__ == "__main__":
    sys.exit(main())
