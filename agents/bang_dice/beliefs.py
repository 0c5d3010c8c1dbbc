"""A Bayesian posterior over the hidden roles of Bang! The Dice Game, from public acts.

The hypotheses are every way of dealing the roles a seat does not know to the seats it does not
know (at most 7!/(2!3!2!) = 210 at 8 players). Each public choice of a target (who shot whom,
who gave a beer to whom) multiplies every hypothesis by the probability that a player of the
actor's role, choosing among the seats it could choose, picks that target:

    P(target | actor role, roles) = W[actor role][target role] / sum over options W[actor role][option role]

``W`` (:data:`SHOT_WEIGHTS`, :data:`HEAL_WEIGHTS`) is a small hand-set model of what each role
wants (an Outlaw shoots the Sheriff, a Deputy heals him, ...); the normalisation over the
options makes a choice informative only where the actor had another one. Reveals (eliminations)
keep the hypotheses that agree. Vectorised with numpy: one update is a few array operations.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from granujas_env.bang_dice.engine.game import ROLES

__all__ = ["ROLES", "SHOT_WEIGHTS", "HEAL_WEIGHTS", "RolePosterior"]

#: W[actor role][target role] for shots: how much a player of that role wants to hit the target
SHOT_WEIGHTS = np.array(
    [
        # target: S     D     O     R
        [0.05, 0.3, 2.0, 1.2],  # Sheriff
        [0.05, 0.4, 2.0, 1.2],  # Deputy
        [4.0, 1.5, 0.2, 1.0],  # Outlaw
        [0.6, 1.0, 1.3, 0.5],  # Renegade
    ]
)
#: W[actor role][target role] for beers given to another player
HEAL_WEIGHTS = np.array(
    [
        [1.0, 2.0, 0.15, 0.6],  # Sheriff (never heals himself here: self-heals are not observed)
        [3.0, 1.5, 0.15, 0.6],  # Deputy
        [0.1, 0.3, 3.0, 0.6],  # Outlaw
        [1.5, 0.6, 0.6, 1.0],  # Renegade
    ]
)
_WEIGHTS = {"shot": SHOT_WEIGHTS, "heal": HEAL_WEIGHTS}


class RolePosterior:
    """The posterior of one seat over the roles it does not know.

    Args:
        deal: the roles of the game, one per seat, in any order (the multiset dealt).
        known: seat -> role for every seat whose role the observer knows (itself, the Sheriff,
            the revealed ones).
    """

    def __init__(self, deal: Sequence[str], known: Mapping[int, str]) -> None:
        n = len(deal)
        index = {role: i for i, role in enumerate(ROLES)}
        left = [index[r] for r in deal]
        for role in known.values():
            left.remove(index[role])  # ValueError: a known role that the deal lacks
        self.num_players = n
        self.unknown = [s for s in range(n) if s not in known]
        hypotheses = sorted(set(itertools.permutations(left)))
        table = np.empty((max(1, len(hypotheses)), n), dtype=np.intp)
        for seat, role in known.items():
            table[:, seat] = index[role]
        if self.unknown:
            table[:, self.unknown] = np.array(hypotheses, dtype=np.intp)
        self._roles = table
        self._log = np.zeros(len(table))

    def reveal(self, seat: int, role: str) -> None:
        """``seat``'s role became public: keep the hypotheses that agree."""
        keep = self._roles[:, seat] == ROLES.index(role)
        if keep.all():
            return
        self._roles = self._roles[keep]
        self._log = self._log[keep]
        if seat in self.unknown:
            self.unknown.remove(seat)

    def observe(self, kind: str, actor: int, target: int, options: Iterable[int]) -> None:
        """``actor`` chose ``target`` among ``options`` for a ``kind`` ("shot" or "heal")."""
        options = list(options)
        if len(options) < 2 or target not in options:
            return  # no choice, nothing learnt
        weights = _WEIGHTS[kind]
        actor_roles = self._roles[:, actor]
        chosen = weights[actor_roles, self._roles[:, target]]
        total = sum(weights[actor_roles, self._roles[:, o]] for o in options)
        self._log += np.log(chosen / total)
        self._log -= self._log.max()  # keep the numbers in range

    def marginals(self) -> dict[int, dict[str, float]]:
        """seat -> role -> probability, for every seat (known seats put 1 on their role)."""
        p = np.exp(self._log)
        p /= p.sum()
        out = {}
        for seat in range(self.num_players):
            mass = np.bincount(self._roles[:, seat], weights=p, minlength=len(ROLES))
            out[seat] = {role: float(mass[i]) for i, role in enumerate(ROLES)}
        return out

    def sample(self, rng: random.Random) -> list[str]:
        """One role per seat drawn from the posterior (a whole hypothesis, so the roles dealt)."""
        p = np.exp(self._log)
        row = rng.choices(range(len(p)), weights=p.tolist())[0]
        return [ROLES[i] for i in self._roles[row]]

    def prob(self, seat: int, role: str) -> float:
        """The probability that ``seat`` has ``role``."""
        p = np.exp(self._log)
        return float(p[self._roles[:, seat] == ROLES.index(role)].sum() / p.sum())
