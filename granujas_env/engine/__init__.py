"""Pure-Python rules engine of 3000 Granujas (no RL imports)."""

from . import actions, verbs_extra  # noqa: F401  (verbs_extra registers its verbs)
from .data import Catalog, CatalogError, Rules, load_catalog, load_rules
from .game import DECISION_KINDS, Game, GameConfig, GameOverError, IllegalActionError

__all__ = [
    "DECISION_KINDS",
    "Catalog",
    "CatalogError",
    "Game",
    "GameConfig",
    "GameOverError",
    "IllegalActionError",
    "Rules",
    "actions",
    "load_catalog",
    "load_rules",
]
