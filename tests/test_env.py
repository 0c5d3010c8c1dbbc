"""The PettingZoo AEC environment: API conformance, seeding, masks, rewards, bad input, docs."""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils import env_checker, passive_env_checker
from pettingzoo.test import api_test, seed_test

import granujas_env
from granujas_env.codecs import MONEY_CAP, MONEY_SCALE
from granujas_env.docs import DOCS, GENERATED
from granujas_env.engine import actions as A
from granujas_env.engine.game import GameOverError, IllegalActionError
from granujas_env.engine.snapshot import digest
from granujas_env.env import CheckedOrderEnforcingWrapper

CONFIGS = [(n, length) for n in (2, 3, 4) for length in ("short", "long")]


@pytest.mark.parametrize("players,length", CONFIGS)
def test_pettingzoo_api(players: int, length: str) -> None:
    api_test(granujas_env.env(num_players=players, game_length=length), num_cycles=300)


@pytest.mark.parametrize("players,length", CONFIGS)
def test_pettingzoo_seed(players: int, length: str) -> None:
    seed_test(lambda: granujas_env.env(num_players=players, game_length=length), num_cycles=300)


def play_random(env, seed: int) -> tuple[list[str], dict[str, float]]:
    """Random legal game; returns the acting agents in order and the final cumulative rewards."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    order, totals = [], {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        order.append(agent)
        mask = obs["action_mask"]
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any(), "non-acting seat has a mask"
        assert info["decision"] == env.unwrapped.game.stack[-1].kind
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    return order, totals


@pytest.mark.parametrize("players", [2, 3, 4])
def test_win_rewards_and_mask_only_for_acting_agent(players: int) -> None:
    env = granujas_env.env(num_players=players)
    _, totals = play_random(env, seed=players)
    values = sorted(totals.values())
    assert values[-1] == 1.0
    assert values[:-1] == pytest.approx([-1.0 / (players - 1)] * (players - 1))
    assert sum(values) == pytest.approx(0.0)


def test_score_reward_is_clipped_margin() -> None:
    env = granujas_env.env(num_players=3, reward="score")
    _, totals = play_random(env, seed=5)
    game = env.unwrapped.game
    for seat, agent in enumerate(env.possible_agents):
        best = max(s for j, s in enumerate(game.scores) if j != seat)
        assert totals[agent] == pytest.approx(max(-1, min(1, (game.scores[seat] - best) / 20)))


def test_engine_sets_agent_selection_not_round_robin() -> None:
    env = granujas_env.env(num_players=4)
    order, _ = play_random(env, seed=1)
    # challenge windows interleave other seats inside a turn: a strict rotation would never repeat
    repeats = sum(1 for a, b in zip(order, order[1:]) if a == b)
    assert repeats > 0
    assert len(set(order)) == 4


def test_same_seed_same_game_and_reset_without_seed_continues_stream() -> None:
    a, b = granujas_env.env(num_players=3), granujas_env.env(num_players=3)
    assert play_random(a, 11) == play_random(b, 11)
    a.reset()
    b.reset()
    assert np.array_equal(a.observe("player_0")["observation"], b.observe("player_0")["observation"])


def test_observation_space_contains_observations() -> None:
    env = granujas_env.env(num_players=2)
    env.reset(seed=0)
    for agent in env.agents:
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs)
        assert obs["observation"].dtype == np.float32
        assert obs["action_mask"].dtype == np.int8


def test_raw_env_illegal_action_raises_and_leaves_state_unchanged() -> None:
    env = granujas_env.raw_env(num_players=2)
    env.reset(seed=3)
    before = digest(env.game)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="plan_card") as info:
        env.step(illegal)
    assert "legal ids" in str(info.value)
    assert digest(env.game) == before
    with pytest.raises(ValueError, match="must act"):
        env.step(None)
    assert digest(env.game) == before


def test_wrapped_env_ends_game_on_illegal_move() -> None:
    env = granujas_env.env(num_players=3)
    env.reset(seed=0)
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1
    # after the end only dead steps (tests/test_env_errors.py has every bad input)
    with pytest.raises(GameOverError, match="the game is over"):
        env.step(int(np.flatnonzero(mask)[0]))


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"num_players": 5}, "num_players must be 2, 3 or 4"),
        ({"num_players": 1}, "num_players must be 2, 3 or 4"),
        ({"num_players": "4"}, "num_players must be an int"),
        ({"game_length": "medium"}, "game_length must be one of"),
        ({"render_mode": "rgb_array"}, "render_mode must be None or one of"),
        ({"reward": "points"}, "reward must be one of"),
        ({"strategy_cards": "yes"}, "strategy_cards must be True or False"),
    ],
)
def test_invalid_configuration_fails_at_construction(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        granujas_env.env(**kwargs)


def test_render_modes() -> None:
    env = granujas_env.env(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "Saloon" in text and "Estación" in text and "p1" in text
    human = granujas_env.raw_env(num_players=2, render_mode="human")
    human.reset(seed=0)
    assert human.render() is None


def test_public_render_hides_hands_and_seat_render_shows_own() -> None:
    env = granujas_env.raw_env(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    public = env.render()
    assert "hand:" not in public
    own = env.render_seat("player_0")
    assert "hand:" in own and "(you)" in own


def test_env_pickles_with_its_game_and_the_game_state_copies() -> None:
    env = granujas_env.raw_env(num_players=2, game_length="long", reward="score")
    env.reset(seed=0)
    env.step(env.game.legal_actions()[0])
    # the env pickles with the game in progress (tests/test_determinism.py plays copies on) ...
    restored = pickle.loads(pickle.dumps(env))
    assert (restored.config, restored.reward_mode) == (env.config, env.reward_mode)
    assert digest(restored.game) == digest(env.game)
    # ... and so does the game itself
    for clone in (copy.deepcopy(env.game), pickle.loads(pickle.dumps(env.game)), env.game.clone()):
        assert digest(clone) == digest(env.game)
        assert np.array_equal(env.layout.encode(clone, 1), env.layout.encode(env.game, 1))


def test_generated_docs_agree_with_code() -> None:
    for name, build in GENERATED.items():
        assert (DOCS / name).read_text(encoding="utf-8") == build(), (
            f"docs/{name} is out of date: run python -m granujas_env.docs"
        )


def test_registered_in_pettingzoo_registry() -> None:
    pettingzoo = pytest.importorskip("pettingzoo")
    if not hasattr(pettingzoo, "aec_registry"):
        pytest.skip("this PettingZoo has no registry")
    assert granujas_env.ENV_ID == "granujas/granujas-v1" and granujas_env.ENV_NAME == "granujas_v1"
    env = pettingzoo.make("aec", "granujas/granujas-v1", num_players=3)
    env.reset(seed=0)
    assert env.agents == ["player_0", "player_1", "player_2"]
    assert env.unwrapped.metadata["name"] == "granujas_v1"
    assert isinstance(env, CheckedOrderEnforcingWrapper)


def test_single_seat_env_registered_with_gymnasium() -> None:
    pytest.importorskip("torch")  # the [train] extra: train.single_seat plays bots from agents
    env = gymnasium.make(granujas_env.SINGLE_SEAT_ID, num_players=2, opponents=["random"], seed=0)
    obs, info = env.reset(seed=0)
    assert type(env).__name__ == "SingleSeatEnv" and env.spec.id == "granujas/SingleSeat-v0"
    assert env.observation_space.contains(obs)
    mask = env.action_masks()
    assert mask.dtype == bool and mask.shape == (A.NUM_ACTIONS,) and mask.any()
    # what Gymnasium's PassiveEnvChecker checks (make leaves it out so action_masks() is reachable)
    passive_env_checker.env_reset_passive_checker(env, seed=1)
    passive_env_checker.env_step_passive_checker(env, int(np.flatnonzero(env.action_masks())[0]))


_NO_PRIOR_IMPORT = """
import sys
import gymnasium
assert "granujas_env" not in sys.modules
env = gymnasium.make("granujas_env:granujas/SingleSeat-v0", num_players=2, opponents=["random"])
env.reset(seed=0)
print(type(env).__name__, int(env.action_masks().sum()) > 0)
"""


def test_gymnasium_makes_the_single_seat_env_without_a_prior_import() -> None:
    pytest.importorskip("torch")
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-c", _NO_PRIOR_IMPORT], capture_output=True, text=True, cwd=root,
        timeout=120, check=True,
    )
    assert out.stdout.split() == ["SingleSeatEnv", "True"]


def test_info_has_the_same_keys_types_and_shapes_on_every_step() -> None:
    """Replay buffers (Tianshou's Batch, ...) stack infos: keys must not come and go."""
    env = granujas_env.env(num_players=3)
    env.reset(seed=2)
    rng = random.Random(0)
    seen_end = False
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        for other, other_info in env.infos.items():
            assert set(other_info) == {"decision", "game_over", "winner", "scores"}
            assert isinstance(other_info["decision"], str)
            assert type(other_info["game_over"]) is bool and type(other_info["winner"]) is int
            assert other_info["scores"].dtype == np.int64 and other_info["scores"].shape == (3,)
            if other != agent:
                assert other_info["decision"] == ""
        game = env.unwrapped.game
        if term or trunc:
            seen_end = True
            assert info["game_over"] and info["decision"] == "" and info["winner"] == game.winner
            assert info["scores"].tolist() == game.scores
            env.step(None)
        else:
            assert not info["game_over"] and info["winner"] == -1 and not info["scores"].any()
            assert info["decision"] == game.decision.kind != ""
            env.step(rng.choice(game.legal_actions()))
    assert seen_end


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("length", ["short", "long"])
def test_every_observation_of_random_games_lies_in_the_finite_box(players: int, length: str) -> None:
    env = granujas_env.raw_env(num_players=players, game_length=length, strategy_cards=True)
    box = env.observation_space("player_0")["observation"]
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    assert (box.low == 0).all() and (box.high > 0).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. "A Box observation space minimum value is -infinity"
        passive_env_checker.check_observation_space(box)
        env_checker.check_space_limit(box, "observation")
    env.reset(seed=players * 10 + len(length))
    rng = random.Random(players)
    game = env.game
    while not game.game_over:
        for agent in env.possible_agents:
            assert box.contains(env.observe(agent)["observation"]), agent
        env.step(rng.choice(game.legal_actions()))
    assert all(box.contains(env.observe(a)["observation"]) for a in env.possible_agents)


def test_money_beyond_the_box_is_clipped() -> None:
    env = granujas_env.raw_env(num_players=2)
    env.reset(seed=0)
    env.game.players[1].money = 500
    obs = env.observe("player_0")["observation"]
    money = env.layout.offset["money"]
    assert obs[money + 1] == MONEY_CAP / MONEY_SCALE == env.layout.high[money + 1]
    assert env.observation_space("player_0").contains(env.observe("player_0"))


def test_play_command_runs_a_narrated_game_to_the_score_table(capsys) -> None:
    from granujas_env.play import main

    assert main(["--players", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "plays a card face down" in out and "<- winner" in out
    assert main(["--players", "5"]) == 2


def test_seat_view_is_offered_by_the_env() -> None:
    env = granujas_env.raw_env(num_players=2)
    env.reset(seed=0)
    view = env.seat_view(env.agent_selection)
    assert view is not None
