"""The one registry of the project's games: name -> :class:`~granujas_env.protocol.GameSpec`.

Specs are named as ``"module:attribute"`` strings and imported on first use, so that importing
the registry (the tools do at start) loads no game, and a game's import errors show only to
whoever asks for it. ``--game`` on the command lines takes these names; the default is
:data:`DEFAULT_GAME`.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["DEFAULT_GAME", "GAMES", "available", "get", "by_env_id"]

DEFAULT_GAME = "granujas"

#: game name -> import path of its spec
GAMES: dict[str, str] = {
    "granujas": "granujas_env.granujas_spec:SPEC",
    "bang-dice": "granujas_env.bang_dice.spec:SPEC",
}

_loaded: dict[str, Any] = {}


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
    module_name, _, attribute = GAMES[name].partition(":")
    spec = getattr(importlib.import_module(module_name), attribute)
    _loaded[name] = spec
    return spec


def by_env_id(env_id: str) -> Any:
    """The spec whose PettingZoo id (e.g. ``granujas/bang-dice-v0``) is ``env_id``."""
    for name in available():
        spec = get(name)
        if spec.env_id == env_id:
            return spec
    ids = ", ".join(get(name).env_id for name in available())
    raise ValueError(f"no game has the env id {env_id!r}; the ids are: {ids}")
