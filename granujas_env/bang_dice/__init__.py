"""Bang! The Dice Game (seed 002): rules engine and its tools. The engine is :mod:`.engine`.

Importing the package registers the AEC env with PettingZoo's registry as
``granujas/bang-dice-v0`` (:func:`granujas_env.bang_dice.env.env`, imported when made)::

    import pettingzoo, granujas_env.bang_dice
    env = pettingzoo.make("aec", "granujas/bang-dice-v0", num_players=5)
"""

ENV_ID = "granujas/bang-dice-v0"


def register() -> None:
    """Register ``granujas/bang-dice-v0`` with PettingZoo's registry (where it has one)."""
    try:
        from pettingzoo import aec_registry
        from pettingzoo import register as pettingzoo_register
    except ImportError:  # older PettingZoo: no registry
        return
    if ENV_ID not in aec_registry:
        # a string entry point: the env module (numpy, gymnasium) loads only when made
        pettingzoo_register("aec", ENV_ID, entry_point="granujas_env.bang_dice.env:env")


register()
