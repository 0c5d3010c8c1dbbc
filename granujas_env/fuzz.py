"""Fuzz a rules engine: random legal games with every state invariant checked after every step.

    python -m granujas_env.fuzz --games N [--game granujas] [--players 2,3,4]
        [--length short,long] [--strategy-cards on,off] [--seed S] [--max-steps B] [--out DIR]
        [--json FILE]
    python -m granujas_env.fuzz --game bang-dice --games N [--players 3,4,5,6,7,8] [--seed S] ...
    python -m granujas_env.fuzz --replay FILE      # reproduce a saved failure (either game)

``--game`` (default ``granujas``) picks the game of :mod:`granujas_env.games`; what the harness
needs of a game is one :class:`FuzzGame` (:data:`FUZZ_GAMES`). The text below describes
granujas; **Bang! The Dice Game** differences are at the end.

Every option but ``--games`` defaults to every value, i.e. every configuration. A configuration the
engine refuses (``GameConfig`` or ``Game`` raises ``ValueError``: a player count outside 2-4, or
``strategy_cards=True`` with a user catalog that has no Strategy cards) is
reported as *unavailable* with the engine's reason and skipped; the games are spread round-robin
over the configurations that can be constructed. Game ``g`` uses the
seed ``S * 1_000_003 + g``; its moves are drawn uniformly from the legal ids ("uniform"), or, on
every other round, preferring any non-pass id 80% of the time ("eager": more challenges, abilities,
hires), by a ``random.Random`` seeded with the game seed.

After the setup and after every step :func:`granujas_env.invariants.check_invariants` runs
(conservation of Safes, henchmen, poker cards, Marks and Granuja halves; money >= 0; reputation in
bounds; at most one own henchman per card, never on one's own; the Safe limit; a non-empty legal
set while the game is not over). A game must end within the step bound.

**Step bound.** ``STEPS_PER_TURN_BOUND`` (50) agent steps per player-turn of the configuration
(days x 4 turns x players): 800 for 2 players/short, 1,200 for 2/long and 3/short, 1,600 for
4/short, 1,800 for 3/long and 2,400 for 4/long. Measured maxima (``--games 24000 --seed 1``: 2,000
games per configuration, 7,933,831 steps, zero failures), without / with Strategy cards: 225 / 241
steps (2/short), 356 / 404 (2/long), 317 / 354 (3/short), 491 / 533 (3/long), 403 / 472 (4/short),
612 / 689 (4/long): at most 16.8 steps per player-turn (2/long with Strategy cards). The bound leaves
a margin of about 3x for user catalogs (an intermediate catalog reached 24.1 steps per
player-turn). ``--max-steps B`` replaces it by B steps for every game.

On a failure (invariant broken, engine exception, step bound exceeded) the game is saved under
``--out`` (default ``fuzz-failures``) as a game record (:mod:`granujas_env.record`) holding the
actions up to the failing step, the failure and, unless the engine raised, the final state; the
command prints the path and exits 1 once the run is over (or after ``--max-failures`` failures).
``--replay FILE`` loads such a record, replays it with the same checks and exits 1 if the failure
reproduces, 0 if it no longer does. Exit status 2: bad arguments, or no configuration available.

**Bang! The Dice Game** (``--game bang-dice``): one configuration per table size (``--players``,
default 3-8; ``--length`` and ``--strategy-cards`` are refused), the checks of
:func:`granujas_env.bang_dice.invariants.check_invariants` (the table size's deal of roles; life
within ``[0, max]``, 0 exactly when out; the 9 arrows conserved between pile and players, the pile
never empty; the dice and rolls; a winner set exactly when the game is over, and only when an end
condition holds), "eager" preferring a reroll to stopping. A game has no fixed number of turns:
its step bound is ``BANG_STEP_BOUND`` (2,000) steps for every table size, about 10x the longest
game random play made in ``--games 14100 --seed 0`` (1,000,796 steps, 0 failures; longest game
102 steps at 3 players, 197 at 8; docs/bang_dice/integrity.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import games
from .bang_dice.engine import actions as BA
from .cli import run_main
from .engine import actions as A
from .engine.game import GAME_LENGTHS, Game, GameConfig, default_data
from .invariants import InvariantError, check_invariants
from .record import GameRecord, RecordError, load, record_game, record_game_for

STEPS_PER_TURN_BOUND = 50
BANG_STEP_BOUND = 2_000
POLICIES = ("uniform", "eager")
SEED_STRIDE = 1_000_003
# (players, length, strategy cards) -> most steps seen in one game (module docstring)
MEASURED_MAX_STEPS = {
    (2, "short", False): 225, (2, "short", True): 241, (2, "long", False): 356,
    (2, "long", True): 404, (3, "short", False): 317, (3, "short", True): 354,
    (3, "long", False): 491, (3, "long", True): 533, (4, "short", False): 403,
    (4, "short", True): 472, (4, "long", False): 612, (4, "long", True): 689,
}


def step_bound(config: GameConfig) -> int:
    """The documented maximum number of agent steps of one game of ``config``."""
    rules = default_data()[0]
    turns = rules.days[config.game_length] * rules.turns_per_day * config.num_players
    return STEPS_PER_TURN_BOUND * turns


def config_name(config: Any) -> str:
    """The configuration's name in the summary (``3p short strategy-cards on``, ``5p``)."""
    return fuzz_game_for(config).config_name(config)


def _granujas_name(config: GameConfig) -> str:
    cards = "on" if config.strategy_cards else "off"
    return f"{config.num_players}p {config.game_length:<5} strategy-cards {cards}"


@dataclass(frozen=True)
class FuzzGame:
    """What the fuzzer needs of one game: ``new_game(config, seed)``, ``check(game)`` (raises
    :class:`InvariantError`), the id "eager" plays less (``pass_action``), the step bound and
    name of a configuration, a failure record's file name, and where a game stands (for the
    step-bound message)."""

    name: str
    new_game: Callable[[Any, int], Any]
    check: Callable[[Any], None]
    pass_action: int
    step_bound: Callable[[Any], int]
    config_name: Callable[[Any], str]
    file_name: Callable[[Any, int], str]
    where: Callable[[Any], str]


def _granujas_file(config: GameConfig, seed: int) -> str:
    cards = "on" if config.strategy_cards else "off"
    return f"fuzz-{config.num_players}p-{config.game_length}-cards{cards}-seed{seed}.json"


_BANG = games.get("bang-dice")
#: game name -> its fuzzing needs. The granujas entry reads Game and check_invariants from this
#: module when called, so that tests can patch them here.
FUZZ_GAMES: dict[str, FuzzGame] = {
    "granujas": FuzzGame(
        name="granujas",
        new_game=lambda config, seed: Game(config, seed),
        check=lambda game: check_invariants(game),
        pass_action=A.PASS,
        step_bound=lambda config: step_bound(config),
        config_name=_granujas_name,
        file_name=_granujas_file,
        where=lambda game: f"day {game.day}, turn {game.turn + 1}",
    ),
    "bang-dice": FuzzGame(
        name="bang-dice",
        new_game=_BANG.new_game,
        check=_BANG.check_invariants,
        pass_action=BA.STOP,
        step_bound=lambda config: BANG_STEP_BOUND,
        config_name=lambda config: f"{config.num_players}p",
        file_name=lambda config, seed: f"fuzz-bang-dice-{config.num_players}p-seed{seed}.json",
        where=lambda game: f"turn {game.turn_number}",
    ),
}


def fuzz_game_for(config: Any) -> FuzzGame:
    """The :class:`FuzzGame` of the game ``config`` configures."""
    return FUZZ_GAMES[record_game_for(config).name]


@dataclass
class Failure:
    kind: str  # "invariant" | "exception" | "step_bound"
    step: int  # steps applied when it showed (0 = at setup)
    message: str
    exception: str | None = None
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "step": self.step, "message": self.message}
        if self.exception is not None:
            out["exception"] = self.exception
        if self.detail:
            out["traceback"] = self.detail
        return out


@dataclass
class GameResult:
    steps: int
    checks: int
    actions: list[int]
    failure: Failure | None


@dataclass
class ConfigStats:
    config: Any
    bound: int
    games: int = 0
    steps: int = 0
    max_steps: int = 0
    checks: int = 0
    failures: int = 0
    records: list[str] = field(default_factory=list)


def _check(game: Any, steps: int, check: Callable[[Any], None]) -> Failure | None:
    try:
        check(game)
    except InvariantError as exc:
        return Failure("invariant", steps, str(exc))
    except Exception as exc:  # noqa: BLE001 - the checker crashing on a state is a finding too
        return Failure("invariant", steps, f"check_invariants raised {type(exc).__name__}: {exc}",
                       detail=traceback.format_exc())
    return None


def play_game(
    config: Any,
    seed: int,
    policy: str,
    max_steps: int,
    check: Callable[[Any], None] | None = None,
) -> GameResult:
    """Play one random legal game of ``config``'s game, checking invariants after the setup and
    every step (``check``: default, the game's invariants)."""
    target = fuzz_game_for(config)
    check = check or target.check
    pass_action = target.pass_action
    rng = random.Random(seed)
    actions: list[int] = []
    try:
        game = target.new_game(config, seed)
    except Exception as exc:  # noqa: BLE001
        return GameResult(0, 0, actions, Failure("exception", 0, f"setup raised {exc}",
                                                 type(exc).__name__, traceback.format_exc()))
    failure = _check(game, 0, check)
    checks = 1
    eager = policy == "eager"
    choice, rand = rng.choice, rng.random
    steps = 0
    while failure is None and not game.game_over:
        if steps >= max_steps:
            frame = game.decision
            failure = Failure(
                "step_bound", steps,
                f"the game did not end within {max_steps} steps ({target.where(game)}, "
                f"pending {frame.kind if frame else None!r})",
            )
            break
        try:
            legal = game.legal_actions()
            if eager and len(legal) > 1 and legal[0] == pass_action and rand() < 0.8:
                action = choice(legal[1:])
            else:
                action = choice(legal)
            actions.append(action)
            game.apply(action)
        except Exception as exc:  # noqa: BLE001 - any engine crash is a finding
            if len(actions) == steps:  # legal_actions() itself raised: replaying shows it
                failure = Failure("invariant", steps, f"legal_actions() raised "
                                  f"{type(exc).__name__}: {exc}", detail=traceback.format_exc())
            else:
                steps += 1
                failure = Failure("exception", steps, f"{type(exc).__name__}: {exc}",
                                  type(exc).__name__, traceback.format_exc())
            break
        steps += 1
        failure = _check(game, steps, check)
        checks += 1
    return GameResult(steps, checks, actions, failure)


def reproduce(
    record: GameRecord,
    check: Callable[[Any], None] | None = None,
    max_steps: int | None = None,
) -> Failure | None:
    """Replay a record's actions with the fuzzer's checks; the first failure seen, if any."""
    target = fuzz_game_for(record.config)
    check = check or target.check
    try:
        game = target.new_game(record.config, record.seed)
    except Exception as exc:  # noqa: BLE001
        return Failure("exception", 0, f"setup raised {exc}", type(exc).__name__)
    failure = _check(game, 0, check)
    if failure is not None:
        return failure
    for i, action in enumerate(record.actions):
        try:
            game.apply(action)
        except Exception as exc:  # noqa: BLE001
            return Failure("exception", i + 1, f"{type(exc).__name__}: {exc}", type(exc).__name__)
        failure = _check(game, i + 1, check)
        if failure is not None:
            return failure
    if max_steps is None and record.failure is not None and record.failure["kind"] == "step_bound":
        max_steps = record.failure["step"]
    if max_steps is not None and not game.game_over and len(record.actions) >= max_steps:
        return Failure("step_bound", len(record.actions),
                       f"the game did not end within {max_steps} steps")
    return None


def _save_failure(
    out: Path, config: Any, seed: int, policy: str, result: GameResult, bound: int
) -> Path:
    failure = result.failure
    assert failure is not None
    record = record_game(
        config,
        seed,
        result.actions,
        snapshot=failure.kind != "exception",
        failure=failure.as_dict(),
        meta={"tool": "granujas_env.fuzz", "policy": policy, "step_bound": bound},
    )
    return record.save(out / fuzz_game_for(config).file_name(config, seed))


def run(
    configs: Sequence[Any],
    games: int,
    seed: int = 0,
    max_steps: int | None = None,
    out: Path | str = "fuzz-failures",
    max_failures: int = 10,
    policies: Sequence[str] = POLICIES,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Play ``games`` games spread round-robin over ``configs`` (of one game); the summary as a
    dict."""
    if not configs:
        raise ValueError("no configuration to fuzz")
    target = fuzz_game_for(configs[0])
    stats = [
        ConfigStats(c, max_steps if max_steps is not None else target.step_bound(c))
        for c in configs
    ]
    out = Path(out)
    failures = 0
    started = time.perf_counter()
    played = 0
    for g in range(games):
        st = stats[g % len(stats)]
        game_seed = seed * SEED_STRIDE + g
        policy = policies[(g // len(stats)) % len(policies)]
        result = play_game(st.config, game_seed, policy, st.bound)
        played += 1
        st.games += 1
        st.steps += result.steps
        st.checks += result.checks
        st.max_steps = max(st.max_steps, result.steps)
        if result.failure is not None:
            failures += 1
            st.failures += 1
            path = _save_failure(out, st.config, game_seed, policy, result, st.bound)
            st.records.append(str(path))
            f = result.failure
            log(f"FAILURE {target.config_name(st.config)} seed {game_seed} ({policy}): {f.kind} after "
                f"step {f.step}: {f.message}\n  saved {path}\n  reproduce: python -m "
                f"granujas_env.fuzz --replay {path}")
            if failures >= max_failures:
                log(f"stopping after {failures} failures (--max-failures)")
                break
    elapsed = time.perf_counter() - started
    steps = sum(s.steps for s in stats)
    return {
        "game": target.name,
        "games": played,
        "steps": steps,
        "invariant_checks": sum(s.checks for s in stats),
        "failures": failures,
        "seconds": round(elapsed, 3),
        "steps_per_second": round(steps / elapsed) if elapsed > 0 else None,
        "seed": seed,
        "configs": [
            {
                "config": dataclasses.asdict(s.config),
                "name": target.config_name(s.config),
                "games": s.games,
                "steps": s.steps,
                "max_steps": s.max_steps,
                "step_bound": s.bound,
                "invariant_checks": s.checks,
                "failures": s.failures,
                "records": s.records,
            }
            for s in stats
        ],
    }


def format_summary(summary: dict[str, Any], unavailable: Sequence[tuple[str, str]]) -> str:
    """The summary of :func:`run` as a table, one line per configuration."""
    head = f"{'configuration':<30}{'games':>7}{'steps':>11}{'max':>6}{'bound':>7}{'checks':>11}{'failures':>10}"
    lines = [f"{summary['game']} fuzz summary", head, "-" * len(head)]
    for c in summary["configs"]:
        lines.append(f"{c['name']:<30}{c['games']:>7}{c['steps']:>11,}{c['max_steps']:>6}"
                     f"{c['step_bound']:>7}{c['invariant_checks']:>11,}{c['failures']:>10}")
    for name, reason in unavailable:
        lines.append(f"{name:<30}  unavailable: {reason}")
    rate = summary["steps_per_second"]
    lines.append(
        f"total: {summary['games']:,} games, {summary['steps']:,} agent steps, "
        f"{summary['invariant_checks']:,} invariant checks, {summary['failures']} failures in "
        f"{summary['seconds']:.1f} s ({rate:,} steps/s, seed {summary['seed']})"
        if rate is not None else f"total: {summary['games']} games, 0 steps"
    )
    return "\n".join(lines)


def _list(kind: Callable[[str], Any], allowed: Sequence[Any] | None = None) -> Callable[[str], list]:
    def parse(text: str) -> list:
        items = []
        for part in text.split(","):
            part = part.strip()
            try:
                value = kind(part)
            except ValueError:
                raise argparse.ArgumentTypeError(f"{part!r} is not valid") from None
            if allowed is not None and value not in allowed:
                raise argparse.ArgumentTypeError(
                    f"{part!r} is not one of {', '.join(map(str, allowed))}")
            if value not in items:
                items.append(value)
        if not items:
            raise argparse.ArgumentTypeError("empty list")
        return items

    return parse


def _on_off(text: str) -> bool:
    if text not in ("on", "off"):
        raise ValueError(text)
    return text == "on"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m granujas_env.fuzz",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, help="number of games, spread over the configurations")
    parser.add_argument("--game", choices=sorted(FUZZ_GAMES), default=games.DEFAULT_GAME,
                        help=f"the game to fuzz (default {games.DEFAULT_GAME})")
    parser.add_argument("--players", type=_list(int), default=None,
                        help="player counts, comma-separated (default: every count of the game, "
                        "granujas 2,3,4, bang-dice 3,4,5,6,7,8)")
    parser.add_argument("--length", type=_list(str), default=None,
                        help="granujas: game lengths, comma-separated (default short,long)")
    parser.add_argument("--strategy-cards", type=_list(_on_off), default=None,
                        help="granujas: on, off or on,off (default on,off)")
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument("--max-steps", type=int, default=None,
                        help=f"step bound per game (default: granujas {STEPS_PER_TURN_BOUND} per "
                        f"player-turn, bang-dice {BANG_STEP_BOUND})")
    parser.add_argument("--out", default="fuzz-failures",
                        help="folder for failure records (default fuzz-failures)")
    parser.add_argument("--max-failures", type=int, default=10,
                        help="stop after this many failures (default 10)")
    parser.add_argument("--json", default=None, help="also write the summary as JSON to this file")
    parser.add_argument("--replay", default=None, metavar="FILE",
                        help="reproduce the failure saved in a record")
    args = parser.parse_args(argv)

    if args.replay is not None:
        return _replay(args.replay)
    if args.games is None or args.games < 1:
        parser.error("--games N (N >= 1) is required")
    if args.max_steps is not None and args.max_steps < 1:
        parser.error("--max-steps must be >= 1")
    if args.game == "granujas":
        configs, unavailable = _granujas_configs(
            args.players or [2, 3, 4], args.length or list(GAME_LENGTHS),
            args.strategy_cards or [False, True],
        )
    else:
        given = [flag for flag, value in (("--length", args.length),
                                          ("--strategy-cards", args.strategy_cards)) if value]
        if given:
            verb = "apply" if len(given) > 1 else "applies"
            parser.error(f"{' and '.join(given)} {verb} to granujas only, not to {args.game}")
        configs, unavailable = _configs(args.game, args.players)
    if not configs:
        for name, reason in unavailable:
            print(f"{name}: unavailable: {reason}", file=sys.stderr)
        print("error: none of the requested configurations can be constructed", file=sys.stderr)
        return 2
    summary = run(configs, args.games, args.seed, args.max_steps, args.out, args.max_failures)
    summary["unavailable"] = [{"name": n, "reason": r} for n, r in unavailable]
    print(format_summary(summary, unavailable))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 1 if summary["failures"] else 0


def _granujas_configs(
    players: list[int], lengths: list[str], cards_options: list[bool]
) -> tuple[list[Any], list[tuple[str, str]]]:
    configs: list[Any] = []
    unavailable: list[tuple[str, str]] = []
    for n in players:
        for length in lengths:
            for cards in cards_options:
                try:
                    config = GameConfig(n, length, cards)
                    Game(config, seed=0)  # the catalog may lack what the config needs
                    configs.append(config)
                except ValueError as exc:
                    name = f"{n}p {length:<5} strategy-cards {'on' if cards else 'off'}"
                    unavailable.append((name, str(exc)))
    return configs, unavailable


def _configs(game: str, players: list[int] | None) -> tuple[list[Any], list[tuple[str, str]]]:
    """One configuration per player count of a game whose only option is its table size."""
    spec = games.get(game)
    configs: list[Any] = []
    unavailable: list[tuple[str, str]] = []
    for n in players or list(spec.players):
        try:
            configs.append(spec.make_config(n))
        except ValueError as exc:
            unavailable.append((f"{n}p", str(exc)))
    return configs, unavailable


def _replay(path: str) -> int:
    try:
        record = load(path)
    except RecordError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    failure = reproduce(record)
    if failure is None:
        print(f"{path}: no failure: the {len(record.steps)} steps replay with every invariant "
              "holding")
        return 0
    print(f"{path}: reproduced: {failure.kind} after step {failure.step}: {failure.message}")
    return 1


if __name__ == "__main__":
    sys.exit(run_main(main))
