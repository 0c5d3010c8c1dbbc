"""Canonical, JSON-ready view of the whole game state, a digest of it, and the way back.

Two games with the same snapshot are in the same state (hidden information and RNG included), so
tests compare digests rather than pickles (whose bytes depend on set iteration history).
:func:`from_dict` restores a game from :func:`to_dict`'s output exactly (RNG state, decision stack
with its Steps, sets, dataclasses), so a saved snapshot resumes the very same game.
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from typing import Any, Union

from ..core.snapshot import digest as _digest_state
from ..core.snapshot import state_dict
from .data import Catalog, Rules, Step
from .game import Game, GameConfig, default_data
from .state import Frame, Granuja, Player, Safe

_SKIP = {"rules", "catalog", "config", "_legal_cache"}


def to_dict(game: Game) -> dict[str, Any]:
    """Every field of the game state as plain JSON types (sets sorted, frames as tables)."""
    return state_dict(game, _SKIP)


def digest(game: Game) -> str:
    """SHA-256 of the canonical state: equal digests mean equal states."""
    return _digest_state(to_dict(game))


# ---------------------------------------------------------------------------------------- restore
class SnapshotError(ValueError):
    """A snapshot cannot be restored: a field is missing, unknown or of the wrong type."""


# The type of every field of :func:`to_dict`'s output, so that :func:`from_dict` rebuilds exactly
# the same Python objects (tuples stay tuples, sets stay sets, Steps and dataclasses come back). A
# field the engine gains should be added here: ``from_dict`` refuses a missing field, and an unknown
# one unless its value is a JSON scalar (number, string, true/false, null), which restores exactly.
_Scalar = int | str | None
_GAME_FIELDS: dict[str, Any] = {
    "board": list[list[int | None]],
    "current": int,
    "day": int,
    "discard": list[Granuja],
    "events": list[tuple],
    "first_player": int,
    "game_over": bool,
    "history": list[tuple],
    "last_day": int,
    "last_turn_player": int,
    "limbo": Granuja | None,
    "next_uid": int,
    "num_players": int,
    "occ_deck": list[int],
    "played_log": list[list[list[tuple]]],
    "players": list[Player],
    "reveals": list[tuple],
    "rng": random.Random,
    "safes": list[Safe],
    "saloon": list[Granuja | None],
    "scores": list[int] | None,
    "seed": _Scalar,
    "stack": list[Frame],
    "strategies_revealed": bool,
    "trait_deck": list[int],
    "turn": int,
    "unused": list[list[int]],
    "used": set,
    "winner": int | None,
}
# Frame data: keys whose values are not plain scalars. Any other key must hold a scalar or a list
# of scalars (e.g. "queue").
_FRAME_DATA: dict[str, Any] = {
    "steps": tuple[Step, ...],
    "events": list[tuple],
}
_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        all_hints = typing.get_type_hints(cls)
        hints = _HINTS[cls] = {f.name: all_hints[f.name] for f in dataclasses.fields(cls)}
    return hints


def _deep_tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_deep_tuple(v) for v in value)
    if isinstance(value, dict):
        raise SnapshotError(f"unexpected table {value!r} inside a tuple")
    return value


def _scalar(value: Any, where: str) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise SnapshotError(f"{where}: expected a number, string or null, got {type(value).__name__}")


def _build(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        args = typing.get_args(hint)
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            return _build(inner[0], value, where)
        for option in inner:  # scalar unions: int | str
            if isinstance(option, type) and isinstance(value, option) and not isinstance(value, bool):
                return value
        raise SnapshotError(f"{where}: expected {hint}, got {value!r}")
    if origin is list:
        if not isinstance(value, list):
            raise SnapshotError(f"{where}: expected a list, got {type(value).__name__}")
        (arg,) = typing.get_args(hint)
        return [_build(arg, v, f"{where}[{i}]") for i, v in enumerate(value)]
    if origin is tuple:
        if not isinstance(value, list):
            raise SnapshotError(f"{where}: expected a list, got {type(value).__name__}")
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
        if len(args) != len(value):
            raise SnapshotError(f"{where}: expected {len(args)} items, got {len(value)}")
        return tuple(_build(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
    if origin is set:
        if not isinstance(value, list):
            raise SnapshotError(f"{where}: expected a list, got {type(value).__name__}")
        (arg,) = typing.get_args(hint)
        return {_build(arg, v, f"{where}[{i}]") for i, v in enumerate(value)}
    if hint is tuple:
        if not isinstance(value, list):
            raise SnapshotError(f"{where}: expected a list, got {type(value).__name__}")
        return _deep_tuple(value)
    if hint is set:
        if not isinstance(value, list):
            raise SnapshotError(f"{where}: expected a list, got {type(value).__name__}")
        return {_deep_tuple(_scalar(v, where) if not isinstance(v, list) else v) for v in value}
    if hint is bool:
        if not isinstance(value, bool):
            raise SnapshotError(f"{where}: expected true/false, got {value!r}")
        return value
    if hint is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise SnapshotError(f"{where}: expected an integer, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise SnapshotError(f"{where}: expected a string, got {value!r}")
        return value
    if hint is Any:
        return _scalar(value, where)
    if hint is random.Random:
        return _build_rng(value, where)
    if hint is Frame:
        return _build_frame(value, where)
    if dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise SnapshotError(f"{where}: expected a table, got {type(value).__name__}")
        fields = _hints(hint)
        _same_keys(value, fields, where)
        return hint(**{k: _build(h, value[k], f"{where}.{k}") for k, h in fields.items()})
    raise SnapshotError(f"{where}: no rule to restore a {hint}")  # pragma: no cover


def _same_keys(value: dict, expected: dict, where: str) -> None:
    missing = [k for k in expected if k not in value]
    unknown = [k for k in value if k not in expected]
    if missing or unknown:
        parts = []
        if missing:
            parts.append(f"missing {missing}")
        if unknown:
            parts.append(f"unknown {unknown}")
        raise SnapshotError(f"{where}: {'; '.join(parts)} (expected fields {sorted(expected)})")


def _build_rng(value: Any, where: str) -> random.Random:
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not isinstance(value[1], list)
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value[1])
    ):
        raise SnapshotError(f"{where}: expected the random.Random state [version, [ints], gauss]")
    rng = random.Random()
    try:
        rng.setstate((value[0], tuple(value[1]), value[2]))
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"{where}: not a valid random.Random state ({exc})") from None
    return rng


def _build_frame(value: Any, where: str) -> Frame:
    if not isinstance(value, dict):
        raise SnapshotError(f"{where}: expected a table, got {type(value).__name__}")
    _same_keys(value, {"kind": str, "player": int, "data": dict}, where)
    kind = _build(str, value["kind"], f"{where}.kind")
    player = _build(int, value["player"], f"{where}.player")
    raw = value["data"]
    if not isinstance(raw, dict):
        raise SnapshotError(f"{where}.data: expected a table, got {type(raw).__name__}")
    data = {}
    for key, item in raw.items():
        here = f"{where}.data.{key}"
        if key in _FRAME_DATA:
            data[key] = _build(_FRAME_DATA[key], item, here)
        elif isinstance(item, list):
            data[key] = [_scalar(v, f"{here}[{i}]") for i, v in enumerate(item)]
        else:
            data[key] = _scalar(item, here)
    return Frame(kind, player, **data)


def from_dict(
    state: dict[str, Any], *, rules: Rules | None = None, catalog: Catalog | None = None
) -> Game:
    """Rebuild the game :func:`to_dict` described: ``digest(from_dict(to_dict(g))) == digest(g)``
    and the restored game continues exactly as the original would (RNG state included).

    ``rules``/``catalog`` must be those the game was played with (default: the shipped ones); the
    snapshot does not hold them. Raises :class:`SnapshotError` on a missing, unknown or ill-typed
    field, so a snapshot from a different engine version fails instead of giving a wrong game.
    """
    if not isinstance(state, dict):
        raise SnapshotError(f"a snapshot is a table of fields, got {type(state).__name__}")
    missing = [k for k in (*_GAME_FIELDS, "config") if k not in state]
    if missing:
        raise SnapshotError(f"snapshot: missing fields {missing}")
    unknown = {}
    for key, value in state.items():
        if key in _GAME_FIELDS or key == "config":
            continue
        # rules/catalog or a method's name would replace what the game holds, not add a field
        if key.startswith("_") or key in _SKIP or hasattr(Game, key) or isinstance(value, (list, dict)):
            raise SnapshotError(
                f"snapshot: unknown field {key!r} holding a {type(value).__name__}: this engine "
                "cannot restore it (snapshot from another version? add it to _GAME_FIELDS)"
            )
        unknown[key] = value
    raw_config = state["config"]
    if not isinstance(raw_config, dict):
        raise SnapshotError(f"snapshot.config: expected a table, got {type(raw_config).__name__}")
    _same_keys(raw_config, {f.name: None for f in dataclasses.fields(GameConfig)}, "snapshot.config")
    try:
        config = GameConfig(**raw_config)
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"snapshot.config: {exc}") from None
    default_rules, default_catalog = default_data()
    game = Game.__new__(Game)
    game.config = config
    game.rules = rules or default_rules
    game.catalog = catalog or default_catalog
    game._legal_cache = None
    for key in sorted(_GAME_FIELDS):
        setattr(game, key, _build(_GAME_FIELDS[key], state[key], f"snapshot.{key}"))
    for key, value in unknown.items():
        setattr(game, key, value)
    if game.num_players != config.num_players or len(game.players) != config.num_players:
        raise SnapshotError(
            f"snapshot: num_players {game.num_players} and {len(game.players)} players do not "
            f"match config.num_players {config.num_players}"
        )
    if game.last_day != game.rules.days[config.game_length]:
        raise SnapshotError(
            f"snapshot: last_day {game.last_day} does not match a {config.game_length!r} game "
            f"({game.rules.days[config.game_length]} days)"
        )
    return game
