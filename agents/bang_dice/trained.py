"""The shipped trained Bang! The Dice Game policy, and a bot factory that knows it.

``agents/models/bang-dice-ppo/`` holds a MaskablePPO model trained by ``python -m train.train
--game bang-dice`` (its ``model_card.json`` has the command, the figures and the seeds;
docs/bang_dice/training.md). It is a :class:`agents.policy.PolicyAgent` like the granujas models:
its card's ``env_version`` (``bang_dice_v0``) makes it read the Bang! observation and play every
Bang! decision.

    from agents.bang_dice.trained import make, policy
    bot = policy(seed=0)                    # the shipped model
    bot = make("ppo", seed=0)               # the same, by name
    bot = make("heuristic", seed=0)         # any other name: agents.bang_dice.make
    bot = make("runs/bang_train/ppo5", seed=0)  # a saved Bang! model (.zip or run folder)

:func:`make` and :func:`available` have the signatures of :mod:`agents.bang_dice`'s, so this module
can be the game's bot registry (``tools["registry"] = "agents.bang_dice.trained:make"`` in
:mod:`granujas_env.bang_dice.spec`: then ``python -m train.roles --agents ppo heuristic`` and
``agents.registry.make("ppo", game="bang-dice")`` play it), and the rating tools take it
(``train.roles.play_game(..., make=make)``).
"""

from __future__ import annotations

from typing import Any

from agents import bang_dice
from agents.base import Agent
from agents.policy import PolicyAgent, make_bot, resolve_model

__all__ = ["MODEL_NAME", "NAME", "available", "policy", "make"]

#: the shipped model's folder under agents/models/
MODEL_NAME = "bang-dice-ppo"
#: the bot name :func:`make` gives the shipped model
NAME = "ppo"


def policy(seed: int | None = None, **kwargs: Any) -> PolicyAgent:
    """The shipped Bang! model as a bot (``kwargs`` go to :class:`PolicyAgent`, e.g.
    ``deterministic=False``). ValueError if it is not shipped."""
    path = resolve_model(MODEL_NAME)
    if path is None:
        raise ValueError(f"the Bang! model {MODEL_NAME!r} is not shipped (agents/models/{MODEL_NAME}/model.zip)")
    agent = PolicyAgent(path, seed=seed, **kwargs)
    if agent.game != "bang-dice":
        raise ValueError(f"agents/models/{MODEL_NAME} plays {agent.game}, not bang-dice")
    return agent


def available() -> list[str]:
    """The Bang! bot names, with :data:`NAME` when the model is shipped, sorted."""
    shipped = [NAME] if resolve_model(MODEL_NAME) is not None else []
    return sorted(bang_dice.available() + shipped)


def make(name: str, **kwargs: Any) -> Agent:
    """A Bang! bot: ``"ppo"`` (the shipped model), a Bang! bot name of :mod:`agents.bang_dice`,
    or a saved Bang! model (a ``.zip`` or a folder holding ``model.zip``); ``kwargs`` may hold
    ``seed``. ValueError names what is accepted."""
    if name == NAME:
        return policy(**kwargs)
    if name in bang_dice.available():
        return bang_dice.make(name, **kwargs)
    seed = kwargs.pop("seed", None)
    if kwargs:
        raise ValueError(f"a Bang! model takes only seed, got {sorted(kwargs)}")
    return make_bot(name, seed=seed, game="bang-dice")
