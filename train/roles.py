"""Ratings by role for the hidden-role team games (Bang! The Dice Game): each agent's win rate in
each role and overall, with Wilson intervals, and the beliefs' accuracy by turn.

Agents take the seats in turn, shifted by one seat every game (seat ``s`` of game ``i`` plays
``agents[(s + i) % len(agents)]``; list a name twice for a 2:1 mix), and each game's deal gives
the roles, so every agent plays every role at every seat. A seat wins when its side wins
(eliminated seats included). An agent is a bot name of the game's registry, the path of a model
trained for the game (a ``.zip`` or a folder holding ``model.zip``, e.g. what ``python -m
train.rllib --game bang-dice`` exports), a shipped model's name or an import path
``module:attribute`` (:func:`agents.policy.make_bot` with the game); every agent is built once
before the first game, so a bad name fails at once. Text agents (``llm``: a ``counters()`` or
``text_stats()`` method, :func:`agents.driver.text_counters`) have their counters summed over
their games and their invalid-answer rate (invalid_answers / answers) reported apart from the
win rate, as the granujas tournament does. Bots that keep beliefs (a ``posterior(view)`` method) are asked, at the start of every turn, for the
probability they put on the true role of every seat hidden from them; the prior (every
unknown role equally likely) is reported beside it.

``--paired AGENT`` (say ``heuristic``) also plays every deal with AGENT at every seat (the same
bot seeds) and rates each other agent against AGENT *in the same seat of the same deal*: by role
and overall, the agent's win rate there minus AGENT's, with a 95% interval over games. This is
what replacing one AGENT seat by the agent changes. The unpaired ``difference`` compares the
agent with the AGENT seats of its own tables, which its play moves too: a teammate of the agent
shares its wins (at five players the other Outlaw, and the Sheriff of a Deputy).

    python -m train.roles --game bang-dice --agents heuristic random --players 5 --games 1000 \\
        --seed 100000 --json docs/results/bang_dice_heuristic_vs_random_5p.json

This is the Bang! path of ``python -m train.tournament --game bang-dice``: the tournament hands
``--game bang-dice`` runs to :func:`main` (or calls :func:`run_roles` and :func:`format_table`).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from agents.driver import text_counters
from agents.policy import make_bot
from agents.registry import ask
from granujas_env import games
from granujas_env.cli import run_main
from train.ratings import (
    add_counters,
    difference_interval,
    invalid_answer_rate,
    paired_difference,
    text_figures,
    wilson_interval,
)

__all__ = [
    "seating", "agent_factory", "play_game", "run_roles", "summarize", "paired_summary", "format_table",
    "report", "main",
]


def seating(agents: Sequence[str], num_players: int, index: int) -> list[str]:
    """The agent of every seat in game ``index``: agents in turn, shifted one seat per game."""
    return [agents[(s + index) % len(agents)] for s in range(num_players)]


def agent_factory(game_name: str) -> Callable[..., Any]:
    """``make(name, seed=None)`` of ``game_name``'s agents: a registry bot, a model path or name,
    an import path (:func:`agents.policy.make_bot`); ValueError names what is accepted."""

    def make(name: str, seed: int | None = None) -> Any:
        return make_bot(name, seed=seed, game=game_name)

    return make


def _prior_accuracy(game: Any, seat: int, hidden: list[int]) -> list[float]:
    """What a seat that believes every unknown role equally likely puts on the true roles."""
    left = Counter(game.roles[s] for s in hidden)
    return [left[game.roles[s]] / len(hidden) for s in hidden]


def play_game(
    game_name: str, seat_agents: Sequence[str], seed: int, make: Callable[..., Any] | None = None
) -> dict[str, Any]:
    """Play one game with ``seat_agents[s]`` at seat ``s``; the record of :mod:`stats`, plus the
    agents, per belief-keeping seat (turn, believed, prior) probabilities of true roles, and per
    seat its bot's text counters for the game (None for a bot that does not answer in text)."""
    spec = games.get(game_name)
    stats = importlib.import_module(spec.tools["stats"])
    make = make or agent_factory(game_name)
    n = len(seat_agents)
    environment = spec.raw_env(num_players=n)
    environment.reset(seed=seed)
    bots = [make(name, seed=seed * 8 + s) for s, name in enumerate(seat_agents)]
    for s, bot in enumerate(bots):
        bot.reset(seed=seed * 8 + s)
    believers = [s for s, bot in enumerate(bots) if callable(getattr(bot, "posterior", None))]
    beliefs: list[tuple[int, int, float, float]] = []  # (seat, turn, believed, prior)
    game = environment.game
    turn = 0
    while not game.game_over:
        if game.turn_number != turn:
            turn = game.turn_number
            for s in believers:
                hidden = stats.hidden_seats(game, s)
                if hidden and game.alive[s]:
                    posterior = bots[s].posterior(environment.seat_view(environment.possible_agents[s]))
                    believed = stats.posterior_accuracy(game, s, posterior)
                    prior = _prior_accuracy(game, s, hidden)
                    beliefs += [(s, turn, b, p) for b, p in zip(believed, prior)]
        agent = environment.agent_selection
        bot = bots[environment.agent_name_mapping[agent]]
        view = environment.seat_view(agent) if getattr(bot, "wants_view", True) else None
        environment.step(ask(bot, environment.observe(agent), game, view))
    record = stats.game_record(game)
    # bots are built for this game, so their cumulative counters are this game's
    record.update(seed=seed, agents=list(seat_agents), beliefs=beliefs,
                  text_counters=[text_counters(bot) for bot in bots])
    return record


def run_roles(
    game_name: str, agents: Sequence[str], num_players: int, num_games: int, seed: int
) -> list[dict[str, Any]]:
    """Play ``num_games`` games (game ``i`` dealt by seed ``seed + i``); their records. Every
    agent is built once first: ValueError on a bad one before any game."""
    make = agent_factory(game_name)
    for name in dict.fromkeys(agents):
        make(name, seed=seed)
    return [
        play_game(game_name, seating(agents, num_players, i), seed + i, make) for i in range(num_games)
    ]


def _rate(wins: int, played: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, played)
    return {"wins": wins, "games": played, "rate": wins / played if played else None, "ci95": [low, high]}


def summarize(agents: Sequence[str], records: Sequence[dict[str, Any]], game_name: str) -> dict[str, Any]:
    """Win rates by agent and role (Wilson 95% intervals), the differences between the first two
    agents by role, belief accuracy by agent and turn bucket, and text agents' counters summed
    with their invalid-answer rate (both None for other agents)."""
    stats = importlib.import_module(games.get(game_name).tools["stats"])
    agents = list(dict.fromkeys(agents))  # a name listed twice (a 1:2 mix) is one agent
    tally: dict[str, dict[str, list[int]]] = {a: defaultdict(lambda: [0, 0]) for a in agents}
    accuracy: dict[str, dict[str, list[float]]] = {a: defaultdict(lambda: [0.0, 0.0, 0]) for a in agents}
    texts: dict[str, dict[str, int] | None] = dict.fromkeys(agents)
    for record in records:
        for name, counts in zip(record["agents"], record.get("text_counters", ())):
            texts[name] = add_counters(texts[name], counts)
        for name, role, won in zip(record["agents"], record["roles"], record["won"]):
            for key in (role, "overall"):
                tally[name][key][0] += won
                tally[name][key][1] += 1
        for seat, turn, believed, prior in record["beliefs"]:
            cell = accuracy[record["agents"][seat]][stats.turn_bucket(turn)]
            cell[0] += believed
            cell[1] += prior
            cell[2] += 1
    roles = sorted({r for record in records for r in record["roles"]})
    by_agent = {
        a: {
            "overall": _rate(*tally[a]["overall"]),
            "by_role": {r: _rate(*tally[a][r]) for r in roles},
            # text agents only: invalid answers / real answers, apart from the win rate
            "text_counters": texts[a],
            "invalid_answer_rate": invalid_answer_rate(texts[a]),
        }
        for a in agents
    }
    summary: dict[str, Any] = {
        "game": game_name,
        "players": len(records[0]["roles"]) if records else None,
        "games": len(records),
        "first_seed": records[0]["seed"] if records else None,
        "agents": list(agents),
        "seating": "agents in turn, shifted one seat per game; roles from each game's deal",
        "by_agent": by_agent,
        "belief_accuracy": {
            a: {
                bucket: {"believed": cell[0] / cell[2], "prior": cell[1] / cell[2], "samples": cell[2]}
                for bucket, cell in sorted(accuracy[a].items(), key=lambda kv: int(kv[0].split("-")[0].rstrip("+")))
            }
            for a in agents if accuracy[a]
        },
    }
    if len(agents) >= 2:
        first, second = agents[0], agents[1]
        summary["difference"] = {
            key: _difference(by_agent[first][k] if key == "overall" else by_agent[first]["by_role"][k],
                             by_agent[second][k] if key == "overall" else by_agent[second]["by_role"][k])
            for key, k in [("overall", "overall")] + [(r, r) for r in roles]
        }
        summary["difference_of"] = f"{first} - {second}"
    return summary


def paired_summary(
    agents: Sequence[str], records: Sequence[dict[str, Any]], baseline: str,
    baseline_records: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """Each agent other than ``baseline`` against ``baseline`` in the same seat of the same deal:
    ``baseline_records[i]`` is deal ``records[i]`` played by ``baseline`` at every seat. By role
    and overall, the agent's seats' win rate, the baseline's in those seats, and the difference
    in points with its 95% interval (games independent, :func:`train.ratings.paired_difference`).
    ValueError when the records are not the same deals."""
    if [r["seed"] for r in records] != [r["seed"] for r in baseline_records]:
        raise ValueError("paired records must be the same deals in the same order")
    roles = sorted({r for record in records for r in record["roles"]})
    by_agent: dict[str, Any] = {}
    for name in dict.fromkeys(agents):
        if name == baseline:
            continue
        pairs: dict[str, list[list[tuple[bool, bool]]]] = {key: [] for key in ["overall", *roles]}
        for record, base in zip(records, baseline_records):
            seats = [s for s, agent in enumerate(record["agents"]) if agent == name]
            for key in pairs:
                pairs[key].append([(bool(record["won"][s]), bool(base["won"][s])) for s in seats
                                   if key in ("overall", record["roles"][s])])
        by_agent[name] = {key: paired_difference(games_pairs) for key, games_pairs in pairs.items()}
    return {"baseline": baseline, "by_agent": by_agent,
            "meaning": f"each agent's seats against {baseline} in the same seat of the same deal "
                       f"(every seat {baseline}); points = agent's win rate - {baseline}'s there"}


def _difference(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """The difference of two win rates with its normal 95% interval."""
    return difference_interval(a["wins"], a["games"], b["wins"], b["games"])


def format_table(summary: dict[str, Any]) -> str:
    """The summary as text: one row per agent, a column per role."""
    roles = list(next(iter(summary["by_agent"].values()))["by_role"])
    width = max(12, *(len(name) + 2 for name in summary["by_agent"]))  # model paths are long
    head = f"{'agent':<{width}}" + "".join(f"{r:>22}" for r in roles) + f"{'overall':>22}"
    lines = [f"{summary['game']}, {summary['players']} players, {summary['games']} games", head]

    def cell(row: dict[str, Any]) -> str:
        if not row["games"]:
            return f"{'-':>22}"
        low, high = row["ci95"]
        return f"{100 * row['rate']:>7.1f}% [{100 * low:4.1f},{100 * high:5.1f}]"

    for name, row in summary["by_agent"].items():
        lines.append(f"{name:<{width}}" + "".join(cell(row["by_role"][r]) for r in roles) + cell(row["overall"]))
    if "difference" in summary:
        diff = summary["difference"]
        text = ", ".join(
            f"{k} {d['points']:+.1f} [{d['ci95'][0]:+.1f}, {d['ci95'][1]:+.1f}]"
            for k, d in diff.items() if d["points"] is not None
        )
        lines.append(f"difference ({summary['difference_of']}, points): {text}")
    paired = summary.get("paired")
    for name, rows in (paired or {}).get("by_agent", {}).items():
        text = ", ".join(
            f"{k} {d['points']:+.1f} [{d['ci95'][0]:+.1f}, {d['ci95'][1]:+.1f}]"
            for k, d in rows.items() if d["points"] is not None
        )
        lines.append(f"paired ({name} - {paired['baseline']} in the same seat of the same deal, points): {text}")
    texts = [(name, row["text_counters"]) for name, row in summary["by_agent"].items()
             if row.get("text_counters") is not None]
    if texts:
        lines.append("invalid answers (text agents, over real answers): "
                     + ", ".join(f"{name} {text_figures(counts)}" for name, counts in texts))
    for name, buckets in summary.get("belief_accuracy", {}).items():
        text = ", ".join(f"turns {b}: {c['believed']:.3f} (prior {c['prior']:.3f})" for b, c in buckets.items())
        lines.append(f"{name} belief on true roles: {text}")
    return "\n".join(lines)


def report(
    game_name: str, agents: Sequence[str], num_players: int, num_games: int, seed: int,
    json_path: str | None = None, command: str = "",
    play: Callable[[], list[dict[str, Any]]] | None = None, extra: dict[str, Any] | None = None,
    paired: str | None = None,
) -> dict[str, Any]:
    """Rate ``agents`` (see :func:`run_roles`; ``play()`` instead gives the records of another
    way of playing them), print the table and write the summary (with ``command``, the elapsed
    time and the ``extra`` fields) to ``json_path`` if given; the summary. ``paired``: an agent
    that also plays every deal at every seat, for :func:`paired_summary`."""
    started = time.perf_counter()
    if paired is not None:
        agent_factory(game_name)(paired, seed=seed)  # a bad name fails before any game
    if play is None:
        records = run_roles(game_name, agents, num_players, num_games, seed)
    else:
        records = play()
    summary = summarize(agents, records, game_name)
    if paired is not None:
        summary["paired"] = paired_summary(
            agents, records, paired, run_roles(game_name, [paired], num_players, num_games, seed))
    summary["elapsed_s"] = round(time.perf_counter() - started, 1)
    summary["command"] = command
    summary.update(extra or {})
    print(format_table(summary))
    if json_path:
        Path(json_path).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring); exit status 2 on bad arguments or agents."""
    parser = argparse.ArgumentParser(prog="python -m train.roles", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="bang-dice", choices=[g for g in games.available() if g != "granujas"])
    parser.add_argument("--agents", nargs="+", required=True,
                        help="bot names of the game's registry or model paths, by spaces or commas "
                        "(heuristic,random)")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt by seed + i")
    parser.add_argument("--json", metavar="FILE", help="write the summary (and the command) here")
    parser.add_argument("--paired", metavar="AGENT",
                        help="also play every deal with AGENT at every seat and rate each other agent "
                        "against it in the same seat of the same deal (e.g. heuristic)")
    args = parser.parse_args(argv)
    agents = [name for entry in args.agents for name in entry.split(",") if name]
    spec = games.get(args.game)
    if args.players not in spec.players:
        parser.error(f"--players must be in {spec.players.start}..{spec.players.stop - 1}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    command = "python -m train.roles " + " ".join(sys.argv[1:] if argv is None else argv)
    try:
        report(args.game, agents, args.players, args.games, args.seed, args.json, command, paired=args.paired)
    except (ValueError, ImportError) as exc:  # a bad agent, or a model without the [train] extra
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
