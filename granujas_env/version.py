"""Version of the environment's rules and interface, the PettingZoo way (``granujas_v1``).

The number moves on whenever the same seed and actions can give a different game or observation.
Game records and model cards carry it; one of another version fails to load with a message naming
both versions.

- v0: first release.
- v1: end of day: abilities resolve before the highest reputation chooses the first player, and
  the player who played the last turn orders simultaneous end-of-day abilities
  (decision ``end_of_day_order``).
  Amended 2026-11-28 with rule fixes: a use-twice Granuja's second use needs its requirements
  in the new state; Reclutar marginados once a turn; an «Al contratar» Granuja already used this
  turn (through Posadero/a, or hiring itself from the pile as a Matasanos) is not used again when
  hired; a face-up 0 (Honesto) keeps step 2; Responses follow where the used Granuja is after a
  hire's rearrangement, and those of a Granuja used through another wait for the outer ability; a
  sheet Granuja given an «Al contratar» Trait is no target of Alazán/a (R86). No observation
  layout, action id or decision kind changed, and shipped models load as before, so the name
  stays; but the same seed and actions can give another game where one of these situations
  comes up (random play meets the first two often enough: 4 of the 6 recorded observation
  streams and the 3 recorded training-env streams changed, on purpose), and a saved record that
  went through one no longer replays.
"""

ENV_VERSION = 1
ENV_NAME = f"granujas_v{ENV_VERSION}"
ENV_ID = f"granujas/granujas-v{ENV_VERSION}"
