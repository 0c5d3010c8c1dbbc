"""The one registry of the project's games: name -> :class:`~granujas_env.protocol.GameSpec`.

Specs are named as ``"module:attribute"`` strings and imported on first use, so that importing
the registry (the tools do at start) loads no game, and a game's import errors show only to
whoever asks for it. ``--game`` on the command lines takes these names; the default is
:data:`DEFAULT_GAME`.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["DEFAULT_GAME", "GAMES", "available", "get", "by_env_id", "of_state", "of_view", "load"]

DEFAULT_GAME = "granujas"

#: game name -> import path of its spec
GAMES: dict[str, str] = {
    "granujas": "granujas_env.granujas_spec:SPEC",
    "bang-dice": "granujas_env.bang_dice.spec:SPEC",
}

_loaded: dict[str, Any] = {}
_by_type: dict[tuple[str, type], Any] = {}


def available() -> list[str]:
    """The names of the games, sorted."""
    return sorted(GAMES)


def get(name: str = DEFAULT_GAME) -> Any:
    """The spec of the game ``name`` (ValueError naming the games for an unknown one)."""
    spec = _loaded.get(name) if isinstance(name, str) else None
    if spec is not None:
        return spec
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(available())}")
    spec = load(GAMES[name])
    _loaded[name] = spec
    return spec


def load(path: str) -> Any:
    """The object named by an import path ``"module:attribute"`` (how the specs and this
    registry name what they do not import)."""
    module_name, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def by_env_id(env_id: str) -> Any:
    """The spec whose PettingZoo id (e.g. ``granujas/bang-dice-v0``) is ``env_id``."""
    for name in available():
        spec = get(name)
        if spec.env_id == env_id:
            return spec
    ids = ", ".join(get(name).env_id for name in available())
    raise ValueError(f"no game has the env id {env_id!r}; the ids are: {ids}")


def of_state(game: object) -> Any:
    """The spec of the game whose state ``game`` is (its ``state_type``); TypeError naming the
    games for anything that is no game's state."""
    return _of(game, "state_type", "the state")


def of_view(view: object) -> Any:
    """The spec of the game whose seat view ``view`` is (its ``view_type``); TypeError naming
    the games for anything that is no game's seat view."""
    return _of(view, "view_type", "a seat view")


def _of(value: object, attribute: str, what: str) -> Any:
    key = (attribute, type(value))
    spec = _by_type.get(key)
    if spec is not None:
        return spec
    for name in available():
        spec = get(name)
        if isinstance(value, getattr(spec, attribute)):
            _by_type[key] = spec
            return spec
    raise TypeError(f"expected {what} of one of the games ({', '.join(available())}), "
                    f"got {type(value).__name__}")
