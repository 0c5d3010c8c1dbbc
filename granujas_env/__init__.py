"""granujas: 3000 Granujas (3000 Scoundrels) and Bang! The Dice Game as PettingZoo AEC environments.

Importing the package registers four environments:

- ``pettingzoo.make("aec", "granujas/granujas-v1", num_players=3)``: the wrapped AEC env
  (:func:`granujas_env.env`). PettingZoo's registry (1.27) finds environments only by a prior
  ``register`` call, it reads no package entry points: ``import granujas_env`` first.
- ``pettingzoo.make("parallel", "granujas/granujas-v1", num_players=3)``: the same env through
  the Parallel API (:func:`granujas_env.parallel_env`): one agent acts per step
  (``infos[agent]["active_agent"]``), the other agents' actions are ignored.
- ``gymnasium.make("granujas/SingleSeat-v0", opponents=["heuristic"])``: one seat as a Gymnasium
  env for MaskablePPO (``train.single_seat.SingleSeatEnv``, with ``action_masks()``; needs the
  ``[train]`` extra). Gymnasium 1.x reads no entry points either, but imports the module named
  before a colon: ``gymnasium.make("granujas_env:granujas/SingleSeat-v0", ...)`` works without
  a prior import.
- ``pettingzoo.make("aec", "granujas/bang-dice-v0", num_players=5)``: Bang! The Dice Game
  (:mod:`granujas_env.bang_dice`, its env module loaded when made).
"""

import gymnasium

from . import bang_dice  # noqa: F401 - registers granujas/bang-dice-v0
from .core.registration import register_pettingzoo
from .env import env, parallel_env, raw_env
from .version import ENV_ID, ENV_NAME, ENV_VERSION

__all__ = ["env", "parallel_env", "raw_env", "ENV_ID", "ENV_NAME", "ENV_VERSION", "SINGLE_SEAT_ID"]
__version__ = "0.1.0"

SINGLE_SEAT_ID = "granujas/SingleSeat-v0"


def _register() -> None:
    """Register with PettingZoo's registry (where it has one) and with Gymnasium's."""
    if SINGLE_SEAT_ID not in gymnasium.registry:
        # A string entry point: the training env lives in ``train`` (it plays bots from
        # ``agents``), which builds on this package; importing it here would turn the layers
        # around. Gymnasium imports it only when the env is made. The env is returned unwrapped
        # (no PassiveEnvChecker, no OrderEnforcing): Gymnasium 1.x wrappers do not forward
        # attributes, and MaskablePPO and its users call ``env.action_masks()``.
        gymnasium.register(
            SINGLE_SEAT_ID,
            entry_point="train.single_seat:SingleSeatEnv",
            order_enforce=False,
            disable_env_checker=True,
        )
    register_pettingzoo(ENV_ID, "granujas_env.env")


_register()
