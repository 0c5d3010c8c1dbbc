"""A Bang! search bot: the heuristic, improved one decision at a time by determinized rollouts.

At each decision with a choice, :class:`BangRollout` asks its :class:`BangHeuristic` for its
action and its posterior over the hidden roles, then scores a few candidate actions (every legal
one for targets and reactions; for the dice, the heuristic's mask, stopping, rerolling every
rerollable die and the heuristic's mask with one die changed). Each of ``rollouts`` playouts
draws a *determinization*: the hidden roles from the posterior (:meth:`RolePosterior.sample`,
put in place by :meth:`BangGame.with_roles`) and a fresh dice generator, then plays the game out
with heuristics in every seat. Every candidate is played on the same determinizations (common
random numbers), so their difference is measured, not their luck. It keeps the heuristic's
action unless another candidate wins more often by at least ``margin`` (a share of the games):
with few playouts a small difference is noise.

Why this never uses what its seat may not know: the live game (``needs_game = True``, passed by
the drivers) is read only through :meth:`BangGame.with_roles`, which overwrites every role the
seat does not know with a draw from the seat's own posterior, and its dice generator is replaced
before any roll; the rest of the game is public (tests/test_bang_search.py swaps hidden roles and
dice generators and checks the bot's choice stays the same).

It is slow (tens of milliseconds of playouts per candidate): a strong opponent to rate against
and the teacher of the trained policy (``python -m train.train --game bang-dice --teacher
rollout ...``; docs/bang_dice/training.md), not a fast bot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np

from agents.bang_dice.heuristic import BangHeuristic
from agents.base import Agent, LazyObservation, legal_ids
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.game import BangGame
from granujas_env.bang_dice.view import BangView, seat_view

__all__ = ["BangRollout", "decision_candidates", "play_out"]


def play_out(game: BangGame, bots: list[BangHeuristic]) -> BangGame:
    """Play ``game`` to its end with ``bots[s]`` deciding for seat ``s``; returns ``game``."""
    while not game.game_over:
        seat = game.current_player
        # the heuristic reads only the legal ids of an observation: no tensor is built
        observation = LazyObservation(game.legal_actions(), A.NUM_ACTIONS, lambda: None)
        game.apply(bots[seat].act(observation, view=seat_view(game, seat)))
    return game


def decision_candidates(view: BangView, legal: list[int], base: int) -> list[int]:
    """The actions worth comparing at a decision whose heuristic action is ``base``: every legal
    one, except for the dice (up to 32 masks): the heuristic's, stopping, rerolling every
    rerollable die, and the heuristic's mask with one die changed."""
    if view.decision != "reroll":
        return list(legal)
    full = max(legal)  # the legal masks are the submasks of the rerollable dice
    picks = {base, A.STOP, full}
    picks.update(base ^ (1 << i) for i in range(A.NUM_DICE) if full & (1 << i))
    return sorted(a for a in picks if a in legal)


class BangRollout(Agent):
    """The heuristic improved by rollouts (module docstring). ``rollouts``: determinizations
    per decision, shared by the candidates; ``margin``: how much more often (a share of the
    playouts, 0..1) another action must win to replace the heuristic's."""

    name = "rollout"
    wants_view = True
    needs_game = True

    def __init__(self, seed: int | None = None, rollouts: int = 16, margin: float = 0.0625) -> None:
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"rollouts must be a positive int, got {rollouts!r}")
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 <= margin <= 1:
            raise ValueError(f"margin must be a number in [0, 1], got {margin!r}")
        self.rollouts = rollouts
        self.margin = float(margin)
        self.seed = seed
        self._rng = random.Random(seed)
        self.heuristic = BangHeuristic(seed)
        #: the last decision's candidates and their win rates over the playouts
        self.last_values: dict[int, float] = {}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
            self._rng = random.Random(seed)
        self.heuristic.reset(seed)
        self.last_values = {}

    def __repr__(self) -> str:
        return f"BangRollout(seed={self.seed!r}, rollouts={self.rollouts}, margin={self.margin})"

    def posterior(self, view: BangView) -> dict[int, dict[str, float]]:
        """The heuristic's beliefs (seat -> role -> probability), for the accuracy statistic."""
        return self.heuristic.posterior(view)

    def act(
        self,
        observation: Mapping[str, np.ndarray],
        view: object | None = None,
        game: BangGame | None = None,
    ) -> int:
        legal = legal_ids(observation)
        if not isinstance(view, BangView):
            raise ValueError("BangRollout needs the seat view (view=env.unwrapped.seat_view(agent))")
        if not isinstance(game, BangGame):
            raise ValueError(
                "BangRollout needs the live game to sample from: agent.act(observation, view=view, "
                "game=game), or agents.registry.ask, which passes it to bots with needs_game = True"
            )
        if game.legal_actions() != legal or game.current_player != view.seat:
            raise ValueError("the game does not match the observation and view: another decision is pending")
        base = self.heuristic.act(observation, view=view)
        self.last_values = {}
        if len(legal) == 1:
            return base
        candidates = decision_candidates(view, legal, base)
        belief = self.heuristic.belief(view)
        wins = dict.fromkeys(candidates, 0)
        for _ in range(self.rollouts):
            world = game.with_roles(belief.sample(self._rng))
            dice_seed = self._rng.getrandbits(62)
            for action in candidates:
                trial = world.clone()
                trial.rng = random.Random(dice_seed)
                trial.apply(action)
                bots = [BangHeuristic(seed=dice_seed + s) for s in range(trial.num_players)]
                play_out(trial, bots)
                wins[action] += view.seat in trial.winners
        self.last_values = {a: wins[a] / self.rollouts for a in candidates}
        best = max(candidates, key=lambda a: (wins[a], a == base))
        if self.last_values[best] - self.last_values[base] < self.margin:
            return base
        return best
