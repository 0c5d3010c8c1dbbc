"""The flat action layout shared by every decision.

One ``Discrete(N)`` space: each block below is a contiguous range of ids whose meaning depends on
the pending decision (documented per decision in docs/actions.md, generated from this table).
Seats in actions are *relative* to the acting player (0 = self, 1 = next clockwise, ...).
"""

from __future__ import annotations

from itertools import combinations

SHEET_SIZE = 5
MAX_PLAYERS = 4
LOCATIONS = 3
BOARD_POSITIONS = 5
MAX_HELD_SAFES = 4  # the Safe limit is at most 3; a 4th is held for a moment before abandoning one

SWAP_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(SHEET_SIZE), 2))

# (name, size, meaning)
BLOCKS: tuple[tuple[str, int, str], ...] = (
    ("pass", 1, "pass / decline / end this step / stop (meaning depends on the decision)"),
    ("confirm", 1, "yes: challenge the card, use the ability again, use the on-hire ability"),
    ("card", 7, "poker card from hand: 0, A, 2, 3, 4, 5, 6"),
    ("slot", 6, "slot under the leader sheet: A, 2, 3, 4, 5, 6"),
    ("leader", 1, "use the leader-sheet ability of the slot just played"),
    ("sheet", SHEET_SIZE, "own sheet position 0-4 (left to right): use / place / discard"),
    ("saloon", 3, "Saloon position 0-2 (left to right): hire that Granuja"),
    ("sheriff", 1, "use the Sheriff's Office instead of hiring"),
    ("sheriff_option", 3, "Sheriff's Office option: sell information, pay bail, bribe the sheriff"),
    ("discard_new", 1, "discard the Granuja just hired instead of placing it"),
    ("swap", len(SWAP_PAIRS), "rearrange the sheet: swap positions (i, j), i < j"),
    ("board_safe", LOCATIONS * BOARD_POSITIONS, "Safe at (location, board position) = loc * 5 + pos"),
    ("held_safe", MAX_HELD_SAFES, "own held Safe, by index in the order they were taken"),
    ("location", LOCATIONS, "location: Estación, Finca, Laboratorio"),
    ("mark_face", 6, "Mark face shown: 2, 3, 4, 5, 6, 7"),
    ("seat", MAX_PLAYERS, "player, relative seat (0 = self, 1 = next clockwise, ...)"),
    ("poker_target", MAX_PLAYERS * 6, "face-down poker card: relative seat * 6 + slot index (A..6)"),
    ("discard_top", 1, "the Granuja on top of the discard pile"),
    ("half", 2, "Granuja half: Occupation, Trait"),
    ("face_up", 1, "Honesto: play the 0 face up beside the sheet instead of in a slot"),
    ("strategy", 2, "Strategy card: choose the first / second of your leader's two (setup); use it (step 2: first id)"),
)

OFFSET: dict[str, int] = {}
_offset = 0
for _name, _size, _ in BLOCKS:
    OFFSET[_name] = _offset
    _offset += _size
NUM_ACTIONS = _offset
SIZE = {name: size for name, size, _ in BLOCKS}

PASS = OFFSET["pass"]
CONFIRM = OFFSET["confirm"]
CARD = OFFSET["card"]
SLOT = OFFSET["slot"] - 1  # SLOT + slot_number (1..6)
LEADER = OFFSET["leader"]
SHEET = OFFSET["sheet"]
SALOON = OFFSET["saloon"]
SHERIFF = OFFSET["sheriff"]
SHERIFF_OPTION = OFFSET["sheriff_option"]
DISCARD_NEW = OFFSET["discard_new"]
SWAP = OFFSET["swap"]
BOARD_SAFE = OFFSET["board_safe"]
HELD_SAFE = OFFSET["held_safe"]
LOCATION = OFFSET["location"]
MARK_FACE = OFFSET["mark_face"] - 2  # MARK_FACE + face (2..7)
SEAT = OFFSET["seat"]
POKER_TARGET = OFFSET["poker_target"]
DISCARD_TOP = OFFSET["discard_top"]
HALF = OFFSET["half"]
FACE_UP = OFFSET["face_up"]
STRATEGY = OFFSET["strategy"]

SELL_INFORMATION, PAY_BAIL, BRIBE_SHERIFF = range(SHERIFF_OPTION, SHERIFF_OPTION + 3)

_SLOT_NAMES = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}
CARD_NAMES = ("0", "A", "2", "3", "4", "5", "6")
OPTION_NAMES = ("sell information", "pay bail", "bribe the sheriff")


def block_of(action: int) -> tuple[str, int]:
    """The block an action id falls in and its index inside the block."""
    for name, size, _ in BLOCKS:
        start = OFFSET[name]
        if start <= action < start + size:
            return name, action - start
    raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")


def describe(action: int) -> str:
    """A short readable name for an action id, e.g. ``slot:5`` or ``board_safe:Finca/2``."""
    name, index = block_of(action)
    if name == "card":
        return f"card:{CARD_NAMES[index]}"
    if name == "slot":
        return f"slot:{_SLOT_NAMES[index + 1]}"
    if name == "poker_target":
        return f"poker_target:seat+{index // 6}/{_SLOT_NAMES[index % 6 + 1]}"
    if name == "half":
        return f"half:{('Occupation', 'Trait')[index]}"
    if name == "mark_face":
        return f"mark_face:{index + 2}"
    if name == "swap":
        i, j = SWAP_PAIRS[index]
        return f"swap:{i}<->{j}"
    if name == "board_safe":
        loc = ("Estación", "Finca", "Laboratorio")[index // BOARD_POSITIONS]
        return f"board_safe:{loc}/{index % BOARD_POSITIONS}"
    if name == "location":
        return f"location:{('Estación', 'Finca', 'Laboratorio')[index]}"
    if name == "sheriff_option":
        return f"sheriff_option:{OPTION_NAMES[index]}"
    if SIZE[name] == 1:
        return name
    return f"{name}:{index}"
