"""Name -> factory registry of bots, so scripts and evaluators can say ``make("random")``."""

from __future__ import annotations

from collections.abc import Callable

from agents.base import Agent

__all__ = ["REGISTRY", "register", "make", "available"]

#: Bot name -> callable returning an :class:`Agent`. Later bots add themselves with
#: :func:`register` (or by editing ``agents/__init__.py``).
REGISTRY: dict[str, Callable[..., Agent]] = {}


def register(name: str, factory: Callable[..., Agent], *, overwrite: bool = False) -> None:
    """Register ``factory`` under ``name``; refuses to replace a name unless ``overwrite``."""
    if not name or not isinstance(name, str):
        raise ValueError(f"agent name must be a non-empty string, got {name!r}")
    if name in REGISTRY and not overwrite:
        raise ValueError(f"agent {name!r} is already registered (pass overwrite=True)")
    REGISTRY[name] = factory


def available() -> list[str]:
    """Sorted names of the registered bots."""
    return sorted(REGISTRY)


def make(name: str, **kwargs: object) -> Agent:
    """Build the bot registered as ``name`` with ``kwargs`` (e.g. ``make("random", seed=0)``)."""
    try:
        factory = REGISTRY[name]
    except KeyError:
        known = ", ".join(available()) or "(none)"
        raise ValueError(f"unknown agent {name!r}; known agents: {known}") from None
    return factory(**kwargs)
