"""The paired rating by role (``train.roles --paired``): each agent against the baseline agent in
the same seat of the same deal."""

from __future__ import annotations

import math

import pytest

from granujas_env.docs_site import results_body
from train import roles, tournament
from train.ratings import Z95, paired_difference

SAME_AS_HEURISTIC = "agents.bang_dice.heuristic:BangHeuristic"


def test_paired_difference_by_hand() -> None:
    # three games: +1 (one seat), 0 and -1 (two seats), 0 (one seat)
    games = [[(True, False)], [(True, True), (False, True)], [(False, False)]]
    result = paired_difference(games)
    assert result["seats"] == 4
    assert result["rate"] == pytest.approx(2 / 4) and result["baseline_rate"] == pytest.approx(2 / 4)
    assert result["points"] == pytest.approx(0.0)
    # per-game sums 1, -1, 0 around a mean of 0, three games: sqrt(2 * 3 / 2) / 4
    half = Z95 * math.sqrt(2 * 3 / 2) / 4
    assert result["ci95"] == pytest.approx([-100 * half, 100 * half])
    assert paired_difference([[], []])["points"] is None


def test_an_agent_playing_as_the_baseline_differs_by_nothing() -> None:
    """The heuristic under another name plays exactly the baseline's games: paired 0 in every
    role, while the unpaired difference (the other seats of its tables) is not."""
    agents = [SAME_AS_HEURISTIC] + ["heuristic"] * 4
    records = roles.run_roles("bang-dice", agents, 5, 30, 4100)
    base = roles.run_roles("bang-dice", ["heuristic"], 5, 30, 4100)
    paired = roles.paired_summary(agents, records, "heuristic", base)
    rows = paired["by_agent"][SAME_AS_HEURISTIC]
    assert set(rows) == {"overall", "sheriff", "deputy", "outlaw", "renegade"}
    assert rows["overall"]["seats"] == 30
    assert all(row["points"] == 0.0 and row["ci95"] == [0.0, 0.0] for row in rows.values())
    assert "heuristic" not in paired["by_agent"]
    unpaired = roles.summarize(agents, records, "bang-dice")["difference"]
    assert any(d["points"] != 0.0 for d in unpaired.values())


def test_paired_counts_the_agent_seats_of_each_deal() -> None:
    agents = ["random"] + ["heuristic"] * 4
    records = roles.run_roles("bang-dice", agents, 5, 20, 4200)
    base = roles.run_roles("bang-dice", ["heuristic"], 5, 20, 4200)
    rows = roles.paired_summary(agents, records, "heuristic", base)["by_agent"]["random"]
    seats = [record["agents"].index("random") for record in records]
    wins = sum(record["won"][s] for record, s in zip(records, seats))
    base_wins = sum(b["won"][s] for b, s in zip(base, seats))
    assert rows["overall"]["rate"] == pytest.approx(wins / 20)
    assert rows["overall"]["baseline_rate"] == pytest.approx(base_wins / 20)
    assert rows["overall"]["points"] == pytest.approx(100 * (wins - base_wins) / 20)
    sheriff = [i for i, (record, s) in enumerate(zip(records, seats)) if record["roles"][s] == "sheriff"]
    assert rows["sheriff"]["seats"] == len(sheriff)
    with pytest.raises(ValueError, match="same deals"):
        roles.paired_summary(agents, records, "heuristic", base[1:] + base[:1])


def test_report_and_command_line(tmp_path, capsys) -> None:
    out = tmp_path / "paired.json"
    assert roles.main(["--agents", "random", "heuristic", "--players", "4", "--games", "6", "--seed", "3",
                       "--paired", "heuristic", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "paired (random - heuristic in the same seat of the same deal, points): overall" in text
    assert out.read_text().count('"baseline": "heuristic"') == 1
    page = "".join(results_body(tmp_path))  # the results page tables the paired row
    assert "| random - heuristic, same seat and deal (points) | " in page
    assert roles.main(["--agents", "random", "heuristic", "--games", "2", "--paired", "nobody"]) == 2
    assert "nobody" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        tournament.main(["--agents", "heuristic,random", "--games", "2", "--paired", "heuristic"])
    assert "games rated by role only" in capsys.readouterr().err
    assert tournament.main(["--game", "bang-dice", "--agents", "random,heuristic,heuristic,heuristic",
                            "--games", "4", "--seed", "3", "--paired", "heuristic"]) == 0
    assert "paired (random - heuristic" in capsys.readouterr().out
