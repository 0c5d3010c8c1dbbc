"""Canonical JSON-ready state of any game engine, and its digest.

Both engines keep their whole state in instance attributes of plain Python values (numbers,
strings, lists, tuples, sets, dataclasses, a ``random.Random`` and a decision stack of
:class:`~granujas_env.engine.state.Frame`), so one conversion serves both: :func:`plain` turns
any such value into JSON types (sets sorted, frames as tables, the generator as its state),
:func:`state_dict` a whole game, :func:`digest` hashes it. Two games with equal digests are in
the same state, hidden information and random stream included.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Collection
from typing import Any

# Frame is the decision-stack entry both engines use; engine/state.py imports nothing.
from ..engine.state import Frame

__all__ = ["digest", "plain", "state_dict"]

_SCALARS = frozenset({int, str, bool, float, type(None)})  # exact types: kept as they are


def plain(value: Any) -> Any:
    """``value`` as JSON types: dataclasses and dicts as tables (keys sorted), sets as sorted
    lists, tuples as lists, frames as ``{kind, player, data}``, a generator as its state."""
    # Steps and the state's dataclasses go through the generic branch: every field is kept.
    if type(value) in _SCALARS:  # most values; checked first, as every list item is (speed)
        return value
    if isinstance(value, random.Random):
        return plain(value.getstate())
    if isinstance(value, Frame):
        return {"kind": value.kind, "player": value.player, "data": plain(value.data)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _SCALARS else plain(v) for v in value]
    return value


def state_dict(game: Any, skip: Collection[str]) -> dict[str, Any]:
    """Every attribute of ``game`` but those in ``skip``, as :func:`plain` values, keys sorted;
    ``config`` (a dataclass) as its fields."""
    state = {k: plain(v) for k, v in sorted(vars(game).items()) if k not in skip and k != "config"}
    state["config"] = dataclasses.asdict(game.config)
    return state


def digest(state: dict[str, Any]) -> str:
    """SHA-256 of a :func:`state_dict` in canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
