"""The single-seat training wrapper, the training script and the PolicyAgent.

(a) every reward of the learner's seat is delivered, including rewards earned while other seats
    (or the learner's delegate) decide: a scripted game where the learner's bluffs are caught at
    the end of the day, under an env that pays reputation changes as they happen; and, over many
    random games, the learner's total equals the AEC env's final reward for its seat;
(b) ``action_masks()`` is exactly the learner's legal actions, only at its own decisions;
(c) ``python -m train.train --mode bluff --quick`` saves a model that ``PolicyAgent`` loads and
    plays legally.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.decisions import ALL_DECISIONS, MODES, resolve_decisions
from agents.policy import _decision_of
from granujas_env.engine import actions as A
from granujas_env.env import raw_env
from granujas_env.version import ENV_NAME
from train.single_seat import SingleSeatEnv

OBS_SIZE = raw_env(num_players=2).observation_space("player_0")["observation"].shape[0]
N_ACTIONS = raw_env(num_players=2).action_space("player_0").n

ROOT = Path(__file__).resolve().parents[1]

CARD0 = 2  # action id of poker card 0 (ids 2-8: 0, A, 2..6)
SLOT_A = 9  # action id of slot A (ids 9-14: A, 2..6)


def first_legal(observation, view=None) -> int:
    """Pass when allowed, else the lowest legal id (a plain callable opponent)."""
    legal = np.flatnonzero(observation["action_mask"])
    return 0 if 0 in legal else int(legal[0])


def challenger(observation, view=None) -> int:
    """Challenges every card it can (confirm), otherwise plays like :func:`first_legal`."""
    legal = np.flatnonzero(observation["action_mask"])
    return A.CONFIRM if A.CONFIRM in legal else first_legal(observation)


class ReputationRewardEnv(raw_env):
    """raw_env that also pays every seat its reputation change at every step (so rewards land
    while other seats decide) and logs ``(mover, rewards)`` of every step."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.log: list[tuple[str, dict[str, float]]] = []

    def reset(self, seed=None, options=None) -> None:
        super().reset(seed=seed, options=options)
        self.log = []

    def step(self, action) -> None:
        game = self.game
        mover = self.agent_selection
        before = [p.reputation for p in game.players]
        super().step(action)
        for i, agent in enumerate(self.possible_agents):
            base = self.rewards[agent] if game.game_over else 0.0
            self.rewards[agent] = base + float(game.players[i].reputation - before[i])
        self.log.append((mover, dict(self.rewards)))


def bluffing_learner(env: SingleSeatEnv, chosen: dict) -> int:
    """Plays every card into a slot that is not its value; never challenges."""
    legal = np.flatnonzero(env.action_masks())
    kind = env.game.stack[-1].kind
    if kind == "plan_card":
        chosen["card"] = int(legal[0]) - CARD0  # card value (0 = the 0, 1 = A)
        return int(legal[0])
    if kind == "plan_slot":
        bluffs = [a for a in legal if int(a) - SLOT_A + 1 != chosen["card"]]
        return int(bluffs[0] if bluffs else legal[0])
    return 0 if 0 in legal else int(legal[0])


# (players, learner seat, seed, who ends the day with the reveals): a rival's move, or a move of
# the learner's seat played by its delegate (not one of the learner's own steps either way)
SCRIPTED = [(2, 1, 2, "rival"), (3, 0, 3, "rival"), (2, 0, 3, "delegate")]


@pytest.mark.parametrize("players,learner_seat,seed,ender", SCRIPTED)
def test_caught_bluff_penalty_reaches_the_learner(
    players: int, learner_seat: int, seed: int, ender: str
) -> None:
    envs: list[ReputationRewardEnv] = []

    def env_fn(n: int) -> ReputationRewardEnv:
        envs.append(ReputationRewardEnv(num_players=n))
        return envs[-1]

    env = SingleSeatEnv(
        num_players=players,
        decisions="bluff",
        opponents=[challenger],
        delegate=first_legal,
        seat=learner_seat,
        env_fn=env_fn,
        seed=seed,
    )
    inner = envs[0]
    me = inner.possible_agents[learner_seat]
    env.reset(seed=seed)
    delivered, chosen = [], {}
    learner_turns = []  # index in inner.log of each learner step
    done = False
    while not done:
        learner_turns.append(len(inner.log))
        _, reward, done, _, _ = env.step(bluffing_learner(env, chosen))
        delivered.append(reward)
    game = env.game
    caught = [e for e in game.history if e[0] == "reveal" and e[2] == learner_seat and e[5]]
    assert caught, "the scripted learner's bluffs were never caught"
    # the caught-bluff penalties were paid on steps the learner did not take
    penalties = [i for i, (_, r) in enumerate(inner.log) if r[me] < 0]
    assert penalties and not set(penalties) <= set(learner_turns)
    movers = {inner.log[i][0] for i in penalties if i not in learner_turns}
    if ender == "rival":
        assert movers - {me}, "expected a penalty paid on a rival's move"
    else:
        assert movers == {me}
    # every reward of the learner's seat reached it, and nothing else did
    assert sum(delivered) == pytest.approx(sum(r[me] for _, r in inner.log))
    assert env.episode_reward == pytest.approx(sum(delivered))
    # a wrapper that only returns the reward of the learner's own steps loses them
    own_steps_only = sum(inner.log[i][1][me] for i in learner_turns)
    assert own_steps_only > sum(delivered)


@pytest.mark.parametrize("reward", ["win", "score"])
@pytest.mark.parametrize("mode", sorted(MODES))
def test_learner_total_equals_final_reward_over_random_games(mode: str, reward: str) -> None:
    env = SingleSeatEnv(
        num_players=(2, 3, 4),
        decisions=mode,
        opponents=["random"],
        delegate="random",
        reward=reward,
        seed=11,
    )
    rng = random.Random(5)
    env.reset(seed=5)
    seats = set()
    for _ in range(25):
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, r, done, truncated, info = env.step(int(rng.choice(legal)))
            assert not truncated
            total += r
        game = env.game
        values = game.returns() if reward == "win" else game.score_margins()
        assert total == pytest.approx(values[env.seat])
        assert total == pytest.approx(env.env._cumulative_rewards[env.agent])
        assert info["won"] == int(game.winner == env.seat)
        seats.add((game.num_players, env.seat))
        env.reset()
    assert len(seats) > 3  # the seat rotates and the player count varies


def test_shaping_only_redistributes_the_reward() -> None:
    env = SingleSeatEnv(
        num_players=4, decisions="full", opponents=["random"], reward="score", shaping=1.0, seed=2
    )
    rng = random.Random(2)
    for episode in range(10):
        env.reset(seed=100 + episode)
        phi0, total, done = env._phi, 0.0, False
        while not done:
            _, r, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            total += r
        assert total == pytest.approx(env.game.score_margins()[env.seat] - phi0)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_action_masks_are_the_learners_legal_actions(mode: str) -> None:
    env = SingleSeatEnv(
        num_players=(2, 4), decisions=mode, opponents=["random"], delegate="random", seed=4
    )
    kinds = resolve_decisions(mode)
    rng = random.Random(4)
    obs, info = env.reset(seed=4)
    steps = 0
    for _ in range(8):
        done = False
        while not done:
            game = env.game
            mask = env.action_masks()
            assert mask.dtype == bool and mask.shape == (env.action_space.n,)
            assert game.current_player == env.seat
            assert info["decision"] == game.stack[-1].kind and info["decision"] in kinds
            assert np.flatnonzero(mask).tolist() == sorted(game.legal_actions())
            aec = env.env.observe(env.agent)
            assert np.array_equal(aec["action_mask"].astype(bool), mask)
            assert np.array_equal(obs, aec["observation"])
            assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
            obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        assert not env.action_masks().any()
        obs, info = env.reset()
    assert steps > 0


def test_demonstrations_for_the_imitation_warm_start() -> None:
    env = SingleSeatEnv(num_players=3, decisions="bluff", opponents=["random"], seed=1)
    data = env.collect_demonstrations(60, gamma=1.0)
    k = len(data["actions"])
    assert k >= 60
    assert data["obs"].shape == (k, env.observation_space.shape[0])
    assert data["masks"].shape == (k, env.action_space.n)
    assert data["masks"][np.arange(k), data["actions"]].all()  # the teacher played legally
    assert data["returns"].shape == (k,)
    # gamma = 1: the last game's first return is its whole reward
    assert data["returns"][-env.learner_steps] == pytest.approx(env.episode_reward)


def test_decisions_modes() -> None:
    assert resolve_decisions("full") == ALL_DECISIONS
    assert resolve_decisions(None) == ALL_DECISIONS
    assert resolve_decisions("bluff") == {"plan_card", "plan_slot", "challenge"}
    assert {"peek_target", "mark_face", "steal_target", "abandon", "sheriff_option"} <= MODES[
        "safe"
    ]
    assert MODES["safe"] <= ALL_DECISIONS
    with pytest.raises(ValueError):
        resolve_decisions("nonsense")
    with pytest.raises(ValueError):
        resolve_decisions({"not_a_kind"})


def test_decision_kind_decoded_from_the_observation() -> None:
    env = raw_env(num_players=3)
    env.reset(seed=9)
    rng = random.Random(9)
    while not env.game.game_over:
        obs = env.observe(env.agent_selection)
        assert _decision_of(obs) == env.game.stack[-1].kind
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_agents_import_without_torch() -> None:
    code = (
        "import sys; sys.modules['torch'] = None; sys.modules['sb3_contrib'] = None; "
        "sys.modules['stable_baselines3'] = None; "
        "import agents, agents.policy, train.single_seat; "
        "assert 'torch' not in [m for m in sys.modules if sys.modules[m] is not None]; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "ok" in out.stdout


# ------------------------------------------------------------------ needs torch + sb3-contrib
def test_subproc_vec_env_action_masks() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from train.train import make_env_fn

    fns = [
        make_env_fn(
            i,
            mode="bluff",
            players=(4,),
            length="short",
            opponents=["random"],
            weights=None,
            delegate="random",
            reward="win",
            shaping=0.0,
            seed=0,
        )
        for i in range(2)
    ]
    vec = SubprocVecEnv(fns)
    try:
        vec.reset()
        for _ in range(50):
            masks = get_action_masks(vec)
            assert masks.shape == (2, A.NUM_ACTIONS) and masks.any(axis=1).all()
            actions = [int(np.random.default_rng(0).choice(np.flatnonzero(m))) for m in masks]
            vec.step(np.array(actions))
    finally:
        vec.close()


def _train(*args: str) -> subprocess.CompletedProcess:
    """``python -m train.train ARGS``, checked to exit with status 0."""
    cmd = [sys.executable, "-m", "train.train", *args]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def quick_model(tmp_path_factory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    out = tmp_path_factory.mktemp("quick") / "bluff"
    _train("--mode", "bluff", "--quick", "--seed", "1", "--out", str(out), "--no-progress",
           "--bc-samples", "300")
    return out


def test_quick_training_saves_model_and_card(quick_model: Path) -> None:
    model = quick_model / "model.zip"
    assert model.is_file() and model.stat().st_size < 5_000_000
    card = json.loads((quick_model / "model_card.json").read_text())
    for key in ("command", "steps", "wall_time_s", "machine", "opponents", "seed", "decisions"):
        assert key in card, key
    assert card["steps"] >= 2048 and card["seed"] == 1 and card["mode"] == "bluff"
    # --quick runs vectorised: 4 envs, in this process unless the machine has the cores
    from train.train import choose_vec

    hyper = card["hyperparameters"]
    assert hyper["n_envs"] == 4 and hyper["n_steps"] == 256
    assert hyper["vec_env"] == choose_vec("auto", 4, os.cpu_count())
    assert set(card["decisions"]) == MODES["bluff"]
    from agents.model_card import layout_record

    assert card["env_version"] == ENV_NAME and card["observation_layout"] == layout_record()
    assert card["machine"]["cpu_count"] >= 1
    assert card["behaviour_cloning"]["samples"] >= 300
    assert any((quick_model / "checkpoints").glob("ckpt_*_steps.zip"))
    assert any((quick_model / "tb").rglob("events.out.tfevents.*"))


def test_resume_from_checkpoint(quick_model: Path, tmp_path: Path) -> None:
    ckpt = sorted((quick_model / "checkpoints").glob("ckpt_*_steps.zip"))[-1]
    out = tmp_path / "resumed"
    _train("--mode", "bluff", "--quick", "--steps", "512", "--resume", str(ckpt), "--out", str(out),
           "--no-progress")
    card = json.loads((out / "model_card.json").read_text())
    steps_before = int(ckpt.stem.split("_")[1])
    assert card["steps"] >= steps_before + 512 and card["resumed_from"] == str(ckpt)


def test_resume_applies_the_ppo_flags_given_and_keeps_the_saved_ones(
    quick_model: Path, tmp_path: Path
) -> None:
    """``--resume`` used to keep every saved PPO setting, ignoring ``--ent-coef``/``--lr``...,
    while the card recorded the flags' defaults. Flags given now change the resumed model; the
    others keep its saved values; the card records what the model trains with."""
    from sb3_contrib import MaskablePPO

    ckpt = sorted((quick_model / "checkpoints").glob("ckpt_*_steps.zip"))[-1]
    changed = tmp_path / "changed"
    _train("--mode", "bluff", "--quick", "--steps", "256", "--resume", str(ckpt), "--out",
           str(changed), "--no-progress", "--ent-coef", "0.05", "--lr", "0.0003",
           "--n-epochs", "3", "--clip-range", "0.2")
    expected = {"ent_coef": 0.05, "learning_rate": 0.0003, "n_epochs": 3, "clip_range": 0.2}
    card = json.loads((changed / "model_card.json").read_text())
    assert {k: card["hyperparameters"][k] for k in expected} == expected
    saved = sorted((changed / "checkpoints").glob("ckpt_*_steps.zip"))[-1]
    model = MaskablePPO.load(saved, device="cpu")
    assert (model.ent_coef, model.learning_rate, model.n_epochs) == (0.05, 0.0003, 3)
    assert model.clip_range(1.0) == 0.2
    # resumed again without those flags: the saved values, not the flags' defaults
    kept = tmp_path / "kept"
    _train("--mode", "bluff", "--quick", "--steps", "256", "--resume", str(saved), "--out",
           str(kept), "--no-progress")
    card = json.loads((kept / "model_card.json").read_text())
    del expected["n_epochs"]  # --quick sets its own n_steps, batch size and epochs
    assert {k: card["hyperparameters"][k] for k in expected} == expected
    assert card["hyperparameters"]["net_arch"] == [64, 64]


def test_policy_agent_plays_legally(quick_model: Path) -> None:
    import agents
    from agents.driver import play_game
    from agents.policy import PolicyAgent, load

    bot = PolicyAgent(quick_model / "model.zip")
    assert bot.decisions == MODES["bluff"] and bot.delegate is not None
    for seed in range(4):
        rivals = [agents.make("random", seed=seed + i) for i in range(3)]
        seats = rivals[: seed % 4] + [bot] + rivals[seed % 4 :]
        play_game({"num_players": 4}, seats, seed=seed)  # raw_env raises on an illegal action
    assert bot.policy_calls > 0 and bot.delegated_calls > 0
    # numpy inference = the model's own masked argmax
    full = load(str(quick_model / "model.zip"), decisions="full")
    env = raw_env(num_players=2)
    env.reset(seed=0)
    rng = random.Random(0)
    while not env.game.game_over:
        obs = env.observe(env.agent_selection)
        legal = np.flatnonzero(obs["action_mask"])
        mine = full.act(obs)
        ref, _ = full.model.predict(
            obs["observation"], action_masks=obs["action_mask"].astype(bool), deterministic=True
        )
        assert mine == int(ref) and mine in legal
        env.step(int(rng.choice(legal)))


def test_checkpoint_as_opponent_and_league(quick_model: Path, tmp_path: Path) -> None:
    """A saved model is a pool entry (frozen checkpoint); ``--league`` adds snapshots."""
    env = SingleSeatEnv(
        num_players=3, decisions="full", opponents=[str(quick_model / "model.zip")], seed=0
    )
    env.reset(seed=0)
    rng = random.Random(0)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    assert info["opponents"] == [str(quick_model / "model.zip")] * 2
    assert all(bot.policy_calls > 0 for bot in env.opponents if bot is not None)
    out = tmp_path / "league"
    _train("--mode", "full", "--league", "--quick", "--steps", "1024", "--league-every", "512",
           "--advisor", "heuristic", "--bc-samples", "200", "--out", str(out), "--no-progress")
    card = json.loads((out / "model_card.json").read_text())
    assert card["league"] and len(card["league_snapshots"]) >= 1
    assert "random" in card["opponents"]  # --league default pool: heuristic (if registered), random
    assert card["advisor"] == "heuristic"
    # a league snapshot reads its advisor from the run's card, one folder up, and plays legally
    from agents.driver import play_game
    from agents.policy import PolicyAgent

    snapshot = PolicyAgent(card["league_snapshots"][-1])
    assert snapshot.advisor is not None and snapshot.delegate is None
    assert snapshot.model.observation_space.shape[0] == OBS_SIZE + N_ACTIONS
    play_game({"num_players": 2}, [snapshot, PolicyAgent(out / "model.zip")], seed=3)
    assert snapshot.policy_calls > 0


def test_resumed_league_run_snapshots_every_league_every_steps(
    quick_model: Path, tmp_path: Path
) -> None:
    """``--resume`` with ``--league``: snapshots come ``--league-every`` steps apart from the
    resumed step count on (not one per step until a counter from 0 catches up). With
    ``--opponents-for``, the snapshots join the 4-player pool too (the card records it)."""
    ckpt = sorted((quick_model / "checkpoints").glob("ckpt_*_steps.zip"))[-1]
    start = int(ckpt.stem.split("_")[1])
    out = tmp_path / "resumed-league"
    _train("--mode", "bluff", "--quick", "--steps", "1024", "--league", "--league-every", "512",
           "--players", "2,4", "--opponents", "random", "--opponents-for", "4=heuristic",
           "--resume", str(ckpt), "--out", str(out), "--no-progress")
    steps = sorted(int(p.stem.split("_")[1]) for p in (out / "league").glob("snapshot_*.zip"))
    assert 1 <= len(steps) <= 2, steps
    assert steps[0] >= start + 512 and all(b - a >= 512 for a, b in zip(steps, steps[1:]))
    card = json.loads((out / "model_card.json").read_text())
    assert card["opponents"] == ["random"] and card["opponents_for"] == {"4": ["heuristic"]}


def test_pools_by_player_count() -> None:
    """``opponents_by_players``: games of that many players draw only from their own pool, the
    others from ``opponents``; ``add_opponent`` grows every pool; ``set_opponents`` replaces
    them all; a pool for a count the env does not play is refused."""
    env = SingleSeatEnv(
        num_players=(2, 4), decisions="bluff", opponents=["random"],
        opponents_by_players={4: ["heuristic", "style_honest"]}, seed=0,
    )
    drawn: dict[int, set[str]] = {2: set(), 4: set()}
    for i in range(40):
        env.reset(seed=i, options={"num_players": 2 + 2 * (i % 2)})
        drawn[len(env.opponent_specs) + 1].update(env.opponent_specs)
    assert drawn == {2: {"random"}, 4: {"heuristic", "style_honest"}}
    env.add_opponent("style_always_bluff", weight=3)
    assert env.pool == ["random", "style_always_bluff"] and env.pool_weights == [1.0, 3.0]
    assert env.pools_by_players[4] == (
        ["heuristic", "style_honest", "style_always_bluff"], [1.0, 1.0, 3.0]
    )
    env.set_opponents(["random"], None, {4: (["heuristic"], [2.0])})
    assert env.pools_by_players == {4: (["heuristic"], [2.0])}
    env.set_opponents(["random"])
    assert env.pools_by_players == {}
    for pools, message in [
        ({3: ["heuristic"]}, "a pool for 3-player games, but this env plays 2, 4 players"),
        ({4: []}, "the pool for 4-player games is empty"),
    ]:
        with pytest.raises(ValueError, match=message):
            SingleSeatEnv(num_players=(2, 4), opponents_by_players=pools)
    with pytest.raises(ValueError, match="one weight per opponent"):
        env.set_opponents(["heuristic"], None, {4: (["heuristic"], [1.0, 2.0])})
    assert env.pool == ["random"] and env.pools_by_players == {}  # unchanged


def test_newest_models_by_steps_then_time(tmp_path: Path) -> None:
    """``--follow`` picks models by the step count in their names (not the text order), files
    without one by modification time; a missing folder is empty."""
    from train.train import newest_models

    assert newest_models(tmp_path / "not-yet", 2) == []
    for name in ("ckpt_900_steps.zip", "ckpt_10000_steps.zip", "ckpt_2000_steps.zip", "a.txt"):
        (tmp_path / name).write_bytes(b"")
    assert newest_models(tmp_path, 2) == [
        str(tmp_path / f"ckpt_{n}_steps.zip") for n in (2000, 10000)
    ]
    assert newest_models(tmp_path, 5)[0] == str(tmp_path / "ckpt_900_steps.zip")


def test_follow_puts_another_runs_newest_models_in_the_pool(
    quick_model: Path, tmp_path: Path
) -> None:
    """``--follow DIR,DIR``: the newest ``--follow-keep`` loadable models of each folder join the
    pool (the card lists them); a file that does not load (still being written) is skipped and
    said once."""
    league = tmp_path / "league"
    league.mkdir()
    model = (quick_model / "model.zip").read_bytes()
    for steps in (100, 300, 200):
        (league / f"snapshot_{steps}_steps.zip").write_bytes(model)
    (league.parent / "model_card.json").write_text((quick_model / "model_card.json").read_text())
    (league / "snapshot_400_steps.zip").write_bytes(model[:1000])  # half written
    other = tmp_path / "other"
    other.mkdir()
    (other / "ckpt_5_steps.zip").write_bytes(model)
    out = tmp_path / "follower"
    args = ["--mode", "bluff", "--quick", "--steps", "512", "--follow", f"{league},{other}",
            "--follow-keep", "3", "--follow-weight", "4", "--out", str(out), "--no-progress"]
    result = _train(*args)
    card = json.loads((out / "model_card.json").read_text())
    assert card["follow"] == [str(league), str(other)]
    assert card["followed_models"] == [
        *(str(league / f"snapshot_{n}_steps.zip") for n in (200, 300)),
        str(other / "ckpt_5_steps.zip"),
    ]
    assert result.stdout.count("--follow: skipping") == 1
    assert "snapshot_400_steps.zip" in result.stdout
    cmd = [sys.executable, "-m", "train.train", *args, "--follow-keep", "0"]
    bad = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "--follow-keep must be at least 1, got 0" in bad.stderr


def _advice_env(decisions: str) -> SingleSeatEnv:
    return SingleSeatEnv(
        num_players=3, decisions=decisions, opponents=["random"], advisor="heuristic", seed=2
    )


@pytest.mark.parametrize("decisions", ["full", "bluff"])
def test_advice_is_the_advisors_legal_choice(decisions: str) -> None:
    """The advised observation = the AEC observation + a one-hot of what a heuristic in the
    learner's seat would play now; the learner may overrule it."""
    import agents
    from granujas_env.view import seat_view

    env = _advice_env(decisions)
    assert env.observation_space.shape == (OBS_SIZE + N_ACTIONS,)
    obs, _ = env.reset(seed=4)
    rng = random.Random(4)
    checked = overruled = 0
    for _ in range(2):
        done = False
        while not done:
            assert env.observation_space.contains(obs)
            base = env.env.observe(env.agent)
            assert np.array_equal(obs[:OBS_SIZE], base["observation"])
            hint = obs[OBS_SIZE:]
            assert hint.sum() == 1 and env.action_masks()[int(np.argmax(hint))]
            assert int(np.argmax(hint)) == env.advice
            if env.game.stack[-1].kind not in ("plan_slot",):  # stateless decisions: a fresh
                fresh = agents.make("heuristic", seed=0)  # heuristic agrees
                assert fresh.act(base, view=seat_view(env.game, env.seat)) == env.advice
                checked += 1
            legal = np.flatnonzero(env.action_masks())
            action = int(rng.choice(legal))
            overruled += action != env.advice
            obs, _, done, _, _ = env.step(action)
        assert not obs[OBS_SIZE:].any()  # game over: no advice
        obs, _ = env.reset()
    assert checked > 20 and overruled > 5


def test_demonstrations_with_an_advisor_copy_the_advice() -> None:
    env = _advice_env("full")
    data = env.collect_demonstrations(80, gamma=1.0)
    advice = np.argmax(data["obs"][:, OBS_SIZE:], axis=1)
    assert np.array_equal(advice, data["actions"])
    assert data["masks"][np.arange(len(advice)), data["actions"]].all()


def test_demonstrations_with_an_advisor_and_another_teacher() -> None:
    """A teacher (e.g. a trained model that reads its own advice) gets the AEC observation."""
    seen = []

    def last_legal(observation, view) -> int:
        seen.append(observation["observation"].shape)
        return int(np.flatnonzero(observation["action_mask"])[-1])

    env = _advice_env("full")
    data = env.collect_demonstrations(40, teacher=last_legal)
    assert set(seen) == {(OBS_SIZE,)} and data["obs"].shape[1] == OBS_SIZE + N_ACTIONS
    assert np.array_equal(data["actions"], [np.flatnonzero(m)[-1] for m in data["masks"]])


def test_heuristic_plans_afresh_when_another_card_was_chosen() -> None:
    """An advisor heuristic whose plan_card advice was overruled picks the slot for the card
    actually chosen (as a fresh heuristic would), not the slot it had planned for its own card."""
    import copy

    import agents
    from granujas_env.view import seat_view

    def replay(seed: int, actions: list[int]):
        env = raw_env(num_players=3)
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
        return env

    compared = differs = 0
    for seed in range(3):
        env, history = replay(seed, []), []
        bots = [agents.make("heuristic", seed=i) for i in range(3)]
        while not env.game.game_over:
            game, seat = env.game, env.game.current_player
            obs, view = env.observe(env.agent_selection), seat_view(env.game, seat)
            if game.stack[-1].kind == "plan_card":
                advisor = copy.deepcopy(bots[seat])
                advised = advisor.act(obs, view=view)
                planned = A.SLOT + advisor._plan_slot
                for other in [a for a in game.legal_actions() if a != advised]:
                    branch, mine = replay(seed, [*history, other]), copy.deepcopy(advisor)
                    if branch.game.stack[-1].kind != "plan_slot":
                        continue
                    obs2 = branch.observe(branch.agent_selection)
                    view2 = seat_view(branch.game, seat)
                    fresh = agents.make("heuristic", seed=0).act(obs2, view=view2)
                    assert mine.act(obs2, view=view2) == fresh
                    compared += 1
                    differs += fresh != planned and planned in np.flatnonzero(obs2["action_mask"])
            action = int(bots[seat].act(obs, view=view))
            history.append(action)
            env.step(action)
    assert compared >= 10 and differs >= 1  # cases where the planned slot would be wrong


def test_sigterm_stops_and_saves(tmp_path: Path) -> None:
    """``kill`` (SIGTERM) ends a run like --minutes does: model, checkpoint and card saved."""
    import signal
    import time

    pytest.importorskip("sb3_contrib")
    out = tmp_path / "stopped"
    cmd = [sys.executable, "-m", "train.train", "--mode", "bluff", "--quick", "--n-envs", "2"]
    cmd += ["--steps", "10000000", "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 120
        while not (out / "tb").exists() and time.time() < deadline:  # PPO has started
            time.sleep(0.2)
        time.sleep(2)
        proc.send_signal(signal.SIGTERM)
        output = proc.communicate(timeout=120)[0].decode()
    finally:
        proc.kill()
    assert proc.returncode == 0, output
    card = json.loads((out / "model_card.json").read_text())
    assert card["status"] == "stopped: signal SIGTERM"
    assert 0 < card["steps"] < 10_000_000 and (out / "model.zip").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "5"], "--players must be 2, 3 or 4"),
        (["--players", "2,x"], "--players must be 2, 3 or 4"),
        (["--players", ""], "--players must be 2, 3 or 4"),
        (["--minutes", "0"], "--minutes must be a positive number"),
        (["--minutes", "nan"], "--minutes must be a positive number"),
        (["--steps", "0"], "--steps must be at least 1"),
        (["--resume", "runs/no/such/ckpt.zip"], "--resume: no model at 'runs/no/such/ckpt.zip'"),
        (["--resume", "runs/no/such/ckpt.zip", "--net", "32,32"],
         "--net cannot change a resumed model's network"),
        (["--opponents", "heuristic,nobody"], "--opponents: unknown agent 'nobody'"),
        (["--opponents-for", "2=heuristic"],
         "--opponents-for takes N=SPECS with N one of --players (4) and at least one spec; "
         "got '2=heuristic'"),
        (["--opponents-for", "4"], "--opponents-for takes N=SPECS"),
        (["--opponents-for", "4=heuristic", "--opponents-for", "4=random"],
         "--opponents-for: 4-player games are given two pools"),
        (["--players", "2,4", "--opponents-for", "4=heuristic,nobody"],
         "--opponents-for 4: unknown agent 'nobody'"),
        (["--advisor", "no.such.module:Bot"], "--advisor: agent 'no.such.module:Bot'"),
    ],
)
def test_train_rejects_bad_arguments_before_creating_the_run(
    args: list[str], message: str, tmp_path: Path, capsys
) -> None:
    pytest.importorskip("sb3_contrib")
    from train.train import main

    out = tmp_path / "run"
    with pytest.raises(SystemExit) as stop:
        main(["--mode", "bluff", "--quick", "--out", str(out), *args])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and ".zip.zip" not in err
    assert not out.exists()


def test_train_refuses_to_resume_a_model_of_another_layout(tmp_path: Path, capsys) -> None:
    """A model whose card records another observation layout can be played, not trained on."""
    pytest.importorskip("sb3_contrib")
    import shutil

    from agents.model_card import layout_record
    from agents.policy import MODELS_DIR
    from train.train import main

    card = json.loads((MODELS_DIR / "bluffer" / "model_card.json").read_text())
    layout = layout_record()
    kinds = layout["decision_kinds"][1:]  # as if trained before the first kind existed
    card["observation_layout"] = dict(
        layout,
        decision_kinds=kinds,
        pieces=[[n, len(kinds) if n == "decision_kind" else s] for n, s in layout["pieces"]],
        size=layout["size"] - 1,
    )
    folder = tmp_path / "old"
    folder.mkdir()
    shutil.copy(MODELS_DIR / "bluffer" / "model.zip", folder / "model.zip")
    (folder / "model_card.json").write_text(json.dumps(card))
    out = tmp_path / "run"
    with pytest.raises(SystemExit):
        main(["--mode", "bluff", "--quick", "--resume", str(folder), "--out", str(out)])
    assert "another observation layout" in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize(
    "options",
    [
        {"deterministic": True},
        {"deterministic": False},
        {"temperature": {"plan_slot": 3.0, "plan_card": 2.0}},
    ],
    ids=["deterministic", "sampled", "tempered"],
)
def test_batched_policy_decisions_equal_one_by_one(options: dict) -> None:
    """Four games in lockstep, as in a vectorised run: each game's frozen model decides through
    one batched pass (:func:`act_together`, :meth:`PolicyAgent.act_batch`) and through its
    own ``act``; every action (sampled ones, at a play temperature too) is the same."""
    pytest.importorskip("sb3_contrib")
    from agents.policy import act_together, load
    from granujas_env.view import seat_view

    def agents_for(seed: int) -> list:
        # bluffer: its own kinds, an advisor and a delegate; full: every kind; one model file
        # shared by two games, so their decisions share a forward pass
        return [
            load(name, seed=seed + g, **options)
            for g, name in enumerate(["bluffer", "full", "bluffer", "full"])
        ]

    single, batched, lone = agents_for(5), agents_for(5), load("full", deterministic=False, seed=9)
    envs = [raw_env(num_players=2) for _ in range(4)]
    for g, env in enumerate(envs):
        env.reset(seed=100 + g)
    rng = random.Random(0)
    decided = 0
    for _ in range(25):  # rounds: enough decisions of every kind mix, quick on a loaded machine
        live = [g for g, env in enumerate(envs) if not env.game.game_over]
        requests = []
        for g in live:  # seat 0 is the model's; seat 1 plays at random
            env = envs[g]
            while not env.game.game_over and env.game.current_player == 1:
                mask = env.observe(env.agent_selection)["action_mask"]
                env.step(int(rng.choice(np.flatnonzero(mask))))
            if not env.game.game_over:
                requests.append((g, env.observe(env.agent_selection), seat_view(env.game, 0)))
        ones = [single[g].act(obs, view=view) for g, obs, view in requests]
        together = act_together([(batched[g], obs, view) for g, obs, view in requests])
        assert together == ones
        for (g, _, _), action in zip(requests, ones):
            envs[g].step(action)
        decided += len(requests)
    assert decided == 100
    assert [a.policy_calls for a in batched] == [a.policy_calls for a in single]
    # one agent, several decisions at once
    env = raw_env(num_players=2)
    env.reset(seed=1)
    obs = [env.observe(env.agent_selection)] * 3
    views = [seat_view(env.game, env.game.current_player)] * 3
    reference = load("full", deterministic=False, seed=9)
    expected = [reference.act(o, view=v) for o, v in zip(obs, views)]
    assert lone.act_batch(obs, views) == expected
    with pytest.raises(ValueError, match="3 observations but 2 views"):
        lone.act_batch(obs, views[:2])


def test_vec_env_choice() -> None:
    """Chunked worker processes only for several envs on 4+ usable cores; an explicit choice is
    kept; each kind builds its vectorised env."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from train.train import (
        CHUNKED_MIN_CPUS,
        build_parser,
        choose_vec,
        make_env_fn,
        make_vec_env,
        usable_cpus,
    )
    from train.vec import ChunkedSubprocVecEnv

    assert CHUNKED_MIN_CPUS == 4
    assert [choose_vec("auto", 8, cpus) for cpus in (None, 1, 2, 3, 4, 16)] == [
        "dummy",
        "dummy",
        "dummy",
        "dummy",
        "chunked",
        "chunked",
    ]
    assert choose_vec("auto", 1, 16) == "dummy"
    assert choose_vec("subproc", 2, 1) == "subproc" and choose_vec("dummy", 8, 16) == "dummy"
    assert choose_vec("chunked", 8, 2) == "chunked"
    assert 1 <= usable_cpus() <= (os.cpu_count() or 1)
    text = " ".join(build_parser().format_help().split())
    assert "(default 8; 4 with --quick)" in text and "at least 4 usable CPU cores" in text
    fns = [
        make_env_fn(
            i, mode="bluff", players=(2,), length="short", opponents=["random"], weights=None,
            delegate="random", reward="win", shaping=0.0, seed=0,
        )
        for i in range(3)
    ]
    chunked = make_vec_env("chunked", fns, cpus=2)
    try:
        assert isinstance(chunked, ChunkedSubprocVecEnv)
        assert [list(c) for c in chunked.chunks] == [[0, 1], [2]]
    finally:
        chunked.close()
    assert type(make_vec_env("dummy", fns, cpus=2)) is DummyVecEnv


def _bare_vec_env(n: int, mode: str, advisor: str | None):
    from stable_baselines3.common.vec_env import DummyVecEnv

    from train.train import make_env_fn

    return DummyVecEnv(
        [
            make_env_fn(
                i, mode=mode, players=(2,), length="short", opponents=["random"],
                weights=None, delegate="heuristic", reward="win", shaping=0.0, seed=3,
                advisor=advisor,
            )
            for i in range(n)
        ]
    )


def test_init_from_a_model_of_an_older_layout_plays_as_it() -> None:
    """``--init-from full-v1`` (trained before ``end_of_day_order`` existed, so its card's layout
    lacks that one-hot input): after the weight transplant the fresh model on today's layout
    gives the shipped model's action probabilities and values on every observation of a game,
    and the inputs the shipped model never saw have zero weight."""
    pytest.importorskip("sb3_contrib")
    import torch

    from agents.policy import PolicyAgent, resolve_model
    from train.train import build_parser, new_model, transplant

    source = PolicyAgent(resolve_model("full-v1"))
    index = torch.as_tensor(source.input_index)
    vec_env = _bare_vec_env(1, "full", "heuristic")
    model = new_model(build_parser().parse_args(["--advisor", "heuristic"]), vec_env)
    transplant(source, model)
    size = int(np.prod(model.observation_space.shape))
    unseen = torch.as_tensor(np.setdiff1d(np.arange(size), source.input_index))
    assert unseen.numel() >= 1
    for net in (model.policy.mlp_extractor.policy_net, model.policy.mlp_extractor.value_net):
        assert torch.count_nonzero(net[0].weight[:, unseen]) == 0
    obs = vec_env.reset()
    for _ in range(40):
        masks = np.stack(vec_env.env_method("action_masks"))
        new_in, old_in = torch.as_tensor(obs), torch.as_tensor(obs)[:, index]
        with torch.no_grad():
            new = model.policy.get_distribution(new_in, action_masks=masks).distribution.probs
            old = source.model.policy.get_distribution(old_in, action_masks=masks).distribution.probs
            assert torch.allclose(new, old, atol=1e-6)
            assert torch.allclose(
                model.policy.predict_values(new_in),
                source.model.policy.predict_values(old_in),
                atol=1e-5,
            )
        obs, *_ = vec_env.step(np.array([int(np.flatnonzero(masks[0])[-1])]))


def test_init_from_needs_the_same_advisor_setting(tmp_path: Path, capsys) -> None:
    pytest.importorskip("sb3_contrib")
    from train.train import main

    out = tmp_path / "run"
    with pytest.raises(SystemExit):
        main(["--mode", "full", "--quick", "--init-from", "full", "--out", str(out)])
    assert "trained with an advisor; give the same --advisor" in capsys.readouterr().err
    assert not out.exists()


def test_kl_to_start_penalises_the_reward_by_the_log_ratio() -> None:
    """The ``--kl-coef`` callback subtracts coef * (log pi(a|s) - log pi0(a|s)) from each
    reward in place, pi0 the policy as it was when the callback was made: zero while the
    policy has not moved, the exact log ratio once it has."""
    pytest.importorskip("sb3_contrib")
    import copy

    import torch

    from train.train import build_parser, kl_to_start_callback, new_model

    vec_env = _bare_vec_env(2, "bluff", None)
    model = new_model(build_parser().parse_args(["--mode", "bluff"]), vec_env)
    start = copy.deepcopy(model.policy)
    callback = kl_to_start_callback(model.policy, 0.5)
    callback.init_callback(model)
    obs = torch.as_tensor(vec_env.reset())
    masks = np.stack(vec_env.env_method("action_masks"))

    def step() -> tuple[np.ndarray, np.ndarray]:
        with torch.no_grad():
            actions, _, log_probs = model.policy(obs, action_masks=masks)
            start_logp = start.get_distribution(obs, action_masks=masks).log_prob(actions)
        rewards = np.array([1.0, -1.0], dtype=np.float32)
        callback.update_locals(
            {"obs_tensor": obs, "action_masks": masks, "actions": actions.numpy(),
             "log_probs": log_probs, "rewards": rewards}
        )
        callback.on_step()
        return rewards, (log_probs - start_logp).numpy()

    rewards, gap = step()
    assert np.allclose(gap, 0.0) and np.allclose(rewards, [1.0, -1.0])
    with torch.no_grad():  # the learner moves; the reference stays where it was
        bias = model.policy.action_net.bias
        bias.add_(torch.linspace(-3.0, 3.0, bias.numel()))
    rewards, gap = step()
    assert np.abs(gap).max() > 0.01
    assert np.allclose(rewards, np.array([1.0, -1.0]) - 0.5 * gap, atol=1e-5)
