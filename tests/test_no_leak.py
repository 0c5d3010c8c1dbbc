"""A seat's observation holds exactly what that seat may know.

Changing only hidden information (opponents' hands, their face-down values, deck orders, Safe values
the seat has not seen, unused Safes) must leave the seat's observation byte-identical; changing
public or own information must change it.
"""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from hidden import hide_shuffle, random_midgame
from hypothesis import given, settings
from hypothesis import strategies as st

from granujas_env.codecs import ObservationLayout
from granujas_env.engine import Game, GameConfig
from granujas_env.engine.game import default_data
from granujas_env.render import render_text

LAYOUT = ObservationLayout(*reversed(default_data()))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.sampled_from([2, 3, 4]), strategy=st.booleans())
def test_hidden_changes_do_not_change_observation_mask_or_view(
    seed: int, players: int, strategy: bool
) -> None:
    game = random_midgame(seed, players, "long", strategy)
    rng = random.Random(seed)
    for seat in range(players):
        changed = hide_shuffle(game, seat, rng)
        assert np.array_equal(LAYOUT.encode(game, seat), LAYOUT.encode(changed, seat)), seat
        acting = game.current_player == seat
        assert (game.legal_actions() if acting else []) == (changed.legal_actions() if acting else [])
        if not game.game_over:  # at the end every Safe and card is shown to everyone
            assert render_text(game, seat) == render_text(changed, seat)
            assert render_text(game, None) == render_text(changed, None)


@pytest.mark.parametrize("seed", range(10))
def test_visible_changes_change_observation(seed: int) -> None:
    game = random_midgame(seed, 3)
    for seat in range(3):
        base = LAYOUT.encode(game, seat)
        for target in range(3):
            changed = copy.deepcopy(game)
            changed.players[target].money += 1
            assert not np.array_equal(base, LAYOUT.encode(changed, seat))
        own = copy.deepcopy(game)
        if own.players[seat].hand and own.players[seat].deck:
            own.players[seat].hand[0], own.players[seat].deck[0] = (
                own.players[seat].deck[0],
                own.players[seat].hand[0],
            )
            if sorted(own.players[seat].hand) != sorted(game.players[seat].hand):
                assert not np.array_equal(base, LAYOUT.encode(own, seat))


def test_rival_strategy_choice_hidden_until_all_have_chosen() -> None:
    observations = []
    for choice in (0, 1):
        game = Game(GameConfig(num_players=3, strategy_cards=True), seed=4)
        first = game.current_player
        game.apply(game.legal_actions()[choice])  # the first player chooses in secret
        observer = game.current_player
        assert observer != first
        observations.append(LAYOUT.encode(game, observer))
    assert np.array_equal(*observations)
    # once everyone has chosen, the cards are revealed
    revealed = []
    for choice in (0, 1):
        game = Game(GameConfig(num_players=2, strategy_cards=True), seed=4)
        game.apply(game.legal_actions()[choice])
        game.apply(game.legal_actions()[0])
        revealed.append(LAYOUT.encode(game, game.current_player))
    assert not np.array_equal(*revealed)
