"""Bots for Bang! The Dice Game, by name: ``make("heuristic")``, ``make("random", seed=0)``.

The project-wide registry (agents/registry.py) keeps granujas' names; Bang!'s bots are made here
(``GameSpec.tools["registry"]`` of ``bang-dice`` names this :func:`make`). ``random`` is the
generic :class:`agents.random_agent.RandomAgent`: it reads only the action mask. ``rollout``
(agents/bang_dice/search.py) is the heuristic improved by determinized playouts (slow);
``expectimax`` (agents/bang_dice/expectimax.py) the heuristic with its rerolls planned by
expectimax over the dice still to roll; ``valued`` (agents/bang_dice/valued.py) that bot valuing
its dice and targets by a win probability learnt from play (``python -m train.bang_value``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.bang_dice.expectimax import ExpectimaxHeuristic
from agents.bang_dice.heuristic import BangHeuristic, TunedHeuristic
from agents.bang_dice.search import BangRollout
from agents.bang_dice.valued import ValuedExpectimax
from agents.base import Agent, check_options
from agents.random_agent import RandomAgent

__all__ = [
    "BOTS", "available", "make", "BangHeuristic", "BangRollout", "ExpectimaxHeuristic", "TunedHeuristic",
    "ValuedExpectimax",
]

BOTS: dict[str, Callable[..., Agent]] = {
    "expectimax": ExpectimaxHeuristic,
    "heuristic": BangHeuristic,
    "random": RandomAgent,
    "rollout": BangRollout,
    "tuned": TunedHeuristic,
    "valued": ValuedExpectimax,
}


def available() -> list[str]:
    """The names of the Bang! bots, sorted."""
    return sorted(BOTS)


def make(name: str, **kwargs: Any) -> Agent:
    """The Bang! bot ``name`` built with ``kwargs`` (ValueError naming the bots otherwise)."""
    try:
        factory = BOTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown Bang! bot {name!r}; the bots are: {', '.join(available())}") from None
    check_options(name, factory, kwargs)
    return factory(**kwargs)
