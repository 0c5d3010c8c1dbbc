"""Pure-Python rules engine of Bang! The Dice Game (no RL imports)."""

from . import actions
from .data import CHARACTER_IDS, CHARACTERS, Character, CharacterDataError, load_characters
from .game import (
    ARROW,
    BEER,
    DECISION_KINDS,
    DEPUTY,
    DYNAMITE,
    FACES,
    GATLING,
    ONE,
    OUTLAW,
    RENEGADE,
    ROLE_DEAL,
    ROLES,
    SHERIFF,
    TWO,
    BangConfig,
    BangGame,
    GameOverError,
    IllegalActionError,
)

__all__ = [
    "ARROW", "BEER", "CHARACTERS", "CHARACTER_IDS", "DECISION_KINDS", "DEPUTY", "DYNAMITE",
    "FACES", "GATLING", "ONE", "OUTLAW", "RENEGADE", "ROLES", "ROLE_DEAL", "SHERIFF", "TWO",
    "BangConfig", "BangGame", "Character", "CharacterDataError", "GameOverError",
    "IllegalActionError", "actions", "load_characters",
]
