"""Bang! training: the single-seat wrapper over bang-dice (team reward, eliminated learner, seat
rotation) and a short ``train.train --game bang-dice`` run whose model loads and plays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.bang_dice import trained
from agents.model_card import layout_record
from agents.policy import load, make_bot
from granujas_env.bang_dice.codecs import KINDS, LAYOUT
from granujas_env.bang_dice.engine import actions as A
from train import roles
from train.single_seat import SingleSeatEnv
from train.train import main as train_main

ROOT = Path(__file__).resolve().parents[1]


def test_bang_single_seat_spaces_and_seat_rotation() -> None:
    env = SingleSeatEnv(num_players=5, game="bang-dice", seed=3)
    assert env.observation_space.shape == (LAYOUT.size,) and env.action_space.n == A.NUM_ACTIONS
    assert env.decisions == frozenset(KINDS) and env.seat_cycle == 840
    seats = []
    _, info = env.reset(seed=7)  # the rotation starts at seed % 840 = 7: seat 7 % 5 = 2
    seats.append(info["seat"])
    for _ in range(4):
        _, info = env.reset()
        seats.append(info["seat"])
    assert seats == [2, 3, 4, 0, 1]
    assert info["role"] == env.game.roles[info["seat"]] and info["num_players"] == 5


def test_eliminated_learner_gets_its_sides_outcome_when_the_game_ends() -> None:
    env = SingleSeatEnv(num_players=5, game="bang-dice", seed=0)
    rng = np.random.default_rng(0)
    for episode in range(200):
        env.reset(seed=episode)
        rewards, done = [], False
        while not done:
            mask = env.action_masks()
            _, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            rewards.append(reward)
        if not info["alive"] and info["won"]:
            break
    else:
        pytest.fail("no game in 200 where a random learner died and its side won")
    # the step in which it died played the game to its end: its side's +1, nothing before
    outcome = env.game.outcome()
    assert env.game.game_over and not env.game.alive[env.seat] and env.seat in outcome.winners
    assert rewards[-1] == 1.0 == outcome.returns()[env.seat] and set(rewards[:-1]) <= {0.0}
    assert info["winners"] == sorted(outcome.winners) and info["score"] == 1.0
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="after the game ended"):
        env.step(0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": 2}, "3..8 players"),
        ({"decisions": "bluff"}, "decisions of bang-dice"),
    ],
)
def test_bang_single_seat_refuses_granujas_only_settings(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SingleSeatEnv(**({"num_players": 5} | kwargs), game="bang-dice")


@pytest.mark.parametrize(
    "extra", [["--players", "2"], ["--mode", "bluff"], ["--reward", "win"]]
)
def test_train_refuses_bad_bang_arguments_before_the_run(tmp_path: Path, extra: list[str]) -> None:
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as exit_info:
        train_main(["--game", "bang-dice", "--players", "5", "--out", str(out), *extra])
    assert exit_info.value.code == 2 and not out.exists()


def test_quick_bang_training_saves_a_model_that_loads_and_plays(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "bang"
    result = subprocess.run(
        [sys.executable, "-m", "train.train", "--game", "bang-dice", "--players", "5", "--quick",
         "--steps", "256", "--n-envs", "2", "--n-steps", "128", "--batch-size", "64",
         "--bc-samples", "200", "--seed", "3", "--no-progress", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    card = json.loads((out / "model_card.json").read_text())
    assert card["game"] == "bang-dice" and card["env_version"] == "bang_dice_v0"
    assert card["observation_layout"] == layout_record(game="bang-dice")
    assert card["observation_layout"]["size"] == LAYOUT.size == 424
    assert card["decisions"] == sorted(KINDS) and card["reward"] == "team"
    assert card["shaping"] == 0.0 and card["players"] == [5] and card["steps"] >= 256
    assert card["behaviour_cloning"]["samples"] >= 200
    agent = load(str(out))
    assert agent.game == "bang-dice" and agent.delegate is None and agent.input_index is None
    with pytest.raises(ValueError, match="plays bang-dice, not granujas"):
        make_bot(str(out))
    # it plays whole games through the rating tools, at every seat
    for seed in (11, 12):
        record = roles.play_game(
            "bang-dice", [str(out), "heuristic", "random", str(out), "heuristic"], seed, trained.make
        )
        assert len(record["won"]) == 5 and any(record["won"])


def test_bang_training_with_the_heuristic_as_advisor_and_a_kl_start(tmp_path: Path) -> None:
    """--advisor heuristic appends the Bang! heuristic's action to the observation (the imitation
    copies it), and --kl-coef after imitation starts (it once failed copying the live policy)."""
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "advised"
    result = subprocess.run(
        [sys.executable, "-m", "train.train", "--game", "bang-dice", "--players", "5", "--quick",
         "--steps", "256", "--n-envs", "2", "--n-steps", "128", "--batch-size", "64",
         "--advisor", "heuristic", "--kl-coef", "0.01", "--bc-samples", "3000", "--bc-epochs", "40",
         "--seed", "3", "--no-progress", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    card = json.loads((out / "model_card.json").read_text())
    assert card["advisor"] == "heuristic" and card["kl_coef"] == 0.01
    assert (out / "kl_start.zip").is_file()
    # the advice is in the input: imitation of the advisor is nearly exact
    assert card["behaviour_cloning"]["train_accuracy"] > 0.9
    agent = load(str(out))
    assert agent.advisor is not None and agent.advisor.name == "heuristic"
    assert agent.model.observation_space.shape == (LAYOUT.size + 47,)
    record = roles.play_game(
        "bang-dice", [str(out), "heuristic", "heuristic", "random", "heuristic"], 5, trained.make
    )
    assert len(record["won"]) == 5


def test_the_shipped_bang_model_is_listed_for_bang_only_and_plays() -> None:
    pytest.importorskip("sb3_contrib")
    from agents.model_card import read_card
    from agents.policy import MODELS_DIR, available_models

    assert "bang-dice-ppo" in available_models("bang-dice")
    assert "bang-dice-ppo" not in available_models()  # granujas tools never list it
    assert "ppo" in trained.available()
    card = read_card(MODELS_DIR / "bang-dice-ppo" / "model_card.json")
    assert card["env_version"] == "bang_dice_v0" and card["game"] == "bang-dice"
    assert card["observation_layout"] == layout_record(game="bang-dice")
    bot = trained.make("ppo", seed=0)
    assert bot.game == "bang-dice" and bot.decisions == frozenset(KINDS)
    seats = ["ppo", "heuristic", "heuristic", "heuristic", "heuristic"]
    first = roles.play_game("bang-dice", seats, 21, trained.make)
    again = roles.play_game("bang-dice", seats, 21, trained.make)
    assert first == again and any(first["won"])  # deterministic play: the same game twice


def test_bang_shaping_potential_is_the_sides_life_margin() -> None:
    """The shaping potential: the life of the seat's side minus the others', over the table's
    starting life (Sheriff with Deputies, the Outlaws together, a Renegade alone); the shaped
    rewards of an episode add up to its terminal reward less 0.5 x phi at the start (phi is 0 at
    the end)."""
    from granujas_env.bang_dice.engine.game import BangGame
    from granujas_env.bang_dice.spec import SPEC

    game = BangGame.from_position({
        "roles": ["sheriff", "renegade", "outlaw", "outlaw", "deputy"],
        "characters": ["bart_cassidy", "black_jack", "calamity_janet", "el_gringo", "jesse_jones"],
        "life": [5, 7, 2, 6, 4],
    })
    total = sum(game.max_life)
    assert SPEC.potential(game, 0) == SPEC.potential(game, 4) == (5 + 4 - 7 - 2 - 6) / total
    assert SPEC.potential(game, 2) == SPEC.potential(game, 3) == (2 + 6 - 5 - 7 - 4) / total
    assert SPEC.potential(game, 1) == (7 - 5 - 2 - 6 - 4) / total
    env = SingleSeatEnv(num_players=5, game="bang-dice", shaping=0.5, seed=4)
    for _ in range(3):
        env.reset()
        start = SPEC.potential(env.game, env.seat)
        done, rewards = False, []
        while not done:
            _, reward, done, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
            rewards.append(reward)
        assert sum(rewards) == pytest.approx(info["score"] - 0.5 * start)
        assert any(r not in (0.0, 1.0, -1.0) for r in rewards)
