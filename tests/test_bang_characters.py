"""Bang! The Dice Game: every character's ability, and the rulings on the character points the
seed leaves open (docs/bang_dice/rules.md), each with the exact state expected."""

from __future__ import annotations

from test_bang_rules import QUIET, act, kinds, make, mask, shoot

from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.game import ARROW, BEER, DYNAMITE, GATLING, ONE, TWO

NOTHING = [ONE, DYNAMITE, DYNAMITE, GATLING, GATLING]  # one 1, nothing else to resolve


def abilities(game, name):
    return [e for e in game.events if e[0] == "ability" and e[2] == name]


# ---------------------------------------------------------------------- Bart Cassidy
def test_bart_cassidy_takes_an_arrow_instead_of_a_life_point():
    chars = ["jesse_jones", "bart_cassidy", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, rolls=[NOTHING, QUIET])
    act(game, A.STOP)
    shoot(game, 1)
    assert game.decision.kind == "bart_cassidy" and game.current_player == 1
    assert game.legal_actions() == [A.YES, A.NO]
    act(game, A.YES)
    assert game.life == [11, 8, 8, 9] and game.arrows == [0, 1, 0, 0] and game.arrow_pile == 8
    assert abilities(game, "bart_cassidy") == [("ability", 1, "bart_cassidy")]
    game = make("SORO", chars, rolls=[NOTHING, QUIET])
    act(game, A.STOP)
    shoot(game, 1)
    act(game, A.NO)
    assert game.life == [11, 7, 8, 9] and game.arrows == [0, 0, 0, 0]


def test_bart_cassidy_against_the_gatling_and_slabs_double_shot():
    game = make("SORO", ["jesse_jones", "bart_cassidy", "lucky_duke", "paul_regret"],
                rolls=[[GATLING, GATLING, GATLING, DYNAMITE, DYNAMITE], QUIET])
    act(game, A.STOP)
    assert game.decision.kind == "bart_cassidy"
    act(game, A.YES)
    assert game.life == [11, 8, 7, 9] and game.arrows == [0, 1, 0, 0]
    game = make("SORO", ["slab_the_killer", "bart_cassidy", "lucky_duke", "paul_regret"],
                rolls=[[ONE, BEER, DYNAMITE, DYNAMITE, GATLING], QUIET])
    act(game, A.STOP, A.DIE_BASE + 0)
    shoot(game, 1)
    act(game, A.YES)
    assert game.decision.kind == "bart_cassidy"  # one decision per life point of the double
    act(game, A.NO)
    assert game.life == [10, 7, 8, 9] and game.arrows == [0, 1, 0, 0]


def test_bart_cassidy_never_against_the_last_arrow_the_indians_or_dynamite():
    chars = ["jesse_jones", "bart_cassidy", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, arrows=[0, 0, 8, 0], rolls=[NOTHING, QUIET])
    act(game, A.STOP)
    shoot(game, 1)  # one arrow left in the pile: not asked, the life point goes
    assert game.life[1] == 7 and game.turn_player == 1
    game = make("SORO", chars, turn=1, rolls=[[DYNAMITE, DYNAMITE, DYNAMITE, GATLING, ARROW], QUIET])
    assert game.life[1] == 7 and game.turn_player == 2  # his own dynamite: no decision
    game = make("SORO", chars, arrows=[0, 2, 6, 0], rolls=[[ARROW, BEER, BEER, BEER, BEER]])
    assert kinds(game, "indians") == [("indians", (1, 2, 6, 0))]
    assert game.life[1] == 6 and game.decision.kind == "reroll"


# ---------------------------------------------------------------------- Black Jack
def test_black_jack_rerolls_dynamite_but_three_still_explode():
    chars = ["black_jack", "jesse_jones", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, rolls=[[DYNAMITE, DYNAMITE, BEER, BEER, BEER], [BEER, BEER]])
    assert game.legal_actions() == list(range(32))
    act(game, mask(0, 1))
    assert game.dice == [BEER] * 5 and game.rerolls_left == 1
    game = make("SORO", chars, rolls=[[DYNAMITE, DYNAMITE, DYNAMITE, ONE, BEER]])
    assert game.decision.kind == "shoot" and game.life[0] == 9


# ---------------------------------------------------------------------- Calamity Janet
def test_calamity_janet_uses_a_1_as_a_2_and_vice_versa():
    chars = ["calamity_janet", "jesse_jones", "black_jack", "lucky_duke", "paul_regret",
             "jourdonnais"]
    game = make("SOOODR", chars, rolls=[[ONE, TWO, DYNAMITE, DYNAMITE, GATLING]])
    act(game, A.STOP)
    everyone_in_reach = [game.target_action(s) for s in (1, 2, 4, 5)]
    assert game.legal_actions() == everyone_in_reach  # the 1 reaches two seats away too
    shoot(game, 2)
    assert game.legal_actions() == everyone_in_reach  # the 2 reaches the neighbours too
    shoot(game, 1)
    assert kinds(game, "shot") == [("shot", 0, 2, ONE, 1), ("shot", 0, 1, TWO, 1)]
    assert game.life[1:3] == [8, 7]


# ---------------------------------------------------------------------- El Gringo
def test_el_gringo_one_arrow_per_damage_step_not_per_die():
    chars = ["jesse_jones", "el_gringo", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, rolls=[[ONE, ONE, DYNAMITE, DYNAMITE, GATLING], QUIET])
    act(game, A.STOP)
    shoot(game, 1, 1)
    assert game.life[1] == 5 and game.arrows == [1, 0, 0, 0] and game.arrow_pile == 8
    assert abilities(game, "el_gringo") == [("ability", 1, "el_gringo", 0)]


def test_el_gringo_with_a_gatling_the_roller_discards_first_then_takes_the_arrow():
    chars = ["jesse_jones", "el_gringo", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, arrows=[3, 0, 0, 0],
                rolls=[[ONE, GATLING, GATLING, GATLING, DYNAMITE], QUIET])
    act(game, A.STOP)
    shoot(game, 1)
    # shot step: +1 arrow (4); Gatling: all 4 discarded, then El Gringo's second arrow
    assert game.arrows == [1, 0, 0, 0] and game.arrow_pile == 8
    assert game.life == [11, 5, 7, 9]
    assert len(abilities(game, "el_gringo")) == 2


def test_el_gringos_arrow_may_be_the_last_of_the_pile_the_indians_attack():
    chars = ["jesse_jones", "el_gringo", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, arrows=[0, 0, 4, 4], rolls=[NOTHING, QUIET])
    act(game, A.STOP)
    shoot(game, 1)
    assert kinds(game, "indians") == [("indians", (1, 0, 4, 4))]
    assert game.life == [10, 6, 4, 5] and game.arrows == [0, 0, 0, 0] and game.arrow_pile == 9


def test_el_gringo_eliminated_by_the_shot_gives_no_arrow():
    chars = ["jesse_jones", "el_gringo", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, life=[11, 1, 8, 9], rolls=[NOTHING, QUIET])
    act(game, A.STOP)
    shoot(game, 1)
    assert game.alive[1] is False and game.arrows == [0, 0, 0, 0] and game.arrow_pile == 9


def test_el_gringo_indians_and_dynamite_give_no_arrow():
    chars = ["jesse_jones", "el_gringo", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, arrows=[0, 1, 7, 0], rolls=[[ARROW, BEER, BEER, BEER, BEER]])
    assert game.life[1] == 6 and game.arrows == [0, 0, 0, 0]
    game = make("SORO", chars, turn=1, rolls=[[DYNAMITE, DYNAMITE, DYNAMITE, GATLING, BEER]])
    assert game.life[1] == 6 and game.arrows == [0, 0, 0, 0]


# ---------------------------------------------------------------------- Jesse Jones
def test_jesse_jones_four_or_less_is_read_as_the_beers_begin():
    chars = ["jesse_jones", "black_jack", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, life=[4, 8, 8, 9], rolls=[[BEER, BEER, DYNAMITE, DYNAMITE, GATLING], QUIET])
    act(game, A.STOP)
    shoot(game, 0, 0)  # the seed's example: 4 life, two beers, +4 (the second beer at 6 still +2)
    assert kinds(game, "beer") == [("beer", 0, 0, 2), ("beer", 0, 0, 2)] and game.life[0] == 8
    game = make("SORO", chars, life=[5, 7, 8, 9], rolls=[[BEER, BEER, DYNAMITE, DYNAMITE, GATLING], QUIET])
    act(game, A.STOP)
    shoot(game, 0, 1)  # at 5: +1; a beer on another player: +1
    assert game.life == [6, 8, 8, 9]


# ---------------------------------------------------------------------- Jourdonnais
def test_jourdonnais_loses_one_life_point_to_the_indians():
    chars = ["jesse_jones", "jourdonnais", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, arrows=[0, 3, 5, 0], rolls=[[ARROW, DYNAMITE, DYNAMITE, GATLING, GATLING]])
    assert kinds(game, "indians") == [("indians", (1, 1, 5, 0))]
    assert game.life == [10, 6, 3, 9]


# ---------------------------------------------------------------------- Kit Carlson
def test_kit_carlson_discards_one_arrow_of_anyone_per_gatling():
    chars = ["kit_carlson", "jesse_jones", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, arrows=[1, 2, 0, 1],
                rolls=[[GATLING, GATLING, DYNAMITE, DYNAMITE, ARROW], QUIET])
    act(game, A.STOP)
    assert game.decision.kind == "kit_carlson"
    assert game.legal_actions() == [game.target_action(s) for s in (0, 1, 3)] + [A.NO]
    shoot(game, 1, 0)
    assert game.arrows == [1, 1, 0, 1] and game.arrow_pile == 6 and game.turn_player == 1
    game = make("SORO", chars, arrows=[1, 2, 0, 1],
                rolls=[[GATLING, GATLING, DYNAMITE, DYNAMITE, ARROW], QUIET])
    act(game, A.STOP)
    shoot(game, 3)
    act(game, A.NO)  # the discards are optional
    assert game.arrows == [2, 2, 0, 0] and game.turn_player == 1


def test_kit_carlson_three_gatling_fire_discard_his_own_then_three_more():
    chars = ["kit_carlson", "jesse_jones", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, arrows=[2, 2, 2, 0],
                rolls=[[GATLING, GATLING, GATLING, DYNAMITE, DYNAMITE], QUIET])
    act(game, A.STOP)
    assert game.life == [9, 8, 7, 9] and game.arrows == [0, 2, 2, 0]
    assert game.legal_actions() == [game.target_action(1), game.target_action(2), A.NO]
    shoot(game, 1, 1, 2)
    assert game.arrows == [0, 0, 1, 0] and game.arrow_pile == 8 and game.turn_player == 1


# ---------------------------------------------------------------------- Lucky Duke
def test_lucky_duke_rolls_four_times():
    chars = ["lucky_duke", "jesse_jones", "black_jack", "paul_regret"]
    game = make("SORO", chars, rolls=[QUIET, [GATLING], [GATLING], [GATLING]])
    assert game.rerolls_left == 3
    act(game, mask(0), mask(0), mask(0))
    assert game.rolls_done == 4 and game.decision.kind == "beer"


# ---------------------------------------------------------------------- Paul Regret
def test_paul_regret_never_loses_life_to_the_gatling():
    chars = ["jesse_jones", "black_jack", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, rolls=[[GATLING, GATLING, GATLING, TWO, DYNAMITE], QUIET])
    act(game, A.STOP)  # the 2 has one target (seat 2)
    assert game.life == [11, 7, 6, 9]
    assert abilities(game, "paul_regret") == [("ability", 3, "paul_regret")]


# ---------------------------------------------------------------------- Pedro Ramirez
def test_pedro_ramirez_discards_an_arrow_per_life_point_lost():
    chars = ["jesse_jones", "pedro_ramirez", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, arrows=[0, 2, 0, 0], rolls=[NOTHING, QUIET])
    act(game, A.STOP)
    shoot(game, 1)
    assert game.decision.kind == "pedro_ramirez" and game.current_player == 1
    act(game, A.YES)  # he still loses the life point
    assert game.life[1] == 7 and game.arrows == [0, 1, 0, 0] and game.arrow_pile == 8
    game = make("SORO", chars, rolls=[NOTHING, QUIET])
    act(game, A.STOP)
    shoot(game, 1)  # no arrow to discard: not asked
    assert game.life[1] == 7 and game.turn_player == 1


def test_pedro_ramirez_on_his_own_dynamite_and_not_in_the_indian_attack():
    chars = ["jesse_jones", "pedro_ramirez", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, arrows=[0, 1, 0, 0], turn=1,
                rolls=[[DYNAMITE, DYNAMITE, DYNAMITE, GATLING, BEER]])
    assert game.decision.kind == "pedro_ramirez"
    act(game, A.YES)
    assert game.life[1] == 7 and game.arrows == [0, 0, 0, 0]
    # the Indians: every arrow returns anyway, so no decision; damage = arrows held
    game = make("SORO", chars, arrows=[0, 3, 5, 0], rolls=[[ARROW, BEER, BEER, BEER, BEER]])
    assert kinds(game, "indians") == [("indians", (1, 3, 5, 0))]
    assert game.life[1] == 5 and game.decision.kind == "reroll"


# ---------------------------------------------------------------------- Rose Doolan
def test_rose_doolan_reaches_one_seat_further():
    chars = ["rose_doolan", "jesse_jones", "black_jack", "lucky_duke", "paul_regret", "jourdonnais"]
    game = make("SOOODR", chars, rolls=[[ONE, TWO, DYNAMITE, DYNAMITE, GATLING]])
    act(game, A.STOP)
    assert game.legal_actions() == [game.target_action(s) for s in (1, 2, 4, 5)]
    shoot(game, 2)
    assert game.legal_actions() == [game.target_action(s) for s in (2, 3, 4)]


def test_rose_doolan_with_four_or_five_alive():
    chars = ["rose_doolan", "jesse_jones", "black_jack", "lucky_duke", "paul_regret", "jourdonnais"]
    # 4 alive (0, 2, 3, 5): counting either way, every die reaches all three others
    game = make("SOOODR", chars, life=[11, 0, 8, 8, 0, 7], rolls=[[ONE, TWO, DYNAMITE, DYNAMITE, GATLING]])
    act(game, A.STOP)
    for _ in range(2):
        assert game.legal_actions() == [game.target_action(s) for s in (2, 3, 5)]
        shoot(game, 3)
    # 5 alive (seat 1 out): the 2 reaches two or three living seats away, the two non-neighbours
    game = make("SOOODR", chars, life=[11, 0, 8, 8, 9, 7], rolls=[[TWO, DYNAMITE, DYNAMITE, GATLING, BEER]])
    act(game, A.STOP)
    assert game.legal_actions() == [game.target_action(s) for s in (3, 4)]


# ---------------------------------------------------------------------- Sid Ketchum
def test_sid_ketchum_heals_anyone_at_the_start_of_his_turn():
    chars = ["sid_ketchum", "jesse_jones", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, life=[10, 5, 8, 9], rolls=[QUIET])
    assert game.decision.kind == "sid_ketchum" and game.dice == []  # before the first roll
    assert game.legal_actions() == [game.target_action(s) for s in range(4)]
    shoot(game, 1)
    assert game.life == [10, 6, 8, 9] and game.decision.kind == "reroll"
    assert abilities(game, "sid_ketchum") == [("ability", 0, "sid_ketchum", 1, 1)]


# ---------------------------------------------------------------------- Slab the Killer
def test_slab_the_killer_doubles_a_bullseye_with_a_beer():
    chars = ["slab_the_killer", "jesse_jones", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, life=[8, 9, 8, 9], rolls=[[ONE, BEER, BEER, DYNAMITE, DYNAMITE], QUIET])
    act(game, A.STOP)
    assert game.decision.kind == "slab_double"
    assert game.legal_actions() == [A.NO, A.DIE_BASE + 0]
    act(game, A.DIE_BASE + 0)
    shoot(game, 1)
    assert game.life[1] == 7 and kinds(game, "shot") == [("shot", 0, 1, ONE, 2)]
    assert game.decision.kind == "beer" and game.decision.data == {"die": 2}  # one beer spent
    shoot(game, 0)
    assert game.life == [9, 7, 8, 9] and game.turn_player == 1
    game = make("SORO", chars, life=[8, 9, 8, 9], rolls=[[ONE, BEER, BEER, DYNAMITE, DYNAMITE], QUIET])
    act(game, A.STOP, A.NO)
    shoot(game, 1, 0, 0)  # not doubled: the shot, then both beers
    assert game.life == [10, 8, 8, 9]


def test_slab_the_killer_chooses_the_1_or_the_2_and_needs_a_beer():
    chars = ["slab_the_killer", "jesse_jones", "lucky_duke", "paul_regret", "black_jack"]
    game = make("SOODR", chars, rolls=[[ONE, ONE, TWO, BEER, DYNAMITE]])
    act(game, A.STOP)
    assert game.legal_actions() == [A.NO, A.DIE_BASE + 0, A.DIE_BASE + 2]
    game = make("SOODR", chars, rolls=[[ONE, TWO, GATLING, DYNAMITE, DYNAMITE]])
    act(game, A.STOP)
    assert game.decision.kind == "shoot"  # no beer, no doubling asked


# ---------------------------------------------------------------------- Suzy Lafayette
def test_suzy_lafayette_gains_two_without_a_1_or_2_at_the_end_of_her_turn():
    chars = ["suzy_lafayette", "jesse_jones", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, life=[5, 9, 8, 9], rolls=[[ONE, ONE, BEER, BEER, BEER], [ARROW, ARROW], QUIET])
    act(game, mask(0, 1))  # her rerolls are not checked, only the final dice
    act(game, A.STOP)
    shoot(game, 1, 1, 1)
    assert game.life == [7, 9, 8, 9] and abilities(game, "suzy_lafayette")[0][3] == 2
    game = make("SORO", chars, life=[5, 9, 8, 9], rolls=[[ONE, BEER, BEER, BEER, BEER], QUIET])
    act(game, A.STOP)
    shoot(game, 1, 2, 2, 2, 2)  # the beers on a full player: wasted
    assert game.life == [5, 8, 8, 9] and abilities(game, "suzy_lafayette") == []


# ---------------------------------------------------------------------- Vulture Sam
def test_vulture_sam_gains_two_per_player_eliminated():
    chars = ["jesse_jones", "black_jack", "lucky_duke", "vulture_sam", "paul_regret"]
    game = make("SOODR", chars, life=[11, 1, 8, 3, 1], rolls=[[ONE, ONE, BEER, DYNAMITE, DYNAMITE]])
    act(game, A.STOP)
    shoot(game, 1, 4)  # two out together: +4
    assert game.life[3] == 7 and abilities(game, "vulture_sam") == [("ability", 3, "vulture_sam", 4)]


def test_vulture_sam_dying_in_the_same_event_gains_nothing():
    chars = ["jesse_jones", "black_jack", "lucky_duke", "vulture_sam", "paul_regret"]
    game = make("SODOR", chars, life=[11, 1, 8, 1, 9], arrows=[0, 1, 0, 1, 6],
                rolls=[[ARROW, BEER, BEER, BEER, BEER]])
    assert game.alive == [True, False, True, False, True]
    assert abilities(game, "vulture_sam") == []


# ---------------------------------------------------------------------- Willy the Kid
def test_willy_the_kid_fires_the_gatling_with_two_once_per_turn():
    chars = ["willy_the_kid", "jesse_jones", "lucky_duke", "paul_regret"]
    game = make("SORO", chars, arrows=[2, 0, 0, 0], rolls=[[GATLING, GATLING, DYNAMITE, DYNAMITE, BEER], QUIET])
    act(game, A.STOP)
    shoot(game, 0)
    assert game.life == [10, 8, 7, 9] and game.arrows == [0, 0, 0, 0]
    game = make("SORO", chars, rolls=[[GATLING, GATLING, GATLING, GATLING, DYNAMITE], QUIET])
    act(game, A.STOP)
    assert game.life == [10, 8, 7, 9] and kinds(game, "gatling") == [("gatling", 0)]


def test_el_gringos_arrow_setting_off_indians_that_eliminate_the_roller_ends_his_turn():
    chars = ["jesse_jones", "el_gringo", "lucky_duke", "paul_regret", "black_jack"]
    game = make("ODSOR", chars, life=[1, 7, 10, 8, 8], arrows=[0, 0, 4, 4, 0], turn=0,
                rolls=[[ONE, BEER, BEER, DYNAMITE, DYNAMITE], QUIET])
    act(game, A.STOP)
    shoot(game, 1)
    # the arrow is the pile's last: the Indians take the roller's last life point; no beers
    assert kinds(game, "indians") == [("indians", (1, 0, 4, 4, 0))]
    assert game.alive == [False, True, True, True, True] and kinds(game, "beer") == []
    assert game.turn_player == 1 and not game.game_over


def test_healing_never_passes_the_maximum():
    chars = ["sid_ketchum", "jesse_jones", "lucky_duke", "vulture_sam", "black_jack"]
    game = make("SOODR", chars, life=[10, 1, 8, 8, 8], rolls=[NOTHING, QUIET])
    shoot(game, 0)  # Sid heals himself at full life: wasted
    assert abilities(game, "sid_ketchum") == [("ability", 0, "sid_ketchum", 0, 0)]
    act(game, A.STOP)
    shoot(game, 1)  # Vulture Sam at 8 of 9: +1 only
    assert game.life == [10, 0, 8, 9, 8]
    assert abilities(game, "vulture_sam") == [("ability", 3, "vulture_sam", 1)]
