"""The OpenSpiel adapter: registration, OpenSpiel's own random-simulation checks, leak-free
strings and tensors per player, resampling for IS-MCTS, and IS-MCTS playing a full game."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hidden import hide_shuffle

pyspiel = pytest.importorskip("pyspiel")  # the [openspiel] extra

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from granujas_env.engine import actions as A  # noqa: E402
from granujas_env.engine.game import Game  # noqa: E402
from granujas_env.engine.snapshot import digest  # noqa: E402
from granujas_env.fuzz import step_bound  # noqa: E402
from granujas_env.openspiel import GranujasGame, GranujasState, RolloutEvaluator, view_text  # noqa: E402

# The README section "Using granujas with OpenSpiel", run as written.
README_SNIPPET = """
import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from granujas_env.openspiel import RolloutEvaluator  # also registers "python_granujas"

game = pyspiel.load_game("python_granujas", {"players": 2, "game_length": "short", "seed": 0})
bots = [
    ismcts.ISMCTSBot(game, RolloutEvaluator(n_rollouts=1, seed=0), uct_c=2.0,
                     max_simulations=8, random_state=np.random.RandomState(0)),
    pyspiel.make_uniform_random_bot(1, 0),
]
state = game.new_initial_state()
while not state.is_terminal():
    state.apply_action(bots[state.current_player()].step(state))
print(state.returns())
"""


def _load(**params: object):
    return pyspiel.load_game("python_granujas", params)


def _play(state, steps: int, seed: int):
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_game_type_info_and_parameters() -> None:
    game = _load(players=3, game_length="long", strategy_cards=True, seed=9)
    kind = game.get_type()
    assert kind.short_name == "python_granujas"
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 3
    assert game.num_distinct_actions() == A.NUM_ACTIONS
    assert game.max_game_length() == step_bound(game.config) == 1800
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-0.5, 1.0, 0.0)
    assert game.observation_tensor_size() == game.information_state_tensor_size() == game.layout.size
    assert game.get_parameters() == {
        "players": 3, "game_length": "long", "strategy_cards": True, "seed": 9, "fixed_deal": False
    }
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter fixed_deal"):
        _load(fixed_deal=1)
    with pytest.raises(ValueError, match="fixed_deal must be a bool, got 1"):
        GranujasGame({"fixed_deal": 1})  # built directly, without pyspiel's type check


def _deals(game, count: int) -> list[str]:
    return [digest(game.new_initial_state().engine) for _ in range(count)]


def test_each_initial_state_is_a_fresh_deal_of_the_seeds_sequence() -> None:
    deals = _deals(_load(players=3, seed=9), 4)
    assert len(set(deals)) == 4
    assert _deals(_load(players=3, seed=9), 4) == deals  # the same seed, the same sequence
    assert _deals(_load(players=3, seed=10), 4) != deals
    # the k-th deal is the engine's game of the k-th draw of random.Random(seed)
    draws = random.Random(9)
    config = _load(players=3).config
    assert deals == [digest(Game(config, seed=draws.getrandbits(63))) for _ in range(4)]


def test_fixed_deal_keeps_the_game_of_seed() -> None:
    game = _load(players=3, seed=9, fixed_deal=True)
    assert _deals(game, 3) == [digest(Game(game.config, seed=9))] * 3
    other = _load(players=3, seed=10, fixed_deal=True)
    assert _deals(other, 1) != _deals(game, 1)
    with pytest.raises(ValueError, match="num_players must be 2, 3 or 4, got 5"):
        _load(players=5)


@pytest.mark.parametrize("cards", [False, True])
def test_openspiel_random_sim_test(cards: bool) -> None:
    # serialize=False: OpenSpiel serializes a sampled-stochastic game with its RNG state
    # (Game::GetRNGState), which a Python game cannot provide; the state itself serializes
    # (test_state_serializes_and_replays).
    pyspiel.random_sim_test(
        _load(players=2, strategy_cards=cards, seed=int(cards)),
        num_sims=1, serialize=False, verbose=False,
    )


def test_state_serializes_and_replays() -> None:
    game = _load(players=2, seed=4)
    state = _play(game.new_initial_state(), 60, seed=1)
    restored = game.deserialize_state(state.serialize())  # takes a draw, keeps state's deal
    assert str(restored) == str(state) and restored.history() == state.history()
    assert digest(restored.engine) == digest(state.engine)
    # sampled-stochastic: with one fixed deal, replaying the actions from a new initial state
    # rebuilds the state
    game = _load(players=2, seed=4, fixed_deal=True)
    state = _play(game.new_initial_state(), 60, seed=1)
    replayed = game.new_initial_state()
    for action in state.history():
        replayed.apply_action(action)
    assert digest(replayed.engine) == digest(state.engine)


def test_clone_is_independent_and_identical() -> None:
    state = _play(_load(players=2, seed=2).new_initial_state(), 40, seed=3)
    copy = state.clone()
    assert copy.engine is not state.engine and digest(copy.engine) == digest(state.engine)
    assert copy.history() == state.history()
    action = state.legal_actions()[-1]
    copy.apply_action(action)
    assert digest(copy.engine) != digest(state.engine)
    state.apply_action(action)
    assert digest(copy.engine) == digest(state.engine)  # same rng: the same future


@pytest.mark.parametrize(("players", "length", "cards"), [(2, "short", False), (3, "long", True), (4, "short", True)])
def test_strings_and_tensors_hold_only_what_the_player_may_know(
    players: int, length: str, cards: bool
) -> None:
    game = _load(players=players, game_length=length, strategy_cards=cards, seed=players)
    checked = 0
    for seed in range(4):
        state = _play(game.new_initial_state(), 30 + 40 * seed, seed)
        if state.is_terminal():
            continue
        checked += 1
        for player in range(players):
            changed = GranujasState(game, hide_shuffle(state.engine, player, random.Random(seed)))
            assert digest(changed.engine) != digest(state.engine)
            assert state.observation_string(player) == changed.observation_string(player)
            assert state.information_state_string(player) == changed.information_state_string(player)
            assert state.observation_tensor(player) == changed.observation_tensor(player)
            assert state.information_state_tensor(player) == changed.information_state_tensor(player)
            # a public change is seen
            visible = GranujasState(game, state.engine.clone())
            visible.engine.players[(player + 1) % players].money += 1
            assert state.observation_string(player) != visible.observation_string(player)
            assert state.information_state_string(player) != visible.information_state_string(player)
            assert state.observation_tensor(player) != visible.observation_tensor(player)
    assert checked >= 3


def test_strings_and_tensors_are_the_players_view() -> None:
    game = _load(players=2, seed=6)
    state = _play(game.new_initial_state(), 30, seed=6)
    seat = state.current_player()
    assert state.observation_string(seat) == view_text(state.engine, seat)
    assert "acting=True" in state.observation_string(seat)
    assert f"legal_actions={state.legal_actions()!r}".replace(" ", "") in state.observation_string(
        seat
    ).replace(" ", "")
    expected = game.layout.encode(state.engine, seat)
    assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), expected)
    assert np.array_equal(np.asarray(state.information_state_tensor(seat), np.float32), expected)
    observation = make_observation(game)  # OpenSpiel's observation API: named pieces
    observation.set_from(state, seat)
    assert set(observation.dict) == {p.name for p in game.layout.pieces}
    assert np.array_equal(observation.dict["own_hand"], expected[game.layout.offset["own_hand"]:][:7])
    # the information state also holds the public event log: a later identical table differs
    assert "plan" in state.information_state_string(seat)
    with pytest.raises(ValueError, match="only a player's own view is provided"):
        game.make_py_observer(
            pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
        )


def test_resample_from_infostate_keeps_the_players_information() -> None:
    game = _load(players=3, seed=8)
    state = _play(game.new_initial_state(), 150, seed=8)
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    before = digest(state.engine)
    for player in range(3):
        sample = state.resample_from_infostate(player, sampler)
        assert isinstance(sample, GranujasState)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.current_player() == state.current_player()
        assert sample.history() == state.history()
        assert digest(sample.engine) != digest(state.engine)
        assert sample.engine.seed is None
    assert digest(state.engine) == before
    with pytest.raises(ValueError, match=r"seat must be an int in 0\.\.2, got 3"):
        state.resample_from_infostate(3, sampler)


def test_ismcts_plays_a_full_game_readme_snippet(capsys: pytest.CaptureFixture[str]) -> None:
    namespace: dict[str, object] = {}
    exec(README_SNIPPET, namespace)  # noqa: S102  (the README text, run as written)
    state = namespace["state"]
    assert state.is_terminal()  # type: ignore[attr-defined]
    returns = state.returns()  # type: ignore[attr-defined]
    assert sorted(returns) == [-1.0, 1.0]
    assert capsys.readouterr().out.strip() == str(returns)


def test_ismcts_bot_searches_sampled_worlds() -> None:
    game = _load(players=2, seed=5)
    state = _play(game.new_initial_state(), 20, seed=5)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 6, random_state=rng)
    policy = dict(bot.get_policy(state))
    assert set(policy) == set(state.legal_actions())
    assert abs(sum(policy.values()) - 1.0) < 1e-9
    # every simulation went through the root: the first one expanded it, the other 5 chose a child
    root = bot._nodes[bot.get_state_key(state)]
    assert root.total_visits == 5 == sum(child.visits for child in root.child_info.values())


def test_rollout_evaluator_plays_random_games_on_the_engine() -> None:
    state = _play(_load(players=3, seed=2).new_initial_state(), 50, seed=2)
    before = digest(state.engine)
    values = RolloutEvaluator(n_rollouts=3, seed=1).evaluate(state)
    assert digest(state.engine) == before  # rollouts play on clones
    assert values.shape == (3,) and abs(values.sum()) < 1e-9  # zero-sum returns, averaged
    assert set(np.round(values * 3 * 2).astype(int)) <= set(range(-3, 7))  # 1 / -0.5 per rollout
    assert np.array_equal(values, RolloutEvaluator(n_rollouts=3, seed=1).evaluate(state))
    prior = RolloutEvaluator().prior(state)
    assert [a for a, _ in prior] == state.legal_actions()
    assert abs(sum(p for _, p in prior) - 1.0) < 1e-9
    with pytest.raises(ValueError, match="n_rollouts must be an int >= 1, got 0"):
        RolloutEvaluator(n_rollouts=0)


def _rl_episodes(game, episodes: int) -> list[str]:
    """Train OpenSpiel's tabular Q-learners through ``rl_environment`` for ``episodes`` games;
    returns each game's deal (the digest of its initial state)."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    env = rl_environment.Environment(game)
    num_actions = env.action_spec()["num_actions"]
    learners = [
        tabular_qlearner.QLearner(player_id=p, num_actions=num_actions)
        for p in range(game.num_players())
    ]
    deals = []
    for _ in range(episodes):
        time_step = env.reset()
        deals.append(digest(env.get_state.engine))
        while not time_step.last():
            player = time_step.observations["current_player"]
            time_step = env.step([learners[player].step(time_step).action])
        for learner in learners:  # the final step: every learner learns from the returns
            learner.step(time_step)
    return deals


def test_rl_environment_agents_train_on_fresh_deals() -> None:
    np.random.seed(0)  # the Q-learners' exploration draws from numpy's global RNG
    deals = _rl_episodes(_load(players=2, seed=11), 3)
    assert len(set(deals)) == 3
    assert deals[0] == _deals(_load(players=2, seed=11), 1)[0]  # the first of the seed's sequence
    np.random.seed(0)  # the same seed and the same calls: the same deals
    assert _rl_episodes(_load(players=2, seed=11), 3) == deals
    fixed = _rl_episodes(_load(players=2, seed=11, fixed_deal=True), 2)
    assert fixed == [digest(Game(_load(players=2).config, seed=11))] * 2
