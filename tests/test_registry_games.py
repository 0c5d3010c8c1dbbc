"""agents.registry across games: the bots of every game (human, llm) are offered and made for
Bang! too, and ask() builds the deciding seat's view through the game's spec."""

from __future__ import annotations

import io

import pytest

from agents.bang_dice import BangHeuristic
from agents.human import HumanAgent
from agents.llm import LLMAgent
from agents.policy import make_bot
from agents.random_agent import RandomAgent
from agents.registry import EVERY_GAME, ask, available, make
from granujas_env import games
from granujas_env.bang_dice.env import raw_env as bang_raw_env
from granujas_env.bang_dice.view import BangView
from granujas_env.env import raw_env as granujas_raw_env
from granujas_env.view import SeatView


class Spy:
    """A bot that records the view it was handed and plays the first legal action."""

    def __init__(self, wants_view: bool = True) -> None:
        self.wants_view = wants_view
        self.views: list[object] = []

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation, view=None) -> int:
        self.views.append(view)
        return int(observation["action_mask"].nonzero()[0][0])


def test_every_game_bots_are_offered_for_each_game():
    assert set(EVERY_GAME) == {"human", "llm"}
    for name in games.available():
        assert {"human", "llm"} <= set(available(game=name))
    assert available(game="bang-dice") == ["expectimax", "heuristic", "human", "llm", "random", "rollout", "tuned", "valued"]
    assert {"heuristic", "ismcts", "human", "llm", "random"} <= set(available())


def test_make_builds_the_every_game_bots_for_bang():
    llm = make("llm", game="bang-dice", url="http://127.0.0.1:9/v1", model="stub")
    assert type(llm) is LLMAgent
    assert type(make("human", game="bang-dice", input=io.StringIO(), output=io.StringIO())) is HumanAgent
    assert type(make("heuristic", game="bang-dice")) is BangHeuristic
    assert type(make("random", game="bang-dice", seed=0)) is RandomAgent
    with pytest.raises(ValueError, match="unknown Bang! bot 'ismcts'; the bots are: expectimax, heuristic, random, rollout, tuned, valued"):
        make("ismcts", game="bang-dice")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make("llm", game="chess")


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        ("valued:nets=a.npz", "bang-dice", "bot 'valued' takes no option 'nets'; its options: seed, net"),
        ("heuristic:foo=1:bar=2", "bang-dice", "bot 'heuristic' takes no option 'bar', 'foo'; its options: seed, weights"),
        ("llm:temp=1", "bang-dice", "bot 'llm' takes no option 'temp'; its options: "),
        ("heuristic:bogus=1", "granujas", "bot 'heuristic' takes no option 'bogus'; its options: seed, reuse, early_challenge_rate"),
    ],
)
def test_an_option_a_bot_does_not_take_is_refused_naming_those_it_takes(spec, game, message):
    with pytest.raises(ValueError) as refused:
        make_bot(spec, seed=0, game=game)
    assert str(refused.value).startswith(message)


@pytest.mark.parametrize(
    ("environment", "view_type"),
    [(lambda: bang_raw_env(num_players=5), BangView), (lambda: granujas_raw_env(num_players=3), SeatView)],
)
def test_ask_builds_the_view_of_the_games_spec(environment, view_type):
    env = environment()
    env.reset(seed=2)
    agent = env.agent_selection
    spy = Spy()
    action = ask(spy, env.observe(agent), env.game)
    (view,) = spy.views
    assert type(view) is view_type
    assert view.seat == env.agent_name_mapping[agent]
    assert view == env.seat_view(agent)
    assert action == env.game.legal_actions()[0]
    blind = Spy(wants_view=False)
    ask(blind, env.observe(agent), env.game)
    assert blind.views == [None]


def test_a_person_plays_a_bang_decision_through_ask():
    env = bang_raw_env(num_players=4)
    env.reset(seed=5)
    while len(env.game.legal_actions()) < 2:  # a decision with a real choice
        env.step(env.game.legal_actions()[0])
    legal = env.game.legal_actions()
    out = io.StringIO()
    person = make("human", game="bang-dice", input=io.StringIO(f"nonsense\n{legal[-1]}\n"), output=out)
    assert ask(person, env.observe(env.agent_selection), env.game) == legal[-1]
    screen = out.getvalue()
    assert "Bang! The Dice Game" in screen and "Your decision:" in screen
    assert person.invalid_answers == 1


def test_ask_refuses_a_finished_game_and_of_state_an_unknown_state():
    env = bang_raw_env(num_players=3)
    env.reset(seed=1)
    while not env.game.game_over:
        env.game.apply(env.game.legal_actions()[0])
    with pytest.raises(ValueError, match="the game is over"):
        ask(Spy(), env.observe("player_0"), env.game)
    with pytest.raises(TypeError, match=r"state of one of the games \(bang-dice, granujas\), got str"):
        games.of_state("a game")
    assert games.of_state(env.game) is games.get("bang-dice")
