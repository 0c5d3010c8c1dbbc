"""RLlib self-play (``train.rllib``): the multi-agent adapter, the masked module, the export.

(a) the adapter only ever exposes RLlib seats, with RLlib's ``observations``/``action_mask``
    keys, refuses an illegal id (naming the legal ones) and leaves the game unchanged;
(b) the masked module never samples an illegal id;
(c) ``python -m train.rllib --quick`` runs end to end on a local Ray (the adapter raises on any
    illegal id, so a finished run means none reached the env) and its ``model.zip`` loads as a
    PolicyAgent that plays legal actions for whole games;
(d) RLlib's own ``PettingZooEnv`` with its example ``ActionMaskingTorchRLModule`` works through
    ``train.rllib.pettingzoo_env`` (RLlib's observation keys): a masked game, and one PPO
    iteration;
(e) a local Ray start that times out is retried (``start_ray``).

Run on the Ray the ``[rllib]`` extra resolves (no upper pin; 2.60.0 here).

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
# the tests that start a local Ray share one worker process (pyproject: --dist loadgroup)
pytestmark = pytest.mark.xdist_group("ray")

import torch  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (  # noqa: E402
    ActionMaskingTorchRLModule,
)

import agents  # noqa: E402
import train.rllib  # noqa: E402
from agents.driver import play_game  # noqa: E402
from granujas_env.version import ENV_NAME  # noqa: E402
from train.rllib import (  # noqa: E402
    GranujasMultiAgentEnv,
    MaskedActorCritic,
    _scalars,
    module_of,
    pettingzoo_env,
    policy_mapping_fn,
    start_ray,
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


def test_rllib_pettingzoo_env_plays_a_masked_game_with_rllibs_action_masking_module() -> None:
    env = pettingzoo_env({"num_players": 2})
    space = env.observation_spaces["player_0"]
    assert set(space) == {"observations", "action_mask"}
    assert space["action_mask"].dtype == np.float32 and space["action_mask"].shape == (101,)
    torch.manual_seed(0)
    module = ActionMaskingTorchRLModule(
        observation_space=space,
        action_space=env.action_spaces["player_0"],
        model_config={"fcnet_hiddens": [16]},
    )
    obs, _ = env.reset(seed=3)
    game = env.env.unwrapped.game
    steps, done = 0, False
    while not done:
        (agent,) = obs
        assert space.contains(obs[agent])
        assert np.flatnonzero(obs[agent]["action_mask"]).tolist() == game.legal_actions()
        batch = {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in obs[agent].items()}}
        logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
        action = int(torch.distributions.Categorical(logits=logits).sample())
        obs, rewards, terminations, truncations, infos = env.step({agent: action})
        steps += 1
        done = terminations["__all__"]
    assert game.game_over and steps > 50
    assert rewards == {f"player_{s}": 1.0 if s == game.winner else -1.0 for s in range(2)}


PPO_ON_PETTINGZOO_ENV = """
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env
from train.rllib import pettingzoo_env, start_ray

register_env("granujas_pz", pettingzoo_env)
start_ray(num_cpus=2)
spec = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"fcnet_hiddens": [32]})
algo = (
    PPOConfig()
    .environment("granujas_pz", env_config={"num_players": 2}, disable_env_checking=True)
    .env_runners(num_env_runners=0)
    .multi_agent(policies={"main"}, policy_mapping_fn=lambda agent_id, *args, **kwargs: "main")
    .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"main": spec}))
    .training(train_batch_size_per_learner=256, minibatch_size=128, num_epochs=1)
    .build_algo()
)
result = algo.train()
print("sampled", result["env_runners"]["num_env_steps_sampled"])
algo.stop()
"""


def test_ppo_trains_on_rllibs_pettingzoo_env_with_the_action_masking_module() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PPO_ON_PETTINGZOO_ENV],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "sampled 256" in result.stdout
    # env() ends the game of an illegal id with a warning: the masked module never sampled one
    assert "Illegal move" not in result.stdout + result.stderr


class _Starts:
    """ray.init and ray.shutdown stand-ins: ``errors`` are raised by the first init calls."""

    def __init__(self, errors: list[Exception]) -> None:
        self.errors = errors
        self.calls: list[str] = []

    def init(self, **kwargs: object) -> None:
        self.calls.append("init")
        assert kwargs["include_dashboard"] is False
        if self.errors:
            raise self.errors.pop(0)

    def shutdown(self) -> None:
        self.calls.append("shutdown")


TIMEOUT = Exception(
    "The current node timed out during startup. This could happen because some of the raylet "
    "failed to startup or the GCS has become overloaded."
)


def test_start_ray_retries_a_local_start_that_timed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    starts = _Starts([TIMEOUT, TIMEOUT])
    monkeypatch.setattr(train.rllib, "ray", starts)
    start_ray(num_cpus=2)
    assert starts.calls == ["init", "shutdown", "init", "shutdown", "init"]
    starts = _Starts([TIMEOUT] * 3)  # three timeouts: the third is raised
    monkeypatch.setattr(train.rllib, "ray", starts)
    with pytest.raises(Exception, match="timed out during startup"):
        start_ray()
    assert starts.calls == ["init", "shutdown", "init", "shutdown", "init"]
    starts = _Starts([ConnectionError("no cluster at 10.0.0.1:6379")])  # other errors at once
    monkeypatch.setattr(train.rllib, "ray", starts)
    with pytest.raises(ConnectionError, match="no cluster"):
        start_ray(address="10.0.0.1:6379")
    assert starts.calls == ["init"]
