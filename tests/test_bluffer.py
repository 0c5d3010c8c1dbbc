"""The shipped ``bluffer``: its model plays the Plan, the heuristic's posterior rule its challenges."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from agents.base import legal_actions
from agents.driver import play_game
from agents.heuristic import HeuristicAgent
from granujas_env.engine import actions as A

pytest.importorskip("sb3_contrib")

from agents.policy import load  # noqa: E402 - needs the [train] extra, checked just above

PLAN = frozenset({"plan_card", "plan_slot"})


class _Spy:
    """Plays ``bot`` and checks every answer: legal, and at challenge windows the same as a
    heuristic of its own that sees only those decisions, given the same view."""

    wants_view = True

    def __init__(self, bot) -> None:
        self.bot = bot
        self.reference = HeuristicAgent()
        self.kinds: Counter[str] = Counter()
        self.challenges: Counter[int] = Counter()  # answers at challenge windows with a choice

    def reset(self, seed: int | None = None) -> None:
        self.bot.reset(seed=seed)
        self.reference.reset(seed=seed)

    def act(self, observation, view=None) -> int:
        action = int(self.bot.act(observation, view=view))
        legal = legal_actions(observation)
        assert action in legal, (view.decision, action, legal)
        self.kinds[view.decision] += 1
        if view.decision == "challenge" and len(legal) > 1:
            assert action == self.reference.act(observation, view=view)
            self.challenges[action] += 1
        return action


def test_shipped_bluffer_plays_the_plan_and_delegates_challenges_to_the_heuristic() -> None:
    bot = load("bluffer", seed=0)
    assert bot.decisions == PLAN
    assert type(bot.delegate) is HeuristicAgent


@pytest.mark.parametrize("players", [2, 4])
def test_bluffer_challenges_by_the_heuristic_rule_with_legal_actions(players: int) -> None:
    spy = _Spy(load("bluffer", seed=3))
    bots = [spy] + [HeuristicAgent(seed=s) for s in range(1, players)]
    result = play_game({"num_players": players}, bots, seed=11, bot_seeds=list(range(players)))
    assert result["winner"] is not None
    bluffer = spy.bot
    # the model answered exactly the Plan decisions (forced ones included), the heuristic the rest
    assert bluffer.policy_calls == spy.kinds["plan_card"] + spy.kinds["plan_slot"] > 0
    assert bluffer.delegated_calls == sum(spy.kinds.values()) - bluffer.policy_calls
    # it met challenge windows with a choice, and put henchmen on cards at some (this deal)
    assert spy.challenges[A.PASS] > 0 and spy.challenges[A.CONFIRM] > 0
    assert np.isfinite(result["scores"]).all()
