"""The effect vocabulary: every verb a card effect may use, with its parameters.

This module is pure data so that the catalog loader can validate card files without importing the
rules engine. The handlers live in :mod:`granujas_env.engine.verbs`.
"""

from __future__ import annotations

# verb -> {parameter: (type, required, default)}
VERBS: dict[str, dict[str, tuple[type, bool, object]]] = {
    "gain_money": {"amount": (int, True, None)},
    "spend_money": {"amount": (int, True, None)},
    "gain_reputation": {"amount": (int, True, None)},
    "lose_reputation": {"amount": (int, True, None)},
    "peek_safe": {},
    "mark_safe": {},
    "steal_safe": {},
    "peek_unused_safe": {},
    "discard_self": {},
    "sheriff_option": {},
}

# Plain-words template of each verb, for the generated card reference.
VERB_TEXT: dict[str, str] = {
    "gain_money": "gain {amount} $",
    "spend_money": "spend {amount} $",
    "gain_reputation": "gain {amount} reputation",
    "lose_reputation": "lose {amount} reputation",
    "peek_safe": "peek at a board Safe",
    "mark_safe": "mark it",
    "steal_safe": "steal a board Safe",
    "peek_unused_safe": "peek at an unused Safe (no mark)",
    "discard_self": "discard this Granuja",
    "sheriff_option": "use a Sheriff's Office option (no Saloon discard)",
}
assert set(VERB_TEXT) == set(VERBS)

# Verbs that are a cost ("Gasta X para ..."): the ability cannot be used unless they can be paid.
COST_VERBS = frozenset({"spend_money"})

TIMINGS = frozenset(
    {"slots", "response", "start_of_turn", "on_hire", "after_gain_reputation"}
)
# timing -> the engine event that offers it
TIMING_EVENTS = {"after_gain_reputation": "gain_reputation"}
ARROWS = frozenset({"left", "right"})
MODIFIERS = frozenset({"extra_money", "use_twice"})
OCCUPATION_COLOURS = ("green", "purple", "black")
TRAIT_COLOURS = ("blue", "red")
PROVENANCES = frozenset({"printed", "reconstructed"})
