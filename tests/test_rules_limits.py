"""Component limits: the reputation track's ends, decks running out."""

from __future__ import annotations

from scenario import (
    advance_to,
    expect,
    make_granuja,
    new_game,
    play,
    play_card,
    play_plain_turns,
    play_turn,
    put_on_sheet,
    set_hand,
    set_reputation,
)

from granujas_env.engine import actions as A


def test_reputation_cannot_go_above_6_or_below_minus_2() -> None:
    game = new_game()
    set_reputation(game, 0, -2)
    set_reputation(game, 1, 6)
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 3, challengers=[1])
    play_plain_turns(game, 7)
    assert [h for h in game.history if h[0] == "reveal"] == [("reveal", 1, 0, 3, 0, True, (1,))]
    assert game.players[0].reputation == -2
    assert game.players[1].reputation == 6
    assert game.players[1].free_henchmen == 2  # the henchman still comes back


def test_gaining_reputation_at_6_has_no_effect() -> None:
    game = new_game()
    set_reputation(game, 0, 6)
    put_on_sheet(game, 0, 0, make_granuja(game, "consejero", "divertido"))
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    play_card(game, 3, 3)
    play(game, A.PASS, A.SHEET + 0)
    assert game.players[0].reputation == 6
    assert game.players[0].money == 1  # the cost is paid all the same


def test_no_new_granujas_when_a_deck_runs_out() -> None:
    game = new_game()
    a, b, c = game.saloon
    game.trait_deck.clear()  # e.g. at the end of a long game
    occupations = list(game.occ_deck)
    advance_to(game, "hire", 0)
    play(game, A.SALOON + 1)
    assert game.saloon == [None, a, c]
    assert game.occ_deck == occupations  # nothing was drawn from the other deck either
    advance_to(game, "hire", 1)
    # the empty spot is not hireable
    expect(game, "hire", 1, [A.SALOON + 1, A.SALOON + 2, A.SHERIFF])
    play(game, A.SHERIFF)
    assert game.discard == [c]
    assert game.saloon == [None, None, a]


def test_hire_with_an_empty_saloon_only_offers_the_sheriff() -> None:
    game = new_game()
    game.trait_deck.clear()
    game.saloon[:] = [None, None, None]
    advance_to(game, "hire", 0)
    expect(game, "hire", 0, [A.SHERIFF])
    play(game, A.SHERIFF)
    assert game.discard == []
    expect(game, "sheriff_option", 0)


def test_refill_draws_only_what_the_deck_holds() -> None:
    """A poker deck cannot be drawn from when empty; the hand is refilled from what is there."""
    game = new_game()
    set_hand(game, 0, [0, 1, 2, 3, 4, 5, 6], [])
    assert game.players[0].deck == []
    play_plain_turns(game, 8)
    assert len(game.players[0].hand) == 4 and len(game.players[0].deck) == 3
