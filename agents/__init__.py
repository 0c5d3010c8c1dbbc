"""Bots for granujas: the :class:`Agent` interface, baseline bots and a name registry."""

from agents.base import Agent, legal_actions
from agents.heuristic import HeuristicAgent
from agents.honest import HonestAgent
from agents.policy import load, make_bot  # agents.load("bluffer"): a shipped trained model
from agents.random_agent import RandomAgent
from agents.registry import REGISTRY, available, make, register
from agents.search_guides import make_ismcts

register("random", RandomAgent)
register("honest", HonestAgent)
register("heuristic", HeuristicAgent)
# the search bot reads bot specs whose prior/rollout name trained models (agents/search_guides.py)
register("ismcts", make_ismcts, overwrite=True)

__all__ = [
    "Agent",
    "HeuristicAgent",
    "HonestAgent",
    "RandomAgent",
    "REGISTRY",
    "available",
    "legal_actions",
    "load",
    "make",
    "make_bot",
    "register",
]
