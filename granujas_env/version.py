"""Version of the environment's rules and interface, the PettingZoo way (``granujas_v1``).

The number moves on whenever the same seed and actions can give a different game or observation.
Game records and model cards carry it; one of another version fails to load with a message naming
both versions.

- v0: first release.
- v1: end of day: abilities resolve before the highest reputation chooses the first player, and
  the player who played the last turn orders simultaneous end-of-day abilities
  (decision ``end_of_day_order``).
"""

ENV_VERSION = 1
ENV_NAME = f"granujas_v{ENV_VERSION}"
ENV_ID = f"granujas/granujas-v{ENV_VERSION}"
