"""SafeSearchAgent: the heuristic, with its Safe decisions searched for Safe tech (``agents.make("safe_search")``).

Everywhere but the Safe decisions (:data:`agents.decisions.SAFE_DECISIONS`: peek, Mark face and
source, steal, abandon, unused-location peek, Sheriff's Office) it plays exactly the heuristic's
action (:class:`agents.heuristic.HeuristicAgent`, which sees every decision, so its per-game memory
is the heuristic's own). At a Safe decision it runs the information-set MCTS of
:class:`agents.search.ISMCTSAgent` with another objective: each seat's reward at the end of a
playout is the tech of the Safes it holds (the tournament's "Safe tech", values only) over the
rules' score scale, clipped to [0, 1], instead of the score margin. The heuristic's action keeps its
prior (``prior_weight``): the search overrides it only where its playouts clearly find more Safe
tech. Measured (4 players, short, against three heuristics, seed 4242, 96 games each, paired Safe
tech difference to the rivals in the same games): prior_weight 0.5 plays exactly like the heuristic
(+0.00); 0.1 (the default) +0.06 [-0.29, 0.42] (seed 777: -0.02 [-0.38, 0.35]); 0.02 -0.34 [-0.72, 0.05] and 13.5% wins: the
searched choice alone is worse than the heuristic's at Safes. Not yet shown better than the
heuristic (issue 11 item 2). About 0.8 s a searched decision (24 simulations, busy 2-core
machine), 13 searched decisions a game.

It never uses what its seat may not know, for the reason :mod:`agents.search` gives: the live game
is read only through ``sample_hidden`` (and its legal ids and current player), and the choice of
searching or not depends only on the seat view's decision kind (``tests/test_safecracker.py``).

Options from strings (``agents.make_bot``, the tournament): ``"safe_search:simulations=24"``,
``"safe_search:rollout_steps=60:prior_weight=0.3"``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from agents.decisions import SAFE_DECISIONS
from agents.honest import require_view
from agents.search import ISMCTSAgent
from granujas_env.engine.game import Game

__all__ = ["SafeSearchAgent", "safe_rewards"]


def safe_rewards(game: Game) -> list[float]:
    """Each seat's Safe tech (the values of the Safes it holds now) over the score scale,
    clipped to [0, 1]."""
    scale = game.rules.score_scale
    return [
        min(1.0, sum(game.safes[s].value for s in player.safes) / scale)
        for player in game.players
    ]


class SafeSearchAgent(ISMCTSAgent):
    """The heuristic, with Safe decisions chosen by IS-MCTS for Safe tech (module docstring).
    Options as :class:`agents.search.ISMCTSAgent`'s; ``prior_weight`` must be positive (the
    heuristic plays every other decision)."""

    name = "safe_search"

    def __init__(
        self,
        simulations: int | None = 24,
        time_ms: float | None = None,
        rollout: str = "honest",
        rollout_steps: int | None = None,
        exploration: float = 0.7,
        prior_weight: float = 0.1,
        seed: int | None = None,
    ) -> None:
        if isinstance(prior_weight, (int, float)) and not isinstance(prior_weight, bool):
            if prior_weight <= 0:
                raise ValueError(
                    f"prior_weight must be positive for safe_search (the heuristic plays every "
                    f"other decision), got {prior_weight!r}"
                )
        super().__init__(
            simulations=simulations,
            time_ms=time_ms,
            rollout=rollout,
            rollout_steps=rollout_steps,
            exploration=exploration,
            prior_weight=prior_weight,
            seed=seed,
        )

    def rewards(self, state: Game) -> list[float]:
        """Safe tech per seat (:func:`safe_rewards`), the objective of the search."""
        return safe_rewards(state)

    def act(
        self,
        observation: Mapping[str, np.ndarray],
        view: object | None = None,
        game: Game | None = None,
    ) -> int:
        """The heuristic's action, searched (for Safe tech) at a Safe decision."""
        require_view(self, view)
        if view.decision in SAFE_DECISIONS:
            return super().act(observation, view=view, game=game)
        self.last_visits = {}
        return int(self._prior.act(observation, view=view))
