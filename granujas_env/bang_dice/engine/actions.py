"""The flat action layout shared by every Bang! decision (runs/BANG_CONTRACT.md).

One ``Discrete(NUM_ACTIONS)`` space; each block's meaning depends on the pending decision
(:data:`granujas_env.bang_dice.engine.game.DECISION_KINDS`):

* ``REROLL_BASE + mask`` (0..31): reroll the dice whose bit is set (bit i = die i); 0 = stop
  rolling and resolve the dice.
* ``TARGET_BASE + k`` (32..39): the player ``k`` seats clockwise from the deciding player
  (``TARGET_BASE`` itself = yourself).
* ``YES`` / ``NO`` (40, 41): use an optional ability or not (``NO`` also ends Kit Carlson's
  discards and declines Slab the Killer's doubling).
* ``DIE_BASE + i`` (42..46): die ``i`` (Slab the Killer: the bull's-eye die to double).
"""

from __future__ import annotations

NUM_DICE = 5
MAX_PLAYERS = 8

REROLL_BASE = 0
STOP = REROLL_BASE  # the empty reroll mask
TARGET_BASE = 32
YES = 40
NO = 41
DIE_BASE = 42
NUM_ACTIONS = 47

# (name, first id, size, meaning)
BLOCKS: tuple[tuple[str, int, int, str], ...] = (
    ("reroll", REROLL_BASE, 1 << NUM_DICE, "reroll mask over the 5 dice (bit i = die i); 0 = stop and resolve"),
    ("target", TARGET_BASE, MAX_PLAYERS, "a player by seat offset clockwise from the decider (0 = self)"),
    ("yes", YES, 1, "use the optional ability"),
    ("no", NO, 1, "do not use it / stop"),
    ("die", DIE_BASE, NUM_DICE, "die index 0-4"),
)
assert sum(size for _, _, size, _ in BLOCKS) == NUM_ACTIONS


def target_action(decider: int, seat: int, num_players: int) -> int:
    """The id that names ``seat`` for a decision of ``decider`` at a table of ``num_players``."""
    return TARGET_BASE + (seat - decider) % num_players


def target_seat(decider: int, action: int, num_players: int) -> int:
    """The seat a target id names for ``decider`` (inverse of :func:`target_action`)."""
    return (decider + action - TARGET_BASE) % num_players


def describe(action: int) -> str:
    """A short English text for an action id (ValueError outside 0..NUM_ACTIONS-1)."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action must be an int in 0..{NUM_ACTIONS - 1}, got {action!r}")
    if action == STOP:
        return "stop rolling"
    if action < TARGET_BASE:
        dice = [str(i) for i in range(NUM_DICE) if action >> i & 1]
        return "reroll dice " + ",".join(dice)
    if action < YES:
        k = action - TARGET_BASE
        return "target yourself" if k == 0 else f"target the player {k} seat(s) clockwise"
    if action == YES:
        return "yes"
    if action == NO:
        return "no"
    return f"die {action - DIE_BASE}"
