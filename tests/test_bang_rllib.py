"""RLlib self-play on Bang! The Dice Game (``train.rllib --game bang-dice``).

(a) the multi-agent adapter asks only the living seat that decides (an eliminated seat is never
    asked), refuses an illegal id with the game unchanged, and at the end gives every RLlib seat
    that has played its last observation, the team reward (+1 winning side, dead or alive, -1 the
    others) and ``terminated``;
(b) a quick run (one PPO iteration) trains and exports a MaskablePPO ``model.zip`` whose card
    records ``bang_dice_v0`` and Bang!'s observation layout; the model plays whole Bang! games
    through the role-rating tool (``train.roles``) beside the Bang! bots;
(c) RLlib's own ``PettingZooEnv`` route serves Bang! too (``pettingzoo_env({"game": ...})``).

Skipped, with the reason, only when ray[rllib] is not installed (``pip install -e .[rllib]``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed: pip install -e '.[rllib]'")
pytest.importorskip("sb3_contrib", reason="the export needs sb3-contrib: pip install -e '.[train]'")
# the tests that start a local Ray share one worker process (pyproject: --dist loadgroup)
pytestmark = pytest.mark.xdist_group("ray")

from agents.model_card import layout_record  # noqa: E402
from agents.policy import load, make_bot  # noqa: E402
from granujas_env.bang_dice.codecs import KINDS, LAYOUT  # noqa: E402
from granujas_env.bang_dice.engine import actions as A  # noqa: E402
from train import roles  # noqa: E402
from train.rllib import GranujasMultiAgentEnv, build_parser, pettingzoo_env, validate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_adapter_asks_only_living_deciders_and_pays_every_seat_the_team_reward() -> None:
    env = GranujasMultiAgentEnv(
        {"game": "bang-dice", "num_players": 8, "opponents": ["main", "heuristic"], "seed": 2}
    )
    space = env.observation_spaces["main@0"]
    assert space["observations"].shape == (LAYOUT.size,) and space["action_mask"].shape == (A.NUM_ACTIONS,)
    rng = np.random.default_rng(0)
    eliminated_rllib_seats = 0
    for episode in range(12):
        obs, _ = env.reset(seed=episode)
        played: set[str] = set()
        done = False
        while not done:
            (agent,) = obs  # one seat decides at a time, and it is in the game
            game = env.env.game
            seat = int(agent.rsplit("@", 1)[1])
            assert game.decision.player == seat and game.alive[seat]
            legal = np.flatnonzero(obs[agent]["action_mask"])
            assert legal.tolist() == game.legal_actions() and len(legal) >= 2
            if episode == 0 and not played:
                illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
                before = list(game.events)
                with pytest.raises(ValueError, match=f"illegal action {illegal} .*legal ids"):
                    env.step({agent: illegal})
                assert game.events == before and game.decision.player == seat
            played.add(agent)
            obs, rewards, terms, truncs, infos = env.step({agent: int(rng.choice(legal))})
            done = terms["__all__"]
            if not done:
                assert all(r == 0.0 for r in rewards.values())
        game = env.env.game
        assert set(obs) == set(rewards) == played == set(terms) - {"__all__"}
        assert all(terms.values()) and not any(truncs.values())
        for agent, reward in rewards.items():
            seat = int(agent.rsplit("@", 1)[1])
            assert reward == (1.0 if seat in game.winners else -1.0)
            eliminated_rllib_seats += not game.alive[seat]
        learner = env.seat_agent[env.learner_seat]
        if learner in played:
            assert infos[learner]["won"] == int(env.learner_seat in game.winners)
            assert infos[learner]["role"] == game.roles[env.learner_seat]
            assert "score" not in infos[learner]  # Bang! has no scores
    assert eliminated_rllib_seats > 0  # dead seats were paid their side's outcome at the end
    assert env.rllib_actions > 0 and env.bot_actions > 0


def test_arguments_take_the_games_defaults_and_refuse_granujas_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = build_parser().parse_args(["--game", "bang-dice"])
    validate(args)
    assert (args.players, args.length, args.reward) == (5, None, "team")
    for extra, message in (
        (["--players", "2"], "--players of bang-dice must be in 3..8"),
        (["--length", "long"], "--length is granujas' game length"),
        (["--reward", "win"], r"--reward of bang-dice must be one of \['team'\]"),
    ):
        with pytest.raises(SystemExit):
            validate(build_parser().parse_args(["--game", "bang-dice", *extra]))
        assert re.search(message, capsys.readouterr().err)
    granujas = build_parser().parse_args([])
    validate(granujas)
    assert (granujas.players, granujas.length, granujas.reward) == (2, "short", "win")


def test_rllib_pettingzoo_env_serves_bang() -> None:
    env = pettingzoo_env({"game": "bang-dice", "num_players": 4})
    space = env.observation_spaces["player_0"]
    assert set(space) == {"observations", "action_mask"} and space["action_mask"].dtype == np.float32
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        (agent,) = obs
        assert space.contains(obs[agent])
        obs, rewards, terms, truncs, infos = env.step({agent: int(rng.choice(np.flatnonzero(obs[agent]["action_mask"])))})
        done = terms["__all__"]
    winners = env.env.unwrapped.game.winners
    assert rewards == {f"player_{s}": 1.0 if s in winners else -1.0 for s in range(4)}


def test_one_iteration_trains_and_exports_a_model_the_rating_tools_play(tmp_path: Path) -> None:
    out = tmp_path / "rllib-bang"
    command = [
        sys.executable, "-m", "train.rllib", "--game", "bang-dice", "--iterations", "1",
        "--train-batch", "200", "--minibatch", "100", "--epochs", "1", "--env-runners", "0",
        "--opponents", "main,league,heuristic", "--league-size", "1", "--out", str(out),
        "--num-cpus", "2",
    ]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows] == [1] and rows[0]["env_steps"] >= 200
    assert (out / "checkpoints" / "iter_1").is_dir()
    card = json.loads((out / "model_card.json").read_text())
    assert card["game"] == "bang-dice" and card["env_version"] == "bang_dice_v0"
    assert card["observation_layout"] == layout_record(game="bang-dice")
    assert card["decisions"] == sorted(KINDS) and card["players"] == [5] and card["reward"] == "team"
    assert "game_length" not in card
    assert card["command"].startswith("python -m train.rllib --game bang-dice --iterations 1")
    assert card["league_size"] == 1 and card["iterations"] == 1

    agent = load(str(out))  # the export is a MaskablePPO model.zip of Bang!'s spaces
    assert agent.game == "bang-dice"
    with pytest.raises(ValueError, match="plays bang-dice, not granujas"):
        make_bot(str(out))

    def make(name: str, seed: int | None = None):
        return make_bot(name, seed=seed, game="bang-dice")

    for seed in (1, 2):
        record = roles.play_game("bang-dice", [str(out), "heuristic", "random", str(out), "heuristic"], seed, make)
        assert len(record["won"]) == 5 and any(record["won"])


def test_docs_bang_section_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    page = (ROOT / "docs" / "clients" / "rllib.md").read_text()
    section = page[page.index("## Bang! The Dice Game") :]
    (block,) = re.findall(r"```py\n(.*?)```", section, flags=re.S)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    exec(compile(block, "docs/clients/rllib.md[Bang!]", "exec"), namespace)  # noqa: S102
    env = namespace["env"]
    game = env.env.game  # type: ignore[attr-defined]
    rewards = namespace["rewards"]
    assert game.game_over and len(rewards) >= 2  # type: ignore[arg-type]
    for agent, reward in rewards.items():  # type: ignore[attr-defined]
        assert reward == (1.0 if int(agent.rsplit("@", 1)[1]) in game.winners else -1.0)
    assert capsys.readouterr().out.strip() == str(sorted(rewards.items()))  # type: ignore[attr-defined]
