"""Safes: peeking and marking, moving Marks, knowledge, stealing, the Safe limit and abandoning."""

from __future__ import annotations

import pytest
from scenario import (
    advance_to_day,
    board_action,
    board_action_of,
    expect,
    give_safe,
    make_granuja,
    new_game,
    place_mark,
    play,
    play_card,
    put_on_sheet,
    set_hand,
)

from granujas_env.engine import actions as A

ALL_FACES = [A.MARK_FACE + f for f in range(2, 8)]


def _leader(game, card: int, slot: int) -> None:
    """Play ``card`` in ``slot``, let the rival pass, use the leader ability."""
    play_card(game, card, slot)
    play(game, A.PASS, A.LEADER)


def test_peeking_requires_a_mark_and_any_face_may_be_shown() -> None:
    game = new_game()
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    sid = game.board[1][3]
    assert sid not in game.players[0].known_safes
    _leader(game, 1, 1)
    expect(game, "peek_target", 0, [A.BOARD_SAFE + i for i in range(15)])
    play(game, board_action(1, 3))
    assert sid in game.players[0].known_safes
    # the mark is compulsory: no pass, every face while Marks of every type are left
    expect(game, "mark_face", 0, ALL_FACES)
    play(game, A.MARK_FACE + 5)
    assert game.safes[sid].marks == [(0, 5)]
    assert game.players[0].marks == [2, 2, 2]
    assert game.history[-1] == ("mark", 1, 0, sid, 5)


def test_mark_faces_are_limited_to_the_marks_left() -> None:
    game = new_game()
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    # seat 0 has used all its 2/3 and 6/7 Marks and two 4/5 Marks
    place_mark(game, 0, game.board[0][0], 2)
    place_mark(game, 0, game.board[0][0], 3)
    place_mark(game, 0, game.board[0][1], 6)
    place_mark(game, 0, game.board[0][1], 7)
    place_mark(game, 0, game.board[0][2], 4)
    place_mark(game, 0, game.board[0][2], 5)
    assert game.players[0].marks == [0, 1, 0]
    _leader(game, 2, 2)
    play(game, board_action(2, 0))
    expect(game, "mark_face", 0, [A.MARK_FACE + 4, A.MARK_FACE + 5])
    play(game, A.MARK_FACE + 4)
    assert game.players[0].marks == [0, 0, 0]


def _out_of_marks_game():
    """Seat 0 has all 7 Marks on Safes: X on the board (2, 3), Y held by seat 1 (4, 5, 4),
    Z held by seat 0 (6, 7)."""
    game = new_game()
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    x, y, z = game.board[0][0], game.board[0][1], game.board[2][4]
    give_safe(game, 1, y)
    give_safe(game, 0, z)
    for sid, faces in ((x, (2, 3)), (y, (4, 5, 4)), (z, (6, 7))):
        for face in faces:
            place_mark(game, 0, sid, face)
    assert game.players[0].marks == [0, 0, 0]
    return game, x, y, z


def test_out_of_marks_move_one_not_from_a_rival_held_safe() -> None:
    game, x, y, z = _out_of_marks_game()
    target = game.board[1][0]
    _leader(game, 1, 1)
    play(game, board_action(1, 0))
    # X (board) and Z (own held Safe) may give a Mark; Y is held by a rival; or skip
    expect(game, "mark_source", 0, [A.PASS, board_action(0, 0), A.HELD_SAFE + 0])
    play(game, board_action(0, 0))
    expect(game, "mark_face", 0, [A.MARK_FACE + 2, A.MARK_FACE + 3])  # the type of that Mark
    play(game, A.MARK_FACE + 3)
    assert game.safes[x].marks == [(0, 3)]
    assert game.safes[target].marks == [(0, 3)]
    assert game.players[0].marks == [0, 0, 0]
    assert game.safes[y].marks == [(0, 4), (0, 5), (0, 4)]


def test_out_of_marks_move_one_from_own_held_safe() -> None:
    game, x, y, z = _out_of_marks_game()
    target = game.board[1][0]
    _leader(game, 1, 1)
    play(game, board_action(1, 0), A.HELD_SAFE + 0)
    expect(game, "mark_face", 0, [A.MARK_FACE + 6, A.MARK_FACE + 7])
    play(game, A.MARK_FACE + 6)
    assert game.safes[z].marks == [(0, 7)]
    assert game.safes[target].marks == [(0, 6)]


def test_out_of_marks_may_skip_the_mark() -> None:
    game, x, y, z = _out_of_marks_game()
    target = game.board[1][0]
    _leader(game, 1, 1)
    play(game, board_action(1, 0), A.PASS)
    assert game.safes[target].marks == []
    assert target in game.players[0].known_safes  # the peek still happened
    assert game.safes[x].marks == [(0, 2), (0, 3)]
    expect(game, "challenge", 1)  # the ability is over


def test_out_of_marks_all_on_rival_safes_no_mark_is_placed() -> None:
    game = new_game()
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    y = game.board[0][1]
    give_safe(game, 1, y)
    for face in (2, 3, 4, 5, 4, 6, 7):
        place_mark(game, 0, y, face)
    target = game.board[1][0]
    _leader(game, 1, 1)
    play(game, board_action(1, 0))
    assert game.safes[target].marks == []
    assert len(game.safes[y].marks) == 7
    expect(game, "challenge", 1)


def test_a_safe_may_be_peeked_and_marked_again() -> None:
    game = new_game()
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    sid = game.board[1][1]
    place_mark(game, 0, sid, 7)
    _leader(game, 1, 1)
    play(game, board_action(1, 1), A.MARK_FACE + 2)
    assert game.safes[sid].marks == [(0, 7), (0, 2)]


def test_marked_safe_knowledge_is_kept_after_a_rival_steals_it() -> None:
    game = new_game()
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    set_hand(game, 1, [0, 1, 5, 6], [2, 3, 4])
    sid = game.board[2][2]
    _leader(game, 1, 1)
    play(game, board_action(2, 2), A.MARK_FACE + 6)
    assert sid not in game.players[1].known_safes  # not marked, not stolen: unknown
    _leader(game, 5, 5)  # seat 1's turn
    play(game, board_action(2, 2))
    assert game.players[1].safes == [sid] and game.safes[sid].holder == 1
    assert sid in game.players[1].known_safes
    assert sid in game.players[0].known_safes  # seat 0 may still look at it
    assert game.safes[sid].marks == [(0, 6)]  # the Marks travel with the Safe
    assert game.board[2][2] is None
    assert board_action(2, 2) not in game.legal_actions()


def test_matching_marks_score_for_the_holder_whoever_placed_them() -> None:
    game = new_game(3)
    sid = game.board[2][0]
    value = game.safes[sid].value
    other = 2 if value != 2 else 3
    give_safe(game, 0, sid)
    place_mark(game, 1, sid, value)
    place_mark(game, 2, sid, value)
    place_mark(game, 0, sid, value)
    place_mark(game, 1, sid, other)
    assert game.score_breakdown(0)["marks"] == 3
    assert game.score_breakdown(0)["safes"] == value
    assert game.score_breakdown(1)["marks"] == 0  # placing a Mark scores nothing by itself
    assert game.score_breakdown(2)["marks"] == 0


def test_safe_limit_day_one_abandon_the_new_safe() -> None:
    game = new_game()
    set_hand(game, 0, [2, 3, 4, 5], [0, 1, 6])
    old = game.board[0][0]
    give_safe(game, 0, old)
    new = game.board[2][1]
    place_mark(game, 1, new, 4)
    _leader(game, 5, 5)
    play(game, board_action(2, 1))
    expect(game, "abandon", 0, [A.HELD_SAFE + 0, A.HELD_SAFE + 1])
    assert game.players[0].safes == [old, new]
    assert new in game.players[0].known_safes  # looked at before choosing
    play(game, A.HELD_SAFE + 1)
    assert game.players[0].safes == [old]
    assert game.board[2][1] == new
    assert (game.safes[new].holder, game.safes[new].board_pos) == (-1, 1)
    assert game.safes[new].marks == [(1, 4)]
    assert game.history[-1] == ("abandon", 1, 0, new)


def test_safe_limit_day_one_abandon_the_old_safe_to_its_location() -> None:
    game = new_game()
    set_hand(game, 0, [2, 3, 4, 5], [0, 1, 6])
    old = game.board[0][3]
    give_safe(game, 0, old)
    place_mark(game, 0, old, 2)
    new = game.board[2][1]
    _leader(game, 5, 5)
    play(game, board_action(2, 1), A.HELD_SAFE + 0)
    assert game.players[0].safes == [new]
    assert game.board[0][3] == old and game.safes[old].board_pos == 3
    assert game.safes[old].holder == -1 and game.safes[old].marks == [(0, 2)]


def test_abandoned_safe_goes_to_the_unused_pile_when_its_location_is_full() -> None:
    game = new_game()
    set_hand(game, 0, [2, 3, 4, 5], [0, 1, 6])
    spare = game.unused[0][0]
    give_safe(game, 0, spare)  # e.g. taken with the Inventor/a
    place_mark(game, 1, spare, 3)
    board_before = [row[:] for row in game.board]
    _leader(game, 5, 5)
    play(game, board_action(2, 1), A.HELD_SAFE + 0)
    assert game.unused[0] == [spare]
    assert game.board[0] == board_before[0]  # Estación was full
    assert (game.safes[spare].holder, game.safes[spare].board_pos) == (-1, -1)
    assert game.safes[spare].marks == [(1, 3)]


def test_safe_limit_is_the_day_number() -> None:
    game = new_game()
    advance_to_day(game, 2)
    assert game.current == 0
    set_hand(game, 0, [2, 3, 4, 5], [0, 1, 6])
    give_safe(game, 0, game.board[0][0])
    _leader(game, 5, 5)
    play(game, board_action(1, 0))
    assert len(game.players[0].safes) == 2  # day 2: two Safes allowed, no abandon
    expect(game, "challenge", 1)


def test_peek_unused_safe_does_not_mark() -> None:
    game = new_game()
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    put_on_sheet(game, 0, 0, make_granuja(game, "sujeto_de_pruebas", "cibernetico"))
    play_card(game, 2, 2)
    play(game, A.PASS)
    expect(game, "ability", 0, [A.PASS, A.LEADER, A.SHEET + 0])
    play(game, A.SHEET + 0)
    expect(game, "unused_location", 0, [A.LOCATION + 0, A.LOCATION + 1, A.LOCATION + 2])
    play(game, A.LOCATION + 2)
    assert game.unused[2][-1] in game.players[0].known_safes
    assert game.players[0].marks == [2, 3, 2]
    assert all(not s.marks for s in game.safes)


@pytest.mark.parametrize("slot", [1, 2])
def test_leader_peek_on_slots_a_and_2(slot: int) -> None:
    game = new_game()
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    _leader(game, 4, slot)  # a bluff works as well
    expect(game, "peek_target", 0)
    sid = game.board[0][4]
    play(game, board_action_of(game, sid), A.MARK_FACE + 2)
    assert game.safes[sid].marks == [(0, 2)]
