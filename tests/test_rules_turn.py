"""Turn flow rules: the declared slot decides the abilities, bluffs, slot 6, once per turn."""

from __future__ import annotations

from scenario import (
    advance_to,
    expect,
    finish_turn,
    make_granuja,
    new_game,
    play,
    play_card,
    play_plain_turns,
    play_turn,
    put_on_sheet,
    set_hand,
)

from granujas_env.engine import actions as A

ALL_BOARD = [A.BOARD_SAFE + i for i in range(15)]


def test_setup_fills_the_saloon_with_three_granujas() -> None:
    for players in (2, 3, 4):
        game = new_game(players)
        assert all(g is not None for g in game.saloon)
        assert len({g.uid for g in game.saloon}) == 3
        assert game.discard == []


def test_setup_gives_each_player_the_starting_components() -> None:
    game = new_game(3)
    for player in game.players:
        assert len(player.hand) == 4 and len(player.deck) == 3
        assert sorted(player.hand + player.deck) == [0, 1, 2, 3, 4, 5, 6]
        assert (player.free_henchmen, player.jailed_henchmen) == (2, 1)
        assert player.money == 4 and player.reputation == 0
        assert sum(player.marks) == 7
        assert player.sheet == [None] * 5 and player.safes == []


def test_plan_offers_hand_cards_then_every_free_slot() -> None:
    game = new_game()
    set_hand(game, 0, [0, 2, 4, 6])
    expect(game, "plan_card", 0, [A.CARD + 0, A.CARD + 2, A.CARD + 4, A.CARD + 6])
    play(game, A.CARD + 2)
    expect(game, "plan_slot", 0, [A.SLOT + s for s in range(1, 7)])


def test_a_used_slot_is_not_offered_again_the_same_day() -> None:
    game = new_game()
    set_hand(game, 0, [1, 2, 3, 4])
    play_turn(game, 2, 2)
    play_turn(game, game.players[1].hand[0], 1)
    advance_to(game, "plan_card", 0)
    play(game, A.CARD + 1)
    expect(game, "plan_slot", 0, [A.SLOT + s for s in (1, 3, 4, 5, 6)])


def test_abilities_follow_the_declared_slot_not_the_card() -> None:
    """A 3 bluffed into slot 5 lets the player use the leader's slot-5 steal."""
    game = new_game()
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play(game, A.CARD + 3, A.SLOT + 5)
    card = game.players[0].played[0]
    assert (card.value, card.slot) == (3, 5)
    assert game.history[-1] == ("plan", 1, 0, 5)  # the public log holds the slot only
    play(game, A.PASS)  # seat 1 does not challenge
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    play(game, A.LEADER)
    expect(game, "steal_target", 0, ALL_BOARD)
    sid = game.board[2][0]
    play(game, A.BOARD_SAFE + 10)
    assert game.players[0].safes == [sid]
    assert game.safes[sid].holder == 0 and game.board[2][0] is None
    assert game.players[0].money == 4  # not the slot-3 "Obtén 3 $"


def test_a_real_5_in_slot_3_gives_the_slot_3_money_not_the_steal() -> None:
    game = new_game()
    set_hand(game, 0, [2, 3, 4, 5], [0, 1, 6])
    play(game, A.CARD + 5, A.SLOT + 3, A.PASS)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    play(game, A.LEADER)
    assert game.players[0].money == 7
    assert game.players[0].safes == []


def test_slot_granujas_follow_the_declared_slot() -> None:
    game = new_game()
    g = put_on_sheet(game, 0, 0, make_granuja(game, "buscador_de_oro", "legendario"))  # slot 6
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play(game, A.CARD + 0, A.SLOT + 6, A.PASS)
    expect(game, "ability", 0, [A.PASS, A.SHEET + 0])
    play(game, A.SHEET + 0)
    assert game.players[0].money == 7
    assert g.uid in game.used


def test_zero_is_always_a_bluff() -> None:
    game = new_game()
    set_hand(game, 0, [0, 4, 5, 6], [1, 2, 3])
    advance_to(game, "plan_card", 0)
    play(game, A.CARD + 0)
    # every slot is offered: the 0 matches none of them
    expect(game, "plan_slot", 0, [A.SLOT + s for s in range(1, 7)])
    play(game, A.SLOT + 1)
    expect(game, "challenge", 1)
    play(game, A.CONFIRM)
    finish_turn(game)
    play_plain_turns(game, 7)
    reveals = [h for h in game.history if h[0] == "reveal"]
    assert reveals == [("reveal", 1, 0, 1, 0, True, (1,))]
    assert game.players[0].reputation == -1
    assert game.players[1].reputation == 1


def test_slot_6_has_no_leader_ability() -> None:
    game = new_game()
    set_hand(game, 0, [0, 1, 2, 6], [3, 4, 5])
    play(game, A.CARD + 6, A.SLOT + 6, A.PASS)
    # no usable ability: the step is skipped, the next decision is the challenge window / hire
    expect(game, "challenge", 1)
    play(game, A.PASS)
    expect(game, "hire", 0)


def test_slot_6_granuja_is_offered_without_a_leader_id() -> None:
    game = new_game()
    put_on_sheet(game, 0, 3, make_granuja(game, "consejero", "divertido"))  # slots 3 and 6
    set_hand(game, 0, [0, 1, 2, 6], [3, 4, 5])
    play(game, A.CARD + 6, A.SLOT + 6, A.PASS)
    expect(game, "ability", 0, [A.PASS, A.SHEET + 3])
    assert A.LEADER not in game.legal_actions()
    play(game, A.SHEET + 3)  # spend 3 $ for 1 reputation
    assert game.players[0].money == 1 and game.players[0].reputation == 1


def test_each_ability_once_per_turn() -> None:
    game = new_game()
    put_on_sheet(game, 0, 0, make_granuja(game, "buscador_de_oro", "divertido"))  # slots 3, 6
    set_hand(game, 0, [0, 1, 3, 6], [2, 4, 5])
    play(game, A.CARD + 3, A.SLOT + 3, A.PASS)
    expect(game, "ability", 0, [A.PASS, A.LEADER, A.SHEET + 0])
    play(game, A.LEADER)
    assert game.players[0].money == 7
    expect(game, "ability", 0, [A.PASS, A.SHEET + 0])  # the leader ability is spent
    play(game, A.SHEET + 0)
    assert game.players[0].money == 10
    # both spent: the ability step ends by itself
    expect(game, "challenge", 1)
    finish_turn(game)
    play_turn(game, game.players[1].hand[0], 1)
    # the next turn of the same player: the Granuja is usable again
    play_card(game, 6, 6)
    play(game, A.PASS)
    expect(game, "ability", 0, [A.PASS, A.SHEET + 0])


def test_ability_step_can_be_ended_without_using_anything() -> None:
    game = new_game()
    set_hand(game, 0, [0, 1, 3, 6], [2, 4, 5])
    play(game, A.CARD + 3, A.SLOT + 3, A.PASS)
    play(game, A.PASS)
    assert game.players[0].money == 4
    expect(game, "challenge", 1)  # a second challenge window after step 2


def test_turn_order_is_clockwise_from_the_first_player() -> None:
    game = new_game(4, first=2)
    seats = []
    for _ in range(8):
        seats.append(game.current)
        play_plain_turns(game, 1)
    assert seats == [2, 3, 0, 1, 2, 3, 0, 1]


def test_a_day_has_four_turns_per_player() -> None:
    game = new_game(3)
    for _ in range(12):
        assert game.day == 1
        play_plain_turns(game, 1)
    assert game.day == 2
    assert all(len(p.played) == 0 and len(p.hand) == 4 for p in game.players)
