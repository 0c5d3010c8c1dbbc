"""Setup with the optional Strategy cards rule, checked against the rulebook (p.5, p.12).

- «Elegid los Líderes» (step 5) and, in its step F, «cada jugador elige en secreto una de sus
  cartas de Estrategia»; once all have chosen they are revealed together.
- «Determinad el jugador inicial: Elegid al azar quien jugará el primer turno» (step 6).
- Leader-sheet abilities are the same on every sheet (rules.toml has one table).

The engine gives seat i the catalog's i-th leader. Since the first player is drawn at random and
seats are otherwise alike, a seat's win rate with Strategy cards is its leader's: see
docs/rules-end-of-day.md, «Seat effect with Strategy cards».
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scenario import expect, play, play_card

from granujas_env.codecs import ObservationLayout
from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A


def _strategy_game(seed: int = 0, players: int = 4) -> Game:
    return Game(GameConfig(players, "short", strategy_cards=True), seed=seed)


def test_each_seat_chooses_one_of_its_own_leaders_two_cards() -> None:
    game = _strategy_game()
    leaders = game.catalog.leaders
    assert len(set(leaders)) == 4
    chosen = {}
    while game.decision.kind == "choose_strategy":
        seat = game.current_player
        expect(game, "choose_strategy", seat, [A.STRATEGY, A.STRATEGY + 1])
        pick = A.STRATEGY + seat % 2
        play(game, pick)
        chosen[seat] = game.players[seat].strategy
    # every seat chose once, in turn order from the first player
    assert sorted(chosen) == [0, 1, 2, 3]
    for seat, index in chosen.items():
        card = game.catalog.strategies[index]
        assert card.leader == leaders[seat]
        assert card == game.catalog.leader_strategies(seat)[seat % 2]


def test_choices_stay_secret_until_all_have_chosen_then_are_revealed_together() -> None:
    games = [_strategy_game(seed=3), _strategy_game(seed=3)]
    layout = ObservationLayout(games[0].catalog, games[0].rules)
    first = games[0].first_player
    for game, pick in zip(games, (A.STRATEGY, A.STRATEGY + 1)):
        play(game, pick)  # the first player chooses differently in the two games
        assert game.decision.kind == "choose_strategy" and not game.strategies_revealed
    for seat in range(4):
        same = np.array_equal(layout.encode(games[0], seat), layout.encode(games[1], seat))
        assert same == (seat != first)  # only the chooser sees its own choice
    for game in games:
        while game.decision.kind == "choose_strategy":
            play(game, A.STRATEGY)
        assert game.strategies_revealed
        assert game.history[0] == ("strategies", tuple(p.strategy for p in game.players))
        assert game.decision.kind in ("start_ability", "plan_card")
        assert game.current_player == first
    for seat in range(4):  # now every seat sees the first player's different card
        assert not np.array_equal(layout.encode(games[0], seat), layout.encode(games[1], seat))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_strategy_rule_changes_neither_the_deal_nor_the_first_player(players) -> None:
    for seed in range(20):
        plain = Game(GameConfig(players, "short"), seed=seed)
        strategy = _strategy_game(seed, players)
        assert strategy.first_player == plain.first_player
        assert [p.hand for p in strategy.players] == [p.hand for p in plain.players]
        assert [p.deck for p in strategy.players] == [p.deck for p in plain.players]
        assert strategy.board == plain.board and strategy.saloon == plain.saloon
        assert strategy.rng.getstate() == plain.rng.getstate()


def test_the_first_player_is_drawn_at_random_over_all_seats() -> None:
    counts = Counter(_strategy_game(seed).first_player for seed in range(400))
    assert sorted(counts) == [0, 1, 2, 3]
    assert all(80 <= k <= 120 for k in counts.values()), counts  # 100 each expected


@pytest.mark.parametrize("strategy_cards", [False, True])
def test_every_seat_has_the_same_leader_abilities(strategy_cards) -> None:
    game = Game(GameConfig(4, "short", strategy_cards=strategy_cards), seed=1)
    while game.decision.kind == "choose_strategy":
        play(game, A.STRATEGY)
    for _ in range(4):  # each seat plays into slot 4 and uses its leader ability: +4 $
        seat = game.current
        card = game.players[seat].hand[0]
        money = game.players[seat].money
        play_card(game, card, 4)
        while game.decision.kind == "challenge":
            play(game, A.PASS)
        expect(game, "ability", seat)
        assert A.LEADER in game.legal_actions()
        play(game, A.LEADER)
        assert game.players[seat].money == money + 4
        play(game, A.PASS)
        while game.decision.kind != "hire":
            play(game, A.PASS)
        play(game, A.SHERIFF, A.SELL_INFORMATION)
        while game.current == seat:
            play(game, A.PASS)
