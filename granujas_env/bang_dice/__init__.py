"""Bang! The Dice Game (seed 002): rules engine and its tools. The engine is :mod:`.engine`.

Importing the package registers the AEC env with PettingZoo's registry as
``granujas/bang-dice-v0`` (:func:`granujas_env.bang_dice.env.env`, imported when made)::

    import pettingzoo, granujas_env.bang_dice
    env = pettingzoo.make("aec", "granujas/bang-dice-v0", num_players=5)
    parallel = pettingzoo.make("parallel", "granujas/bang-dice-v0", num_players=5)
"""

from ..core.registration import register_pettingzoo

ENV_ID = "granujas/bang-dice-v0"


def register() -> None:
    """Register ``granujas/bang-dice-v0`` (AEC and Parallel) with PettingZoo's registry."""
    register_pettingzoo(ENV_ID, "granujas_env.bang_dice.env")


register()
