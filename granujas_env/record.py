"""Game records of every game: a versioned, human-readable JSON file that replays a game exactly.

One format serves every game of :mod:`granujas_env.games`; the record's ``env_version`` names
its game and the rules' version (``granujas_v1``: 3000 Granujas, ``bang_dice_v0``: Bang! The
Dice Game), so a reader finds the game from the record itself. What the machinery needs of a
game is one :class:`RecordGame` (:data:`RECORD_GAMES`); the text below describes granujas, whose
format is unchanged, and the Bang! differences follow it.

A record holds the configuration, the seed and the list of action ids (with the acting player, the
decision kind and a readable name beside each, for the reader), the digest of the state after the
last action (:func:`granujas_env.engine.snapshot.digest`) and optionally a full-state snapshot
(:func:`granujas_env.engine.snapshot.to_dict`) from which the game resumes without replaying.

Loading never gives a wrong game: :func:`load` checks the file (a readable regular file of at most
16 MiB of UTF-8 JSON, nested at most 32 levels, no number of thousands of digits, no NaN), the
format name and version, the env version (a record of another ``granujas_vN`` fails, naming both),
every field and its type, the rules/card data fingerprint, then replays every action (each must be
legal for the decision the record says is pending, asked of the player it names) and compares the
final digest and, field by field, the snapshot with the replayed state. Any problem raises
:class:`RecordError` naming the file and the field, the step or the snapshot path.

    python -m granujas_env.record show FILE [--seat S] [--every-step] [--reveal] [--game G]
    python -m granujas_env.record check FILE [--game G]

renders a record turn by turn with :func:`granujas_env.render.render_text` (public view by
default; ``--seat S`` adds that seat's own information; the answers of private decisions, such as
the card chosen in the Plan, are shown only to their owner unless ``--reveal``).

File layout (format ``granujas-game-record``, version 2)::

    {
      "format": "granujas-game-record", "version": 2,
      "env_version": "granujas_v1",          # the rules' version (granujas_env.version.ENV_NAME)
      "package_version": "0.1.0",            # informative: compatibility is the two versions above
      "data_fingerprint": "<sha256>",         # of the rules and card catalog the game used
      "config": {"num_players": 3, "game_length": "short", "strategy_cards": false},
      "seed": 7,
      "final_digest": "<sha256>",             # state after the last step (null: it raised)
      "failure": {...},                       # optional: what a fuzzer saw go wrong
      "meta": {...},                          # optional, free-form (tool, policy, ...)
      "steps": [{"player": 0, "decision": "plan_card", "action": 5, "name": "card:3"}, ...],
      "snapshot": {...}                       # optional: snapshot.to_dict of the final state
    }

``failure`` is ``{"kind": "invariant" | "exception" | "step_bound", "step": K, "message": ...}``
where K is the number of steps applied when it showed (0: at setup); for ``"exception"`` the last
recorded step (or the setup, if there are none) raised ``failure["exception"]`` and replaying it
raises again, which is what reproducing it means.

Format version 1 had no ``env_version``: its records were made with ``granujas_v0``, whose end of
day differs, so they fail to load with a message naming both versions.

**Bang! The Dice Game** records (``"env_version": "bang_dice_v0"``) have the same fields:
``config`` is ``{"num_players": N}``, ``data_fingerprint`` hashes the character data, the
steps name Bang! decisions and actions, and the snapshot is the engine's state as plain JSON
(:func:`granujas_env.core.snapshot.state_dict`). The Bang! engine has no restore from a snapshot:
:func:`resume` replays the steps and checks the snapshot against the replayed state. It has no
private decisions (dice and targets are public). ``--game G`` on the command line checks that the
record is a record of G (by default the game is read from the record).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__, games
from .bang_dice.engine.data import CHARACTERS
from .bang_dice.engine.game import BangConfig, BangGame
from .cli import run_main
from .core import snapshot as core_snapshot
from .engine.data import MAX_DEPTH, Catalog, Rules, is_int, nested_too_deep, read_text, shown
from .engine.game import Game, GameConfig, IllegalActionError, default_data
from .engine.snapshot import SnapshotError, from_dict, to_dict
from .version import ENV_NAME

FORMAT = "granujas-game-record"
VERSION = 2
FAILURE_KINDS = ("invariant", "exception", "step_bound")
# The env version of the records of an older format, which had no "env_version" field.
FORMAT_ENV = {1: "granujas_v0"}
# What changed in the granujas rules at each env version (granujas_env.version has the details).
RULE_CHANGES = {1: "the end-of-day rules changed"}
_SHA256 = re.compile(r"[0-9a-f]{64}")

_REQUIRED = (
    "format", "version", "env_version", "package_version", "data_fingerprint", "config", "seed",
    "final_digest", "steps",
)
_OPTIONAL = ("failure", "meta", "snapshot")
_STEP_KEYS = ("player", "decision", "action", "name")
# Decisions whose answer only the deciding seat sees: the card played face down, the card put back
# on the deck, the Strategy card chosen in secret (revealed once every seat has chosen).
PRIVATE_DECISIONS = frozenset({"plan_card", "deck_top_card", "choose_strategy"})


class RecordError(ValueError):
    """A game record is malformed, of an incompatible version, or does not replay as recorded."""


# ---------------------------------------------------------------------------------------- games
@dataclass(frozen=True)
class RecordGame:
    """What records need of one game, beyond its :class:`~granujas_env.protocol.GameSpec`.

    ``new_game(config, seed, rules, catalog)`` deals the game (``rules``/``catalog``: granujas'
    user data, None for the shipped data); ``to_dict`` is its whole state as JSON types;
    ``restore`` rebuilds a game from ``to_dict``'s output (None: resume by replaying);
    ``fingerprint(rules, catalog)`` hashes the data the game was played with; ``position`` changes
    when ``show`` renders the table again; ``label``/``check_label`` describe a configuration;
    ``rule_changes``: version -> what changed in the rules at it.
    """

    name: str
    config_type: type
    new_game: Callable[[Any, int, Rules | None, Catalog | None], Any]
    to_dict: Callable[[Any], dict[str, Any]]
    restore: Callable[..., Any] | None
    fingerprint: Callable[[Rules | None, Catalog | None], str]
    position: Callable[[Any], Any]
    label: Callable[[Any], str]
    check_label: Callable[[Any], str]
    private_decisions: frozenset[str] = frozenset()
    rule_changes: Mapping[int, str] = field(default_factory=dict)

    @property
    def spec(self) -> Any:
        """The game's spec (:func:`granujas_env.games.get`)."""
        return games.get(self.name)

    @property
    def env_name(self) -> str:
        """The rules' version a record of this game names, e.g. ``granujas_v1``."""
        return self.spec.env_name

    def digest(self, game: Any) -> str:
        """SHA-256 of the whole state: equal digests mean equal states."""
        return core_snapshot.digest(self.to_dict(game))

    def describe(self, action: int) -> str:
        """The readable name of an action id."""
        return self.spec.describe(action)


def _granujas_game(config: GameConfig, seed: int, rules: Rules | None, catalog: Catalog | None) -> Game:
    return Game(config, seed, rules=rules, catalog=catalog)


def _granujas_restore(state: dict[str, Any], rules: Rules | None, catalog: Catalog | None) -> Game:
    return from_dict(state, rules=rules, catalog=catalog)


def _bang_game(config: BangConfig, seed: int, rules: Rules | None, catalog: Catalog | None) -> BangGame:
    if rules is not None or catalog is not None:
        raise ValueError("bang-dice takes no rules or card catalog (its data is fixed)")
    return BangGame(config, seed)


# the copy-on-write flag of the generator and the legal-id cache are not state
_BANG_SKIP = frozenset({"config", "_legal_cache", "_rng_shared"})
_BANG_FINGERPRINT = hashlib.sha256(
    json.dumps(core_snapshot.plain(CHARACTERS), sort_keys=True).encode()
).hexdigest()


def _bang_fingerprint(rules: Rules | None, catalog: Catalog | None) -> str:
    """SHA-256 of the character data (the rules' numbers are code, versioned by env_version)."""
    return _BANG_FINGERPRINT


#: game name -> how its records are read and written
RECORD_GAMES: dict[str, RecordGame] = {
    "granujas": RecordGame(
        name="granujas",
        config_type=GameConfig,
        new_game=_granujas_game,
        to_dict=to_dict,
        restore=_granujas_restore,
        fingerprint=lambda rules, catalog: data_fingerprint(rules, catalog),
        position=lambda game: (game.day, game.turn),
        label=lambda c: f"{c.num_players} players, {c.game_length} game",
        check_label=lambda c: f"{c.num_players} players, {c.game_length}",
        private_decisions=PRIVATE_DECISIONS,
        rule_changes=RULE_CHANGES,
    ),
    "bang-dice": RecordGame(
        name="bang-dice",
        config_type=BangConfig,
        new_game=_bang_game,
        to_dict=lambda game: core_snapshot.state_dict(game, _BANG_SKIP),
        restore=None,
        fingerprint=_bang_fingerprint,
        position=lambda game: game.turn_number,
        label=lambda c: f"{c.num_players} players",
        check_label=lambda c: f"{c.num_players} players",
    ),
}
DEFAULT_RECORD_GAME = RECORD_GAMES[games.DEFAULT_GAME]


def record_game_of(name: str) -> RecordGame:
    """The :class:`RecordGame` of the game ``name`` (ValueError naming the games)."""
    if name not in RECORD_GAMES:
        raise ValueError(f"unknown game {name!r}; records exist for: {', '.join(sorted(RECORD_GAMES))}")
    return RECORD_GAMES[name]


def record_game_for(config: object) -> RecordGame:
    """The :class:`RecordGame` whose configuration type ``config`` is (TypeError naming them)."""
    for codec in RECORD_GAMES.values():
        if type(config) is codec.config_type:
            return codec
    kinds = ", ".join(c.config_type.__name__ for c in RECORD_GAMES.values())
    raise TypeError(f"config must be one of {kinds}, got {type(config).__name__}")


@dataclass(frozen=True)
class RecordedStep:
    """One action of a record, with who took it, what was being decided and its readable name."""

    player: int
    decision: str
    action: int
    name: str


@dataclass
class GameRecord:
    """A replayable game. Build one with :func:`record_game`, read one with :func:`load`."""

    config: Any
    seed: int
    steps: list[RecordedStep]
    final_digest: str | None
    snapshot: dict[str, Any] | None = None
    failure: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    package_version: str = __version__
    data_fingerprint: str = ""

    @property
    def actions(self) -> list[int]:
        return [s.action for s in self.steps]

    @property
    def game(self) -> str:
        """The name of the record's game (``granujas``, ``bang-dice``)."""
        return record_game_for(self.config).name

    def to_json(self) -> str:
        """The record as JSON text: one field a line, one step a line."""
        head: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "env_version": record_game_for(self.config).env_name,
            "package_version": self.package_version,
            "data_fingerprint": self.data_fingerprint,
            "config": dataclasses.asdict(self.config),
            "seed": self.seed,
            "final_digest": self.final_digest,
        }
        if self.failure is not None:
            head["failure"] = self.failure
        if self.meta:
            head["meta"] = self.meta
        lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
        steps = [
            "    " + json.dumps(
                {"player": s.player, "decision": s.decision, "action": s.action, "name": s.name},
                ensure_ascii=False,
            )
            for s in self.steps
        ]
        body = ",\n".join(steps)
        lines.append('  "steps": [' + (f"\n{body}\n  ]" if steps else "]"))
        if self.snapshot is not None:
            lines[-1] += ","
            lines.append(
                '  "snapshot": ' + json.dumps(self.snapshot, ensure_ascii=False, sort_keys=True)
            )
        return "{\n" + "\n".join(lines) + "\n}\n"

    def save(self, path: str | Path) -> Path:
        """Write the record (UTF-8 JSON) and return its path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json(), encoding="utf-8")
        return path


# ---------------------------------------------------------------------------------------- fingerprint
_FINGERPRINTS: dict[tuple[int, int], tuple[Rules, Catalog, str]] = {}


def data_fingerprint(rules: Rules | None = None, catalog: Catalog | None = None) -> str:
    """SHA-256 of the granujas rule numbers and card catalog (not of where they were loaded from)."""
    default_rules, default_catalog = default_data()
    rules, catalog = rules or default_rules, catalog or default_catalog
    key = (id(rules), id(catalog))
    hit = _FINGERPRINTS.get(key)
    if hit is not None and hit[0] is rules and hit[1] is catalog:
        return hit[2]
    cards = {k: v for k, v in core_snapshot.plain(catalog).items() if k != "source"}
    text = json.dumps({"rules": core_snapshot.plain(rules), "catalog": cards}, sort_keys=True,
                      default=str)
    value = hashlib.sha256(text.encode()).hexdigest()
    _FINGERPRINTS[key] = (rules, catalog, value)
    return value


# ---------------------------------------------------------------------------------------- build
def record_game(
    config: Any,
    seed: int,
    actions: Sequence[int],
    *,
    snapshot: bool = False,
    failure: dict[str, Any] | None = None,
    meta: dict[str, Any] | None = None,
    rules: Rules | None = None,
    catalog: Catalog | None = None,
) -> GameRecord:
    """Replay ``actions`` from the game of ``config`` (a granujas ``GameConfig`` or a Bang!
    ``BangConfig``) dealt by ``seed`` and record them with the final digest (and, with
    ``snapshot=True``, the full final state).

    With ``failure={"kind": "exception", ...}`` the last action (or the setup, with no actions) is
    expected to raise: it is recorded and the final digest is left null.
    """
    codec = record_game_for(config)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int (a game without a seed cannot be replayed), got {seed!r}")
    if failure is not None:
        _check_failure(failure, "failure")
    raises = failure is not None and failure["kind"] == "exception"
    steps: list[RecordedStep] = []
    game: Any = None
    try:
        game = codec.new_game(config, seed, rules, catalog)
        for i, action in enumerate(actions):
            frame = game.decision
            if frame is None:
                raise RecordError(f"step {i}: the game is already over; {len(actions) - i} "
                                  "action(s) left over")
            action = int(action)
            steps.append(RecordedStep(frame.player, frame.kind, action, codec.describe(action)))
            game.apply(action)
    except IllegalActionError as exc:
        raise RecordError(f"step {len(steps) - 1}: {exc}") from None
    except RecordError:
        raise
    except Exception:
        if not raises or len(steps) != len(actions):
            raise
        game = None
    else:
        if raises:
            raise RecordError("failure says the last step raises, but it replayed without error")
    return GameRecord(
        config=config,
        seed=seed,
        steps=steps,
        final_digest=None if game is None else codec.digest(game),
        snapshot=codec.to_dict(game) if snapshot and game is not None else None,
        failure=dict(failure) if failure is not None else None,
        meta=dict(meta or {}),
        data_fingerprint=codec.fingerprint(rules, catalog),
    )


# ---------------------------------------------------------------------------------------- replay
def start(record: GameRecord, *, rules: Rules | None = None, catalog: Catalog | None = None) -> Any:
    """The game of a record before its first step."""
    return record_game_for(record.config).new_game(record.config, record.seed, rules, catalog)


def replay(
    record: GameRecord, *, rules: Rules | None = None, catalog: Catalog | None = None
) -> Iterator[Any]:
    """Yield the game after each step of the record (the same object, advanced in place: copy it
    to keep a state). Raises :class:`RecordError` at the first step that is not legal or not the
    decision/player the record names; a recorded ``exception`` failure raises again, unwrapped."""
    codec = record_game_for(record.config)
    game = start(record, rules=rules, catalog=catalog)
    for i, step in enumerate(record.steps):
        frame = game.decision
        if frame is None:
            raise RecordError(f"step {i}: the game is already over, yet the record has "
                              f"{len(record.steps) - i} more step(s)")
        if (frame.kind, frame.player) != (step.decision, step.player):
            raise RecordError(
                f"step {i}: the record says decision {step.decision!r} of p{step.player}, the "
                f"replay asks {frame.kind!r} of p{frame.player}"
            )
        legal = game.legal_actions()
        if step.action not in legal:
            raise RecordError(
                f"step {i}: action {step.action} ({_describe(codec, step.action)}) is not legal "
                f"for {frame.kind!r} of p{frame.player}; legal ids: {legal}"
            )
        game.apply(step.action)
        yield game


def _replay_all(record: GameRecord, rules: Rules | None, catalog: Catalog | None) -> Any:
    game = start(record, rules=rules, catalog=catalog)
    for game in replay(record, rules=rules, catalog=catalog):  # noqa: B007 - keep the last
        pass
    return game


def resume(record: GameRecord, *, rules: Rules | None = None, catalog: Catalog | None = None) -> Any:
    """The game at the end of the record: restored from its snapshot if it has one and the game
    can restore one (the snapshot must restore to exactly itself and match the final digest),
    otherwise by replaying every step (a snapshot is then checked against the replayed state)."""
    codec = record_game_for(record.config)
    if record.snapshot is not None and codec.restore is not None:
        try:
            game = codec.restore(record.snapshot, rules, catalog)
        except SnapshotError as exc:
            raise RecordError(f"snapshot: {exc}") from None
        # a field from_dict takes but does not restore as written (e.g. an unknown scalar named
        # like an attribute the snapshot leaves out: rules, catalog) would make a broken game
        _check_snapshot(record.snapshot, game, "the restored state")
        if codec.digest(game) != record.final_digest:
            raise RecordError("snapshot: the restored state does not match final_digest")
        return game
    game = _replay_all(record, rules, catalog)
    if record.snapshot is not None:
        _check_snapshot(record.snapshot, game, "the replayed state")
    return game


def first_difference(recorded: Any, actual: Any, name: str, where: str = "snapshot") -> str | None:
    """Where the JSON value ``recorded`` first differs from ``actual`` (called ``name`` in the
    sentence), depth first with keys in sorted order; None if they are equal. Types count: ``1``,
    ``1.0`` and ``true`` all differ."""
    stack = [(recorded, actual, where)]
    while stack:
        a, b, here = stack.pop()
        if type(a) is not type(b) or not isinstance(a, (dict, list)) and a != b:
            return f"{here}: the record has {shown(a)}, {name} has {shown(b)}"
        if isinstance(a, dict):
            for key in sorted(set(a) | set(b), key=str):
                if key not in b:
                    return f"{here}.{key}: in the record, not in {name}"
                if key not in a:
                    return f"{here}.{key}: missing from the record ({name} has {shown(b[key])})"
            stack.extend((a[k], b[k], f"{here}.{k}") for k in sorted(a, key=str, reverse=True))
        elif isinstance(a, list):
            if len(a) != len(b):
                return f"{here}: the record has {len(a)} items, {name} has {len(b)}"
            stack.extend((a[i], b[i], f"{here}[{i}]") for i in reversed(range(len(a))))
    return None


def _check_snapshot(snapshot: dict[str, Any], game: Any, name: str) -> None:
    # through JSON, as a record stores it (tuples become lists, keys strings)
    state = json.loads(json.dumps(record_game_for(game.config).to_dict(game)))
    difference = first_difference(snapshot, state, name)
    if difference is not None:
        raise RecordError(f"the snapshot differs from {name} at {difference}")


def verify(record: GameRecord, *, rules: Rules | None = None, catalog: Catalog | None = None) -> None:
    """Replay the record and check every step, the final digest and, field by field, the
    snapshot against the replayed state."""
    codec = record_game_for(record.config)
    fingerprint = codec.fingerprint(rules, catalog)
    if record.data_fingerprint != fingerprint:
        raise RecordError(
            "the record was made with different rules or card data (data_fingerprint "
            f"{record.data_fingerprint[:12]}..., this installation has {fingerprint[:12]}...): "
            "load it with the same rules.toml/cards.toml"
        )
    raises = record.failure is not None and record.failure["kind"] == "exception"
    if raises:
        if record.final_digest is not None or record.snapshot is not None:
            raise RecordError("a record whose last step raises has no final_digest or snapshot")
        expected = record.failure["exception"] if record.failure else ""
        try:
            for _ in replay(record, rules=rules, catalog=catalog):
                pass
        except RecordError:
            raise
        except Exception as exc:  # noqa: BLE001 - the recorded failure reproduced
            if type(exc).__name__ != expected:
                raise RecordError(f"the recorded failure raised {expected}, the replay raised "
                                  f"{type(exc).__name__}: {exc}") from None
            return
        raise RecordError(f"the record says its last step raises {expected}, but it replays "
                          "without error")
    game = _replay_all(record, rules, catalog)
    got = codec.digest(game)
    if got != record.final_digest:
        raise RecordError(
            f"the replayed final state (digest {got[:12]}...) differs from the recorded one "
            f"({str(record.final_digest)[:12]}...): the record is corrupted or from another engine"
        )
    if record.snapshot is not None:
        _check_snapshot(record.snapshot, game, "the replayed state")


# ---------------------------------------------------------------------------------------- load
def _describe(codec: RecordGame, action: object) -> str:
    try:
        return codec.describe(action)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return "out of range"


def _check_failure(failure: object, where: str) -> dict[str, Any]:
    if not isinstance(failure, dict):
        raise RecordError(f"{where}: must be a table, got {shown(failure)}")
    kind = failure.get("kind")
    if kind not in FAILURE_KINDS:
        raise RecordError(f"{where}.kind: must be one of {FAILURE_KINDS}, got {shown(kind)}")
    if not is_int(failure.get("step")) or failure["step"] < 0:
        raise RecordError(f"{where}.step: must be a non-negative integer, got "
                          f"{shown(failure.get('step'))}")
    if not isinstance(failure.get("message"), str):
        raise RecordError(f"{where}.message: must be a string")
    if kind == "exception" and not isinstance(failure.get("exception"), str):
        raise RecordError(f"{where}.exception: the exception's type name is required")
    return failure


def _not_a_number(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _parse_json(text: str, source: str) -> Any:
    try:
        raw = json.loads(text, parse_constant=_not_a_number)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"{source}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); the "
            "file is truncated or corrupted"
        ) from None
    except RecursionError:
        raise RecordError(f"{source}: not a game record: lists or objects nested too deeply (at "
                          f"most {MAX_DEPTH} levels)") from None
    except ValueError as exc:  # NaN/Infinity, or an int longer than Python converts
        reason = str(exc) if "JSON number" in str(exc) else (
            "a number has more digits than Python converts, 4300 by default")
        raise RecordError(f"{source}: not valid JSON ({reason})") from None
    if nested_too_deep(raw):
        raise RecordError(f"{source}: not a game record: lists or objects nested more than "
                          f"{MAX_DEPTH} levels deep")
    return raw


def _version_number(env_name: str) -> tuple[str, int]:
    prefix, _, number = env_name.rpartition("_v")
    return prefix, int(number)


def _codec_of_env(source: str, made_with: object) -> RecordGame:
    """The game whose rules' version ``made_with`` is; RecordError naming both versions for
    another version of a game, naming the games' versions for anything else."""
    for codec in RECORD_GAMES.values():
        if made_with == codec.env_name:
            return codec
    for codec in RECORD_GAMES.values():
        prefix, current = _version_number(codec.env_name)
        number = (re.fullmatch(rf"{prefix}_v(\d{{1,9}})", made_with)
                  if isinstance(made_with, str) else None)
        if number is None:
            continue
        if int(number[1]) > current:
            why = "a newer granujas made it: upgrade granujas to replay it"
        else:
            changes = [text for v, text in sorted(codec.rule_changes.items())
                       if int(number[1]) < v <= current]
            why = f"{'; '.join(changes) or 'the rules differ'}, so it cannot be replayed"
        raise RecordError(f"{source}: record made with {made_with}; this is {codec.env_name}: {why}")
    others = ", ".join(repr(c.env_name) for c in RECORD_GAMES.values() if c is not DEFAULT_RECORD_GAME)
    raise RecordError(
        f"{source}: field 'env_version' must be a {DEFAULT_RECORD_GAME.name} version like "
        f"{DEFAULT_RECORD_GAME.env_name!r}, got {shown(made_with)} (other games: {others})"
    )


def loads(
    text: str | bytes,
    *,
    source: str = "<record>",
    check: bool = True,
    rules: Rules | None = None,
    catalog: Catalog | None = None,
    game: str | None = None,
) -> GameRecord:
    """Parse and validate a record (JSON text, or UTF-8 bytes); with ``check`` (default) also
    :func:`verify` it. ``game``: the game the record must be of (default: any, read from the
    record's ``env_version``)."""
    if game is not None:
        record_game_of(game)
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start}); the "
                              "file is corrupted") from None
    if not isinstance(text, str):
        raise RecordError(f"{source}: a game record is JSON text (str or bytes), got "
                          f"{type(text).__name__}")
    raw = _parse_json(text, source)
    if not isinstance(raw, dict):
        raise RecordError(f"{source}: a game record is a JSON object, got {type(raw).__name__}")
    if raw.get("format") != FORMAT:
        raise RecordError(f"{source}: not a granujas game record (format "
                          f"{shown(raw.get('format'))}, expected {FORMAT!r})")
    version = raw.get("version")
    if not is_int(version) or version < 1:
        raise RecordError(f"{source}: invalid format version {shown(version)} (this granujas "
                          f"reads version {VERSION})")
    if version > VERSION:
        raise RecordError(
            f"{source}: record format version {version} is newer than this granujas "
            f"({__version__}) reads (version {VERSION}); upgrade granujas to load it"
        )
    if version in FORMAT_ENV:
        _codec_of_env(source, FORMAT_ENV[version])
    # a missing field is reported below, as a granujas record's
    codec = _codec_of_env(source, raw.get("env_version", ENV_NAME))
    if game is not None and codec.name != game:
        raise RecordError(f"{source}: a record of {codec.name} ({codec.env_name}), not of {game}")
    missing = [k for k in _REQUIRED if k not in raw]
    if missing:
        raise RecordError(f"{source}: missing field(s) {missing}")
    unknown = [k for k in raw if k not in _REQUIRED and k not in _OPTIONAL]
    if unknown:
        raise RecordError(f"{source}: unknown field(s) {shown(unknown)} (allowed: "
                          f"{list(_REQUIRED) + list(_OPTIONAL)})")

    def bad(name: str, what: str) -> RecordError:
        return RecordError(f"{source}: field {name!r} must be {what}, got {shown(raw[name])}")

    if not isinstance(raw["package_version"], str):
        raise bad("package_version", "a string")
    if not isinstance(raw["data_fingerprint"], str) or not _SHA256.fullmatch(raw["data_fingerprint"]):
        raise bad("data_fingerprint", "a 64-digit hex SHA-256")
    config = raw["config"]
    config_fields = [f.name for f in dataclasses.fields(codec.config_type)]
    if not isinstance(config, dict) or set(config) != set(config_fields):
        raise bad("config", f"a table of {', '.join(config_fields)}")
    try:
        game_config = codec.config_type(**config)
    except (TypeError, ValueError) as exc:
        raise RecordError(f"{source}: field 'config': {exc}") from None
    if not is_int(raw["seed"]):
        raise bad("seed", "an integer")
    final = raw["final_digest"]
    if final is not None and (not isinstance(final, str) or not _SHA256.fullmatch(final)):
        raise bad("final_digest", "a 64-digit hex SHA-256 or null")
    if not isinstance(raw["steps"], list):
        raise bad("steps", "a list")
    steps = [_read_step(codec, item, game_config.num_players, f"{source}: steps[{i}]")
             for i, item in enumerate(raw["steps"])]
    failure = raw.get("failure")
    if failure is not None:
        _check_failure(failure, f"{source}: failure")
    elif final is None:
        raise RecordError(f"{source}: final_digest is null but the record has no failure")
    meta = raw.get("meta", {})
    if not isinstance(meta, dict):
        raise bad("meta", "a table")
    snapshot = raw.get("snapshot")
    if snapshot is not None and not isinstance(snapshot, dict):
        raise bad("snapshot", "a table (snapshot.to_dict) or absent")
    record = GameRecord(
        config=game_config,
        seed=raw["seed"],
        steps=steps,
        final_digest=final,
        snapshot=snapshot,
        failure=failure,
        meta=meta,
        package_version=raw["package_version"],
        data_fingerprint=raw["data_fingerprint"],
    )
    if check:
        try:
            verify(record, rules=rules, catalog=catalog)
        except RecordError as exc:
            raise RecordError(f"{source}: {exc}") from None
    return record


def _read_step(codec: RecordGame, item: object, num_players: int, where: str) -> RecordedStep:
    if not isinstance(item, dict) or not {"player", "decision", "action"} <= set(item) or not (
        set(item) <= set(_STEP_KEYS)
    ):
        raise RecordError(f"{where}: must be a table of {list(_STEP_KEYS)}, got {shown(item)}")
    player, decision, action = item["player"], item["decision"], item["action"]
    if not is_int(player) or not 0 <= player < num_players:
        raise RecordError(f"{where}: player {shown(player)} is not a seat of a "
                          f"{num_players}-player game")
    kinds = codec.spec.decision_kinds
    if not isinstance(decision, str) or decision not in kinds:
        raise RecordError(f"{where}: unknown decision kind {shown(decision)} (known: "
                          f"{', '.join(kinds)})")
    num_actions = codec.spec.num_actions
    if not is_int(action) or not 0 <= action < num_actions:
        raise RecordError(f"{where}: action {shown(action)} is not an id in 0..{num_actions - 1}")
    name = codec.describe(action)
    if "name" in item and item["name"] != name:
        raise RecordError(f"{where}: action {action} is {name!r} but the record names it "
                          f"{shown(item['name'])}")
    return RecordedStep(player, decision, action, name)


def load(
    path: str | Path,
    *,
    check: bool = True,
    rules: Rules | None = None,
    catalog: Catalog | None = None,
    game: str | None = None,
) -> GameRecord:
    """Read a record file; it is validated and (with ``check``, the default) replayed and verified.
    ``game``: the game it must be a record of (default: the one it names).

    Raises :class:`RecordError` naming the file for anything wrong with it, from a path that is not
    a readable regular file of UTF-8 text (at most 16 MiB) to a step that does not replay."""
    path, text = read_text(path, RecordError, "game record file")
    return loads(text, source=str(path), check=check, rules=rules, catalog=catalog, game=game)


# ---------------------------------------------------------------------------------------- show
def _step_text(codec: RecordGame, step: RecordedStep, seat: int | None, reveal: bool) -> str:
    name = step.name
    if step.decision in codec.private_decisions and not reveal and seat != step.player:
        name = name.split(":")[0] + ":?"
    return f"  p{step.player} {step.decision}: {name}"


def show(record: GameRecord, *, seat: int | None = None, every_step: bool = False,
         reveal: bool = False) -> Iterator[str]:
    """The replay as text blocks: the table at the start of every turn (every step with
    ``every_step``), the actions in between, the final table."""
    codec = record_game_for(record.config)
    render_text = codec.spec.render
    n = record.config.num_players
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"--seat must be a seat 0..{n - 1}, got {seat}")
    head = (f"record: {codec.label(record.config)}, seed {record.seed}, "
            f"{len(record.steps)} steps")
    if record.failure is not None:
        head += f"\nfailure: {record.failure['kind']} after step {record.failure['step']}: " \
                f"{record.failure['message']}"
    yield head
    try:
        game = start(record)
    except Exception as exc:  # noqa: BLE001 - a recorded setup crash
        yield f"  !! the setup raised {type(exc).__name__}: {exc}"
        return
    yield render_text(game, seat)
    position = codec.position(game)
    games_after = replay(record)
    for step in record.steps:
        yield _step_text(codec, step, seat, reveal)
        try:
            game = next(games_after)
        except RecordError:
            raise
        except Exception as exc:  # noqa: BLE001 - a recorded engine crash: show it, stop
            yield f"  !! this step raised {type(exc).__name__}: {exc}"
            return
        now = codec.position(game) if not game.game_over else None
        if every_step or now != position or game.game_over:
            position = now
            yield render_text(game, seat)


def main(argv: list[str] | None = None) -> int:
    """The ``python -m granujas_env.record`` command line; returns the exit status."""
    versions = ", ".join(c.env_name for c in RECORD_GAMES.values())
    parser = argparse.ArgumentParser(
        prog="python -m granujas_env.record",
        description=f"Inspect game records (format version {VERSION}, {versions}), as written "
        "by record_game, play --record and tournament --save-games.",
        epilog="Exit status: 0 if the record is sound, 2 (with the reason on stderr) if not; "
        "141 when the reader of the output stops early (e.g. | head), quietly.",
    )
    game_help = (f"the game the record must be of ({', '.join(sorted(RECORD_GAMES))}); without "
                 "it, the game the record names")
    sub = parser.add_subparsers(dest="command", required=True)
    p_show = sub.add_parser("show", help="replay a record and render it turn by turn",
                            description="Replay a record and render the table at the start of "
                            "every turn (public view unless --seat), with the actions between.")
    p_show.add_argument("file", help="the game record (JSON)")
    p_show.add_argument("--seat", type=int, default=None,
                        help="render as this seat sees it (its hand and the Safes it saw); "
                        "without it, the public view")
    p_show.add_argument("--every-step", action="store_true", help="render after every step")
    p_show.add_argument("--reveal", action="store_true",
                        help="show every action in full (the Plan's card values included)")
    p_show.add_argument("--game", choices=sorted(RECORD_GAMES), default=None, help=game_help)
    p_check = sub.add_parser("check", help="validate and replay a record; exit 0 if it is sound",
                             description="Validate a record, replay every step and compare the "
                             "final digest and the snapshot; exit 0 if it is sound, 2 if not.")
    p_check.add_argument("file", help="the game record (JSON)")
    p_check.add_argument("--game", choices=sorted(RECORD_GAMES), default=None, help=game_help)
    args = parser.parse_args(argv)
    try:
        record = load(args.file, game=args.game)
        if args.command == "check":
            codec = record_game_for(record.config)
            print(f"{args.file}: ok ({len(record.steps)} steps, {codec.check_label(record.config)}"
                  f", seed {record.seed}, {codec.env_name})")
            return 0
        for block in show(record, seat=args.seat, every_step=args.every_step, reveal=args.reveal):
            print(block, flush=True)
    except (RecordError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
