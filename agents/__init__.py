"""Bots for granujas: the :class:`Agent` interface, baseline bots and a name registry."""

from agents.base import Agent, legal_actions
from agents.random_agent import RandomAgent
from agents.registry import REGISTRY, available, make, register

register("random", RandomAgent)

__all__ = [
    "Agent",
    "RandomAgent",
    "REGISTRY",
    "available",
    "legal_actions",
    "make",
    "register",
]
