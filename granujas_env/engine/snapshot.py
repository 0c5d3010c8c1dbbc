"""Canonical, JSON-ready view of the whole game state, and a digest of it.

Two games with the same snapshot are in the same state (hidden information and RNG included), so
tests compare digests rather than pickles (whose bytes depend on set iteration history).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from typing import Any

from .data import Step
from .game import Game
from .state import Frame

_SKIP = {"rules", "catalog", "config", "_legal_cache"}


def _plain(value: Any) -> Any:
    if isinstance(value, Step):
        return {"verb": value.verb, "amount": value.amount}
    if isinstance(value, random.Random):
        return _plain(value.getstate())
    if isinstance(value, Frame):
        return {"kind": value.kind, "player": value.player, "data": _plain(value.data)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def to_dict(game: Game) -> dict[str, Any]:
    """Every field of the game state as plain JSON types (sets sorted, frames as tables)."""
    state = {k: _plain(v) for k, v in sorted(vars(game).items()) if k not in _SKIP}
    state["config"] = dataclasses.asdict(game.config)
    return state


def digest(game: Game) -> str:
    """SHA-256 of the canonical state: equal digests mean equal states."""
    text = json.dumps(to_dict(game), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
