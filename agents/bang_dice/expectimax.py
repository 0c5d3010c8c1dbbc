"""The Bang! heuristic with its rerolls planned by expectimax over the dice still to roll.

The heuristic (:mod:`agents.bang_dice.heuristic`) keeps a die when its face is worth more than a
fresh roll, one die at a time, whatever the rerolls left. :class:`ExpectimaxHeuristic` values the
final dice as a whole by the heuristic's own numbers (its enemy scores, heal values and weights,
from the same role posterior) and chooses, at every reroll, the dice to keep that maximise the
expected value of the dice it will end with, playing the later rerolls as well
(:func:`plan_keep`). Everything else (targets, beers, character choices, reactions) is the
heuristic's.

The value of a set of final dice (:meth:`ExpectimaxHeuristic.final_value`): the bull's-eyes
placed one by one on the best target in reach (the "2"s first, each hit lowering its target's
life, a kill counting ``kill_bonus`` times), each beer the heuristic's beer value, a Gatling that
fires every other player hit (kills counted) and the roller's arrows discarded, three dynamite a
life point lost, Suzy Lafayette's two life points when no bull's-eye shows. Each arrow rolled
costs :attr:`ExpectimaxHeuristic.arrow_cost` of a life point's worth, more as the pile empties
(an arrow held is a life point lost when the Indians attack).

Rated at tables of 1 bot + 4 heuristics, 5 players, 6,000 deals not used to choose it
(1420000-1425999): +1.6 points [+0.2, +2.9] overall (docs/bang_dice/index.md).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import product

from agents.bang_dice.heuristic import BangHeuristic
from granujas_env.bang_dice.engine.game import (
    ARROW,
    ARROWS,
    BEER,
    DYNAMITE,
    FACES,
    GATLING,
    ONE,
    TWO,
)
from granujas_env.bang_dice.view import BangView

__all__ = ["ExpectimaxHeuristic", "plan_keep", "roll_outcomes"]

Counts = tuple[int, ...]  # how many dice show each face of FACES, in FACES order

_ARROW, _DYNAMITE, _ONE, _TWO, _BEER, _GATLING = (
    FACES.index(face) for face in (ARROW, DYNAMITE, ONE, TWO, BEER, GATLING)
)


@cache
def roll_outcomes(dice: int) -> tuple[tuple[Counts, float], ...]:
    """Every face count that rolling ``dice`` fair dice can show, with its probability."""
    seen: dict[Counts, int] = {}
    for roll in product(range(len(FACES)), repeat=dice):
        counts = [0] * len(FACES)
        for face in roll:
            counts[face] += 1
        seen[tuple(counts)] = seen.get(tuple(counts), 0) + 1
    total = len(FACES) ** dice
    return tuple((counts, n / total) for counts, n in seen.items())


@cache
def _keeps(counts: Counts, dynamite_locked: bool) -> tuple[Counts, ...]:
    """Every set of dice that may be kept from ``counts`` (all of its dynamite when locked)."""
    low = [0] * len(FACES)
    if dynamite_locked:
        low[_DYNAMITE] = counts[_DYNAMITE]
    return tuple(k for k in product(*(range(lo, c + 1) for lo, c in zip(low, counts))) if k != counts)


@cache
def _rerolled(kept: Counts, dice: int) -> tuple[tuple[Counts, float, int], ...]:
    """Keeping ``kept`` of ``dice`` dice and rolling the others: each final count, its
    probability and the arrows rolled, in :func:`roll_outcomes`' order."""
    return tuple(
        (tuple(a + b for a, b in zip(kept, out)), p, out[_ARROW])
        for out, p in roll_outcomes(dice - sum(kept))
    )


def plan_keep(
    counts: Counts,
    rerolls_left: int,
    value: Callable[[Counts], float],
    arrow_cost: float = 0.0,
    dynamite_locked: bool = True,
) -> tuple[Counts, float]:
    """The dice to keep from ``counts`` with ``rerolls_left`` rerolls (``counts`` itself: stop)
    and the expected value of the final dice, ``value`` of them less ``arrow_cost`` per arrow
    rolled on the way, every later reroll chosen the same way. Three or more dynamite end the
    rolling; with ``dynamite_locked`` a dynamite is never rerolled."""
    dice = sum(counts)
    best: dict[tuple[Counts, int], float] = {}
    kept: dict[tuple[Counts, int], float] = {}

    def state_value(c: Counts, left: int) -> float:
        key = (c, left)
        if key not in best:
            v = value(c)
            if left > 0 and c[_DYNAMITE] < 3:
                v = max([v, *(keep_value(k, left) for k in _keeps(c, dynamite_locked))])
            best[key] = v
        return best[key]

    def keep_value(k: Counts, left: int) -> float:
        key = (k, left)
        if key not in kept:
            kept[key] = sum(
                p * (state_value(final, left - 1) - arrow_cost * arrows)
                for final, p, arrows in _rerolled(k, dice)
            )
        return kept[key]

    choice, top = counts, value(counts)
    if rerolls_left > 0 and counts[_DYNAMITE] < 3:
        for k in _keeps(counts, dynamite_locked):
            v = keep_value(k, rerolls_left)
            if v > top + 1e-12:  # ties: keep more (stop first, then the earlier keeps)
                choice, top = k, v
    return choice, top


class ExpectimaxHeuristic(BangHeuristic):
    """The heuristic with expectimax rerolls (see the module docstring)."""

    name = "expectimax"
    #: an arrow rolled costs this share of a life point's worth, times 1 + (9 - pile) / 9 (9 arrows)
    arrow_cost = 0.2
    #: three dynamite cost this many life points' worth (at 1 life: four, the roller's end)
    dynamite_cost = 1.0

    def __repr__(self) -> str:
        return f"ExpectimaxHeuristic(seed={self.seed!r})"

    def final_value(self, view: BangView) -> Callable[[Counts], float]:
        """The worth of a set of final dice to this seat now (see the module docstring)."""
        scores = self.enemy_scores(view)
        values = self._face_values(view, scores)
        w = self.weights[view.role]
        me = view.players[view.seat]
        need = 2 if me.character == "willy_the_kid" else 3
        life_worth = self._life_worth(view)
        dynamite = life_worth * (self.dynamite_cost if me.life > 1 else 4.0)
        suzy = me.character == "suzy_lafayette" and me.life < me.max_life
        reach_one, reach_two = self.bullseye_reach(view)
        lives0 = [p.life if p.alive else 0 for p in view.players]
        gatling_hits = self.gatling_targets(view)

        def hit(seat: int, lives: list[int]) -> float:
            return self.hit_worth(view, scores, seat, lives[seat])

        memo: dict[Counts, float] = {}

        def final(c: Counts) -> float:
            if c in memo:
                return memo[c]
            lives = list(lives0)
            total = self.place_shots(c, lives, reach_one, reach_two, hit)
            total += c[_BEER] * values[BEER]
            if c[_GATLING] >= need:
                total += sum(hit(s, lives) for s in gatling_hits if lives[s] > 0)
                total += w.arrow_weight * me.arrows
            if c[_DYNAMITE] >= 3:
                total -= dynamite
            if suzy and c[_ONE] + c[_TWO] == 0:
                total += 2 * life_worth * w.beer_weight
            memo[c] = total
            return total

        return final

    def bullseye_reach(self, view: BangView) -> tuple[list[int], list[int]]:
        """The seats this seat's "1" and "2" can hit now (Calamity Janet: either face, either reach)."""
        reach_one, reach_two = self._reach_now(view, ONE), self._reach_now(view, TWO)
        if view.players[view.seat].character == "calamity_janet":
            reach_one = reach_two = sorted(set(reach_one) | set(reach_two))
        return reach_one, reach_two

    @staticmethod
    def gatling_targets(view: BangView) -> list[int]:
        """The seats this seat's Gatling hits (every other player in play but Paul Regret)."""
        return [
            p.seat for p in view.players
            if p.alive and p.seat != view.seat and p.character != "paul_regret"
        ]

    @staticmethod
    def place_shots(
        counts: Counts, lives: list[int], reach_one: list[int], reach_two: list[int],
        hit: Callable[[int, list[int]], float],
    ) -> float:
        """Place the bull's-eyes of ``counts`` one by one ("2"s first) on the target in reach worth
        most by ``hit(seat, lives)``, lowering ``lives`` (changed in place); the worths' sum."""
        total = 0.0
        for reach, count in ((reach_two, counts[_TWO]), (reach_one, counts[_ONE])):
            for _ in range(count):
                standing = [s for s in reach if lives[s] > 0] or reach
                # the weaker one on a tie, as the heuristic shoots
                target = max(standing, key=lambda s: hit(s, lives) - 0.01 * lives[s])
                total += hit(target, lives) - 0.01 * lives[target]
                lives[target] -= 1
        return total

    def _life_worth(self, view: BangView) -> float:
        """A life point of this seat's, as the heuristic weighs a heal of itself."""
        w = self.weights[view.role]
        return w.self_value * (1.0 + w.heal_urgency / max(1, view.players[view.seat].life))

    def reroll_plan(self, view: BangView) -> tuple[Counts, float]:
        """The dice to keep at this reroll decision (face counts in FACES order; every die:
        stop) and the expected worth of the dice it will end with (:func:`plan_keep`)."""
        counts = [0] * len(FACES)
        for face in view.dice:
            counts[FACES.index(face)] += 1
        arrow_cost = self._life_worth(view) * self.arrow_cost * (1.0 + (ARROWS - view.arrow_pile) / ARROWS)
        locked = view.players[view.seat].character != "black_jack"
        return plan_keep(tuple(counts), view.rerolls_left, self.final_value(view), arrow_cost, locked)

    def _reroll(self, view: BangView, legal: list[int]) -> int:
        left = list(self.reroll_plan(view)[0])
        mask = 0
        for i, face in enumerate(view.dice):
            j = FACES.index(face)
            if left[j] > 0:
                left[j] -= 1  # the first dice of a face are kept: dice of one face are alike
            else:
                mask |= 1 << i
        return mask
