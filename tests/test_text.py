"""The text interface (granujas_env.text): exactly the seat's information, plain-words menus, and
a parser that reads a model's or a person's answer or says clearly why it cannot."""

from __future__ import annotations

import copy
import random

import pytest
from hidden import hide_shuffle, random_midgame
from hypothesis import given, settings
from hypothesis import strategies as st

import granujas_env
from granujas_env import text
from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.view import seat_view


# ------------------------------------------------------------------------------------ no leaks
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.sampled_from([2, 3, 4]), strategy=st.booleans())
def test_hidden_changes_leave_text_and_menu_unchanged(seed: int, players: int,
                                                      strategy: bool) -> None:
    game = random_midgame(seed, players, "long", strategy)
    if game.game_over:
        return
    rng = random.Random(seed)
    for seat in range(players):
        changed = hide_shuffle(game, seat, rng)
        assert text.text_observation(game, seat, since=0) == text.text_observation(
            changed, seat, since=0
        ), seat
        assert text.legal_action_menu(game, seat=seat) == text.legal_action_menu(changed, seat=seat)


@pytest.mark.parametrize("seed", range(6))
def test_own_and_public_changes_change_the_text(seed: int) -> None:
    game = random_midgame(seed, 3)
    for seat in range(3):
        base = text.text_observation(game, seat, since=0)
        richer = copy.deepcopy(game)
        richer.players[(seat + 1) % 3].money += 1
        assert text.text_observation(richer, seat, since=0) != base
        hidden = [s for s in game.safes if s.id not in game.players[seat].known_safes
                  and s.board_pos >= 0]
        if hidden:  # seeing a Safe shows its value
            knows = copy.deepcopy(game)
            knows.players[seat].known_safes.add(hidden[0].id)
            assert text.text_observation(knows, seat, since=0) != base


def test_the_screen_shows_own_hand_and_card_values_only() -> None:
    game = Game(GameConfig(num_players=3), seed=5)
    seat = game.current_player
    me = game.players[seat]
    card = me.hand[-1]
    game.apply(A.CARD + card)
    game.apply(A.SLOT + 3)
    screen = text.text_observation(game, seat)
    assert f"p{seat} (you):" in screen
    assert "    hand: " + " ".join(A.CARD_NAMES[v] for v in sorted(me.hand)) in screen
    verdict = "honest" if card == 3 else "bluff"
    assert f"played today: slot 3 = {A.CARD_NAMES[card]} {verdict}" in screen
    other = (seat + 1) % 3
    rival = text.text_observation(game, other)
    assert "played today: slot 3 = ?" in rival
    assert rival.count("    hand: ") == 1  # its own only


# ------------------------------------------------------------------------------------ menus
def test_plan_and_challenge_menus_in_plain_words() -> None:
    game = Game(GameConfig(num_players=3), seed=5)
    p = game.current_player
    card = game.players[p].hand[-1]
    menu = text.legal_action_menu(game)
    assert [i.id for i in menu] == game.legal_actions()
    assert menu[-1] == text.MenuItem(
        A.CARD + card, f"card:{A.CARD_NAMES[card]}",
        f"play the {A.CARD_NAMES[card]} (you choose its slot next)",
    )
    game.apply(A.CARD + card)
    other = 5 if card != 5 else 4
    assert text.describe_action(game, A.SLOT + card) == (
        f"play the {A.CARD_NAMES[card]} face down in slot {A.CARD_NAMES[card]} (honest)")
    assert text.describe_action(game, A.SLOT + other) == (
        f"play the {A.CARD_NAMES[card]} face down in slot {other} (a bluff)")
    game.apply(A.SLOT + other)
    challenger = game.current_player
    assert challenger != p and game.decision.kind == "challenge"
    assert text.legal_action_menu(game) == [
        text.MenuItem(A.PASS, "pass", f"do not challenge p{p}'s card in slot {other}"),
        text.MenuItem(A.CONFIRM, "confirm",
                      f"challenge p{p}'s card in slot {other} (put one of your henchmen on it)"),
    ]
    assert text.legal_action_menu(game, seat=p) == []  # not deciding: nothing to choose
    with pytest.raises(ValueError, match="not deciding"):
        text.describe_action(seat_view(game, p), A.PASS)
    with pytest.raises(ValueError, match=r"not legal .*'challenge'.*legal ids: \[0, 1\]"):
        text.describe_action(game, A.CARD + 3)


def test_every_decision_kind_of_random_games_gets_words() -> None:
    """Every legal action of every decision met in random games has a meaning of its own (not
    just its id name), and the menu parses back to the same ids."""
    seen = set()
    for seed in range(6):
        rng = random.Random(seed)
        game = Game(GameConfig(num_players=2 + seed % 3, strategy_cards=seed % 2 == 0), seed=seed)
        while not game.game_over:
            menu = text.legal_action_menu(game)
            names = {i.id: (i.name, i.meaning) for i in menu}
            for item in menu:
                seen.add(game.decision.kind)
                assert item.meaning and item.meaning != item.name, (game.decision.kind, item)
                assert text.parse_action(f"{item.id}) {item.name} {item.meaning}",
                                         list(names), names) == item.id
            game.apply(rng.choice(game.legal_actions()))
    assert {"plan_card", "plan_slot", "challenge", "ability", "hire", "mark_face",
            "peek_target", "first_player"} <= seen


def test_mark_face_names_the_safe_and_the_face() -> None:
    for seed in range(40):
        rng = random.Random(seed)
        game = Game(GameConfig(num_players=2), seed=seed)
        while not game.game_over and game.decision.kind != "mark_face":
            game.apply(rng.choice(game.legal_actions()))
        if not game.game_over:
            break
    sid = game.decision.data["safe"]
    safe = game.safes[sid]
    loc = game.rules.locations[safe.location].name
    face = game.legal_actions()[0] - A.MARK_FACE
    words = text.describe_action(game, A.MARK_FACE + face)
    truth = " (matches its value)" if face == safe.value else " (false face)"
    assert words.startswith(f"mark this Safe ({loc} {safe.board_pos + 1} (value {safe.value}")
    assert words.endswith(f" with a {face}{truth}")


def test_text_observation_from_envs_views_and_games_agree() -> None:
    env = granujas_env.env(num_players=2)
    env.reset(seed=3)
    raw = env.unwrapped
    seat = raw.game.current_player
    expected = text.text_observation(raw.game, seat)
    assert text.text_observation(env, seat) == expected
    assert text.text_observation(raw.seat_view(raw.agent_selection)) == expected
    assert "Legal actions (id, name, meaning):" in expected
    assert "Legal actions" not in text.text_observation(env, 1 - seat)
    assert "Legal actions" not in text.text_observation(env, seat, menu=False)
    with pytest.raises(TypeError, match="env.reset"):
        text.text_observation(granujas_env.raw_env(num_players=2), 0)
    with pytest.raises(ValueError, match="seat 0's, not seat 1's"):
        text.text_observation(seat_view(raw.game, 0), 1)
    with pytest.raises(ValueError, match=r"since must be in 0\.\.0"):
        text.text_observation(raw.game, seat, since=5)


def test_events_are_narrated_since_the_given_point() -> None:
    game = Game(GameConfig(num_players=2), seed=1)
    p = game.current_player
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    view = seat_view(game, 1 - p)
    assert text.events_text(view, 0).splitlines()[0].startswith(f"p{p} plays ")
    assert text.events_text(view, len(view.history)) == ""
    assert "Events:" not in text.text_observation(view, since=len(view.history))


def test_finished_game_has_no_menu() -> None:
    game = random_midgame(0, 2, "short")
    rng = random.Random(0)
    while not game.game_over:
        game.apply(rng.choice(game.legal_actions()))
    assert text.legal_action_menu(game) == []
    assert f"The game is over; p{game.winner} won." in text.text_observation(game, 0)


# ------------------------------------------------------------------------------------ answers
CHALLENGE = {
    A.PASS: ("pass", "do not challenge p1's card in slot 5"),
    A.CONFIRM: ("confirm", "challenge p1's card in slot 5 (put one of your henchmen on it)"),
}
PLAN = {
    A.SLOT + 4: ("slot:4", "play the 4 face down in slot 4 (honest)"),
    A.SLOT + 5: ("slot:5", "play the 4 face down in slot 5 (a bluff)"),
}


@pytest.mark.parametrize(
    ("answer", "names", "expected"),
    [
        ("1", CHALLENGE, A.CONFIRM),
        ("  #0 ", CHALLENGE, A.PASS),
        ("[1]", CHALLENGE, A.CONFIRM),
        ("Action: 0", CHALLENGE, A.PASS),
        ("I think so.\nAction: 1", CHALLENGE, A.CONFIRM),
        ('{"action": 1}', CHALLENGE, A.CONFIRM),
        ('Sure: {"reason": "a bluff", "action": "pass"}', CHALLENGE, A.PASS),
        ("Confirm", CHALLENGE, A.CONFIRM),
        ("pass.", CHALLENGE, A.PASS),
        ("do not challenge", CHALLENGE, A.PASS),
        ("I will take action 1 here", CHALLENGE, A.CONFIRM),
        # the words that begin one line win over the same words inside another
        ("challenge", CHALLENGE, A.CONFIRM),
        ("Challenge p1's card", CHALLENGE, A.CONFIRM),
        ("yes", CHALLENGE, A.CONFIRM),
        ("y", CHALLENGE, A.CONFIRM),
        ("No", CHALLENGE, A.PASS),
        ("skip", CHALLENGE, A.PASS),
        ("Action: 1\nAction: 1", CHALLENGE, A.CONFIRM),  # the same answer twice is one answer
        ("Action:\n1", CHALLENGE, A.CONFIRM),
        ("pass", PLAN | {A.PASS: ("pass", "use no more abilities")}, A.PASS),
        ("slot:5", PLAN, A.SLOT + 5),
        ("slot 4", PLAN, A.SLOT + 4),
        ("[slot:4]", PLAN, A.SLOT + 4),
        ("in slot 5", PLAN, A.SLOT + 5),
        ("play the 4 face down in slot 5 (a bluff)", PLAN, A.SLOT + 5),
        (f"  {A.SLOT + 5}) slot:5   play the 4 face down in slot 5 (a bluff)", PLAN, A.SLOT + 5),
        (f"{A.SLOT + 4} slot:4 play the 4", PLAN, A.SLOT + 4),
    ],
)
def test_parse_reads_ids_names_and_phrases(answer: str, names: dict, expected: int) -> None:
    assert text.parse_action(answer, list(names), names) == expected


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("7", r"'7': 7 is not a legal action id now; legal options: 0 \(pass - do not "),
        ('{"action": 9}', r"9 is not a legal action id now"),
        ("banana", r"'banana' is not a legal action; legal options: 0 \(pass - do not challenge "
                   r"p1's card in slot 5\); 1 \(confirm - challenge p1's card"),
        ("", r"empty answer; legal options: 0 \(pass"),
        ("[ ]", r"empty answer"),
        ("p1's card in slot 5", r"matches several actions \(0, 1\): answer with one id"),
        # contradictions are invalid, whichever answer comes first
        ("Action: 1\nAction: 0", r"gives several answers \(1, 0\): answer with one line"),
        ('{"action": 1} or {"action": 0}', r"names several actions \(1, 0\)"),
        # a long wrong answer is quoted cut to 80 characters
        ("x" * 3000, "^'" + "x" * 80 + "'… \\(3000 characters\\) is not a legal action"),
        (None, r"the answer must be text, got NoneType; legal options"),
    ],
)
def test_parse_rejects_with_the_legal_options(answer: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        text.parse_action(answer, list(CHALLENGE), CHALLENGE)


def test_parse_defaults_to_action_names() -> None:
    assert text.parse_action("sheriff", [A.SALOON, A.SHERIFF]) == A.SHERIFF
    assert text.parse_action("saloon:0", [A.SALOON, A.SHERIFF]) == A.SALOON
    with pytest.raises(ValueError, match="no legal action to choose from"):
        text.parse_action("0", [])
