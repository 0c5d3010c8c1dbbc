"""RLlib self-play (``train.rllib``): the multi-agent adapter, the masked module, the export.

(a) the adapter only ever exposes RLlib seats, with RLlib's ``observations``/``action_mask``
    keys, refuses an illegal id (naming the legal ones) and leaves the game unchanged;
(b) the masked module never samples an illegal id;
(c) ``python -m train.rllib --quick`` runs end to end on a local Ray (the adapter raises on any
    illegal id, so a finished run means none reached the env) and its ``model.zip`` loads as a
    PolicyAgent that plays legal actions for whole games.

Skipped, with the reason, only when ray[rllib] is not installed (``pip install -e .[rllib]``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed: pip install -e '.[rllib]'")
pytest.importorskip("sb3_contrib", reason="the export needs sb3-contrib: pip install -e '.[train]'")

import torch  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402

import agents  # noqa: E402
from agents.driver import play_game  # noqa: E402
from granujas_env.version import ENV_NAME  # noqa: E402
from train.rllib import (  # noqa: E402
    GranujasMultiAgentEnv,
    MaskedActorCritic,
    _scalars,
    module_of,
    policy_mapping_fn,
)

ROOT = Path(__file__).resolve().parents[1]


def test_tensorboard_scalars_are_the_finite_numeric_leaves() -> None:
    result = {
        "a": {"b": 1, "nan": float("nan"), "inf": np.inf},
        "flag": True,
        "s": "x",
        "f": np.float32(2.5),
    }
    assert _scalars("", result, {}) == {"a/b": 1.0, "f": 2.5}


def _random_legal(obs: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def test_adapter_exposes_only_rllib_seats_and_refuses_illegal_ids() -> None:
    env = GranujasMultiAgentEnv(
        {"num_players": 3, "opponents": ["heuristic", "league"], "league_size": 2, "seed": 1}
    )
    rng = np.random.default_rng(0)
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        assert env.seat_agent[env.learner_seat] == f"main@{env.learner_seat}"
        done = False
        while not done:
            (agent,) = obs  # one seat decides at a time
            assert module_of(agent) in ("main", "league_0", "league_1")
            assert policy_mapping_fn(agent) == module_of(agent)
            assert set(obs[agent]) == {"observations", "action_mask"}
            legal = np.flatnonzero(obs[agent]["action_mask"])
            assert len(legal) >= 2  # forced moves are played by the adapter
            illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
            seat = env.env.game.current_player
            before = env.env.observe(env.env.possible_agents[seat])
            with pytest.raises(ValueError, match=f"illegal action {illegal} .*legal ids"):
                env.step({agent: illegal})
            after = env.env.observe(env.env.possible_agents[seat])
            assert env.env.game.current_player == seat
            assert np.array_equal(after["observation"], before["observation"])
            assert np.array_equal(after["action_mask"], before["action_mask"])
            obs, rewards, terms, truncs, infos = env.step({agent: _random_legal(obs[agent], rng)})
            done = terms["__all__"]
        learner = env.seat_agent[env.learner_seat]
        assert infos[learner]["won"] == int(env.env.game.winner == env.learner_seat)
        assert set(obs) == set(env.agents)  # a last observation for every RLlib seat
    assert env.rllib_actions > 0 and env.bot_actions + env.forced_actions > 0


def test_masked_module_never_samples_an_illegal_id() -> None:
    env = GranujasMultiAgentEnv({"num_players": 2, "opponents": ["main"], "seed": 0})
    space = env.observation_spaces["main@0"]
    module = MaskedActorCritic(
        observation_space=space,
        action_space=env.action_spaces["main@0"],
        model_config={"hiddens": [16]},
    )
    obs, _ = env.reset(seed=0)
    (agent,) = obs
    mask = torch.as_tensor(obs[agent]["action_mask"]).repeat(500, 1)
    batch = {
        Columns.OBS: {
            "observations": torch.as_tensor(obs[agent]["observations"]).repeat(500, 1),
            "action_mask": mask,
        }
    }
    logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
    samples = torch.distributions.Categorical(logits=logits).sample()
    assert set(samples.tolist()) <= set(np.flatnonzero(obs[agent]["action_mask"]).tolist())
    assert module.compute_values(batch).shape == (500,)


def test_quick_run_trains_checkpoints_and_exports_a_playable_policy(tmp_path: Path) -> None:
    out = tmp_path / "rllib"
    result = subprocess.run(
        [sys.executable, "-m", "train.rllib", "--quick", "--out", str(out), "--num-cpus", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows] == [1, 2]
    assert all(r["env_steps"] > 0 for r in rows) and rows[-1]["league_snapshots"] == 2
    assert (out / "checkpoints" / "iter_2").is_dir()
    assert any((out / "tb").iterdir())
    card = json.loads((out / "model_card.json").read_text())
    assert card["env_version"] == ENV_NAME and card["steps"] == rows[-1]["env_steps"]
    assert card["command"].startswith("python -m train.rllib --quick")

    bot = agents.load(str(out))  # the export is a MaskablePPO model.zip: PolicyAgent plays it
    for seed in range(2):
        record = play_game({"num_players": 2}, [bot, agents.make("heuristic")], seed=seed)
        assert record["scores"] is not None
    assert bot.policy_calls > 0
