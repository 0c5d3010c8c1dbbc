"""The rules engine of Bang! The Dice Game (seed 002), 3 to 8 players, all 16 characters.

The engine owns the flow, as the granujas engine does: :attr:`BangGame.decision` is the pending
decision (kind, deciding seat, context) on top of a decision stack, :meth:`BangGame.legal_actions`
its legal ids (:mod:`.actions`) and :meth:`BangGame.apply` answers it. The bottom frame of the
stack is the turn, an engine continuation that runs the turn's stages; decisions are pushed on it,
off-turn reactions (Bart Cassidy, Pedro Ramirez) with the reacting seat as their player. A decision
with exactly one legal action is applied by the engine and never asked. Every ruling of a point the
seed leaves open is in docs/bang_dice/rules.md. All chance comes from one seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from operator import index as as_index
from typing import Any

from granujas_env.engine.game import (
    GameOverError,
    IllegalActionError,
    check_seed,
    new_rng,
    rng_with_state,
)
from granujas_env.engine.state import Frame
from granujas_env.protocol import Outcome

from . import actions as A
from .data import CHARACTER_IDS, CHARACTERS

__all__ = [
    "ARROW", "BEER", "DYNAMITE", "FACES", "GATLING", "ONE", "TWO",
    "DEPUTY", "OUTLAW", "RENEGADE", "ROLES", "SHERIFF",
    "ARROWS", "DECISION_KINDS", "ROLE_DEAL", "THREE_PLAYER_TARGET",
    "BangConfig", "BangGame", "GameOverError", "IllegalActionError",
]

# Dice faces (each die shows each face once).
ARROW, DYNAMITE, ONE, TWO, BEER, GATLING = "arrow", "dynamite", "1", "2", "beer", "gatling"
FACES: tuple[str, ...] = (ARROW, DYNAMITE, ONE, TWO, BEER, GATLING)

SHERIFF, DEPUTY, OUTLAW, RENEGADE = "sheriff", "deputy", "outlaw", "renegade"
ROLES: tuple[str, ...] = (SHERIFF, DEPUTY, OUTLAW, RENEGADE)

#: the roles dealt at each table size (seed, "Preparación" 1 and the 3-player rules)
ROLE_DEAL: dict[int, tuple[str, ...]] = {
    3: (DEPUTY, OUTLAW, RENEGADE),
    4: (SHERIFF, RENEGADE, OUTLAW, OUTLAW),
    5: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, DEPUTY),
    6: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY),
    7: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY),
    8: (SHERIFF, RENEGADE, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY),
}
#: 3 players: each role's own target
THREE_PLAYER_TARGET: dict[str, str] = {DEPUTY: RENEGADE, RENEGADE: OUTLAW, OUTLAW: DEPUTY}

ARROWS = 9  # arrow tokens in the game
SHERIFF_BONUS = 2
REROLLS = 2  # Lucky Duke: one more

# Why a life point is lost: the 1s/2s, the Gatling, three dynamite, the Indians.
SHOT, GATLING_HIT, DYNAMITE_HIT, INDIANS = "shot", "gatling", "dynamite", "indians"

DECISION_KINDS: dict[str, str] = {
    "reroll": "the turn player rerolls the dice of a mask (reroll) or stops and resolves (0)",
    "sid_ketchum": "Sid Ketchum, start of turn: the player who gains one life point (target)",
    "slab_double": "Slab the Killer: the bull's-eye die a beer doubles (die) or none (no)",
    "shoot": "a 1 or 2 bull's-eye die (data: die, face): the player it hits (target)",
    "beer": "a beer die (data: die): the player who gains a life point (target)",
    "kit_carlson": "Kit Carlson, per Gatling die: whose arrow to discard (target) or stop (no)",
    "bart_cassidy": "Bart Cassidy, hit by a 1, 2 or Gatling: take an arrow instead (yes) or lose the life point (no)",
    "pedro_ramirez": "Pedro Ramirez lost a life point: discard one of his arrows (yes) or not (no)",
}

_CHAR_NAMES = frozenset(CHARACTER_IDS)
# reroll masks allowed when the dice of mask R may be rerolled: every submask of R, 0 (stop) first
_SUBMASKS: tuple[list[int], ...] = tuple(
    [m for m in range(1 << A.NUM_DICE) if m & ~r == 0] for r in range(1 << A.NUM_DICE)
)
_YES_NO = [A.YES, A.NO]


@dataclass(frozen=True)
class BangConfig:
    """What game to play: the number of players, 3..8."""

    num_players: int = 5

    def __post_init__(self) -> None:
        n = self.num_players
        if isinstance(n, bool) or not isinstance(n, int) or not 3 <= n <= 8:
            raise ValueError(f"num_players must be an int in 3..8, got {n!r}")


class BangGame:
    """One game of Bang! The Dice Game. Create it, then loop over ``legal_actions`` / ``apply``.

    ``seed``: None (seeded from the OS) or an integer; one seed deals one game (roles, characters,
    dice). Test hooks: :meth:`from_position` and :meth:`set_next_roll`.
    """

    def __init__(self, config: BangConfig | None = None, seed: int | None = None) -> None:
        if config is None:
            config = BangConfig()
        if not isinstance(config, BangConfig):
            raise TypeError(f"config must be a BangConfig, got {type(config).__name__}")
        self.config = config
        self.seed = check_seed(seed)
        self._rng = new_rng(self.seed)
        self._rng_shared = False
        n = config.num_players
        roles = list(ROLE_DEAL[n])
        self.rng.shuffle(roles)
        characters = self.rng.sample(CHARACTER_IDS, n)
        self._setup(roles, characters)
        self._advance()

    # ------------------------------------------------------------------ setup
    def _setup(
        self,
        roles: list[str],
        characters: list[str],
        max_life: list[int] | None = None,
        life: list[int] | None = None,
        arrows: list[int] | None = None,
        first: int | None = None,
        last_standing: bool = False,
    ) -> None:
        n = len(roles)
        self.num_players = n
        self.three_player = n == 3
        self.roles = roles
        self.characters = characters
        self.sheriff = roles.index(SHERIFF) if SHERIFF in roles else -1
        if max_life is None:
            max_life = [CHARACTERS[c].life for c in characters]
            if self.sheriff >= 0:
                max_life[self.sheriff] += SHERIFF_BONUS
        self.max_life = max_life
        self.life = list(max_life) if life is None else life
        self.alive = [hp > 0 for hp in self.life]
        self.arrows = [0] * n if arrows is None else arrows
        self.arrow_pile = ARROWS - sum(self.arrows)
        self.role_revealed = [
            self.three_player or r == SHERIFF or not a for r, a in zip(roles, self.alive)
        ]
        # 3 players: each seat's target seat; last_standing once a target fell to another hand
        self.target_of = (
            [roles.index(THREE_PLAYER_TARGET[r]) for r in roles] if self.three_player else []
        )
        self.last_standing = last_standing
        if first is None:
            first = roles.index(DEPUTY) if self.three_player else self.sheriff
        self.turn_player = first
        self.turn_number = 0
        self.dice: list[str] = []
        self.rolls_done = 0
        self.rerolls_left = 0
        self.events: list[tuple] = []
        self._game_over = False
        self._pending_start = False  # from_position without dice: the turn starts on first use
        self.winners: frozenset[int] | None = None
        self.forced: list[str] = []  # faces the next rolled dice take instead of the RNG
        self.stage = "start"
        # the turn's resolution state (reset at each turn start)
        self.bulls: list[int] = []  # bull's-eye dice, in die order
        self.shot_targets: list[int] = []  # the seat each of them hits, as chosen
        self.doubled = -1  # Slab the Killer's doubled die
        self.slab_beer = -1  # the beer die spent on it
        self.beers: list[int] = []
        self.beer_i = 0
        self.jesse_boost = False
        self.kit_left = 0
        # the damage event in progress: unit hits in order, the next one, cause, who lost life
        self.hits: list[int] = []
        self.hit_i = 0
        self.hit_cause = ""
        self.hit_lost = [False] * n
        self.hit_next = ""
        self.stack: list[Frame] = [Frame("turn", first)]
        self._legal_cache: list[int] | None = None

    @classmethod
    def from_position(cls, desc: dict[str, Any]) -> BangGame:
        """A game at the start of a turn, built from a compact description (a test hook).

        Keys: ``roles`` and ``characters`` (one per seat; the roles must be the table size's deal
        of :data:`ROLE_DEAL`, the characters distinct ids), and optionally ``life``, ``max_life``
        (default: the card's life, +2 for the Sheriff), ``alive`` (bools; out exactly at life 0;
        default from ``life``), ``arrows`` (held per seat), ``arrow_pile`` (must be 9 minus the
        arrows held), ``turn`` or ``turn_player`` (whose turn starts; default the Sheriff,
        3 players the Deputy), ``dice`` (the 5 faces of that turn's first roll), ``rolls`` (face
        lists forced on the rolls after it, see :meth:`set_next_roll`), ``seed`` (the RNG for
        unforced dice) and, 3 players only, ``last_standing`` (default: True when a seat is
        already out). Eliminated seats have their roles revealed. With ``dice`` or ``rolls`` the
        turn starts at once (its first roll happens before this returns, after Sid Ketchum's
        decision if he plays); without them the game waits before the roll until
        :meth:`set_next_roll` or the first use of ``decision``, ``game_over``,
        ``legal_actions``, ``apply``, ``current_player``, ``outcome`` or ``returns``.
        Bad input raises ValueError naming the key.
        """
        known = {"roles", "characters", "life", "max_life", "alive", "arrows", "arrow_pile",
                 "turn", "turn_player", "dice", "rolls", "seed", "last_standing"}
        if not isinstance(desc, dict):
            raise ValueError(f"position must be a dict, got {type(desc).__name__}")
        unknown = set(desc) - known
        if unknown:
            raise ValueError(f"position: unknown keys {sorted(unknown)}; allowed: {sorted(known)}")
        roles = list(desc.get("roles", ()))
        n = len(roles)
        if n not in ROLE_DEAL:
            raise ValueError(f"position roles: 3..8 seats needed, got {n}")
        if sorted(roles) != sorted(ROLE_DEAL[n]):
            raise ValueError(f"position roles {roles}: a {n}-player game deals {ROLE_DEAL[n]}")
        characters = list(desc.get("characters", ()))
        if len(characters) != n or any(c not in _CHAR_NAMES for c in characters):
            raise ValueError(f"position characters: {n} ids from {CHARACTER_IDS}, got {characters}")
        if len(set(characters)) != n:
            raise ValueError(f"position characters must be distinct, got {characters}")

        def seat_list(key: str, default: list[int], low: int) -> list[int]:
            value = desc.get(key, default)
            if (
                not isinstance(value, (list, tuple)) or len(value) != n
                or any(isinstance(v, bool) or not isinstance(v, int) or v < low for v in value)
            ):
                raise ValueError(f"position {key}: {n} ints >= {low} needed, got {value!r}")
            return list(value)

        default_max = [CHARACTERS[c].life + SHERIFF_BONUS * (r == SHERIFF)
                       for c, r in zip(characters, roles)]
        max_life = seat_list("max_life", default_max, 1)
        if "alive" in desc:
            alive = desc["alive"]
            if not isinstance(alive, (list, tuple)) or len(alive) != n or any(
                not isinstance(a, bool) for a in alive
            ):
                raise ValueError(f"position alive: {n} bools needed, got {alive!r}")
            life = seat_list("life", [m if a else 0 for m, a in zip(max_life, alive)], 0)
            for s in range(n):
                if alive[s] != (life[s] > 0):
                    raise ValueError(f"position alive: seat {s} is "
                                     f"{'alive' if alive[s] else 'out'} with life {life[s]} "
                                     f"(out exactly at life 0)")
        else:
            life = seat_list("life", max_life, 0)
        arrows = seat_list("arrows", [0] * n, 0)
        pile = desc.get("arrow_pile", ARROWS - sum(arrows))
        if pile != ARROWS - sum(arrows):
            raise ValueError(f"position arrow_pile: {pile!r}, but the arrows held {arrows} leave "
                             f"{ARROWS - sum(arrows)} of the {ARROWS} in the pile")
        for s in range(n):
            if life[s] > max_life[s]:
                raise ValueError(f"position life: seat {s} has {life[s]} > max_life {max_life[s]}")
            if life[s] == 0 and arrows[s]:
                raise ValueError(f"position arrows: eliminated seat {s} holds {arrows[s]} arrows")
        if sum(arrows) >= ARROWS:
            raise ValueError(f"position arrows: at most {ARROWS - 1} held (the pile is never "
                             f"empty between actions), got {sum(arrows)}")
        default_turn = roles.index(DEPUTY if n == 3 else SHERIFF)
        turn = desc.get("turn", desc.get("turn_player", default_turn))
        if "turn" in desc and "turn_player" in desc and desc["turn"] != desc["turn_player"]:
            raise ValueError("position turn and turn_player (the same key) disagree")
        if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < n:
            raise ValueError(f"position turn: a seat 0..{n - 1}, got {turn!r}")
        if life[turn] == 0:
            raise ValueError(f"position turn: seat {turn} is eliminated")
        last_standing = desc.get("last_standing", n == 3 and 0 in life)
        if not isinstance(last_standing, bool) or (last_standing and n != 3):
            raise ValueError("position last_standing: True or False, and only for 3 players")
        game = cls.__new__(cls)
        game.config = BangConfig(n)
        game.seed = check_seed(desc.get("seed", 0))
        game._rng = new_rng(game.seed)
        game._rng_shared = False
        game._setup(roles, characters, max_life, life, arrows, turn, last_standing)
        if "dice" in desc:
            dice = desc["dice"]
            if isinstance(dice, str) or len(dice) != A.NUM_DICE:
                raise ValueError(f"position dice: the {A.NUM_DICE} faces of the turn's first "
                                 f"roll, got {dice!r}")
            game.set_next_roll(dice)
        for faces in desc.get("rolls", ()):
            game.set_next_roll(faces)
        if game.end_condition() is not None:
            raise ValueError(f"position: the game is already over (life {life}, roles {roles})")
        if "dice" in desc or "rolls" in desc:
            game._advance()
        else:  # waits before the roll, for set_next_roll (or the first call) to start it
            game._pending_start = True
        return game

    def set_next_roll(self, faces: list[str]) -> None:
        """Force the faces of the next rolled dice (a test hook).

        Faces are queued and consumed die by die, in die order, by the rolls to come: the first
        roll of a turn takes 5, a reroll one per rerolled die; the RNG rolls the rest. Rolls
        happen inside :meth:`apply`: the next turn's first roll inside the call that ends this
        turn, so queue its faces before that call. A :meth:`from_position` game waiting before
        its first roll starts it here, with these faces. ValueError for a face not in
        :data:`FACES`.
        """
        if isinstance(faces, str) or not all(f in FACES for f in faces):
            raise ValueError(f"faces must be a list of faces from {FACES}, got {faces!r}")
        self.forced.extend(FACES[FACES.index(f)] for f in faces)
        if self._pending_start:
            self._start_pending()

    # ------------------------------------------------------------------ public API
    @property
    def rng(self) -> random.Random:
        """The game's generator (every die); owned by this game alone once read."""
        if self._rng_shared:  # a clone shares it: copy before anyone draws from it
            self._rng = rng_with_state(self._rng.getstate())
            self._rng_shared = False
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_shared = False

    @property
    def game_over(self) -> bool:
        """True once the game has ended (a winner set is recorded)."""
        if self._pending_start:
            self._start_pending()
        return self._game_over

    def _start_pending(self) -> None:
        self._pending_start = False
        self._advance()

    @property
    def decision(self) -> Frame | None:
        """The pending decision (kind, player, data), or None when the game is over."""
        return None if self.game_over else self.stack[-1]

    @property
    def current_player(self) -> int:
        """Seat that must decide now (-1 when the game is over); a property, as granujas'."""
        return -1 if self.game_over else self.stack[-1].player

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids of the pending decision (empty when the game is over)."""
        if self.game_over:
            return []
        if self._legal_cache is None:
            self._legal_cache = _LEGAL[self.stack[-1].kind](self, self.stack[-1])
        return self._legal_cache

    def apply(self, action: int) -> None:
        """Answer the pending decision. Illegal input raises and leaves the state unchanged."""
        if self.game_over:
            raise GameOverError("the game is over: no action can be applied")
        legal = self.legal_actions()
        if type(action) is not int and not isinstance(action, (bool, float, str)):
            try:
                action = as_index(action)  # numpy integers
            except TypeError:
                pass
        if type(action) is not int or action not in legal:
            frame = self.stack[-1]
            shown = ", ".join(f"{a} ({A.describe(a)})" for a in legal)
            raise IllegalActionError(
                f"action {action!r} is not legal for the pending decision {frame.kind!r} of "
                f"player {frame.player}; legal ids: {shown}"
            )
        frame = self.stack.pop()
        self._legal_cache = None
        _ANSWER[frame.kind](self, frame, action)
        self._advance()

    def target_action(self, seat: int) -> int:
        """The action id that names ``seat`` for the pending decision's player."""
        if self.game_over:
            raise GameOverError("the game is over: no decision to answer")
        return A.target_action(self.stack[-1].player, seat, self.num_players)

    def outcome(self) -> Outcome | None:
        """Winners (every seat of the winning side, eliminated ones too) and teams; None before
        the end."""
        if not self.game_over:
            return None
        return Outcome(self.winners, self.team_of())

    def team_of(self) -> tuple[int, ...]:
        """Each seat's team: 0 Sheriff and Deputies, 1 Outlaws, 2, 3 each Renegade alone."""
        teams, renegades = [], 0
        for role in self.roles:
            if role == RENEGADE:
                teams.append(2 + renegades)
                renegades += 1
            else:
                teams.append(1 if role == OUTLAW else 0)
        return tuple(teams)

    def returns(self) -> list[float]:
        """+1 to every winner, -1 to every other seat (eliminated or not); zeros before the end."""
        if not self.game_over:
            return [0.0] * self.num_players
        return [1.0 if s in self.winners else -1.0 for s in range(self.num_players)]

    def alive_seats(self) -> list[int]:
        """The seats still in play, in seat order."""
        return [s for s in range(self.num_players) if self.alive[s]]

    def clone(self) -> BangGame:
        """An independent copy (RNG included), built field by field."""
        new = BangGame.__new__(BangGame)
        fields = new.__dict__
        fields.update(self.__dict__)  # numbers, strings, flags, frozensets, config: shared
        # copy-on-write: the generator is shared until either game rolls (copying its 625-word
        # state costs more than the rest of the clone)
        self._rng_shared = True
        fields["_rng_shared"] = True
        fields["roles"] = self.roles.copy()
        fields["characters"] = self.characters.copy()
        fields["max_life"] = self.max_life.copy()
        fields["life"] = self.life.copy()
        fields["alive"] = self.alive.copy()
        fields["arrows"] = self.arrows.copy()
        fields["role_revealed"] = self.role_revealed.copy()
        fields["target_of"] = self.target_of.copy()
        fields["dice"] = self.dice.copy()
        fields["events"] = self.events.copy()  # tuples
        fields["forced"] = self.forced.copy()
        fields["bulls"] = self.bulls.copy()
        fields["shot_targets"] = self.shot_targets.copy()
        fields["beers"] = self.beers.copy()
        fields["hits"] = self.hits.copy()
        fields["hit_lost"] = self.hit_lost.copy()
        fields["stack"] = [frame.copy() for frame in self.stack]
        fields["_legal_cache"] = None if self._legal_cache is None else self._legal_cache.copy()
        return new

    def with_roles(self, roles: list[str]) -> BangGame:
        """A :meth:`clone` whose seats hold ``roles`` (a determinization for search): the same
        roles dealt in another order, the Sheriff and every revealed role where they are.
        ValueError otherwise; this game is unchanged."""
        if not isinstance(roles, (list, tuple)) or sorted(map(str, roles)) != sorted(self.roles):
            raise ValueError(f"roles must reorder this game's deal {sorted(self.roles)}, got {roles!r}")
        fixed = [s for s in range(self.num_players) if s == self.sheriff or self.role_revealed[s]]
        moved = [s for s in fixed if roles[s] != self.roles[s]]
        if moved:
            raise ValueError(f"the roles of seats {moved} are public (the Sheriff or revealed): they cannot change")
        new = self.clone()
        new.roles = list(roles)
        return new

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_legal_cache"] = None  # derived
        return state

    # ------------------------------------------------------------------ flow
    def _advance(self) -> None:
        """Run the turn until a decision with a choice is pending or the game is over.

        A decision with exactly one legal action is answered with it here, never asked.
        """
        stack = self.stack
        while not self._game_over:
            frame = stack[-1]
            kind = frame.kind
            if kind == "turn":
                _STAGES[self.stage](self)
                continue
            legal = _LEGAL[kind](self, frame)
            if len(legal) == 1:
                stack.pop()
                _ANSWER[kind](self, frame, legal[0])
                continue
            self._legal_cache = legal
            return
        self._legal_cache = None

    def _push(self, kind: str, player: int, **data: object) -> None:
        self.stack.append(Frame.holding(kind, player, data))

    def _stage_start(self) -> None:
        p = self.turn_player
        self.stack[0].player = p
        self.turn_number += 1
        self.dice = []
        self.rolls_done = 0
        self.rerolls_left = REROLLS + (self.characters[p] == "lucky_duke")
        self.bulls = []
        self.shot_targets = []
        self.doubled = self.slab_beer = -1
        self.beers = []
        self.beer_i = 0
        self.jesse_boost = False
        self.kit_left = 0
        self.events.append(("turn", p, self.turn_number))
        self.stage = "first_roll"
        if self.characters[p] == "sid_ketchum":
            self._push("sid_ketchum", p)

    def _stage_first_roll(self) -> None:
        self.dice = [ARROW] * A.NUM_DICE  # every die is rolled at once below
        self._roll((1 << A.NUM_DICE) - 1)

    def _roll(self, mask: int) -> None:
        """Roll the dice of ``mask``, then take an arrow per arrow rolled (Indians included)."""
        dice, forced, rand = self.dice, self.forced, self.rng.random
        p = self.turn_player
        for i in range(A.NUM_DICE):
            if mask >> i & 1:
                dice[i] = forced.pop(0) if forced else FACES[int(rand() * 6)]
        self.rolls_done += 1
        self.events.append(("roll", p, tuple(dice), mask))
        self.stage = "decide"
        for i in range(A.NUM_DICE):
            if mask >> i & 1 and dice[i] == ARROW:
                self._take_arrow(p)
                if self._game_over:
                    return
                if not self.alive[p]:  # the roller fell to the Indians: his turn is over
                    self.stage = "end"
                    return

    def _stage_decide(self) -> None:
        if self.rerolls_left == 0 or self.dice.count(DYNAMITE) >= 3:
            self.stage = "dynamite"
        else:
            self._push("reroll", self.turn_player)

    def _stage_dynamite(self) -> None:
        p = self.turn_player
        if self.dice.count(DYNAMITE) >= 3:
            self.events.append(("dynamite", p))
            self._start_damage([p], DYNAMITE_HIT, "shots")
        else:
            self.stage = "shots"

    def _stage_shots(self) -> None:
        dice = self.dice
        self.bulls = [i for i in range(A.NUM_DICE) if dice[i] == ONE or dice[i] == TWO]
        self.shot_targets = []
        if not self.bulls:
            self.stage = "beers"
            return
        self.stage = "aim"
        p = self.turn_player
        if self.characters[p] == "slab_the_killer" and BEER in dice:
            self._push("slab_double", p)

    def _stage_aim(self) -> None:
        k = len(self.shot_targets)
        if k < len(self.bulls):
            die = self.bulls[k]
            self._push("shoot", self.turn_player, die=die, face=self.dice[die])
            return
        hits = []
        for die, seat in zip(self.bulls, self.shot_targets):
            hits.append(seat)
            if die == self.doubled:
                hits.append(seat)
        self._start_damage(hits, SHOT, "beers")

    def _stage_beers(self) -> None:
        p = self.turn_player
        self.beers = [i for i in range(A.NUM_DICE) if self.dice[i] == BEER and i != self.slab_beer]
        self.beer_i = 0
        # Jesse Jones's "four or less" is read once, as the beer step begins (the seed's example:
        # at 4 life two beers give him 4)
        self.jesse_boost = self.characters[p] == "jesse_jones" and self.life[p] <= 4
        self.stage = "drink"

    def _stage_drink(self) -> None:
        if self.beer_i < len(self.beers):
            self._push("beer", self.turn_player, die=self.beers[self.beer_i])
        else:
            self.stage = "gatling"

    def _stage_gatling(self) -> None:
        p = self.turn_player
        count = self.dice.count(GATLING)
        character = self.characters[p]
        self.kit_left = count if character == "kit_carlson" else 0
        need = 2 if character == "willy_the_kid" else 3
        if count < need:
            self.stage = "kit"
            return
        self.events.append(("gatling", p))
        n, hits = self.num_players, []
        for k in range(1, n):
            s = (p + k) % n
            if self.alive[s]:
                if self.characters[s] == "paul_regret":
                    self.events.append(("ability", s, "paul_regret"))
                else:
                    hits.append(s)
        self._start_damage(hits, GATLING_HIT, "kit")

    def _stage_kit(self) -> None:
        if self.kit_left > 0 and any(self.arrows):
            self._push("kit_carlson", self.turn_player)
        else:
            self.stage = "suzy"

    def _stage_suzy(self) -> None:
        p = self.turn_player
        if self.characters[p] == "suzy_lafayette" and ONE not in self.dice and TWO not in self.dice:
            self.events.append(("ability", p, "suzy_lafayette", self._heal(p, 2)))
        self.stage = "end"

    def _stage_end(self) -> None:
        n, p = self.num_players, self.turn_player
        for k in range(1, n + 1):
            s = (p + k) % n
            if self.alive[s]:
                self.turn_player = s
                break
        self.stage = "start"

    # ------------------------------------------------------------------ damage
    def _start_damage(self, hits: list[int], cause: str, then: str) -> None:
        """Apply unit hits one by one (reactions in between); eliminate together at the end."""
        self.hits = hits
        self.hit_i = 0
        self.hit_cause = cause
        self.hit_lost = [False] * self.num_players
        self.hit_next = then
        self.stage = "damage"

    def _stage_damage(self) -> None:
        hits, life, cause = self.hits, self.life, self.hit_cause
        while self.hit_i < len(hits):
            seat = hits[self.hit_i]
            self.hit_i += 1
            if life[seat] == 0:  # already down in this event: the hit finds nobody
                continue
            if (
                self.characters[seat] == "bart_cassidy"
                and cause != DYNAMITE_HIT
                and self.arrow_pile >= 2
            ):
                self._push("bart_cassidy", seat, cause=cause)
                return
            if self._lose_life(seat):
                return
        self._finish_damage()

    def _lose_life(self, seat: int) -> bool:
        """One life point lost to the event in progress; True when Pedro Ramirez is asked."""
        self.life[seat] -= 1
        self.hit_lost[seat] = True
        self.events.append(("lose", seat, self.hit_cause, self.turn_player))
        if self.life[seat] > 0 and self.arrows[seat] and self.characters[seat] == "pedro_ramirez":
            self._push("pedro_ramirez", seat)
            return True
        return False

    def _finish_damage(self) -> None:
        p, cause = self.turn_player, self.hit_cause
        if cause == GATLING_HIT and self.arrows[p]:
            self.arrow_pile += self.arrows[p]
            self.arrows[p] = 0
            self.events.append(("discard_arrows", p))
        dead = [s for s in range(self.num_players) if self.alive[s] and self.life[s] == 0]
        if dead:
            self._eliminate(dead, cause)
            if self._game_over:
                return
        if not self.alive[p]:  # his own dynamite: the roller acts no more
            self.stage = "end"
            return
        self.stage = self.hit_next
        if cause == SHOT or cause == GATLING_HIT:
            for s in range(self.num_players):
                if self.hit_lost[s] and self.alive[s] and self.characters[s] == "el_gringo":
                    self.events.append(("ability", s, "el_gringo", p))
                    self._take_arrow(p)
                    if not self.alive[p]:
                        self.stage = "end"

    # ------------------------------------------------------------------ arrows, life, the end
    def _take_arrow(self, seat: int) -> None:
        """``seat`` takes an arrow from the pile; the last one sets off the Indian attack."""
        self.arrow_pile -= 1
        self.arrows[seat] += 1
        self.events.append(("arrow", seat))
        if self.arrow_pile == 0:
            self._indians()

    def _indians(self) -> None:
        life, arrows = self.life, self.arrows
        losses = []
        for s in range(self.num_players):
            loss = arrows[s]
            if loss and self.characters[s] == "jourdonnais":
                loss = 1
            loss = min(loss, life[s])
            life[s] -= loss
            losses.append(loss)
        self.events.append(("indians", tuple(losses)))
        for s in range(self.num_players):
            arrows[s] = 0
        self.arrow_pile = ARROWS
        dead = [s for s in range(self.num_players) if self.alive[s] and life[s] == 0]
        if dead:
            self._eliminate(dead, INDIANS)

    def _heal(self, seat: int, amount: int) -> int:
        """Give ``seat`` up to ``amount`` life points, never above its maximum; the gain."""
        gain = min(amount, self.max_life[seat] - self.life[seat])
        self.life[seat] += gain
        return gain

    def _eliminate(self, dead: list[int], cause: str) -> None:
        """Eliminate ``dead`` together: roles revealed, arrows back, Vulture Sam, the end."""
        for s in dead:
            self.alive[s] = False
            self.role_revealed[s] = True
            self.arrow_pile += self.arrows[s]
            self.arrows[s] = 0
            self.events.append(("eliminated", s, self.roles[s], cause))
        for s in range(self.num_players):
            if self.alive[s] and self.characters[s] == "vulture_sam":
                self.events.append(("ability", s, "vulture_sam", self._heal(s, 2 * len(dead))))
        if self.three_player and not self.last_standing:
            shooter = self.turn_player
            if (cause == SHOT or cause == GATLING_HIT) and self.target_of[shooter] in dead:
                self._win(frozenset((shooter,)))
                return
            # the target fell to another hand, the Indians or dynamite: last one standing now
            self.last_standing = True
        winners = self.end_condition()
        if winners is not None:
            self._win(winners)

    def end_condition(self) -> frozenset[int] | None:
        """The winners if an end condition holds now, else None (3 players: the killing-shot
        win is checked by :meth:`_eliminate`)."""
        roles, alive = self.roles, self.alive
        living = [s for s in range(self.num_players) if alive[s]]
        if self.three_player:
            if len(living) == 1 and self.last_standing:
                return frozenset(living)
            if not living:  # everyone at once: the seed's "¡Los Forajidos ganan!"
                return frozenset((roles.index(OUTLAW),))
            return None
        if not alive[self.sheriff]:
            if len(living) == 1 and roles[living[0]] == RENEGADE:
                return frozenset(living)
            return frozenset(s for s, r in enumerate(roles) if r == OUTLAW)
        if not any(roles[s] == OUTLAW or roles[s] == RENEGADE for s in living):
            return frozenset(s for s, r in enumerate(roles) if r == SHERIFF or r == DEPUTY)
        return None

    def _win(self, winners: frozenset[int]) -> None:
        self.winners = winners
        self._game_over = True
        self.role_revealed[:] = [True] * self.num_players
        self.events.append(("game_over", tuple(sorted(winners))))

    # ------------------------------------------------------------------ targets
    def reach(self, seat: int, face: str) -> list[int]:
        """The seats a bull's-eye die of ``face`` rolled by ``seat`` may hit, in seat order.

        Distances count living players only, either way round; with 2 or 3 players left a 2
        acts as a 1; Calamity Janet reads either face; Rose Doolan reaches one seat further.
        """
        n, alive = self.num_players, self.alive
        order = [(seat + k) % n for k in range(n) if alive[(seat + k) % n]]
        m = len(order)
        faces = (ONE, TWO) if self.characters[seat] == "calamity_janet" else (face,)
        rose = self.characters[seat] == "rose_doolan"
        offsets = set()
        for f in faces:
            d = 1 if f == ONE or m <= 3 else 2
            offsets.add(d)
            if rose:
                offsets.add(d + 1)
        out = set()
        for d in offsets:
            for k in (d % m, -d % m):
                if k:
                    out.add(order[k])
        return sorted(out)


# ---------------------------------------------------------------------- decisions
def _targets(game: BangGame, decider: int, seats: list[int]) -> list[int]:
    n = game.num_players
    return sorted(A.TARGET_BASE + (s - decider) % n for s in seats)


def _legal_reroll(game: BangGame, frame: Frame) -> list[int]:
    dice = game.dice
    free = game.characters[frame.player] == "black_jack"
    mask = 0
    for i in range(A.NUM_DICE):
        if free or dice[i] != DYNAMITE:
            mask |= 1 << i
    return _SUBMASKS[mask]


def _answer_reroll(game: BangGame, frame: Frame, action: int) -> None:
    if action == A.STOP:
        game.stage = "dynamite"
        return
    game.rerolls_left -= 1
    game._roll(action)


def _legal_alive_target(game: BangGame, frame: Frame) -> list[int]:
    return _targets(game, frame.player, game.alive_seats())


def _answer_sid(game: BangGame, frame: Frame, action: int) -> None:
    p = frame.player
    seat = A.target_seat(p, action, game.num_players)
    game.events.append(("ability", p, "sid_ketchum", seat, game._heal(seat, 1)))


def _legal_slab(game: BangGame, frame: Frame) -> list[int]:
    dice = game.dice
    first = {}
    for die in game.bulls:
        first.setdefault(dice[die], die)
    return [A.NO] + sorted(A.DIE_BASE + die for die in first.values())


def _answer_slab(game: BangGame, frame: Frame, action: int) -> None:
    if action == A.NO:
        return
    die = action - A.DIE_BASE
    game.doubled = die
    game.slab_beer = game.dice.index(BEER)
    game.events.append(("ability", frame.player, "slab_the_killer", die))


def _legal_shoot(game: BangGame, frame: Frame) -> list[int]:
    p = frame.player
    return _targets(game, p, game.reach(p, frame.data["face"]))


def _answer_shoot(game: BangGame, frame: Frame, action: int) -> None:
    p, die = frame.player, frame.data["die"]
    seat = A.target_seat(p, action, game.num_players)
    game.shot_targets.append(seat)
    game.events.append(("shot", p, seat, frame.data["face"], 2 if die == game.doubled else 1))


def _answer_beer(game: BangGame, frame: Frame, action: int) -> None:
    p = frame.player
    seat = A.target_seat(p, action, game.num_players)
    amount = 2 if game.jesse_boost and seat == p else 1
    game.events.append(("beer", p, seat, game._heal(seat, amount)))
    game.beer_i += 1


def _legal_kit(game: BangGame, frame: Frame) -> list[int]:
    holders = [s for s in range(game.num_players) if game.arrows[s]]
    return _targets(game, frame.player, holders) + [A.NO]


def _answer_kit(game: BangGame, frame: Frame, action: int) -> None:
    if action == A.NO:
        game.kit_left = 0
        return
    p = frame.player
    seat = A.target_seat(p, action, game.num_players)
    game.arrows[seat] -= 1
    game.arrow_pile += 1
    game.kit_left -= 1
    game.events.append(("ability", p, "kit_carlson", seat))


def _legal_yes_no(game: BangGame, frame: Frame) -> list[int]:
    return _YES_NO


def _answer_bart(game: BangGame, frame: Frame, action: int) -> None:
    seat = frame.player
    if action == A.YES:
        game.arrow_pile -= 1  # never the last one: the decision is asked with 2+ in the pile
        game.arrows[seat] += 1
        game.events.append(("ability", seat, "bart_cassidy"))
    else:
        game._lose_life(seat)


def _answer_pedro(game: BangGame, frame: Frame, action: int) -> None:
    if action == A.YES:
        seat = frame.player
        game.arrows[seat] -= 1
        game.arrow_pile += 1
        game.events.append(("ability", seat, "pedro_ramirez"))


_Legal = Callable[[BangGame, Frame], list[int]]
_Answer = Callable[[BangGame, Frame, int], None]
_LEGAL: dict[str, _Legal] = {
    "reroll": _legal_reroll,
    "sid_ketchum": _legal_alive_target,
    "slab_double": _legal_slab,
    "shoot": _legal_shoot,
    "beer": _legal_alive_target,
    "kit_carlson": _legal_kit,
    "bart_cassidy": _legal_yes_no,
    "pedro_ramirez": _legal_yes_no,
}
_ANSWER: dict[str, _Answer] = {
    "reroll": _answer_reroll,
    "sid_ketchum": _answer_sid,
    "slab_double": _answer_slab,
    "shoot": _answer_shoot,
    "beer": _answer_beer,
    "kit_carlson": _answer_kit,
    "bart_cassidy": _answer_bart,
    "pedro_ramirez": _answer_pedro,
}
_STAGES: dict[str, Callable[[BangGame], None]] = {
    "start": BangGame._stage_start,
    "first_roll": BangGame._stage_first_roll,
    "decide": BangGame._stage_decide,
    "dynamite": BangGame._stage_dynamite,
    "shots": BangGame._stage_shots,
    "aim": BangGame._stage_aim,
    "damage": BangGame._stage_damage,
    "beers": BangGame._stage_beers,
    "drink": BangGame._stage_drink,
    "gatling": BangGame._stage_gatling,
    "kit": BangGame._stage_kit,
    "suzy": BangGame._stage_suzy,
    "end": BangGame._stage_end,
}
assert set(_LEGAL) == set(_ANSWER) == set(DECISION_KINDS)
