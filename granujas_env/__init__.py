"""granujas: 3000 Granujas (3000 Scoundrels) as a PettingZoo AEC environment."""

from .env import env, raw_env

__all__ = ["env", "raw_env"]
__version__ = "0.1.0"
