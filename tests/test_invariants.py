"""check_invariants: silent on real games, and each invariant fires on a state corrupted to break it."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest

from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.engine.state import Frame
from granujas_env.invariants import InvariantError, check_invariants


def play_until(
    cond: Callable[[Game], bool], players: int = 3, length: str = "long", seed: int | None = 11
) -> Game:
    """A real game, played at random (eager: challenges, abilities, hires) until ``cond`` holds."""
    for attempt in range(40):
        game_seed = None if seed is None else seed + attempt
        game = Game(GameConfig(players, length), seed=game_seed)
        rng = random.Random(attempt)
        while not game.game_over:
            if cond(game):
                return game
            legal = game.legal_actions()
            if len(legal) > 1 and legal[0] == A.PASS and rng.random() < 0.8:
                legal = legal[1:]
            game.apply(rng.choice(legal))
    raise AssertionError("no game reached the wanted state")


def _rich(game: Game) -> bool:
    """Safes held, Marks placed, henchmen on cards, Granujas everywhere, cards played."""
    return (
        game.day >= 2
        and any(p.safes for p in game.players)
        and any(s.marks for s in game.safes)
        and any(c.henchmen for p in game.players for c in p.played)
        and len(game.discard) >= 2
        and any(g is not None for p in game.players for g in p.sheet)
        and any(len(p.played) >= 2 for p in game.players)
        and all(g is not None for g in game.saloon)
        and any(game.unused)
    )


@pytest.fixture(scope="module")
def rich() -> Game:
    game = play_until(_rich)
    check_invariants(game)
    return game


@pytest.fixture
def g(rich: Game) -> Game:
    return copy.deepcopy(rich)


def broken(game: Game, match: str) -> None:
    with pytest.raises(InvariantError, match=match):
        check_invariants(game)


# ------------------------------------------------------------------------------ no false alarms
@pytest.mark.parametrize("cards", [False, True])
@pytest.mark.parametrize(("players", "length"), [(2, "short"), (3, "long"), (4, "long")])
def test_random_games_pass_every_step(players: int, length: str, cards: bool) -> None:
    for seed in range(2):
        game = Game(GameConfig(players, length, cards), seed=seed)
        rng = random.Random(seed)
        check_invariants(game)
        while not game.game_over:
            game.apply(rng.choice(game.legal_actions()))
            check_invariants(game)


def test_a_game_without_seed_is_checked_by_colour_counts() -> None:
    game = play_until(lambda gm: len(gm.discard) >= 2, seed=None)
    check_invariants(game)
    other = copy.deepcopy(game)
    other.occ_deck.pop()
    broken(other, r"Occupation cards by colour")
    other = copy.deepcopy(game)
    other.trait_deck.append(other.trait_deck[0])
    broken(other, r"Trait card \d+ appears 2 times")
    other = copy.deepcopy(game)
    other.safes[0].value = 99
    broken(other, r"Safe values of .* are")


# ------------------------------------------------------------------------------ Safes
def _board_safe(game: Game) -> tuple[int, int, int]:
    for loc, row in enumerate(game.board):
        for pos, sid in enumerate(row):
            if sid is not None:
                return loc, pos, sid
    raise AssertionError("empty board")


def _holder(game: Game):
    return next(p for p in game.players if p.safes)


def test_safe_in_two_places(g: Game) -> None:
    _, _, sid = _board_safe(g)
    g.unused[0].append(sid)
    broken(g, rf"Safe {sid} is in 2 places: on the board .*; in the unused pile")


def test_safe_lost(g: Game) -> None:
    pile = next(p for p in g.unused if p)
    sid = pile.pop()
    broken(g, rf"Safes \[{sid}\] are nowhere")


def test_safe_fields_disagree_with_its_place(g: Game) -> None:
    loc, pos, sid = _board_safe(g)
    g.safes[sid].board_pos = (pos + 1) % 5
    broken(g, rf"Safe {sid} is on the board at .* position {pos} but has .*board_pos={(pos + 1) % 5}")


def test_held_safe_with_wrong_holder(g: Game) -> None:
    p = _holder(g)
    sid = p.safes[0]
    g.safes[sid].holder = (p.seat + 1) % g.num_players
    broken(g, rf"Safe {sid} is held by p{p.seat} but has .*holder={(p.seat + 1) % g.num_players}; expected holder={p.seat}")


def test_safe_id_field(g: Game) -> None:
    g.safes[3].id = 4
    broken(g, r"game.safes\[3\] has id 4")


def test_safe_value_changed(g: Game) -> None:
    g.safes[5].value = 1
    broken(g, r"Safe 5 has location \d value 1; it was dealt at .* with value")


def test_held_safe_unknown_to_holder(g: Game) -> None:
    p = _holder(g)
    p.known_safes.discard(p.safes[0])
    broken(g, rf"p{p.seat} holds Safe {p.safes[0]} but it is not among")


def _take_board_safe(game: Game, seat: int) -> None:
    loc, pos, sid = _board_safe(game)
    game.board[loc][pos] = None
    game.safes[sid].board_pos = -1
    game.safes[sid].holder = seat
    game.players[seat].safes.append(sid)
    game.players[seat].known_safes.add(sid)


def test_safe_limit(g: Game) -> None:
    p = g.players[0]
    while len(p.safes) <= g.day:
        _take_board_safe(g, 0)
    broken(g, rf"p0 holds {len(p.safes)} Safes on day {g.day}: over the Safe limit {g.day} with "
              "no abandon decision pending for p0")


def test_safe_limit_allows_one_more_while_abandoning() -> None:
    game = play_until(lambda gm: gm.decision is not None and gm.decision.kind == "abandon")
    seat = game.decision.player
    assert len(game.players[seat].safes) == game.day + 1
    check_invariants(game)  # one over, with the abandon choice pending: fine
    _take_board_safe(game, seat)
    broken(game, r"over the Safe limit \d by more than one")


# ------------------------------------------------------------------------------ henchmen
def _card_with_henchmen(game: Game):
    for p in game.players:
        for c in p.played:
            if c.henchmen:
                return p, c
    raise AssertionError


def test_henchman_created(g: Game) -> None:
    g.players[1].free_henchmen += 1
    broken(g, r"p1 henchmen: free \d \+ jailed \d \+ on cards \d \+ destroyed \d = 4, expected 3")


def test_henchman_moved_from_card_without_bookkeeping(g: Game) -> None:
    _, card = _card_with_henchmen(g)
    owner = card.henchmen.pop()
    broken(g, rf"p{owner} henchmen: .* = 2, expected 3")


def test_negative_henchmen(g: Game) -> None:
    p = g.players[2]
    p.jailed_henchmen -= 1
    p.destroyed_henchmen = -1
    p.free_henchmen += 2
    broken(g, r"p2 henchmen: .*destroyed -1 = 3, expected 3 \(none negative\)")


def test_henchman_on_own_card(g: Game) -> None:
    p, card = _card_with_henchmen(g)
    owner = card.henchmen[0]
    card.henchmen[0] = p.seat  # keeps the counts of p right? no: move p's free one there
    g.players[owner].free_henchmen += 1
    g.players[p.seat].free_henchmen -= 1
    broken(g, rf"p{p.seat} has a henchman on its own card in slot {card.slot}")


def test_two_henchmen_of_one_player_on_a_card(g: Game) -> None:
    p, card = _card_with_henchmen(g)
    owner = card.henchmen[0]
    card.henchmen.append(owner)
    g.players[owner].free_henchmen -= 1
    broken(g, r"carries henchmen \[.*\]: more than one of the same player")


# ------------------------------------------------------------------------------ poker cards
def test_poker_card_duplicated(g: Game) -> None:
    p = next(p for p in g.players if p.hand)
    p.deck.append(p.hand[0])
    broken(g, rf"p{p.seat} poker cards: hand .* expected each of \[0, 1, 2, 3, 4, 5, 6\] exactly once")


def test_poker_card_lost(g: Game) -> None:
    p = next(p for p in g.players if p.deck)
    p.deck.pop()
    broken(g, rf"p{p.seat} poker cards")


def test_two_cards_in_one_slot(g: Game) -> None:
    p = next(p for p in g.players if len(p.played) >= 2)
    p.played[1].slot = p.played[0].slot
    broken(g, rf"p{p.seat} played cards in slots .*distinct slots")


def test_nonzero_card_face_up(g: Game) -> None:
    p = next(p for p in g.players if any(c.value for c in p.played))
    card = next(c for c in p.played if c.value)
    if any(c.slot == 0 for c in p.played):
        pytest.skip("a 0 already lies face up")
    card.slot = 0
    broken(g, rf"p{p.seat} has a {card.value} face up \(slot 0\)")


# ------------------------------------------------------------------------------ Marks
def test_mark_created(g: Game) -> None:
    g.players[0].marks[1] += 1
    broken(g, r"p0 Marks 4/5: \d in supply \+ \d on Safes = \d, expected 3")


def test_mark_lost_from_a_safe(g: Game) -> None:
    safe = next(s for s in g.safes if s.marks)
    owner, face = safe.marks.pop()
    t = (face - 2) // 2
    broken(g, rf"p{owner} Marks {2 + 2 * t}/{3 + 2 * t}")


def test_mark_with_impossible_face(g: Game) -> None:
    safe = next(s for s in g.safes if s.marks)
    owner, _ = safe.marks[0]
    safe.marks[0] = (owner, 9)
    broken(g, rf"Safe {safe.id} carries a Mark \(owner {owner}, face 9\)")


def test_mark_of_no_player(g: Game) -> None:
    safe = next(s for s in g.safes if s.marks)
    _, face = safe.marks[0]
    safe.marks[0] = (7, face)
    broken(g, rf"Safe {safe.id} carries a Mark \(owner 7, face {face}\)")


# ------------------------------------------------------------------------------ Granujas
def test_occupation_half_duplicated(g: Game) -> None:
    g.saloon[0].occ = g.saloon[1].occ
    broken(g, rf"Occupation card {g.saloon[1].occ} appears 2 times: saloon\[0\] .*, saloon\[1\]")


def test_trait_half_lost(g: Game) -> None:
    lost = g.trait_deck.pop()
    broken(g, rf"Trait cards dealt at setup but now nowhere: \[{lost}\]")


def test_half_from_outside_the_game(g: Game) -> None:
    dealt = set(g.occ_deck) | {x.occ for x in g.discard} | {x.occ for x in g.saloon if x}
    dealt |= {x.occ for p in g.players for x in p.sheet if x}
    outside = next(i for i in range(len(g.catalog.occupation_cards)) if i not in dealt)
    g.discard[0].occ = outside
    broken(g, rf"Occupation cards not dealt at setup: \[{outside}\]")


def test_granuja_lost(g: Game) -> None:
    g.discard.pop()
    broken(g, r"Granuja halves not conserved")


def test_granuja_uid_duplicated(g: Game) -> None:
    g.discard[0].uid = g.discard[1].uid
    broken(g, rf"Granuja uid {g.discard[1].uid} appears twice")


def test_next_uid_out_of_step(g: Game) -> None:
    g.next_uid += 1
    broken(g, r"Granujas are in play but \d+ were formed")


def test_saloon_gap_on_the_right(g: Game) -> None:
    g.occ_deck.append(g.saloon[2].occ)
    g.trait_deck.append(g.saloon[2].trait)
    g.saloon[2] = None  # its halves back in the decks, but the gap is on the right
    broken(g, r"Saloon .*: an empty spot right of a Granuja")


# ------------------------------------------------------------------------------ money, reputation
def test_negative_money(g: Game) -> None:
    g.players[1].money = -1
    broken(g, r"p1 has -1 \$ \(money must never be negative\)")


@pytest.mark.parametrize("delta", [1, -1])
def test_reputation_out_of_bounds(g: Game, delta: int) -> None:
    rules = g.rules
    g.players[0].reputation = rules.reputation_max + 1 if delta > 0 else rules.reputation_min - 1
    broken(g, rf"p0 has reputation -?\d+, outside the track {rules.reputation_min}..{rules.reputation_max}")


# ------------------------------------------------------------------------------ flow
def test_no_legal_action(g: Game) -> None:
    g._legal_cache = []
    broken(g, r"legal_actions\(\) is empty for pending decision .*: the game is stuck")


@pytest.mark.parametrize("ids", [[5, 3], [3, 3], [A.NUM_ACTIONS], [-1, 2]])
def test_malformed_legal_ids(g: Game, ids: list[int]) -> None:
    g._legal_cache = ids
    broken(g, r"must be sorted, distinct ids")


def test_no_decision_pending(g: Game) -> None:
    g.stack = []
    broken(g, r"the game is not over but no decision is pending")


def test_engine_frame_on_top(g: Game) -> None:
    g.stack.append(Frame("turn", 0, stage="start"))
    g._legal_cache = None
    broken(g, r"the top of the stack is Frame\('turn'")


def test_decision_for_no_seat(g: Game) -> None:
    g.stack[-1].player = 7
    broken(g, r"is asked of seat 7, not a player")


def test_day_out_of_range(g: Game) -> None:
    g.day = g.last_day + 1
    broken(g, rf"day {g.last_day + 1} outside 1..{g.last_day}")


def test_game_over_states() -> None:
    game = Game(GameConfig(2, "short"), seed=4)
    rng = random.Random(0)
    while not game.game_over:
        game.apply(rng.choice(game.legal_actions()))
    check_invariants(game)
    other = copy.deepcopy(game)
    other.stack.append(Frame("hire", 0))
    broken(other, r"the game is over but the decision stack holds")
    other = copy.deepcopy(game)
    other.winner = None
    broken(other, r"the game is over but winner is None")
    other = copy.deepcopy(game)
    other.scores = other.scores[:1]
    broken(other, r"the game is over but scores is \[-?\d+\] \(need one per seat\)")
