"""Effect verbs on henchmen, poker cards, money and Safes beyond the base ones in game.py.

Each handler has the signature ``(game, frame, step)`` of the effect interpreter and is registered
with :func:`~granujas_env.engine.game.register_verb`; decisions it needs are registered with
:func:`~granujas_env.engine.game.register_decision`.
"""

from __future__ import annotations
