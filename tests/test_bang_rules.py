"""Bang! The Dice Game: scenario tests of the base rules, end conditions and open points
(docs/bang_dice/rules.md), each with the exact state expected."""

from __future__ import annotations

import pytest

from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.data import CHARACTERS
from granujas_env.bang_dice.engine.game import (
    ARROW,
    BEER,
    DYNAMITE,
    GATLING,
    ONE,
    ROLE_DEAL,
    TWO,
    BangConfig,
    BangGame,
    GameOverError,
    IllegalActionError,
)
from granujas_env.bang_dice.invariants import check_invariants

ROLE = {"S": "sheriff", "D": "deputy", "O": "outlaw", "R": "renegade"}
# characters whose abilities stay out of the way unless a test is about them
PLAIN = ["jesse_jones", "black_jack", "lucky_duke", "sid_ketchum", "willy_the_kid",
         "suzy_lafayette", "jourdonnais", "kit_carlson"]
QUIET = [BEER] * 5  # a roll that changes nothing before the next decision


def make(roles: str, chars: list[str] | None = None, **desc) -> BangGame:
    """A position: roles as letters (S D O R), characters PLAIN unless given."""
    chars = chars or PLAIN[: len(roles)]
    game = BangGame.from_position({"roles": [ROLE[r] for r in roles], "characters": chars, **desc})
    check_invariants(game)
    return game


def act(game: BangGame, *actions: int) -> None:
    for action in actions:
        game.apply(action)
        check_invariants(game)


def shoot(game: BangGame, *seats: int) -> None:
    """Answer the pending target decisions with these seats."""
    for seat in seats:
        act(game, game.target_action(seat))


def mask(*dice: int) -> int:
    return sum(1 << d for d in dice)


def kinds(game: BangGame, kind: str) -> list[tuple]:
    return [e for e in game.events if e[0] == kind]


# ---------------------------------------------------------------------- setup
@pytest.mark.parametrize("n", range(3, 9))
def test_role_deal_life_and_first_player(n):
    counts = {  # the seed's "Preparación" 1 (3 players: the special rules)
        3: {"deputy": 1, "outlaw": 1, "renegade": 1},
        4: {"sheriff": 1, "renegade": 1, "outlaw": 2},
        5: {"sheriff": 1, "renegade": 1, "outlaw": 2, "deputy": 1},
        6: {"sheriff": 1, "renegade": 1, "outlaw": 3, "deputy": 1},
        7: {"sheriff": 1, "renegade": 1, "outlaw": 3, "deputy": 2},
        8: {"sheriff": 1, "renegade": 2, "outlaw": 3, "deputy": 2},
    }[n]
    for seed in range(20):
        game = BangGame(BangConfig(n), seed=seed)
        assert {r: game.roles.count(r) for r in set(game.roles)} == counts
        assert sorted(game.roles) == sorted(ROLE_DEAL[n])
        assert len(set(game.characters)) == n
        for s in range(n):
            card = CHARACTERS[game.characters[s]].life
            assert game.max_life[s] == card + 2 * (game.roles[s] == "sheriff")
        first = game.roles.index("deputy" if n == 3 else "sheriff")
        assert game.events[0] == ("turn", first, 1)
        assert game.role_revealed == [n == 3 or r == "sheriff" for r in game.roles]
        assert game.arrow_pile + sum(game.arrows) == 9
        check_invariants(game)


@pytest.mark.parametrize("bad", [2, 9, 0, "5", True, 5.0])
def test_config_refuses_bad_sizes(bad):
    with pytest.raises(ValueError, match="3..8"):
        BangConfig(bad)


# ---------------------------------------------------------------------- the roll
def test_first_roll_takes_arrows_at_once_and_offers_rerolls():
    game = make("SORO", rolls=[[ARROW, ARROW, BEER, ONE, GATLING]])
    assert game.dice == [ARROW, ARROW, BEER, ONE, GATLING]
    assert game.arrows == [2, 0, 0, 0] and game.arrow_pile == 7
    assert game.decision.kind == "reroll" and game.current_player == 0
    assert game.legal_actions() == list(range(32))
    assert game.rolls_done == 1 and game.rerolls_left == 2


def test_dynamite_can_never_be_rerolled():
    game = make("SORO", rolls=[[DYNAMITE, BEER, DYNAMITE, ONE, BEER]])
    assert game.legal_actions() == [m for m in range(32) if not m & mask(0, 2)]
    with pytest.raises(IllegalActionError):
        game.apply(mask(0))


def test_third_roll_may_reroll_dice_kept_on_the_second_and_two_rerolls_at_most():
    game = make("SORO", rolls=[[BEER, BEER, BEER, BEER, BEER], [GATLING], [BEER, BEER]])
    act(game, mask(0))  # second roll: die 0 only, dice 1-4 kept
    assert game.dice == [GATLING, BEER, BEER, BEER, BEER] and game.rerolls_left == 1
    act(game, mask(1, 2))  # the third roll rerolls dice kept on the second
    assert game.rolls_done == 3 and game.rerolls_left == 0
    assert game.decision.kind == "beer"  # no reroll left: the dice resolve


def test_three_dynamite_end_the_rolling_cost_one_life_and_the_rest_resolves():
    game = make("SORO", rolls=[[DYNAMITE, ARROW, DYNAMITE, DYNAMITE, ONE], QUIET])
    # the arrow of this roll is taken first, then no reroll is offered
    assert game.arrows[0] == 1 and game.life[0] == 10
    assert game.decision.kind == "shoot"
    assert game.legal_actions() == [game.target_action(1), game.target_action(3)]
    shoot(game, 1)
    assert game.life == [10, 7, 8, 8] and game.turn_player == 1
    assert kinds(game, "dynamite") == [("dynamite", 0)]


def test_dynamite_kept_over_rolls_count_together():
    game = make("SORO", rolls=[[DYNAMITE, DYNAMITE, BEER, BEER, BEER], [DYNAMITE], QUIET])
    act(game, mask(2))
    assert game.dice.count(DYNAMITE) == 3 and game.decision.kind == "beer"
    assert game.life[0] == 10 and game.rerolls_left == 1


def test_worked_example_of_the_seed():
    # The Sheriff has 6 life and 1 arrow, the pile 1 arrow; he rolls two arrows (the seed's
    # example, its damaged dice reconstructed in docs/bang_dice/rules.md).
    game = make(
        "SODOR",
        ["jesse_jones", "black_jack", "lucky_duke", "sid_ketchum", "slab_the_killer"],
        life=[6, 8, 8, 8, 8],
        arrows=[1, 2, 2, 2, 1],
        rolls=[[ARROW, ARROW, DYNAMITE, GATLING, ONE], [GATLING, BEER], [GATLING, TWO], QUIET],
    )
    # first arrow: the last of the pile, the Indians attack (the Sheriff holds 2); then the
    # second arrow from the refilled pile
    assert kinds(game, "indians") == [("indians", (2, 2, 2, 2, 1))]
    assert game.life == [4, 6, 6, 6, 7]
    assert game.arrows == [1, 0, 0, 0, 0] and game.arrow_pile == 8
    act(game, mask(0, 1))  # keeps the Gatling and the 1, rerolls the two arrows
    assert game.dice == [GATLING, BEER, DYNAMITE, GATLING, ONE]
    act(game, mask(1, 4))  # keeps the Gatlings, rerolls the beer and the 1 kept since roll 1
    assert game.dice == [GATLING, GATLING, DYNAMITE, GATLING, TWO]
    assert game.decision.kind == "shoot"
    assert game.legal_actions() == [game.target_action(2), game.target_action(3)]
    shoot(game, 2)
    # the 2 hits seat 2, then the Gatling every other player; the Sheriff discards his arrow
    assert game.life == [4, 5, 4, 5, 6]
    assert game.arrows == [0, 0, 0, 0, 0] and game.arrow_pile == 9
    assert game.turn_player == 1


# ---------------------------------------------------------------------- bull's-eyes
def test_one_hits_a_neighbour_two_hits_exactly_two_seats_away():
    game = make("SOOODR", rolls=[[ONE, TWO, BEER, BEER, BEER]])
    act(game, A.STOP)
    assert game.decision.kind == "shoot" and game.decision.data == {"die": 0, "face": ONE}
    assert game.legal_actions() == [game.target_action(1), game.target_action(5)]
    shoot(game, 5)
    assert game.decision.data == {"die": 1, "face": TWO}
    assert game.legal_actions() == [game.target_action(2), game.target_action(4)]


def test_distances_count_only_living_players():
    game = make("SOOODR", life=[10, 0, 8, 8, 0, 8], rolls=[[ONE, TWO, BEER, BEER, BEER]])
    act(game, A.STOP)
    # living order from seat 0: 0, 2, 3, 5 -> the "1" reaches 2 and 5, the "2" seat 3
    assert game.legal_actions() == [game.target_action(2), game.target_action(5)]
    shoot(game, 2)
    assert game.decision.kind == "beer"  # the 2 had one target: applied, never asked
    assert kinds(game, "shot") == [("shot", 0, 2, ONE, 1), ("shot", 0, 3, TWO, 1)]


@pytest.mark.parametrize("life", [[10, 8, 8, 0, 0], [10, 0, 8, 0, 0]])
def test_two_acts_as_one_with_two_or_three_players_left(life):
    game = make("SOODR", life=life, rolls=[[TWO, BEER, BEER, BEER, BEER]])
    act(game, A.STOP)
    living = [s for s in range(1, 5) if life[s]]
    if len(living) == 1:
        assert kinds(game, "shot") == [("shot", 0, living[0], TWO, 1)]
    else:
        assert game.decision.kind == "shoot"
        assert game.legal_actions() == [game.target_action(s) for s in living]


def test_bullseyes_resolve_together_targets_fixed_before_the_damage():
    # seat 1 (1 life) and seat 4 (1 life) are both shot: the second 1 may still aim at seat 1
    # (targets are chosen first), and both fall in one elimination
    game = make("SOODR", life=[10, 1, 8, 8, 1], rolls=[[ONE, ONE, ONE, BEER, BEER]])
    act(game, A.STOP)
    shoot(game, 1)
    assert game.legal_actions() == [game.target_action(1), game.target_action(4)]
    shoot(game, 1, 4)
    elim = kinds(game, "eliminated")
    assert elim == [("eliminated", 1, "outlaw", "shot"), ("eliminated", 4, "renegade", "shot")]
    # the third die on a seat already at 0 finds nobody: one life point lost per seat
    assert kinds(game, "lose") == [("lose", 1, "shot", 0), ("lose", 4, "shot", 0)]
    assert game.life == [10, 0, 8, 8, 0] and not game.game_over
    assert game.decision.kind == "beer"
    # after the elimination, a beer may not go to an eliminated seat
    assert game.legal_actions() == [game.target_action(s) for s in (0, 2, 3)]


def test_beer_heals_any_player_never_above_the_maximum():
    game = make("SORO", life=[10, 8, 3, 8], rolls=[[BEER, BEER, BEER, ARROW, ARROW], QUIET])
    act(game, A.STOP)
    assert game.legal_actions() == [game.target_action(s) for s in range(4)]
    shoot(game, 0, 1, 2)  # the Sheriff +1 (11 of 11), seat 1 full: wasted, seat 2 +1
    assert kinds(game, "beer") == [("beer", 0, 0, 1), ("beer", 0, 1, 0), ("beer", 0, 2, 1)]
    assert game.life == [11, 8, 4, 8]


def test_gatling_hits_every_other_player_and_discards_the_rollers_arrows():
    game = make("SORO", arrows=[3, 1, 0, 2],
                rolls=[[GATLING, GATLING, GATLING, BEER, ARROW], QUIET])
    assert game.arrows[0] == 4
    act(game, A.STOP)
    shoot(game, 0)
    assert game.life == [11, 7, 7, 7]
    assert game.arrows == [0, 1, 0, 2] and game.arrow_pile == 6
    assert kinds(game, "gatling") == [("gatling", 0)]


def test_two_gatling_do_nothing():
    game = make("SORO", arrows=[3, 0, 0, 0], rolls=[[GATLING, GATLING, BEER, BEER, BEER], QUIET])
    act(game, A.STOP)
    shoot(game, 0, 0, 0)
    assert game.life == [11, 8, 8, 8] and game.arrows == [3, 0, 0, 0]


def test_elimination_reveals_the_role_and_returns_the_arrows():
    game = make("SOORD", life=[10, 1, 8, 8, 8], arrows=[0, 3, 0, 0, 0],
                rolls=[[ONE, BEER, BEER, BEER, BEER]])
    act(game, A.STOP)
    shoot(game, 1)
    assert game.alive == [True, False, True, True, True]
    assert game.role_revealed == [True, True, False, False, False]
    assert game.arrows == [0, 0, 0, 0, 0] and game.arrow_pile == 9


# ---------------------------------------------------------------------- the end
def test_sheriff_eliminated_outlaws_win_the_dead_ones_too():
    # seat 1 (outlaw, already out) wins with seat 2 when seat 2's shot kills the Sheriff
    game = make("SOODR", life=[1, 0, 8, 8, 8], turn=2, rolls=[[ONE, BEER, BEER, BEER, BEER]])
    act(game, A.STOP)
    shoot(game, 0)  # seat 2's neighbours among the living: 0 (seat 1 is out) and 3
    assert game.game_over and game.winners == frozenset({1, 2})
    assert game.returns() == [-1.0, 1.0, 1.0, -1.0, -1.0]
    assert game.outcome().team_of == (0, 1, 1, 0, 2)
    assert game.role_revealed == [True] * 5
    assert game.events[-1] == ("game_over", (1, 2))
    with pytest.raises(GameOverError):
        game.apply(0)
    assert game.decision is None and game.legal_actions() == [] and game.current_player == -1


def test_renegade_last_alive_with_the_sheriff_wins_alone():
    game = make("SOOR", ["jesse_jones", "black_jack", "lucky_duke", "paul_regret"],
                life=[1, 0, 0, 8], turn=3, rolls=[[ONE, BEER, BEER, BEER, BEER]])
    act(game, A.STOP)  # one target left: the shot needs no decision
    assert game.winners == frozenset({3})


def test_all_outlaws_and_renegades_out_sheriff_and_deputies_win():
    game = make("SOODR", life=[10, 0, 1, 0, 1], rolls=[[ONE, ONE, BEER, BEER, BEER]])
    act(game, A.STOP)
    assert game.legal_actions() == [game.target_action(2), game.target_action(4)]
    shoot(game, 2)
    assert game.legal_actions() == [game.target_action(2), game.target_action(4)]
    shoot(game, 4)
    assert game.winners == frozenset({0, 3})  # the deputy, eliminated, wins too


def test_outlaws_out_renegade_alive_the_game_goes_on():
    game = make("SOODR", life=[10, 0, 1, 8, 8], rolls=[[ONE, BEER, BEER, BEER, BEER], QUIET])
    act(game, A.STOP)
    shoot(game, 2)
    assert not game.game_over and game.alive == [True, False, False, True, True]


def test_sheriff_dies_with_a_deputy_and_a_renegade_alive_outlaws_win():
    # the seed's example: every outlaw already out
    game = make("SOODR", life=[1, 0, 0, 8, 8], turn=4, rolls=[[ONE, BEER, BEER, BEER, BEER]])
    act(game, A.STOP)
    shoot(game, 0)
    assert game.winners == frozenset({1, 2})


def test_everyone_eliminated_at_once_outlaws_win():
    game = make("SOOR", life=[1, 0, 0, 2], arrows=[2, 0, 0, 6], rolls=[[ARROW, BEER, BEER, BEER, BEER]])
    assert kinds(game, "indians") == [("indians", (1, 0, 0, 2))]
    assert game.winners == frozenset({1, 2})


def test_the_game_ends_in_the_middle_of_a_roll_no_more_arrows_taken():
    # an outlaw's first arrow sets off the Indians, who eliminate the Sheriff: the game is over,
    # the roll's other two arrows are never taken
    game = make("SOOR", life=[2, 8, 8, 8], arrows=[2, 0, 4, 2], turn=1,
                rolls=[[ARROW, ARROW, ARROW, BEER, BEER]])
    assert kinds(game, "indians") == [("indians", (2, 1, 4, 2))]
    assert game.winners == frozenset({1, 2}) and game.events[-1] == ("game_over", (1, 2))
    assert game.arrows == [0, 0, 0, 0] and game.arrow_pile == 9 and game.life == [0, 7, 4, 6]


def test_eight_players_sheriff_dies_facing_two_renegades_outlaws_win():
    roles = "SRROOODD"
    life = [1, 8, 8, 0, 0, 0, 0, 0]
    game = make(roles, life=life, turn=1, rolls=[[ONE, BEER, BEER, BEER, BEER]])
    act(game, A.STOP)
    shoot(game, 0)
    assert game.winners == frozenset({3, 4, 5})


def test_eight_players_one_renegade_alone_wins():
    game = make("SRROOODD", life=[1, 8, 0, 0, 0, 0, 0, 0], turn=1,
                rolls=[[ONE, BEER, BEER, BEER, BEER]])
    act(game, A.STOP)
    assert game.winners == frozenset({1})


def test_sheriff_last_outlaw_and_a_renegade_fall_together_with_a_deputy_alive():
    # open point: the Sheriff's fall decides (end condition a): Outlaws win
    game = make("SODOR", life=[1, 0, 8, 1, 1], arrows=[1, 0, 4, 1, 2], turn=2,
                rolls=[[ARROW, BEER, BEER, BEER, BEER]])
    assert kinds(game, "indians") == [("indians", (1, 0, 5, 1, 1))]
    assert game.alive == [False, False, True, False, False]
    assert game.winners == frozenset({1, 3})


# ---------------------------------------------------------------------- open points
def test_roller_eliminated_by_his_own_dynamite_resolves_nothing_else():
    game = make("SOODR", life=[10, 8, 8, 8, 1], turn=4,
                rolls=[[DYNAMITE, DYNAMITE, DYNAMITE, ONE, GATLING], QUIET])
    assert game.alive[4] is False and game.turn_player == 0
    assert kinds(game, "shot") == [] and game.life == [10, 8, 8, 8, 0]


def test_roller_eliminated_by_the_indians_takes_no_more_arrows_and_resolves_nothing():
    game = make("SOODR", life=[10, 8, 8, 8, 2], arrows=[0, 0, 0, 0, 7], turn=4,
                rolls=[[ARROW, ARROW, ARROW, ONE, GATLING], QUIET])
    assert kinds(game, "indians") == [("indians", (0, 0, 0, 0, 2))]
    assert kinds(game, "arrow") == [("arrow", 4), ("arrow", 4)]  # the third is never taken
    assert game.alive[4] is False and game.arrow_pile == 9 and game.turn_player == 0


# ---------------------------------------------------------------------- 3 players
def test_three_players_open_roles_deputy_first():
    game = make("ODR", ["black_jack", "jesse_jones", "lucky_duke"], rolls=[QUIET])
    assert game.role_revealed == [True, True, True]
    assert game.turn_player == 1 and game.max_life == [8, 9, 8]  # no Sheriff, no bonus
    assert game.target_of == [1, 2, 0]


def test_three_players_the_killing_shot_on_your_target_wins():
    game = make("ODR", ["black_jack", "jesse_jones", "lucky_duke"], life=[8, 9, 1],
                rolls=[[ONE, BEER, BEER, BEER, BEER]])
    act(game, A.STOP)
    shoot(game, 2)
    assert game.winners == frozenset({1})


def test_three_players_someone_elses_kill_makes_it_last_one_standing():
    # the deputy shoots the outlaw (the renegade's target): no winner, last one standing now
    game = make("ODR", ["black_jack", "jesse_jones", "lucky_duke"], life=[1, 9, 8],
                rolls=[[ONE, DYNAMITE, DYNAMITE, GATLING, GATLING], QUIET])
    act(game, A.STOP)
    shoot(game, 0)
    assert not game.game_over and game.last_standing
    assert game.turn_player == 2 and game.alive == [False, True, True]
    # the renegade now wins by eliminating the deputy (not his old target) by any means
    game2 = make("ODR", ["black_jack", "jesse_jones", "lucky_duke"], life=[0, 1, 8], turn=2,
                 rolls=[[ONE, BEER, BEER, BEER, BEER]])
    assert game2.last_standing
    act(game2, A.STOP)
    assert game2.winners == frozenset({2})


def test_three_players_target_killed_by_the_indians_is_nobodys_shot():
    game = make("ODR", ["black_jack", "jesse_jones", "lucky_duke"], life=[8, 9, 1],
                arrows=[0, 7, 1], rolls=[[ARROW, BEER, BEER, BEER, BEER], QUIET])
    # the deputy took the last arrow: the renegade falls to the Indians, not to the deputy
    assert game.alive == [True, True, False] and not game.game_over and game.last_standing
    assert game.life == [8, 1, 0]


def test_three_players_target_killed_by_his_own_dynamite_is_nobodys_shot():
    game = make("ODR", ["black_jack", "jesse_jones", "lucky_duke"], life=[8, 9, 1], turn=2,
                rolls=[[DYNAMITE, DYNAMITE, DYNAMITE, ONE, BEER], QUIET])
    # the renegade (the deputy's target) falls to his own dynamite: the deputy has not won
    assert game.alive == [True, True, False] and not game.game_over and game.last_standing
    assert game.turn_player == 0 and kinds(game, "shot") == []


def test_three_players_everyone_out_at_once_the_outlaw_wins():
    game = make("ODR", ["black_jack", "jesse_jones", "lucky_duke"], life=[1, 1, 1],
                arrows=[1, 6, 1], rolls=[[ARROW, BEER, BEER, BEER, BEER]])
    assert game.winners == frozenset({0})


# ---------------------------------------------------------------------- hooks and API
def test_from_position_refuses_bad_descriptions():
    base = {"roles": ["sheriff", "outlaw", "renegade", "outlaw"],
            "characters": ["jesse_jones", "black_jack", "lucky_duke", "sid_ketchum"]}
    bad = [
        ({"roles": ["sheriff", "outlaw", "outlaw", "outlaw"]}, "deals"),
        ({"characters": ["x", "black_jack", "lucky_duke", "sid_ketchum"]}, "characters"),
        ({"characters": ["black_jack"] * 4}, "distinct"),
        ({"life": [12, 8, 8, 8]}, "max_life"),
        ({"life": [10, 0, 8, 8], "arrows": [0, 1, 0, 0]}, "eliminated seat 1"),
        ({"arrows": [9, 0, 0, 0]}, "at most 8"),
        ({"turn": 4}, "turn"),
        ({"life": [10, 0, 8, 8], "turn": 1}, "eliminated"),
        ({"life": [0, 8, 8, 8], "turn": 1}, "already over"),
        ({"rolls": [["seven"]]}, "faces"),
        ({"bogus": 1}, "unknown keys"),
        ({"last_standing": True}, "3 players"),
        ({"alive": [True, False, True, True], "life": [10, 8, 8, 8]}, "alive"),
        ({"alive": [True, True]}, "alive"),
        ({"arrows": [1, 0, 0, 0], "arrow_pile": 9}, "arrow_pile"),
        ({"turn": 1, "turn_player": 2}, "disagree"),
        ({"dice": ["1", "1"]}, "dice"),
    ]
    for change, message in bad:
        with pytest.raises(ValueError, match=message):
            BangGame.from_position({**base, **change})


def test_from_position_with_the_state_attribute_names():
    game = BangGame.from_position({
        "roles": ["sheriff", "outlaw", "renegade", "outlaw"],
        "characters": ["jesse_jones", "black_jack", "sid_ketchum", "lucky_duke"],
        "alive": [True, False, True, True], "arrows": [2, 0, 1, 0], "arrow_pile": 6,
        "turn_player": 2, "dice": [ONE, ONE, BEER, BEER, BEER], "rolls": [[TWO]],
    })
    assert game.life == [11, 0, 8, 8] and game.alive == [True, False, True, True]
    assert game.role_revealed == [True, True, False, False]
    assert game.decision.kind == "sid_ketchum" and game.dice == []  # Sid heals before rolling
    shoot(game, 2)
    assert game.dice == [ONE, ONE, BEER, BEER, BEER] and game.decision.kind == "reroll"
    act(game, mask(0))
    assert game.dice == [TWO, ONE, BEER, BEER, BEER]


def test_from_position_without_dice_waits_for_set_next_roll():
    desc = {"roles": ["sheriff", "outlaw", "renegade", "outlaw"],
            "characters": ["jesse_jones", "black_jack", "lucky_duke", "paul_regret"],
            "arrows": [0, 0, 0, 8]}
    game = BangGame.from_position(desc)
    assert game.dice == [] and game.events == []  # before the roll
    game.set_next_roll([ARROW, ONE, BEER, BEER, BEER])
    assert game.dice == [ARROW, ONE, BEER, BEER, BEER]
    assert kinds(game, "indians") == [("indians", (1, 0, 0, 8))] and game.life == [10, 8, 8, 1]
    game.set_next_roll([GATLING])  # the next reroll
    act(game, mask(0))
    assert game.dice == [GATLING, ONE, BEER, BEER, BEER]
    # the first use of the game rolls at random
    game = BangGame.from_position({**desc, "seed": 4})
    assert game.decision is not None and len(game.dice) == 5
    check_invariants(game)
    same = BangGame.from_position({**desc, "seed": 4})
    assert not same.game_over and same.dice == game.dice and same.events == game.events


def test_illegal_action_leaves_the_state_unchanged():
    game = make("SORO", rolls=[[DYNAMITE, BEER, BEER, BEER, BEER]])
    before = (game.events.copy(), game.dice.copy(), game.life.copy(), game.decision.kind)
    for bad in (1, 99, -1, "3", 2.0, None):
        with pytest.raises(IllegalActionError, match="reroll"):
            game.apply(bad)
    assert (game.events, game.dice, game.life, game.decision.kind) == before


def test_clone_is_independent_and_plays_on_the_same():
    game = BangGame(BangConfig(6), seed=3)
    clone = game.clone()
    for _ in range(40):
        if game.game_over:
            break
        action = game.legal_actions()[-1]
        game.apply(action)
        clone.apply(action)
    assert clone.events == game.events and clone.life == game.life
    other = game.clone()
    if not game.game_over:
        game.apply(game.legal_actions()[0])
        assert other.events != game.events


def test_same_seed_same_game():
    def run(seed: int) -> list[tuple]:
        game = BangGame(BangConfig(7), seed=seed)
        while not game.game_over:
            legal = game.legal_actions()
            game.apply(legal[len(game.events) % len(legal)])
        return game.events

    assert run(11) == run(11)
    assert run(11) != run(12)


def test_describe_actions():
    assert A.describe(0) == "stop rolling"
    assert A.describe(5) == "reroll dice 0,2"
    assert A.describe(32) == "target yourself"
    assert A.describe(34) == "target the player 2 seat(s) clockwise"
    assert (A.describe(40), A.describe(41), A.describe(46)) == ("yes", "no", "die 4")
    with pytest.raises(ValueError):
        A.describe(47)
