"""The effect vocabulary: every verb a card effect may use, with its parameters.

This module is pure data so that the catalog loader can validate card files without importing the
rules engine. The handlers are registered by the engine modules (game.py, verbs_extra.py).

Each verb takes at most an integer ``amount`` and one string option (its name and allowed values
are given per verb); both are stored on :class:`~granujas_env.engine.data.Step`.
"""

from __future__ import annotations

# verb -> (needs amount?, option name or None, allowed option values, plain-words template; a
# [bracketed] part of the template is shown only when the amount is not 0)
VERB_SPECS: dict[str, tuple[bool, str | None, tuple[str, ...], str]] = {
    "gain_money": (True, None, (), "gain {amount} $"),
    "gain_money_per_card_played": (True, None, (), "gain {amount} $ per poker card played this day"),
    "spend_money": (True, None, (), "spend {amount} $"),
    "steal_money": (True, None, (), "take {amount} $ from a rival"),
    "gain_reputation": (True, None, (), "gain {amount} reputation"),
    "lose_reputation": (True, None, (), "lose {amount} reputation"),
    "peek_safe": (False, None, (), "peek at a board Safe"),
    "mark_safe": (False, None, (), "mark it"),
    "blind_mark": (True, None, (), "mark {amount} board Safe(s) without peeking first"),
    "steal_safe": (False, "scope", ("board", "unused"), "steal a Safe ({option})"),
    "peek_unused_safe": (False, None, (), "peek at an unused Safe (no mark)"),
    "jail_own_henchman": (True, None, (), "put {amount} of your henchmen in jail"),
    "jail_rival_henchman": (
        True, None, (), "put a rival's free henchman in jail (its owner may first challenge)"
        "[; if done, gain {amount} $]",
    ),
    "rivals_jail_or_lose_reputation": (
        False, None, (), "each rival puts a henchman in jail or loses 1 reputation",
    ),
    "free_and_place_henchman": (
        False, None, (), "free anyone's henchman, then put it on a rival's face-down card",
    ),
    "destroy_henchmen": (False, None, (), "destroy every henchman on one of your face-down cards"),
    "draw_poker": (True, None, (), "draw {amount} poker card(s)"),
    "put_hand_card_on_deck": (False, None, (), "put a hand card on top of your poker deck"),
    "may_shuffle_poker_deck": (False, None, (), "you may shuffle your poker deck"),
    "gamble_deck_top": (
        True, None, (), "reveal your top poker card: a 5 or 6 gives {amount} $, else 1 $; "
        "shuffle it back",
    ),
    "peek_poker_card": (False, None, (), "peek at a face-down poker card"),
    "use_another": (False, "source", ("sheet", "saloon", "discard_top"), "use another Granuja ({option})"),
    "hire": (False, "source", ("saloon", "discard_top"), "hire a Granuja ({option}), paying its cost"),
    "swap_halves": (
        False, "half", ("occupation", "either", "trait_with_saloon"),
        "swap a half ({option}) between two Granujas",
    ),
    "free_own_henchman": (True, None, (), "free {amount} of your jailed henchmen"),
    "discard_self": (False, None, (), "discard this Granuja"),
    "sheriff_option": (False, None, (), "use a Sheriff's Office option (no Saloon discard)"),
}
VERBS = frozenset(VERB_SPECS)

# Verbs that are a cost ("Gasta X para ...", "Mete a 1 de tus Esbirros ... para", "Pierde 1 de
# reputación para"): the ability cannot be used unless they can be paid in full.
COST_VERBS = frozenset({"spend_money", "jail_own_henchman", "lose_reputation"})

# Conditions an Occupation or Trait may require before it can be used.
REQUIREMENTS = {
    "henchman_in_jail": "a player has a henchman in jail",
    "money_zero": "you have 0 $",
    "rival_has_more_safes": "a rival holds more Safes than you",
}

TIMINGS = frozenset(
    {
        "slots",
        "response",
        "start_of_turn",
        "on_hire",
        "after_gain_reputation",
        "after_lose_reputation",
        "after_peek",
        "after_mark_impossible",
        "after_step3",
        "after_hire",
        "after_money_from_granuja",
        "end_of_day",
        "zero_face_up",
    }
)
# engine event -> the timing text it offers. "end_of_day" is no event: the end of day gives each
# player a turn to use those Granujas (Game._run_day_end), in an order its last-turn player chooses.
EVENT_TIMINGS = {
    "gain_reputation": "after_gain_reputation",
    "lose_reputation": "after_lose_reputation",
    "peek": "after_peek",
    "mark_impossible": "after_mark_impossible",
    "hire": "after_hire",
    "money_from_granuja": "after_money_from_granuja",
    "step3": "after_step3",
}
ARROWS = frozenset({"left", "right"})
MODIFIERS = frozenset({"extra_money", "use_twice"})
OCCUPATION_COLOURS = ("green", "purple", "black")
TRAIT_COLOURS = ("blue", "red")
PROVENANCES = frozenset({"printed", "reconstructed", "invented"})
