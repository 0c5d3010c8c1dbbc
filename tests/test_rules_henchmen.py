"""Henchmen and the challenge windows."""

from __future__ import annotations

from scenario import (
    advance_to,
    decisions_until,
    default_action,
    expect,
    finish_turn,
    new_game,
    play,
    play_card,
    play_plain_turns,
    set_hand,
    set_henchmen,
)

from granujas_env.engine import actions as A


def _turn_over(start):
    return lambda game: (game.day, game.turn) != start


def test_three_henchmen_one_starts_in_jail() -> None:
    for players in (2, 3, 4):
        game = new_game(players)
        for p in game.players:
            assert (p.free_henchmen, p.jailed_henchmen, p.destroyed_henchmen) == (2, 1, 0)


def test_the_current_player_is_never_asked_to_challenge() -> None:
    game = new_game(3)
    for _ in range(3):
        advance_to(game, "plan_card")
        me = game.current
        start = (game.day, game.turn)
        play(game, A.CARD + game.players[me].hand[0], A.SLOT + 6 - game.turn // 3)
        seen = decisions_until(game, _turn_over(start))
        challenged_by = [f.player for f in seen if f.kind == "challenge"]
        assert me not in challenged_by
        # each rival is asked in every window (after step 1, step 2 and step 3), clockwise
        rivals = [(me + 1) % 3, (me + 2) % 3]
        assert challenged_by == rivals * 3


def test_challenge_window_offers_exactly_pass_or_confirm() -> None:
    game = new_game()
    play_card(game, game.players[0].hand[0], 6)
    expect(game, "challenge", 1, [A.PASS, A.CONFIRM])


def test_at_most_one_henchman_of_each_player_per_card() -> None:
    game = new_game(3)
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play(game, A.CARD + 0, A.SLOT + 6)
    expect(game, "challenge", 1)
    play(game, A.CONFIRM)
    expect(game, "challenge", 2)
    play(game, A.CONFIRM)
    card = game.players[0].played[0]
    assert card.henchmen == [1, 2]
    assert game.players[1].free_henchmen == 1 and game.players[2].free_henchmen == 1
    # both already have a henchman on it: nobody is asked in the later windows of the turn
    start = (game.day, game.turn)
    seen = decisions_until(game, _turn_over(start))
    assert [f.kind for f in seen] == ["hire", "sheriff_option"]
    assert card.henchmen == [1, 2]
    assert [h for h in game.history if h[0] == "challenge"] == [
        ("challenge", 1, 1, 0, 6),
        ("challenge", 1, 2, 0, 6),
    ]


def test_a_player_who_passed_may_still_challenge_later_in_the_turn() -> None:
    game = new_game()
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play(game, A.CARD + 3, A.SLOT + 3)
    play(game, A.PASS)  # after step 1
    play(game, A.LEADER)  # +3 $
    expect(game, "challenge", 1)  # after step 2
    play(game, A.PASS)
    play(game, A.SHERIFF, A.SELL_INFORMATION)
    expect(game, "challenge", 1)  # after step 3: the last chance
    play(game, A.CONFIRM)
    assert game.players[0].played[0].henchmen == [1]
    assert game.turn == 1


def test_henchmen_only_during_the_turn_the_card_was_played() -> None:
    game = new_game()
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play(game, A.CARD + 0, A.SLOT + 5)
    finish_turn(game)  # seat 1 never challenges this card
    earlier = game.players[0].played[0]
    # seat 1's own turn: the only cards anyone may challenge are seat 1's
    advance_to(game, "plan_card", 1)
    start = (game.day, game.turn)
    play(game, A.CARD + game.players[1].hand[0], A.SLOT + 6)
    seen = decisions_until(game, _turn_over(start))
    assert {f.player for f in seen if f.kind == "challenge"} == {0}
    # seat 0's next turn: seat 1's henchman goes on the new card, never on the earlier one
    play_card(game, 1, 1)
    expect(game, "challenge", 1)
    play(game, A.CONFIRM)
    assert earlier.henchmen == []
    assert game.players[0].played[1].henchmen == [1]


def test_jailed_henchmen_cannot_be_used() -> None:
    game = new_game(3)
    set_henchmen(game, 1, free=0, jailed=3)
    play_card(game, game.players[0].hand[0], 6)
    # seat 1 has no free henchman: only seat 2 is asked, in every window
    start = (game.day, game.turn)
    seen = decisions_until(game, _turn_over(start))
    assert [f.player for f in seen if f.kind == "challenge"] == [2, 2, 2]


def test_henchmen_placed_on_cards_cannot_be_used_again() -> None:
    game = new_game()
    # seat 1 places both free henchmen in seat 0's first two turns...
    play_plain_turns(game, 1, challengers=[1])
    play_plain_turns(game, 1)
    play_plain_turns(game, 1, challengers=[1])
    assert game.players[1].free_henchmen == 0
    assert [len(c.henchmen) for c in game.players[0].played] == [1, 1]
    # ...and is never asked again this day (the third one is in jail)
    play_plain_turns(game, 1)
    advance_to(game, "plan_card", 0)
    start = (game.day, game.turn)
    play(game, A.CARD + game.players[0].hand[0], A.SLOT + 1)
    seen = decisions_until(game, _turn_over(start), lambda g: default_action(g, [1]))
    assert all(f.kind != "challenge" for f in seen)
    assert game.players[1].jailed_henchmen == 1
