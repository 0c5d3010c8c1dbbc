"""The Bang! inference bound (train/bang_oracle.py): the oracle knows the deal's roles and plays
the heuristic's values; its records are those of train.roles' games."""

from __future__ import annotations

import json

import pytest

from agents.bang_dice.heuristic import BangHeuristic, load_weights
from granujas_env import games
from train import bang_oracle
from train.bang_oracle import OracleHeuristic, roles_of_deal, run_oracle
from train.roles import seating


def _play_to_decisions(seed: int, players: int, count: int):
    """(environment, agent) at the first ``count`` decisions of a heuristic game."""
    environment = games.get("bang-dice").raw_env(num_players=players)
    environment.reset(seed=seed)
    bots = [BangHeuristic(seed=s) for s in range(players)]
    for _ in range(count):
        if environment.game.game_over:
            return
        agent = environment.agent_selection
        yield environment, agent
        bot = bots[environment.agent_name_mapping[agent]]
        environment.step(bot.act(environment.observe(agent), environment.seat_view(agent)))


@pytest.mark.parametrize("players", [4, 5, 8])
def test_oracle_posterior_is_the_true_roles(players):
    roles = roles_of_deal(players, 31)
    oracle = OracleHeuristic(roles, seed=0)
    checked = 0
    for environment, agent in _play_to_decisions(31, players, 60):
        assert list(environment.game.roles) == roles  # the deal of the seed
        view = environment.seat_view(agent)
        oracle.reset(seed=0)
        marginals = oracle.posterior(view)
        for seat, role in enumerate(roles):
            assert marginals[seat][role] == pytest.approx(1.0)
        checked += 1
    assert checked > 10


def test_plain_heuristic_does_not_know_hidden_roles():
    """The control: at the first decision the heuristic's posterior is not the truth."""
    environment, agent = next(_play_to_decisions(31, 5, 1))
    view = environment.seat_view(agent)
    marginals = BangHeuristic(seed=0).posterior(view)
    hidden = [s for s in range(5) if s != view.seat and s != view.sheriff]
    assert all(marginals[s][environment.game.roles[s]] < 0.99 for s in hidden)


def test_run_oracle_seats_in_turn_with_the_deals_roles():
    records = run_oracle(5, 6, 400, weights="tuned")
    agents = ["oracle"] + ["heuristic"] * 4
    for i, record in enumerate(records):
        assert record["agents"] == seating(agents, 5, i)
        assert record["roles"] == roles_of_deal(5, 400 + i)
        assert record["seed"] == 400 + i
        assert sum(record["won"]) >= 1


def test_tuned_weights_reach_the_oracle():
    roles = roles_of_deal(5, 1)
    assert OracleHeuristic(roles, weights=load_weights()).weights == load_weights()
    with pytest.raises(ValueError, match="'default' or 'tuned'"):
        run_oracle(5, 1, 0, weights="best")


def test_command_writes_a_roles_summary(tmp_path, capsys):
    out = tmp_path / "oracle.json"
    assert bang_oracle.main(["--players", "4", "--games", "8", "--seed", "7", "--json", str(out)]) == 0
    summary = json.loads(out.read_text())
    assert summary["agents"] == ["oracle", "heuristic"]
    assert summary["by_agent"]["oracle"]["overall"]["games"] == 8
    assert summary["command"].startswith("python -m train.bang_oracle")
    assert "oracle - heuristic" in capsys.readouterr().out


@pytest.mark.parametrize("args", [["--players", "3"], ["--players", "9"], ["--games", "0"],
                                  ["--weights", "best"]])
def test_command_refuses_bad_arguments(args, capsys):
    with pytest.raises(SystemExit) as exit_info:
        bang_oracle.main(args)
    assert exit_info.value.code == 2
    assert "error" in capsys.readouterr().err
