"""A rule-based Bang! The Dice Game bot that plays for its role and infers the hidden ones.

It keeps a :class:`~agents.bang_dice.beliefs.RolePosterior` over the roles it does not know,
updated from the public history in its view (who shot whom, who gave whom a beer or Sid
Ketchum's heal, each against the seats the actor could have chosen; reveals at eliminations).
From the posterior and its own role it scores every seat: how much hurting it helps its side
(:meth:`BangHeuristic.enemy_scores`, positive for a likely enemy, negative for a likely friend).
A Renegade, who wins only as the last one standing, values his own life more, protects a weak
Sheriff while others are in play, and shoots the side that is ahead (the Deputies more when the
Sheriff's side holds more of the life in play, the Outlaws more when they do). Then:

- **dice**: it keeps a die whose face is worth more to it than a fresh roll and rerolls the
  others: a bull's-eye is worth the best enemy score in its reach (negative when only friends are
  in reach: it must shoot one), a beer the best heal, Gatlings only in numbers and when the table
  is mostly enemies (more when it holds arrows: the Gatling discards them), arrows nothing; a
  fresh die costs the risk of an arrow or dynamite, more the more arrows it holds (the Indians
  take a life point per arrow); with two dynamite and little life it stops;
- **targets**: it shoots the best-scored seat in reach (a kill counts extra), gives beers (and
  Sid Ketchum's heal) to the hurt seat it most wants alive, Slab doubles a shot on a likely enemy,
  Kit Carlson discards its own and friends' arrows;
- **reactions**: Pedro Ramirez always discards an arrow; Bart Cassidy takes an arrow instead of a
  life point while the pile is not close to the Indian attack, or when his life is low.

``posterior(view)`` exposes its beliefs (seat -> role -> probability) for the accuracy statistic.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

import numpy as np

from agents.bang_dice.beliefs import RolePosterior
from agents.base import Agent, legal_ids
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.game import (
    ARROW,
    BEER,
    DEPUTY,
    DYNAMITE,
    GATLING,
    ONE,
    OUTLAW,
    RENEGADE,
    ROLE_DEAL,
    SHERIFF,
    TWO,
)
from granujas_env.bang_dice.view import BangView

__all__ = [
    "BangHeuristic", "TunedHeuristic", "ROLE_VALUES", "Weights", "DEFAULT_WEIGHTS", "TUNED_WEIGHTS_FILE",
    "weights_from", "load_weights",
]

#: how much hurting a player of each role helps a player of the row's role (negative: a friend).
#: A Renegade wants the Sheriff alive until the others are gone (see enemy_scores).
ROLE_VALUES: dict[str, dict[str, float]] = {
    SHERIFF: {SHERIFF: -2.0, DEPUTY: -1.0, OUTLAW: 1.0, RENEGADE: 0.7},
    DEPUTY: {SHERIFF: -2.0, DEPUTY: -0.8, OUTLAW: 1.0, RENEGADE: 0.7},
    OUTLAW: {SHERIFF: 1.6, DEPUTY: 0.8, OUTLAW: -1.0, RENEGADE: 0.4},
    RENEGADE: {SHERIFF: -0.6, DEPUTY: 0.7, OUTLAW: 0.8, RENEGADE: 0.6},
}


@dataclass(frozen=True)
class Weights:
    """The numbers the heuristic plays by, one set per role (:data:`DEFAULT_WEIGHTS`; a tuned
    set: ``BangHeuristic(weights=...)``)."""

    #: how much hurting a Sheriff, Deputy, Outlaw, Renegade helps (a row of ROLE_VALUES)
    hurt_sheriff: float
    hurt_deputy: float
    hurt_outlaw: float
    hurt_renegade: float
    #: how much it wants itself alive (for beers); a Renegade's own life counts for more
    self_value: float = 1.3
    #: a beer's worth against a bull's-eye's, and the cost of a reroll's risk (arrow, dynamite)
    beer_weight: float = 0.5
    reroll_risk: float = 0.2
    #: the extra risk of a reroll per arrow held; the worth of discarding an arrow (Gatling)
    arrow_risk: float = 0.1
    arrow_weight: float = 0.6
    #: a shot that kills counts this many times more
    kill_bonus: float = 1.8
    #: a heal's urgency: 1 + this / the life left
    heal_urgency: float = 2.0
    #: Gatlings are kept when one is worth more than this, each then worth this bonus more
    gatling_threshold: float = 0.5
    gatling_bonus: float = 0.4
    #: with two dynamite it stops rolling at this life or less
    dynamite_stop_life: float = 2.0
    #: Bart Cassidy takes an arrow instead of a life point with this many arrows in the pile or
    #: more, or at this life or less
    bart_pile: float = 4.0
    bart_life: float = 2.0
    #: the Sheriff's side's value of hurting the Renegade once the Outlaws are gone
    hurt_renegade_alone: float = 1.2
    #: a Renegade shoots the side that is ahead: hurting a Deputy is worth (the Sheriff's side's
    #: share of the life in play against the Outlaws' / an even share) ** this times more, an
    #: Outlaw as much less (tuned on seeds 0-23999)
    renegade_balance: float = 1.0
    #: a Renegade protects the Sheriff at this life or less while others are in play (worth this)
    renegade_guard: float = 3.0
    renegade_guard_value: float = -2.5
    #: a Renegade's value of hurting the Sheriff once only the Sheriff is left
    renegade_last_sheriff: float = 1.5

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The field names, in order."""
        return tuple(f.name for f in fields(cls))


def _default(role: str, **changes: float) -> Weights:
    row = ROLE_VALUES[role]
    return Weights(row[SHERIFF], row[DEPUTY], row[OUTLAW], row[RENEGADE], **changes)


#: the hand-tuned weights of every role (the heuristic's behaviour by default)
DEFAULT_WEIGHTS: dict[str, Weights] = {
    SHERIFF: _default(SHERIFF),
    DEPUTY: _default(DEPUTY),
    OUTLAW: _default(OUTLAW),
    RENEGADE: _default(RENEGADE, self_value=2.0),
}


def weights_from(data: Mapping[str, Mapping[str, float]]) -> dict[str, Weights]:
    """Weights per role from ``{role: {name: number}}`` (roles and names left out keep their
    defaults); ValueError naming a bad role, name or number."""
    if not isinstance(data, Mapping):
        raise ValueError(f"weights must map roles to {{name: number}}, got {type(data).__name__}")
    out = dict(DEFAULT_WEIGHTS)
    names = Weights.names()
    for role, changes in data.items():
        if role not in DEFAULT_WEIGHTS:
            raise ValueError(f"weights: unknown role {role!r}; the roles are {sorted(DEFAULT_WEIGHTS)}")
        if not isinstance(changes, Mapping):
            raise ValueError(f"weights[{role!r}] must map names to numbers, got {type(changes).__name__}")
        for name, value in changes.items():
            if name not in names:
                raise ValueError(f"weights[{role!r}]: unknown name {name!r}; the names are {list(names)}")
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"weights[{role!r}][{name!r}] must be a finite number, got {value!r}")
        out[role] = replace(DEFAULT_WEIGHTS[role], **{k: float(v) for k, v in changes.items()})
    return out


#: its own value at 3 players, every role (the weights are per role of the 4-8 player deal)
THREE_PLAYER_SELF_VALUE = 1.3


def _as_weights(weights: Mapping[str, Weights | Mapping[str, float]] | None) -> dict[str, Weights]:
    if weights is None:
        return dict(DEFAULT_WEIGHTS)
    if isinstance(weights, Mapping) and all(isinstance(w, Weights) for w in weights.values()):
        return {**DEFAULT_WEIGHTS, **weights}
    return weights_from(weights)


class BangHeuristic(Agent):
    """The Bang! heuristic (see the module docstring). ``seed`` breaks ties; ``weights``: role ->
    :class:`Weights` or ``{name: number}`` changes to :data:`DEFAULT_WEIGHTS` (ValueError on bad
    ones)."""

    name = "heuristic"
    wants_view = True

    def __init__(
        self, seed: int | None = None, weights: Mapping[str, Weights | Mapping[str, float]] | None = None
    ) -> None:
        self.seed = seed
        #: role -> the :class:`Weights` it plays that role by (:data:`DEFAULT_WEIGHTS` unless given)
        self.weights = _as_weights(weights)
        self._rng = random.Random(seed)
        self._forget()

    def _forget(self) -> None:
        self._belief: RolePosterior | None = None
        self._seat = -1
        self._seen = 0
        self._alive: list[bool] = []
        self._characters: tuple[str, ...] = ()

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
            self._rng = random.Random(seed)
        self._forget()

    def __repr__(self) -> str:
        return f"BangHeuristic(seed={self.seed!r})"

    # ------------------------------------------------------------------ beliefs
    def _sync(self, view: BangView) -> RolePosterior:
        """Read the events of ``view`` not read yet into the posterior."""
        events = view.events
        if self._belief is None or view.seat != self._seat or len(events) < self._seen:
            known = {p.seat: p.role for p in view.players if p.role is not None}
            # the posterior starts from the deal: reveals of later events come as events
            start = {view.seat: view.role}
            if view.sheriff >= 0:
                start[view.sheriff] = SHERIFF
            if view.num_players == 3:
                start = known
            self._belief = RolePosterior(ROLE_DEAL[view.num_players], start)
            self._seat, self._seen = view.seat, 0
            self._alive = [True] * view.num_players
            self._characters = tuple(p.character for p in view.players)
        belief = self._belief
        for event in events[self._seen :]:
            kind = event[0]
            if kind == "shot":
                _, actor, target, face, _amount = event
                if actor != view.seat:
                    belief.observe("shot", actor, target, self._reach(actor, face, self._alive))
            elif kind == "beer" or (kind == "ability" and event[2] == "sid_ketchum"):
                actor, target = (event[1], event[2]) if kind == "beer" else (event[1], event[3])
                if actor != view.seat and target != actor:
                    options = [s for s, alive in enumerate(self._alive) if alive and s != actor]
                    belief.observe("heal", actor, target, options)
            elif kind == "eliminated":
                self._alive[event[1]] = False
                belief.reveal(event[1], event[2])
        self._seen = len(events)
        for p in view.players:  # roles shown otherwise (every role once the game is over)
            if p.role is not None and p.seat in belief.unknown:
                belief.reveal(p.seat, p.role)
        return belief

    def _reach(self, seat: int, face: str, alive: list[bool]) -> list[int]:
        """The seats a bull's-eye of ``face`` rolled by ``seat`` could hit when the seats of
        ``alive`` are in play (the engine's rule)."""
        n = len(alive)
        order = [(seat + k) % n for k in range(n) if alive[(seat + k) % n]]
        m = len(order)
        faces = (ONE, TWO) if self._characters[seat] == "calamity_janet" else (face,)
        offsets = set()
        for f in faces:
            d = 1 if f == ONE or m <= 3 else 2
            offsets.add(d)
            if self._characters[seat] == "rose_doolan":
                offsets.add(d + 1)
        return sorted({order[k] for d in offsets for k in (d % m, -d % m) if k})

    def belief(self, view: BangView) -> RolePosterior:
        """The posterior over the roles, with every event of ``view`` read (the bot's own
        object: callers read it, they do not change it)."""
        return self._sync(view)

    def posterior(self, view: BangView) -> dict[int, dict[str, float]]:
        """seat -> role -> probability, as this bot believes from ``view``'s history."""
        return self._sync(view).marginals()

    # ------------------------------------------------------------------ values
    def enemy_scores(self, view: BangView) -> list[float]:
        """Per seat: how much hurting it helps this bot's side (its own seat: minus its self value)."""
        me, n = view.seat, view.num_players
        players = view.players
        if n == 3:
            out = []
            for p in players:
                if p.seat == me:
                    out.append(-THREE_PLAYER_SELF_VALUE)
                elif view.last_standing or p.seat == view.three_player_target:
                    out.append(1.0)
                else:
                    out.append(0.5)  # the one hunting me: worth hitting, not my win
            return out
        marginals = self._sync(view).marginals()
        w = self.weights[view.role]
        values = {SHERIFF: w.hurt_sheriff, DEPUTY: w.hurt_deputy, OUTLAW: w.hurt_outlaw, RENEGADE: w.hurt_renegade}
        living_roles = {
            r for p in players if p.alive and p.seat != me
            for r, prob in marginals[p.seat].items() if prob > 0.01
        }
        if view.role == RENEGADE:
            # the life each side has in play, as this Renegade believes
            others = [p for p in players if p.alive and p.seat != me]
            law = sum(p.life * (marginals[p.seat][SHERIFF] + marginals[p.seat][DEPUTY]) for p in others)
            outlaws = sum(p.life * marginals[p.seat][OUTLAW] for p in others)
            if law > 0 and outlaws > 0:
                lead = (2 * law / (law + outlaws)) ** w.renegade_balance
                values[DEPUTY] *= lead
                values[OUTLAW] /= lead
            if not (living_roles - {SHERIFF}):
                values[SHERIFF] = w.renegade_last_sheriff  # only the Sheriff is left: now the target
            elif players[view.sheriff].life <= w.renegade_guard:
                values[SHERIFF] = w.renegade_guard_value  # his death now hands the game to the Outlaws
        if view.role in (SHERIFF, DEPUTY) and OUTLAW not in living_roles:
            values[RENEGADE] = w.hurt_renegade_alone
        out = []
        for p in players:
            if p.seat == me:
                out.append(-w.self_value)
            else:
                out.append(sum(prob * values[r] for r, prob in marginals[p.seat].items()))
        return out

    def _heal_value(self, view: BangView, scores: list[float], seat: int, life: int | None = None) -> float:
        """What a life point given to ``seat`` is worth to this seat (``life``: its life then, by
        default its life now)."""
        p = view.players[seat]
        life = p.life if life is None else life
        if life <= 0 or life >= p.max_life:
            return -1.0  # a wasted beer
        friend = -scores[seat]
        if friend <= 0:
            return friend
        urgency = 1.0 + self.weights[view.role].heal_urgency / max(1, life)
        return friend * urgency

    def hit_worth(self, view: BangView, scores: list[float], seat: int, life: int, amount: int = 1) -> float:
        """What taking ``amount`` life points from ``seat`` at ``life`` is worth to this seat (a
        kill of a likely enemy counts ``kill_bonus`` times)."""
        value = scores[seat]
        if value > 0 and life <= amount:
            value *= self.weights[view.role].kill_bonus  # a kill
        return value

    def _shot_value(self, view: BangView, scores: list[float], seat: int, amount: int = 1) -> float:
        life = view.players[seat].life
        return self.hit_worth(view, scores, seat, life, amount) - 0.01 * life  # tie-break: the weaker one

    def _reach_now(self, view: BangView, face: str) -> list[int]:
        return self._reach(view.seat, face, [p.alive for p in view.players])

    # ------------------------------------------------------------------ decisions
    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        legal = legal_ids(observation)
        if not isinstance(view, BangView):
            raise ValueError("BangHeuristic needs the seat view (view=env.unwrapped.seat_view(agent))")
        self._sync(view)
        kind = view.decision
        if kind == "reroll":
            return self._reroll(view, legal)
        if kind == "pedro_ramirez":
            return A.YES
        if kind == "bart_cassidy":
            me = view.players[view.seat]
            w = self.weights[view.role]
            return A.YES if view.arrow_pile >= w.bart_pile or me.life <= w.bart_life else A.NO
        scores = self.enemy_scores(view)
        n, me = view.num_players, view.seat
        targets = {(me + a - A.TARGET_BASE) % n: a for a in legal if A.TARGET_BASE <= a < A.YES}
        if kind == "shoot":
            return targets[max(targets, key=lambda s: self._shot_value(view, scores, s))]
        if kind in ("beer", "sid_ketchum"):
            return targets[max(targets, key=lambda s: self._heal_value(view, scores, s))]
        if kind == "kit_carlson":
            best = max(targets, key=lambda s: -scores[s], default=None)
            return targets[best] if best is not None and scores[best] < 0 else A.NO
        if kind == "slab_double":
            return self._slab(view, scores, legal)
        return legal[self._rng.randrange(len(legal))]

    def _slab(self, view: BangView, scores: list[float], legal: list[int]) -> int:
        best, choice = 0.6, A.NO
        for action in legal:
            if action >= A.DIE_BASE:
                face = view.dice[action - A.DIE_BASE]
                value = max(scores[s] for s in self._reach_now(view, face))
                if value > best:
                    best, choice = value, action
        return choice

    def _face_values(self, view: BangView, scores: list[float]) -> dict[str, float]:
        """What each face is worth to this bot now, at resolution."""
        w = self.weights[view.role]
        me = view.seat
        values = {ARROW: 0.0, DYNAMITE: -0.3}
        for face in (ONE, TWO):
            reach = self._reach_now(view, face)
            values[face] = max((self._shot_value(view, scores, s) for s in reach), default=0.0)
        heals = [self._heal_value(view, scores, p.seat) for p in view.players if p.alive]
        values[BEER] = max(0.0, max(heals, default=0.0)) * w.beer_weight
        enemies = sum(scores[p.seat] for p in view.players if p.alive and p.seat != me)
        values[GATLING] = enemies + w.arrow_weight * view.players[me].arrows  # per Gatling fired
        return values

    def _reroll(self, view: BangView, legal: list[int]) -> int:
        scores = self.enemy_scores(view)
        values = self._face_values(view, scores)
        dice = view.dice
        need = 2 if view.players[view.seat].character == "willy_the_kid" else 3
        gatlings = dice.count(GATLING)
        w = self.weights[view.role]
        gatling_good = values[GATLING] > w.gatling_threshold

        def worth(face: str) -> float:
            if face == GATLING:
                if gatling_good and gatlings >= need - 1:
                    return values[GATLING] / need + w.gatling_bonus
                return 0.0
            return values[face]

        me = view.players[view.seat]
        # a fresh die: the mean of its useful faces, less the risk of an arrow (worse the more
        # arrows this seat holds: the Indians take a life point per arrow) and of dynamite
        risk = w.reroll_risk + w.arrow_risk * me.arrows
        fresh = sum(worth(f) for f in (ONE, TWO, BEER, GATLING)) / 6.0 - risk
        if dice.count(DYNAMITE) == 2 and me.life <= w.dynamite_stop_life:
            return A.STOP
        mask = 0
        for i, face in enumerate(dice):
            if worth(face) < fresh:
                mask |= 1 << i
        mask &= max(legal)  # the legal masks are the submasks of the rerollable dice
        return mask


#: the weights :class:`TunedHeuristic` plays by, trained by train.bang_tune (the file says how)
TUNED_WEIGHTS_FILE = Path(__file__).parent / "data" / "tuned_weights.toml"


def load_weights(path: Path | str = TUNED_WEIGHTS_FILE) -> dict[str, Weights]:
    """Weights per role from a TOML file of ``[role]`` tables of ``name = number`` (what is left
    out keeps its default); ValueError naming the file and what is wrong."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"cannot read the weights file {path}: {exc}") from None
    try:
        return weights_from(raw)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


class TunedHeuristic(BangHeuristic):
    """The heuristic with the weights trained per role by ``python -m train.bang_tune``
    (:data:`TUNED_WEIGHTS_FILE`); read once per bot, validated."""

    name = "tuned"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, weights=load_weights())

    def __repr__(self) -> str:
        return f"TunedHeuristic(seed={self.seed!r})"
