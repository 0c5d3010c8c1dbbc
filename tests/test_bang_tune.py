"""The Bang! heuristic's weights: validation, what a weight changes in a set position, the
trained weights file (the ``tuned`` bot) and the cross-entropy trainer (train/bang_tune.py)."""

from __future__ import annotations

import json

import pytest

from agents.bang_dice import make
from agents.bang_dice.heuristic import (
    DEFAULT_WEIGHTS,
    TUNED_WEIGHTS_FILE,
    BangHeuristic,
    TunedHeuristic,
    Weights,
    load_weights,
    weights_from,
)
from agents.base import LazyObservation
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.game import BEER, DYNAMITE, ONE, BangGame
from granujas_env.bang_dice.view import seat_view
from train import bang_tune

PLAIN = ["jesse_jones", "black_jack", "lucky_duke", "sid_ketchum", "willy_the_kid"]


def _decide(bot, game):
    observation = LazyObservation(game.legal_actions(), A.NUM_ACTIONS, lambda: None)
    return bot.act(observation, view=seat_view(game, game.decision.player))


def _two_dynamite(life: int) -> BangGame:
    """Seat 2 (an Outlaw at ``life``) after its first roll: two dynamite, a 1, two beers."""
    return BangGame.from_position({
        "roles": ["sheriff", "deputy", "outlaw", "outlaw", "renegade"], "characters": PLAIN,
        "life": [10, 8, life, 8, 8], "turn": 2, "dice": [DYNAMITE, DYNAMITE, ONE, BEER, BEER],
    })


def test_a_weight_changes_the_decision_it_names():
    # the defaults stop at two dynamite only at 2 life or less: at 3 life they reroll
    assert _decide(BangHeuristic(), _two_dynamite(2)) == A.STOP
    assert _decide(BangHeuristic(), _two_dynamite(3)) != A.STOP
    careful = BangHeuristic(weights={"outlaw": {"dynamite_stop_life": 3}})
    assert _decide(careful, _two_dynamite(3)) == A.STOP
    # the change is the Outlaw's alone
    assert careful.weights["sheriff"] == DEFAULT_WEIGHTS["sheriff"]
    assert careful.weights["outlaw"].dynamite_stop_life == 3.0


def test_weights_are_validated():
    with pytest.raises(ValueError, match="unknown role 'mayor'; the roles are"):
        weights_from({"mayor": {}})
    with pytest.raises(ValueError, match="unknown name 'luck'; the names are"):
        weights_from({"outlaw": {"luck": 1.0}})
    with pytest.raises(ValueError, match=r"weights\['outlaw'\]\['kill_bonus'\] must be a finite number"):
        weights_from({"outlaw": {"kill_bonus": float("nan")}})
    with pytest.raises(ValueError, match="must be a finite number, got True"):
        BangHeuristic(weights={"deputy": {"self_value": True}})
    assert weights_from({}) == DEFAULT_WEIGHTS
    assert "hurt_outlaw" in Weights.names()


def test_weights_file_is_read_and_checked(tmp_path):
    good = tmp_path / "w.toml"
    good.write_text("[renegade]\nrenegade_guard = 4.0\n")
    assert load_weights(good)["renegade"].renegade_guard == 4.0
    assert load_weights(good)["outlaw"] == DEFAULT_WEIGHTS["outlaw"]
    bad = tmp_path / "bad.toml"
    bad.write_text("[renegade]\nguard = 4.0\n")
    with pytest.raises(ValueError, match=f"{bad}: weights\\['renegade'\\]: unknown name 'guard'"):
        load_weights(bad)
    with pytest.raises(ValueError, match="cannot read the weights file"):
        load_weights(tmp_path / "missing.toml")


def test_tuned_bot_plays_the_shipped_weights():
    shipped = load_weights(TUNED_WEIGHTS_FILE)
    bot = make("tuned", seed=3)
    assert isinstance(bot, TunedHeuristic) and bot.name == "tuned"
    assert bot.weights == shipped
    assert shipped != DEFAULT_WEIGHTS  # the file holds trained numbers, not the defaults


def test_evaluate_seats_the_role_and_counts_its_wins():
    seeds = range(40)
    rate = bang_tune.evaluate("outlaw", DEFAULT_WEIGHTS["outlaw"], 5, seeds)
    assert 0.0 < rate < 1.0
    # the same weights on the same deals: the same games
    assert bang_tune.evaluate("outlaw", DEFAULT_WEIGHTS["outlaw"], 5, seeds) == rate


def test_tune_cli_writes_weights_the_heuristic_reads(tmp_path):
    out = tmp_path / "t.json"
    assert bang_tune.main(["--roles", "deputy", "--generations", "2", "--population", "4",
                           "--games", "6", "--seed", "11", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert set(data["weights"]) == {"deputy"}
    assert set(data["weights"]["deputy"]) == set(bang_tune.TUNED["deputy"])
    assert [row["generation"] for row in data["history"]["deputy"]] == [0, 1]
    assert BangHeuristic(weights=data["weights"]).weights["deputy"].hurt_outlaw == data["weights"]["deputy"]["hurt_outlaw"]
    for argv, message in (
        (["--players", "3"], "--players must be 4..8"),
        (["--population", "3"], "--population must be >= 4"),
        (["--games", "0"], "--games must be >= 1"),
    ):
        with pytest.raises(ValueError, match=message):
            bang_tune.main([*argv, "--out", str(out)])


def test_tune_trains_the_expectimax_bot_without_the_reroll_weights(tmp_path, monkeypatch):
    seated = []
    original = bang_tune.BOTS["expectimax"]

    def spy(seed=None, weights=None):
        seated.append(weights)
        return original(seed=seed, weights=weights)

    monkeypatch.setitem(bang_tune.BOTS, "expectimax", spy)
    out = tmp_path / "x.json"
    assert bang_tune.main(["--bot", "expectimax", "--roles", "outlaw", "--generations", "1",
                           "--population", "4", "--games", "3", "--seed", "5", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    names = set(data["weights"]["outlaw"])
    assert names == set(bang_tune.TUNED["outlaw"]) - bang_tune.REROLL_ONLY and "kill_bonus" in names
    assert data["arguments"]["bot"] == "expectimax"
    assert len(seated) == 4 * 3 and all(set(w) == {"outlaw"} for w in seated)  # one seat a game
    with pytest.raises(SystemExit):
        bang_tune.main(["--bot", "tuned", "--out", str(out)])


def test_the_renegade_guards_a_weak_sheriff_by_its_weight():
    game = BangGame.from_position({
        "roles": ["sheriff", "renegade", "outlaw", "outlaw", "deputy"], "characters": PLAIN,
        "life": [2, 8, 8, 8, 8], "turn": 1,
    })
    view = seat_view(game, 1)
    assert BangHeuristic().enemy_scores(view)[0] == DEFAULT_WEIGHTS["renegade"].renegade_guard_value == -2.5
    guard = BangHeuristic(weights={"renegade": {"renegade_guard_value": -4.0}})
    assert guard.enemy_scores(view)[0] == -4.0
