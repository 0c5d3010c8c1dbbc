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
from hypothesis import given, settings
from hypothesis import strategies as st

from granujas_env.codecs import ObservationLayout
from granujas_env.engine import Game, GameConfig
from granujas_env.engine.game import default_data
from granujas_env.render import render_text

LAYOUT = ObservationLayout(*reversed(default_data()))


def random_midgame(seed: int, players: int, strategy: bool = False) -> Game:
    rng = random.Random(seed)
    config = GameConfig(num_players=players, game_length="long", strategy_cards=strategy)
    game = Game(config, seed=seed)
    for _ in range(rng.randrange(20, 400)):
        if game.game_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def hide_shuffle(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy where everything ``seat`` may not know is changed, everything else kept."""
    other = copy.deepcopy(game)
    for player in other.players:
        rng.shuffle(player.deck)
        if player.seat == seat:
            continue
        # deal the opponent's hidden values anew between hand and face-down cards (cards of this
        # day are all face down; challenged ones are revealed only at the end of the day)
        # (except cards the observer saw: peeked at (Periodista) or played face up (Honesto))
        day = len(other.played_log) - 1
        seen = other.players[seat].peeked
        hidden_played = [
            c for c in player.played if c.slot != 0 and (day, player.seat, c.slot) not in seen
        ]
        pool = player.hand + [c.value for c in hidden_played]
        rng.shuffle(pool)
        player.hand = sorted(pool[: len(player.hand)])
        for card, value in zip(hidden_played, pool[len(player.hand) :]):
            card.value = value
        by_slot = {c.slot: c.value for c in player.played}
        log = other.played_log[-1][player.seat]
        other.played_log[-1][player.seat] = [(slot, by_slot.get(slot, v)) for slot, v in log]
    unknown = [s for s in other.safes if s.id not in other.players[seat].known_safes]
    values = [s.value for s in unknown]
    rng.shuffle(values)
    for safe, value in zip(unknown, values):
        safe.value = value
    rng.shuffle(other.trait_deck)
    rng.shuffle(other.occ_deck)
    return other


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.sampled_from([2, 3, 4]), strategy=st.booleans())
def test_hidden_changes_do_not_change_observation_mask_or_view(
    seed: int, players: int, strategy: bool
) -> None:
    game = random_midgame(seed, players, strategy)
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
