"""The heuristic's shortcuts that tell a use is worth taking without pricing it
(:meth:`agents.heuristic._Ctx.surely_positive`, :meth:`~agents.heuristic._Ctx.steal_ahead`) agree
with the prices they skip, at every decision of real games and on made-up effects."""

from __future__ import annotations

import random

from agents.heuristic import MONEY_GAINS, HeuristicAgent, _Ctx
from granujas_env.engine import Game, GameConfig
from granujas_env.engine.data import Step
from granujas_env.view import seat_view

# made-up effects: (steps, whether surely_positive must say so at a cash of 4)
MADE_UP = [
    ((Step("spend_money", 1), Step("gain_money", 5)), True),
    ((Step("spend_money", 4), Step("gain_money", 4)), False),  # no net gain: price it
    ((Step("spend_money", 5), Step("gain_money", 9)), False),  # unaffordable: effect stops
    ((Step("gain_money", 2), Step("spend_money", 6), Step("gain_money", 5)), True),
    ((Step("spend_money", 3), Step("gain_reputation", 1)), False),  # not told by the verbs
    ((Step("spend_money", 1), Step("draw_poker", 2)), False),  # a net spend: price it
    ((Step("jail_rival_henchman", 0),), True),
    ((Step("gamble_deck_top", 0),), True),
    ((Step("peek_unused_safe"), Step("mark_safe")), True),
    ((Step("mark_safe"),), False),  # worth 0 or 0.1: price it
    ((Step("discard_self"), Step("gain_money", 6)), False),
]


def _effects(ctx: _Ctx) -> list[tuple[Step, ...]]:
    """Every effect the deciding seat could use: the leader's by slot, its sheet Granujas',
    the made-up ones."""
    effects = [tuple(steps) for steps in ctx.rules.leader.values()]
    effects += [g.effect for g in ctx.me.sheet if g is not None]
    return effects + [steps for steps, _ in MADE_UP]


def test_shortcuts_agree_with_the_prices_at_every_decision() -> None:
    told = spends = 0
    for seed in range(6):
        game = Game(GameConfig(2 + seed % 3, "short", seed % 2 == 0), seed=seed)
        bots = [HeuristicAgent(seed=seed + s) for s in range(game.num_players)]
        rng = random.Random(seed)
        while not game.game_over:
            seat = game.decision.player
            view = seat_view(game, seat)
            ctx = _Ctx(bots[seat], view)
            assert ctx.steal_ahead() == (ctx.future_steal_chance() > 0)
            for steps in _effects(ctx):
                if ctx.surely_positive(steps):
                    told += 1
                    spends += any(s.verb == "spend_money" for s in steps)
                    assert ctx.effect_value(steps) > 0, steps
            legal = game.legal_actions()
            # mostly the heuristic's moves (realistic states), some random ones (odd states)
            if rng.random() < 0.8:
                action = bots[seat].act({"action_mask": _mask(legal)}, view=view)
            else:
                action = rng.choice(legal)
            game.apply(action)
    assert told > 100 and spends > 10  # the shortcut is taken, spends included


def test_made_up_effects() -> None:
    game = Game(GameConfig(3, "short", False), seed=4)
    view = seat_view(game, game.decision.player)
    ctx = _Ctx(HeuristicAgent(seed=0), view)
    assert ctx.me.money == 4  # the starting cash the expectations assume
    for steps, expected in MADE_UP:
        assert ctx.surely_positive(steps) is expected, steps
        if expected:
            assert ctx.effect_value(steps) > 0


def test_money_gains_match_what_effect_value_adds() -> None:
    game = Game(GameConfig(3, "short", False), seed=4)
    ctx = _Ctx(HeuristicAgent(seed=0), seat_view(game, game.decision.player))
    for verb, gain in MONEY_GAINS.items():
        for amount in range(0, 8):
            # the money part of the step, as effect_value prices it from the same cash
            priced = ctx.effect_value((Step(verb, amount),))
            extra = {"steal_money": 0.09 * amount, "jail_rival_henchman": 0.3}.get(verb, 0.0)
            assert abs(priced - extra - ctx.money_change_value(gain(amount))) < 1e-9


def _mask(legal: list[int]) -> list[int]:
    mask = [0] * (max(legal) + 1)
    for a in legal:
        mask[a] = 1
    return mask
