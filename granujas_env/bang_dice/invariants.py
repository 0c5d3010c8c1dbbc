"""State invariants of a game of Bang! The Dice Game, checked after every step by tests and fuzzers.

:func:`check_invariants` raises :class:`~granujas_env.invariants.InvariantError` naming the first
broken invariant (seat, counts found and expected). It checks:

* **Roles and characters**: the table size's deal of roles; distinct known characters; the
  Sheriff's (and, 3 players, every) role revealed, and every eliminated seat's.
* **Life**: ``0 <= life <= max_life`` and ``max_life >= 1`` (a position may set its own maxima);
  a living seat has life >= 1, except a seat brought to 0 by the damage event in progress
  (eliminated when the event ends); eliminated seats have 0.
* **Arrows**: pile + held == 9, none negative, the pile never empty between actions, eliminated
  seats hold none.
* **Dice**: none before a turn's first roll, then 5 faces of the six; rolls done + rerolls left
  = 1 + the rerolls allowed (Lucky Duke one more); a reroll is asked only with a reroll left and
  fewer than three dynamite showing.
* **Flow**: the game is over exactly when a winner set is recorded (and the last event says
  so), and only when an end condition holds (every seat's role revealed then); while it goes on, a decision of a known kind
  is pending for a living seat, with a sorted, duplicate-free list of 2+ legal ids in range
  (decisions with one option are never asked), and the turn player is alive.
"""

from __future__ import annotations

from typing import NoReturn

from granujas_env.invariants import InvariantError

from .engine import actions as A
from .engine.data import CHARACTERS
from .engine.game import (
    ARROWS,
    DECISION_KINDS,
    DYNAMITE,
    FACES,
    REROLLS,
    ROLE_DEAL,
    SHERIFF,
    BangGame,
)

__all__ = ["InvariantError", "check_invariants"]


def _fail(message: str) -> NoReturn:
    raise InvariantError(message)


def check_invariants(game: BangGame) -> None:
    """Raise :class:`InvariantError` naming the first invariant ``game`` breaks."""
    over = game.game_over  # first: a from_position game waiting before its roll rolls now
    n = game.num_players
    roles, life, max_life, alive, arrows = game.roles, game.life, game.max_life, game.alive, game.arrows
    if sorted(roles) != sorted(ROLE_DEAL[n]):
        _fail(f"roles {roles} are not the {n}-player deal {ROLE_DEAL[n]}")
    if len(set(game.characters)) != n or any(c not in CHARACTERS for c in game.characters):
        _fail(f"characters {game.characters} are not {n} distinct known ids")
    in_damage = not over and game.stage == "damage"
    for s in range(n):
        if not 0 <= life[s] <= max_life[s]:
            _fail(f"seat {s}: life {life[s]} outside [0, {max_life[s]}]")
        if max_life[s] < 1:
            _fail(f"seat {s}: max_life {max_life[s]} < 1")
        if alive[s] and life[s] == 0 and not in_damage:
            _fail(f"seat {s}: alive with 0 life outside a damage event (stage {game.stage!r})")
        if not alive[s]:
            if life[s]:
                _fail(f"seat {s}: eliminated with life {life[s]}")
            if arrows[s]:
                _fail(f"seat {s}: eliminated holding {arrows[s]} arrows")
            if not game.role_revealed[s]:
                _fail(f"seat {s}: eliminated with its role hidden")
        if arrows[s] < 0:
            _fail(f"seat {s}: {arrows[s]} arrows")
        if (roles[s] == SHERIFF or game.three_player) and not game.role_revealed[s]:
            _fail(f"seat {s}: role {roles[s]} must be public")
    if game.arrow_pile + sum(arrows) != ARROWS:
        _fail(f"arrows not conserved: pile {game.arrow_pile} + held {arrows} != {ARROWS}")
    if game.arrow_pile < 1:
        _fail(f"arrow pile {game.arrow_pile}: the last arrow must have set off the Indians")
    if game.dice:
        if len(game.dice) != A.NUM_DICE or any(f not in FACES for f in game.dice):
            _fail(f"dice {game.dice} are not {A.NUM_DICE} faces of {FACES}")
        allowed = REROLLS + (game.characters[game.turn_player] == "lucky_duke")
        if game.rolls_done + game.rerolls_left != 1 + allowed or game.rerolls_left < 0:
            _fail(f"{game.rolls_done} rolls done, {game.rerolls_left} rerolls left: "
                  f"1 + {allowed} allowed")
    elif game.rolls_done:
        _fail(f"{game.rolls_done} rolls done but no dice")
    ended = game.end_condition()
    if game.game_over != (game.events[-1][0] == "game_over"):
        _fail(f"game_over {game.game_over} but the last event is {game.events[-1]!r}")
    if game.game_over:
        if game.winners is None or not game.winners:
            _fail("the game is over without winners")
        if game.decision is not None or game.legal_actions():
            _fail("the game is over but a decision is pending")
        if not all(game.role_revealed):
            _fail("the game is over with roles still hidden")
        if ended is None and not (game.three_player and len(game.winners) == 1):
            _fail(f"the game is over but no end condition holds (alive {alive})")
        return
    if game.winners is not None:
        _fail(f"winners {sorted(game.winners)} recorded while the game goes on")
    if ended is not None and not in_damage:
        _fail(f"an end condition holds (winners {sorted(ended)}) but the game goes on")
    if not alive[game.turn_player]:
        _fail(f"turn player {game.turn_player} is eliminated")
    frame = game.decision
    if frame is None or frame.kind not in DECISION_KINDS:
        _fail(f"no known decision pending: {frame!r}")
    if not 0 <= frame.player < n or not alive[frame.player]:
        _fail(f"decision {frame.kind!r} of seat {frame.player}, not a living seat")
    if frame.kind == "reroll" and (
        game.rerolls_left < 1 or game.dice.count(DYNAMITE) >= 3 or frame.player != game.turn_player
    ):
        _fail(f"reroll asked of seat {frame.player} with {game.rerolls_left} rerolls left and "
              f"dice {game.dice}")
    legal = game.legal_actions()
    if len(legal) < 2 or legal != sorted(set(legal)) or not 0 <= legal[0] <= legal[-1] < A.NUM_ACTIONS:
        _fail(f"decision {frame.kind!r}: legal ids {legal} (2+ sorted distinct ids in range)")
