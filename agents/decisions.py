"""Decision sets: which decision kinds a trained policy controls.

A learner (:class:`train.single_seat.SingleSeatEnv`) and the bot that plays its model
(:class:`agents.policy.PolicyAgent`) act on a set of decision kinds and hand the others to a
delegate bot. The set is named by a mode of :data:`MODES` or given as kinds of
:data:`granujas_env.codecs.KINDS`.
"""

from __future__ import annotations

from collections.abc import Iterable

from granujas_env.codecs import KINDS

__all__ = ["PLAN_DECISIONS", "BLUFF_DECISIONS", "CHALLENGE_DECISIONS", "SAFE_DECISIONS", "ALL_DECISIONS", "MODES", "resolve_decisions"]

#: The Plan: the card, then its slot (what ``bluffer`` plays; challenges go to its delegate).
PLAN_DECISIONS = frozenset({"plan_card", "plan_slot"})
#: The Plan and the challenge windows.
BLUFF_DECISIONS = PLAN_DECISIONS | {"challenge"}
#: The challenge windows alone (a challenge policy over another bot's Plan, e.g. full's Plan model).
CHALLENGE_DECISIONS = frozenset({"challenge"})
#: Safe selection: peek, Mark (face, source), steal, abandon, unused-location peek, Sheriff's Office.
SAFE_DECISIONS = frozenset(
    {
        "peek_target",
        "mark_face",
        "mark_source",
        "steal_target",
        "abandon",
        "unused_location",
        "sheriff_option",
    }
)
#: Every decision kind of the engine.
ALL_DECISIONS = frozenset(KINDS)
MODES: dict[str, frozenset[str]] = {
    "plan": PLAN_DECISIONS,
    "bluff": BLUFF_DECISIONS,
    "challenge": CHALLENGE_DECISIONS,
    "safe": SAFE_DECISIONS,
    "full": ALL_DECISIONS,
}


def resolve_decisions(decisions: str | Iterable[str] | None) -> frozenset[str]:
    """A mode name (``plan``, ``bluff``, ``challenge``, ``safe``, ``full``), a set of decision kinds, or None (= full)."""
    if decisions is None:
        return ALL_DECISIONS
    if isinstance(decisions, str):
        try:
            return MODES[decisions]
        except KeyError:
            raise ValueError(
                f"unknown decisions mode {decisions!r}; modes: {sorted(MODES)}"
            ) from None
    kinds = frozenset(decisions)
    unknown = kinds - ALL_DECISIONS
    if unknown:
        raise ValueError(
            f"unknown decision kinds {sorted(unknown)}; known: {sorted(ALL_DECISIONS)}"
        )
    if not kinds:
        raise ValueError("the learner must control at least one decision kind")
    return kinds
