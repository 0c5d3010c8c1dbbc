"""Generate the site's model zoo and results pages from the files that hold the figures.

The figures live in two places, never copied by hand: the model cards
(``agents/models/<name>/model_card.json``: what each shipped model is, how it was trained and
rated, with the commands) and the result files the rating commands wrote (``docs/results/*.json``,
``--json`` of ``train.tournament``, ``train.gauntlet``, ``train.exploit``, ``train.evaluate`` and
``train.bench``). :mod:`granujas_env.docs` writes the pages and checks they are current.

The files are read as JSON only (no import of ``agents`` or ``train``: this package sits below them).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

#: What a shipped model is for, where its card does not say (a card's ``purpose`` wins).
PURPOSE = {
    "full": "The bot to play against, a model per table: 2-player games by `model_2p.zip` "
    "(every decision learnt, MaskablePPO over the heuristic's advice), 3- and 4-player games by "
    "`plan/` (the Plan learnt from `bluffer`'s, with a play filter; `safecracker`'s other "
    "decisions, with spot checks on early challengers).",
    "bluffer": "The Plan (which card, which slot) learnt; every other decision, challenges "
    "included, is the heuristic's. A strong 4-player bluffer.",
    "safecracker": "Rule-based: the heuristic with Safe values estimated from rivals' Marks "
    "(tables fitted offline, in the card). The Safe specialist.",
    "safecracker-v1": "Baseline: the PPO Safe model the rule-based `safecracker` replaced.",
    "full-la1": "`full`'s 3-4 player model alone (`model.zip`); the shipped `full` of session 12.",
    "full-co1": "Baseline: an earlier `full` (co-trained against a live exploiter); in the "
    "training pools and head-to-head tables.",
    "full-psro2": "Baseline: an earlier `full` (second PSRO-style round); in the training pools.",
    "full-psro1": "Baseline: an earlier `full` (first PSRO-style round).",
    "full-kl": "Baseline: an earlier `full` (two KL-anchored league stages from `full-v1`).",
    "full-v1": "Baseline: the first shipped `full` (granujas_v0 weights); the reference of the "
    "head-to-head targets.",
}

_PLAYERS = re.compile(r"--players (\d)")
_AGENTS = re.compile(r"--agents (\S+)")
_GAMES = re.compile(r"--games (\d+)")
_JSON = re.compile(r"--json (\S+)")
_LENGTH = re.compile(r"--length (\w+)")


def pct(value: float) -> str:
    """``0.6673`` -> ``66.7%``."""
    return f"{100 * value:.1f}%"


def rate_text(row: Mapping[str, Any]) -> str:
    """A row's win rate with its Wilson 95% interval when the row has one."""
    text = pct(row["win_rate"])
    if row.get("wilson_low") is not None and row.get("wilson_high") is not None:
        text += f" [{100 * row['wilson_low']:.1f}, {100 * row['wilson_high']:.1f}]"
    return text


def _cell(text: Any) -> str:
    """Markdown-table-safe text (pipes escaped, no line breaks)."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _count(value: Any) -> str:
    """``1605632`` -> ``1,605,632``; anything else as it is (blank for None)."""
    return f"{value:,}" if isinstance(value, int) else ("" if value is None else str(value))


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


# --- result files -----------------------------------------------------------------------------


def kind_of(data: Any) -> str:
    """Which tool wrote a result file: tournament, gauntlet, exploit, evaluate, bench, rows,
    roles (ratings by role, ``train.tournament --game bang-dice``), env_bench
    (``granujas_env.bench --game``), advantage_probe (``train.bang_q report``), other."""
    if isinstance(data, list) and data and all(isinstance(r, dict) for r in data):
        keys = set.intersection(*(set(r) for r in data))
        if {"total_games", "label", "games", "win_rate"} <= keys:
            return "tournament"
        if {"passed", "opponent", "win_rate"} <= keys:
            return "gauntlet"
        if {"model", "win_rate"} <= keys:
            return "evaluate"
    if isinstance(data, dict):
        if "target" in data and isinstance(data.get("win_rate"), float):
            return "exploit"
        if {"learner_steps_per_s", "env_share"} <= set(data):
            return "bench"
        if isinstance(data.get("by_agent"), dict) and {"game", "players", "games"} <= set(data):
            return "roles"
        if {"labels", "results", "decision_ratios"} <= set(data):
            return "env_bench"
        if data.get("kind") == "advantage_probe":
            return "advantage_probe"
        if isinstance(data.get("rows"), list) and all(
            isinstance(r, dict) and "win_rate" in r for r in data["rows"]
        ):
            return "rows"
    return "other"


def read_results(folder: Path) -> dict[str, list[tuple[str, Any]]]:
    """``{kind: [(file name, data), ...]}`` of the JSON files of ``folder``, sorted by name."""
    found: dict[str, list[tuple[str, Any]]] = {}
    for path in sorted(folder.glob("*.json")):
        try:
            data = _load(path)
        except (OSError, ValueError):
            data = None
        found.setdefault(kind_of(data), []).append((path.name, data))
    return found


def _plot_link(folder: Path, name: str) -> str:
    png = Path(name).with_suffix(".png").name
    return f"[plot]({png})" if (folder / png).is_file() else ""


def _tournament_table(folder: Path, files: list[tuple[str, Any]]) -> list[str]:
    lines = [
        "| file | players | games | deal seed | first entry (as run) | its win rate [95%] | "
        "the others | plot |\n",
        "| --- | --- | --- | --- | --- | --- | --- | --- |\n",
    ]
    for name, rows in files:
        first, others = rows[0], rows[1:]
        rest = ", ".join(f"{_cell(r['label'])} {pct(r['win_rate'])}" for r in others)
        lines.append(
            f"| [{name}]({name}) | {first.get('players', '')} | {first.get('total_games', first['games'])} "
            f"| {first.get('seed', '')} | `{_cell(first['label'])}` | {rate_text(first)} | {rest} "
            f"| {_plot_link(folder, name)} |\n"
        )
    return lines


def _gauntlet_agent(name: str) -> tuple[str, int]:
    """``gauntlet_full_la1_ismcts_2p.json`` -> (``full-la1``, 2): the agent by today's name
    (``gauntlet_full_long_4p.json``, a long-game gauntlet, -> (``full``, 4))."""
    stem = Path(name).stem
    match = re.fullmatch(r"(?:gauntlet_)?(.*?)(?:_ismcts(?:_\d+)?)?(?:_long)?_(\d)p", stem)
    if not match:
        return stem, 0
    return match.group(1).replace("_", "-"), int(match.group(2))


def _gauntlet_tables(folder: Path, files: list[tuple[str, Any]]) -> list[str]:
    """One table per player count: a row per opponent, a column per rated agent and game length."""
    cells: dict[int, dict[str, dict[tuple[str, str], str]]] = {}
    sources: dict[int, dict[tuple[str, str], list[str]]] = {}
    for name, rows in files:
        bot, players = _gauntlet_agent(name)
        for row in rows:
            n = row.get("players", players)
            agent = (bot, row.get("length", "short"))
            cell = rate_text(row) + ("" if row.get("passed", True) else " **missed**")
            if row.get("games") and row["games"] < 500:
                cell += f" ({row['games']} games)"
            cells.setdefault(n, {}).setdefault(row["opponent"], {})[agent] = cell
            links = sources.setdefault(n, {}).setdefault(agent, [])
            if name not in links:
                links.append(name)
    lines: list[str] = []
    for n in sorted(cells):
        agents = list(sources[n])
        # a bot's long-game column follows its short one
        bots = list(dict.fromkeys(bot for bot, _ in agents))
        agents.sort(key=lambda a: bots.index(a[0]))
        label = {a: f"`{a[0]}`" + ("" if a[1] == "short" else f" ({a[1]} game)") for a in agents}
        lines.append(f"\n### {n} players\n\n")
        lines.append("| opponent | " + " | ".join(label[a] for a in agents) + " |\n")
        lines.append("| --- |" + " --- |" * len(agents) + "\n")
        for opponent, by_agent in cells[n].items():
            lines.append(
                f"| {opponent} | " + " | ".join(by_agent.get(a, "") for a in agents) + " |\n"
            )
        files_text = "; ".join(
            f"{label[a]}: " + ", ".join(f"[{f}]({f})" for f in sources[n][a]) for a in agents
        )
        lines.append(f"\nFiles: {files_text}.\n")
        plots = [
            png for a in agents for f in sources[n][a]
            if (folder / (png := Path(f).with_suffix(".png").name)).is_file()
        ]
        if plots:
            lines.append("Plots: " + ", ".join(f"[{png}]({png})" for png in plots) + ".\n")
    return lines


def _curve_text(curve: Iterable[Mapping[str, Any]]) -> str:
    return " / ".join(
        f"{round(r['steps'] / 1e6, 2):g}M: {pct(r['win_rate'])}" for r in curve if "win_rate" in r
    )


def _exploit_table(files: list[tuple[str, Any]]) -> list[str]:
    lines = [
        "| file | target (as run) | players | mode | learner steps | exploiter's win rate [95%] "
        "| held-out games | its curve (checkpoints) |\n",
        "| --- | --- | --- | --- | --- | --- | --- | --- |\n",
    ]
    for name, data in files:
        lines.append(
            f"| [{name}]({name}) | `{_cell(data['target'])}` | {data.get('players', '')} "
            f"| {data.get('mode', '')} | {_count(data.get('steps'))} | {rate_text(data)} "
            f"| {data.get('games', '')} | {_curve_text(data.get('curve') or [])} |\n"
        )
    return lines


def _rows_table(name: str, rows: list[Mapping[str, Any]], note: str | None) -> list[str]:
    lines = [f"\n**[{name}]({name})**" + (f": {_cell(note)}" if note else "") + "\n\n"]
    lines.append("| agent | opponent | steps | games | win rate |\n| --- | --- | --- | --- | --- |\n")
    for row in rows:
        agent = row.get("agent") or row.get("model") or ""
        if not agent and (match := _AGENTS.search(row.get("command", ""))):
            agent = match.group(1).split(",")[0]
        steps = _count(row.get("steps"))
        lines.append(
            f"| `{_cell(agent)}` | {_cell(row.get('opponent', ''))} | {steps} "
            f"| {row.get('games', '')} | {rate_text(row)} |\n"
        )
    return lines


def _bench_table(files: list[tuple[str, Any]]) -> list[str]:
    lines = [
        "| file | learner steps/s | environment share | opponent share | median opponent "
        "decision | 8-env speedup (wall / CPU) |\n",
        "| --- | --- | --- | --- | --- | --- |\n",
    ]
    for name, data in files:
        lines.append(
            f"| [{name}]({name}) | {data['learner_steps_per_s']} | {pct(data['env_share'])} "
            f"| {pct(data.get('opponent_share', 0))} | {data.get('median_opponent_decision_us')} us "
            f"| {data.get('vector_speedup')}x / {data.get('vector_cpu_speedup')}x |\n"
        )
    return lines


def _rate_cell(row: Mapping[str, Any]) -> str:
    """A role rating's ``{"rate", "ci95"}`` as ``52.7% [51.0, 54.4]`` (blank without games)."""
    if not row.get("games"):
        return ""
    low, high = row["ci95"]
    return f"{pct(row['rate'])} [{100 * low:.1f}, {100 * high:.1f}]"


def _roles_tables(files: list[tuple[str, Any]]) -> list[str]:
    lines: list[str] = []
    for name, data in files:
        agents = data["by_agent"]
        roles = list(next(iter(agents.values()))["by_role"]) if agents else []
        lines.append(f"\n**[{name}]({name})**: {data['game']}, {data['players']} players, "
                     f"{_count(data['games'])} games from seed {data.get('first_seed')}\n\n")
        lines.append("| agent | " + " | ".join(roles) + " | overall |\n")
        lines.append("| --- " * (len(roles) + 2) + "|\n")
        for agent, row in agents.items():
            cells = [_rate_cell(row["by_role"][r]) for r in roles] + [_rate_cell(row["overall"])]
            lines.append(f"| `{_cell(agent)}` | " + " | ".join(cells) + " |\n")
        if data.get("difference"):
            diff = [data["difference"].get(r, {}) for r in [*roles, "overall"]]
            lines.append(f"| {_cell(data['difference_of'])} (points) | "
                         + " | ".join(_points_cell(d) for d in diff) + " |\n")
        paired = data.get("paired") or {}
        for agent, rows in paired.get("by_agent", {}).items():
            cells = [rows.get(r, {}) for r in [*roles, "overall"]]
            lines.append(f"| {_cell(agent)} - {_cell(paired['baseline'])}, same seat and deal (points) | "
                         + " | ".join(_points_cell(d) for d in cells) + " |\n")
    return lines


def _points_cell(row: Mapping[str, Any]) -> str:
    """A difference ``{"points", "ci95"}`` as ``+4.8 [+3.4, +6.2]`` (blank without points)."""
    if row.get("points") is None:
        return ""
    return f"{row['points']:+.1f} [{row['ci95'][0]:+.1f}, {row['ci95'][1]:+.1f}]"


def _advantage_tables(files: list[tuple[str, Any]]) -> list[str]:
    lines: list[str] = []
    for name, data in files:
        lines.append(f"\n**[{name}]({name})**: {data['players']} players, {data['decisions']} "
                     f"decisions, {data['candidates']} candidates\n\n")
        lines.append("| deviation | candidates | mean advantage | standard error |\n| --- | --- | --- | --- |\n")
        for group in ("by_kind_and_role", "reroll_changes"):
            for label, row in data[group].items():
                if row["n"]:
                    lines.append(f"| {_cell(label)} | {row['n']} | {row['mean']:+.4f} | {row['se']:.4f} |\n")
        errors = data.get("held_out_squared_error")
        if errors:
            lines.append(f"\nHeld-out squared error: the network {errors['network']:.5f}, predicting zero "
                         f"{errors['zero']:.5f}.\n")
        lines.append("\n| network margin | held-out decisions | deviations | advantage per deviation |\n"
                     "| --- | --- | --- | --- |\n")
        for row in data["held_out_deviations"]:
            each = row["advantage_per_deviation"]
            lines.append(f"| {row['margin']} | {row['decisions']} | {row['deviations']} "
                         f"| {each['mean']:+.4f} ± {each['se']:.4f} |\n")
    return lines


def _env_bench_table(files: list[tuple[str, Any]]) -> list[str]:
    lines = ["| file | environment | decisions/s | reference | decisions/s | ratio (median of rounds) |\n",
             "| --- | --- | --- | --- | --- | --- |\n"]
    for name, data in files:
        for pair, ratio in data["decision_ratios"].items():
            game, reference = pair.split("/")
            lines.append(
                f"| [{name}]({name}) | {_cell(data['labels'][game])} "
                f"| {_count(round(data['results'][game]['decisions_per_s']))} "
                f"| {_cell(data['labels'][reference])} "
                f"| {_count(round(data['results'][reference]['decisions_per_s']))} "
                f"| {ratio['median']:.2f} |\n"
            )
    return lines


def results_body(folder: Path) -> list[str]:
    """The tables of every result file of ``folder``, by the tool that wrote it."""
    found = read_results(folder)
    # a gauntlet-format file of another tool's run (an exploiter rated against styles) is not
    # an agent's gauntlet: its rows go with the other rated runs, without the gauntlet's targets
    others = [(n, d) for n, d in found.get("gauntlet", []) if not n.startswith("gauntlet_")]
    found["gauntlet"] = [(n, d) for n, d in found.get("gauntlet", []) if n.startswith("gauntlet_")]
    lines: list[str] = []
    if found.get("tournament"):
        lines.append("\n## Tournaments\n\n")
        lines.append(
            "`python -m train.tournament`: every deal seed with every rotation of the seats. The "
            "first entry's win rate with its Wilson 95% interval; 1/N is the rate of a seat "
            "drawn at random. Entry labels are the names as run (a model renamed since, e.g. "
            "a `full` that is now `full-la1`, shows under its old name; the file name gives "
            "today's).\n\n"
        )
        lines += _tournament_table(folder, found["tournament"])
    if found.get("gauntlet"):
        lines.append("\n## Gauntlets\n\n")
        lines.append(
            "`python -m train.gauntlet`: the agent against each scripted style, the heuristic "
            "and `ismcts`, one on one in 2 players and against three copies in 4. Columns are "
            "the agents by today's name (from the file name); a row that missed its target "
            "says so.\n"
        )
        lines += _gauntlet_tables(folder, found["gauntlet"])
    if found.get("exploit"):
        lines.append("\n## Exploiter probes\n\n")
        lines.append(
            "`python -m train.exploit`: a best response trained against the frozen target, "
            "rated on held-out deals; the curve rates the run's checkpoints on the same "
            "deals.\n\n"
        )
        lines += _exploit_table(found["exploit"])
        if (folder / CURVES_PNG).is_file():
            lines.append(f"\n![exploiters' win rate against their learner steps]({CURVES_PNG})\n")
    tables = found.get("rows", []) + found.get("evaluate", []) + others
    if tables:
        lines.append("\n## Other rated runs\n")
        for name, data in tables:
            rows = data["rows"] if isinstance(data, dict) else data
            note = data.get("note") if isinstance(data, dict) else None
            lines += _rows_table(name, rows, note)
    if found.get("bench"):
        lines.append("\n## Training benchmark\n\n`python -m train.bench` (see [Benchmarks]"
                     "(" + ("../" * _depth(folder)) + "benchmarks.md)).\n\n")
        lines += _bench_table(found["bench"])
    if found.get("roles"):
        lines.append("\n## Ratings by role\n\n")
        lines.append(
            "`python -m train.tournament --game bang-dice` (through `train.roles`): the agents take "
            "the seats in turn, shifted one seat per game, roles from each game's deal. Win rate "
            "by role and overall with its Wilson 95% interval; then the difference of the first "
            "two agents with its normal 95% interval and, for a run with `--paired`, each agent "
            "against the baseline agent in the same seat of the same deal (95% interval over "
            "games).\n"
        )
        lines += _roles_tables(found["roles"])
    if found.get("env_bench"):
        lines.append("\n## Environment speed\n\n`python -m granujas_env.bench --game ...`: "
                     "decisions per second through the same wrappers and loop, side by side with "
                     "a PettingZoo reference.\n\n")
        lines += _env_bench_table(found["env_bench"])
    if found.get("advantage_probe"):
        lines.append(
            "\n## Advantage probes\n\n`python -m train.bang_q`: the mean advantage (share of "
            "games won) of one-step deviations from the Bang! heuristic, the heuristic playing on, "
            "with its standard error; then the deviations a network learned from those records "
            "suggests on held-out decisions, scored by their measured advantage.\n"
        )
        lines += _advantage_tables(found["advantage_probe"])
    if found.get("other"):
        lines.append("\n## Other files\n\n")
        lines += [f"- [{name}]({name})\n" for name, _ in found["other"]]
    return lines


def _depth(folder: Path) -> int:
    """How many folders below docs/ the page of ``folder`` is (results: 1, results/archive: 2)."""
    parts = folder.parts
    return len(parts) - parts.index("docs") - 1 if "docs" in parts else 1


def results_markdown(folder: Path, header: str) -> str:
    """docs/results/index.md: every result file backing the shipped bots, in tables."""
    lines = [header, "# Results\n\n"]
    lines.append(
        "Every figure below is read from the JSON files beside this page (`docs/results/`), "
        "which the rating commands wrote with `--json`; the commands are in the "
        "[model cards](../models.md). The page is generated (`python -m granujas_env.docs`) and a "
        "test fails when it is out of date. Results of candidates that were never shipped are "
        "in the [archive](archive/index.md).\n"
    )
    if (folder / "full_2p.png").is_file() or (folder / "gauntlet_full_2p.png").is_file():
        lines.append("\n## The shipped `full` at a glance\n\n")
        for png, alt in (
            ("full_2p.png", "full against the heuristic, 2 players"),
            ("gauntlet_full_2p.png", "full's gauntlet, 2 players"),
            ("gauntlet_full_4p.png", "full's gauntlet, 4 players"),
        ):
            if (folder / png).is_file():
                lines.append(f"![{alt}]({png})\n")
    return "".join(lines + results_body(folder))


def archive_markdown(folder: Path, header: str) -> str:
    """docs/results/archive/index.md: the candidates' result files, kept for the record."""
    lines = [header, "# Results archive\n\n"]
    lines.append(
        "Result files of training candidates that were never shipped (file names with "
        "`candidate`), moved here from `docs/results/` so that the [results](../index.md) "
        "back only the shipped bots. The [training guide](../../training.md) tells what each "
        "candidate taught. Generated from the files, as the results page.\n"
    )
    return "".join(lines + results_body(folder))


# --- model cards ------------------------------------------------------------------------------


def read_cards(models: Path) -> dict[str, dict[str, Any]]:
    """``{model name: its card}`` of the shipped models, by folder name: those of
    :data:`PURPOSE` first, in its order, then the others by name."""
    cards = {path.parent.name: _load(path) for path in models.glob("*/model_card.json")}
    order = list(PURPOSE)
    return dict(
        sorted(cards.items(), key=lambda item: (order.index(item[0]) if item[0] in order
                                                else len(order), item[0]))
    )


def _players_of(entry: Mapping[str, Any]) -> int | None:
    if isinstance(entry.get("players"), int):
        return entry["players"]
    match = _PLAYERS.search(entry.get("command", ""))
    return int(match.group(1)) if match else None


def _headline(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    """A tournament / head-to-head entry of a card as a row with win_rate (first entry's), or None."""
    row = dict(entry)
    if "win_rate" not in row:
        rows = entry.get("rows") or []
        if not rows or "win_rate" not in rows[0]:
            return None
        row.update({k: rows[0].get(k) for k in ("win_rate", "wilson_low", "wilson_high", "games")})
    if not row.get("games"):
        match = _GAMES.search(entry.get("command", ""))
        row["games"] = int(match.group(1)) if match else None
    row["players"] = _players_of(entry)
    return row


def _opponents(entry: Mapping[str, Any]) -> str:
    if entry.get("opponents"):
        return str(entry["opponents"])
    match = _AGENTS.search(entry.get("command", ""))
    if not match:
        return ""
    rivals = match.group(1).split(",")[1:]
    counts = {r: rivals.count(r) for r in rivals}
    return ", ".join(f"{c} x {r}" if c > 1 else r for r, c in counts.items())


def _link(path: str, prefix: str, docs: Path) -> str:
    """A card's ``docs/results/x.json`` as a link from a page ``prefix`` away from docs/."""
    if not isinstance(path, str) or not path.startswith("docs/"):
        return ""
    relative = path[len("docs/"):]
    if not (docs / relative).is_file():
        moved = f"results/archive/{Path(relative).name}"
        if not (docs / moved).is_file():
            return f"`{path}`"
        relative = moved
    return f"[{Path(relative).name}]({prefix}{relative})"


def _tables_text(card: Mapping[str, Any]) -> str:
    players = card.get("players")
    sizes = sorted(set(players)) if isinstance(players, list) else []
    text = ", ".join(str(n) for n in sizes) or "-"
    by_players = card.get("models_by_players") or {}
    if by_players:
        own = ", ".join(f"{n}: `{file}`" for n, file in sorted(by_players.items()))
        text += f" ({own}; others: `model.zip`)"
    return text


def _vs_heuristics(card: Mapping[str, Any]) -> dict[tuple[int, str], dict[str, Any]]:
    """``{(players, game length): row}``: a card's latest rating against heuristics only, per
    table (what the zoo's summary compares)."""
    latest: dict[tuple[int, str], dict[str, Any]] = {}
    for entry in [*(card.get("tournaments") or []), *(card.get("head_to_head") or [])]:
        agents = _AGENTS.search(entry.get("command", ""))
        row = _headline(entry)
        if not (agents and row and row["players"]):
            continue
        if set(agents.group(1).split(",")[1:]) != {"heuristic"}:
            continue
        length = entry.get("length") or (_LENGTH.search(entry["command"]) or [None, "short"])[1]
        latest[(row["players"], length)] = row
    return latest


def _purpose(name: str, card: Mapping[str, Any]) -> str:
    if card.get("purpose"):
        return str(card["purpose"])
    if name in PURPOSE:
        return PURPOSE[name]
    if card.get("game", "granujas") != "granujas" and card.get("summary"):
        # another game's card: its summary's first sentence says what the model is
        return str(card["summary"]).split(". ")[0].rstrip(".") + "."
    mode = card.get("mode")
    return f"Trained model (`--mode {mode}`)." if mode else "Shipped bot."


def models_markdown(models: Path, docs: Path, header: str) -> str:
    """docs/models.md: one row per shipped model, then each model's figures with their commands."""
    cards = read_cards(models)
    lines = [header, "# Model zoo\n\n"]
    lines.append(
        "The models shipped in `agents/models/` (load one with `agents.load(name)`, or name it "
        "in any `--agents` list). Generated from their model cards "
        "(`agents/models/<name>/model_card.json`) by `python -m granujas_env.docs`; every "
        "figure is a win rate with its Wilson 95% interval, from the command under it. "
        "Which bot to pick: [Bots](bots.md). What stays shipped and why: "
        "[Training guide](training.md#which-models-are-shipped).\n\n"
    )
    ratings = {name: _vs_heuristics(card) for name, card in cards.items()}
    tables = sorted({key for rows in ratings.values() for key in rows})
    lines.append(
        "Summary: each model's latest rating against heuristics only (one heuristic in 2 "
        "players, N-1 at larger tables), per table size and game length, and its exploiter "
        "probe.\n\n"
        "| model | what it is for | tables trained on | "
        + "".join(f"vs heuristics, {n}p {length} | " for n, length in tables)
        + "exploiter probe |\n| --- | --- | --- |" + " --- |" * (len(tables) + 1) + "\n"
    )
    for name, card in cards.items():
        exploiter = card.get("exploiter") or {}
        probe = "-"
        if "win_rate" in exploiter:
            probe = f"{rate_text(exploiter)} ({exploiter.get('players', 2)}p"
            probe += f", {_count(exploiter['steps'])} steps)" if exploiter.get("steps") else ")"
        cells = "".join(
            f"{rate_text(ratings[name][key]) if key in ratings[name] else '-'} | " for key in tables
        )
        lines.append(
            f"| [`{name}`](#{name}) | {_cell(_purpose(name, card))} | {_tables_text(card)} "
            f"| {cells}{probe} |\n"
        )
    for name, card in cards.items():
        lines += _model_section(name, card, docs)
    return "".join(lines)


def _model_section(name: str, card: Mapping[str, Any], docs: Path) -> list[str]:
    lines = [f"\n## {name}\n\n", f"{_purpose(name, card)}\n\n"]
    facts = []
    if card.get("mode"):
        facts.append(f"mode `{card['mode']}`")
    if card.get("steps"):
        facts.append(f"{_count(card['steps'])} learner steps")
    if card.get("env_version"):
        facts.append(f"env `{card['env_version']}`")
    if facts:
        lines.append(f"Card: `agents/models/{name}/model_card.json` ({', '.join(facts)}).\n\n")
    figures = []
    for key, what in (("tournaments", "vs"), ("head_to_head", "vs")):
        for entry in card.get(key) or []:
            row = _headline(entry)
            if not row:
                continue
            json_path = entry.get("results") or _JSON.search(entry.get("command", ""))
            if isinstance(json_path, re.Match):
                json_path = json_path.group(1)
            where = _link(json_path or "", "", docs)
            figures.append(
                f"- {row['players']} players {what} {_cell(_opponents(entry))}: "
                f"**{rate_text(row)}** over {row['games'] or '?'} games"
                f" ({entry.get('date', '')}{', ' + where if where else ''})"
                + (f"; {_cell(entry['note'])}" if entry.get("note") else "")
                + f"<br>\n  `{_cell(entry.get('command', ''))}`\n"
            )
    gauntlet = card.get("gauntlet") or {}
    by_players: dict[int, list[Mapping[str, Any]]] = {}
    for row in gauntlet.get("rows") or []:
        by_players.setdefault(row.get("players", 0), []).append(row)
    lowest = []
    for n, rows in sorted(by_players.items()):
        rated = [r for r in rows if "win_rate" in r]
        if rated:
            low = min(rated, key=lambda r: r["win_rate"])
            missed = [r["opponent"] for r in rated if r.get("passed") is False]
            lowest.append(
                f"{n} players: lowest row {low['opponent']} **{rate_text(low)}**, "
                + (f"missed: {', '.join(missed)}" if missed else "every row passes its target")
            )
    if lowest:
        figures.append(
            "- gauntlet: " + "; ".join(lowest)
            + "".join(f"<br>\n  `{_cell(c)}`" for c in gauntlet.get("commands") or []) + "\n"
        )
    # the probe of the card's first table, then those of other tables (``exploiter_4p``...)
    probes = ["exploiter", *sorted(k for k in card if re.fullmatch(r"exploiter_\dp", k))]
    for exploiter in (card.get(key) or {} for key in probes):
        if "win_rate" in exploiter:
            where = _link(exploiter.get("results", ""), "", docs)
            figures.append(
                f"- exploiter probe ({exploiter.get('players', 2)} players, "
                f"{_count(exploiter.get('steps'))} learner steps): **{rate_text(exploiter)}**"
                f"{' (' + where + ')' if where else ''}<br>\n"
                f"  `{_cell(exploiter.get('command', ''))}`\n"
            )
        elif exploiter.get("note"):
            figures.append(f"- exploiter probe: {_cell(exploiter['note'])}\n")
    figures += _role_ratings(card, docs)
    if figures:
        lines.append("Figures (the commands name the models as they were called when run; "
                     "the card's notes map the names):\n\n")
        lines += figures
    if card.get("command"):
        lines.append(f"\nTrained by (its last stage; earlier stages in the card):\n\n"
                     f"```bash\n{card['command']}\n```\n")
    return lines


def _role_ratings(card: Mapping[str, Any], docs: Path) -> list[str]:
    """A card's ratings by role (the ``evaluation`` entries with ``difference_points``, as a
    hidden-role game's card holds them) as figure lines: the difference in points, overall with
    its interval and by role, then the same-seat (paired) difference where the entry has one."""
    lines = []
    for value in (card.get("evaluation") or {}).values():
        for entry in value if isinstance(value, list) else [value]:
            if not isinstance(entry, Mapping) or "difference_points" not in entry:
                continue
            points = entry["difference_points"]
            roles = ", ".join(f"{role.capitalize()} {row['points']:+.1f}"
                              for role, row in points.items() if role != "overall")
            seeds = entry.get("seeds") or []
            details = [f"deals {seeds[0]}-{seeds[-1]}"] if seeds else []
            if entry.get("seating"):
                details.append(f"seating {_cell(entry['seating'])}")
            where = _link(entry.get("file", ""), "", docs)
            text = (f"- {_cell(entry.get('difference_of', ''))}, {_count(entry.get('games'))} games"
                    + (f" ({'; '.join(details)})" if details else "")
                    + f": **{_points_cell(points.get('overall', {}))}** points"
                    + (f" ({roles})" if roles else ""))
            paired = entry.get("paired_points") or {}
            if paired.get("overall"):
                text += f"; the same seat of the same deal: {_points_cell(paired['overall'])}"
            lines.append(text + (f" ({where})" if where else "")
                         + f"<br>\n  `{_cell(entry.get('command', ''))}`\n")
    return lines


# --- the exploiter-curve plot -----------------------------------------------------------------

#: the plot of every exploiter probe's curve, beside the result files (``--plots`` writes it)
CURVES_PNG = "exploit_curves.png"
_DIGEST = re.compile(rb"granujas-docs ([0-9a-f]{16})")


class Curve(NamedTuple):
    """One exploiter probe's curve: its table size, the deals it was rated on, the win rate its
    target must hold the exploiter under (None where no issue set one) and (steps, win rate)."""

    players: int
    eval_seed: int | None
    target_max_win_rate: float | None
    points: list[tuple[int, float]]


def curve_series(folder: Path) -> dict[str, Curve]:
    """``{target by today's name (players): Curve}`` of the exploiter probes of ``folder`` that
    rated a curve, the final model included."""
    series = {}
    for name, data in read_results(folder).get("exploit", []):
        if not data.get("curve"):
            continue
        match = re.match(r"exploit_(.*?)_(\d)p", Path(name).stem)
        label = f"{match.group(1).replace('_', '-')} ({match.group(2)}p)" if match else name
        points = [(r["steps"], r["win_rate"]) for r in data["curve"] if "win_rate" in r]
        series[label] = Curve(
            players=int(data.get("players", 2)),
            eval_seed=data.get("eval_seed"),
            target_max_win_rate=data.get("target_max_win_rate"),
            points=sorted({*points, (data["steps"], data["win_rate"])}),
        )
    return series


def curves_digest(series: Mapping[str, Curve]) -> str:
    """A short digest of the plotted data, stored in the PNG so that a stale plot is caught."""
    return hashlib.sha256(json.dumps(series, sort_keys=True).encode()).hexdigest()[:16]


def plot_digest(png: Path) -> str | None:
    """The data digest a plot written by :mod:`granujas_env.docs_plots` carries, or None."""
    match = _DIGEST.search(png.read_bytes()) if png.is_file() else None
    return match.group(1).decode() if match else None
