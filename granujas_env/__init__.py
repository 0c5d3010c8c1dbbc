"""granujas: 3000 Granujas (3000 Scoundrels) as a PettingZoo AEC environment."""

from .env import env, raw_env

__all__ = ["env", "raw_env", "ENV_ID"]
__version__ = "0.1.0"

ENV_ID = "granujas/granujas-v0"


def _register() -> None:
    """Register with PettingZoo's registry (``pettingzoo.make("aec", ENV_ID)``) where it has one."""
    try:
        from pettingzoo import aec_registry, register
    except ImportError:  # older PettingZoo: no registry
        return
    if ENV_ID not in aec_registry:
        register("aec", ENV_ID, entry_point="granujas_env.env:env")


_register()
