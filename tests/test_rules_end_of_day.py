"""End of day: reveals, reputation, henchmen, the poker deck and who starts the next day."""

from __future__ import annotations

from scenario import (
    expect,
    new_game,
    play,
    play_plain_turns,
    play_turn,
    set_hand,
)

from granujas_env.engine import actions as A


def _scripted_day() -> object:
    """Day 1 of a 2-player game (seat 0 first), every player starting with hand 0-3 / deck 4,5,6."""
    game = new_game(2)
    for seat in (0, 1):
        set_hand(game, seat, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 4, challengers=[1])  # seat 0 bluffs, caught
    play_turn(game, 1, 1, challengers=[0])  # seat 1 honest, challenged
    play_turn(game, 1, 5, challengers=[1])  # seat 0 bluffs, caught
    play_turn(game, 2, 2, challengers=[0])  # seat 1 honest, challenged
    play_turn(game, 2, 2)  # honest, unchallenged (seat 1 has no free henchman left)
    play_turn(game, 0, 6)  # bluff, unchallenged (seat 0 has no free henchman left)
    play_turn(game, 3, 6)  # bluff, unchallenged
    play_turn(game, 3, 3)  # honest, unchallenged: the day ends
    return game


def test_end_of_day_reveals_only_challenged_cards_in_turn_order() -> None:
    game = _scripted_day()
    reveals = [h for h in game.history if h[0] == "reveal"]
    assert reveals == [
        ("reveal", 1, 0, 4, 0, True, (1,)),
        ("reveal", 1, 0, 5, 1, True, (1,)),
        ("reveal", 1, 1, 1, 1, False, (0,)),
        ("reveal", 1, 1, 2, 2, False, (0,)),
    ]
    # unchallenged cards (seat 0's 2 in slot 2 and 3 in slot 6, seat 1's 0 in 6 and 3 in 3) are
    # not revealed: no public entry carries their values
    assert all(h[0] != "reveal" or h[6] for h in game.history)


def test_caught_bluffs_cost_the_bluffer_and_reward_the_challenger() -> None:
    game = _scripted_day()
    p0, p1 = game.players
    assert p0.reputation == -2  # two caught bluffs
    assert p1.reputation == 2  # +1 per caught bluff it had a henchman on
    # seat 1's henchmen came back from the caught bluffs
    assert (p1.free_henchmen, p1.jailed_henchmen) == (2, 1)
    # seat 0's henchmen on honest cards went to jail
    assert (p0.free_henchmen, p0.jailed_henchmen) == (0, 3)


def test_highest_reputation_chooses_the_first_player_with_seat_ids() -> None:
    game = _scripted_day()
    expect(game, "first_player", 1, [A.SEAT + 0, A.SEAT + 1])
    assert game.day == 1
    play(game, A.SEAT + 1)  # relative seat 1 of seat 1 = seat 0
    assert game.day == 2 and game.first_player == 0
    assert game.history[-1] == ("day", 2, 0)
    expect(game, "plan_card", 0)


def test_the_chooser_may_start_itself() -> None:
    game = _scripted_day()
    play(game, A.SEAT + 0)
    assert game.first_player == 1
    expect(game, "plan_card", 1)
    play_plain_turns(game, 1)
    assert game.current == 0


def test_played_cards_go_under_the_deck_unplayed_cards_are_drawn_first() -> None:
    game = _scripted_day()
    for player in game.players:
        assert player.played == []
        assert len(player.hand) == 4
        # 4, 5, 6 were in the deck all day: drawn first; then one of the played cards
        assert {4, 5, 6} <= set(player.hand)
        (drawn,) = set(player.hand) - {4, 5, 6}
        assert drawn in {0, 1, 2, 3}
        assert sorted(player.deck) == sorted({0, 1, 2, 3} - {drawn})
        assert player.hand == sorted(player.hand)


def test_played_cards_are_shuffled_before_going_under() -> None:
    orders = set()
    for seed in range(12):
        game = new_game(2, seed=seed)
        set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
        for card in (0, 1, 2, 3):
            play_turn(game, card, card if card else 6)
            play_plain_turns(game, 1)
        played_order = tuple(game.players[0].deck)
        orders.add(played_order + tuple(game.players[0].hand))
    assert len(orders) > 1  # not always the same order


def test_a_caught_bluff_costs_one_reputation_however_many_henchmen() -> None:
    game = new_game(3)
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 3, challengers=[1, 2])
    assert game.players[0].played[0].henchmen == [1, 2]
    play_plain_turns(game, 11)
    assert [h for h in game.history if h[0] == "reveal"] == [("reveal", 1, 0, 3, 0, True, (1, 2))]
    assert [p.reputation for p in game.players] == [-1, 1, 1]
    assert [(p.free_henchmen, p.jailed_henchmen) for p in game.players] == [(2, 1)] * 3


def test_a_wrong_challenge_only_sends_the_henchman_to_jail() -> None:
    game = new_game(3)
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 3, 3, challengers=[2])
    play_plain_turns(game, 11)
    assert [h for h in game.history if h[0] == "reveal"] == [("reveal", 1, 0, 3, 3, False, (2,))]
    assert [p.reputation for p in game.players] == [0, 0, 0]
    assert (game.players[2].free_henchmen, game.players[2].jailed_henchmen) == (1, 2)
    assert game.decision.kind == "plan_card"  # all tied at 0: nobody chooses
    assert game.first_player == 0


def test_a_tie_for_the_highest_reputation_keeps_the_order() -> None:
    game = new_game(3, first=1)
    # seats 1 and 2 each catch one bluff of seat 0: 1 and 2 tie at reputation 1
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play_plain_turns(game, 2)  # seats 1, 2
    play_turn(game, 0, 4, challengers=[1])  # seat 0
    play_plain_turns(game, 2)
    play_turn(game, 1, 5, challengers=[2])
    play_plain_turns(game, 6)
    assert [p.reputation for p in game.players] == [-2, 1, 1]
    assert game.day == 2
    assert all(h[0] != "first_player" for h in game.history)
    # the player left of the last-turn player (seat 0) starts: seat 1, as on day 1
    assert game.first_player == 1
    assert game.history[-1] == ("day", 2, 1)
    expect(game, "plan_card", 1)


def test_hands_refill_only_up_to_four() -> None:
    game = new_game(2)
    set_hand(game, 0, [0, 1, 2, 3, 4, 5, 6], [])  # e.g. after an ability that draws cards
    play_plain_turns(game, 8)
    player = game.players[0]
    # 3 cards were still in hand: only 1 card is drawn (from the played ones, now under)
    assert len(player.hand) == 4 and len(player.deck) == 3
    assert sorted(player.hand + player.deck) == list(range(7))


def test_the_game_ends_after_the_reveals_of_the_last_day() -> None:
    game = new_game(2)
    play_plain_turns(game, 8)
    assert game.day == 2
    play_plain_turns(game, 7)
    assert game.decision is not None
    play_plain_turns(game, 1)
    assert game.decision is None and game.winner is not None
    assert game.history[-1][0] == "end"
    # the last day's played cards are not put back under the deck
    assert all(len(p.played) == 4 for p in game.players)


def test_reveals_follow_the_turn_order_of_the_day_not_the_seat_numbers() -> None:
    game = new_game(3, first=2)
    for seat in range(3):
        set_hand(game, seat, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 5, challengers=[0])  # seat 2
    play_turn(game, 0, 4, challengers=[1])  # seat 0
    play_turn(game, 0, 3, challengers=[2])  # seat 1
    play_plain_turns(game, 9)
    reveals = [h[:6] for h in game.history if h[0] == "reveal"]
    assert reveals == [
        ("reveal", 1, 2, 5, 0, True),
        ("reveal", 1, 0, 4, 0, True),
        ("reveal", 1, 1, 3, 0, True),
    ]
    assert [p.reputation for p in game.players] == [0, 0, 0]  # each -1 +1
    assert game.first_player == 2
