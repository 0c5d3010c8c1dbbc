"""A policy's play temperature: chosen decision kinds are sampled from the softened policy, every
other kind stays the most probable action; seeded, validated, and read from the model card."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from agents import make
from agents.policy import MODELS_DIR, load, make_bot, play_temperatures
from granujas_env.env import raw_env
from granujas_env.view import seat_view

pytest.importorskip("sb3_contrib")


# name: options of the shipped full bot; "reference" plays, the others answer alongside (the seed
# also seeds the advisor's tie-breaks: the same seed as the reference's gives the same advice)
BOTS = {
    "reference": {"temperature": {}, "seed": 3},
    "hot": {"temperature": {"challenge": 1e6}, "seed": 3},
    "cold": {"temperature": 1e-3, "seed": 3},
    "warm_a": {"temperature": {"challenge": 5.0, "plan_card": 5.0}, "seed": 11},
    "warm_a_again": {"temperature": {"challenge": 5.0, "plan_card": 5.0}, "seed": 11},
    "warm_b": {"temperature": {"challenge": 5.0, "plan_card": 5.0}, "seed": 12},
}


@pytest.fixture(scope="module")
def decisions() -> list[tuple[str, int, dict[str, int]]]:
    """Seat 0's decisions in three 2-player games against the heuristic, as ``(kind, number of
    legal actions, {bot: action})``: every bot of :data:`BOTS` answers the same decision (each
    with its own advisor following the game); the reference bot's action is played."""
    bots = {name: load("full", **options) for name, options in BOTS.items()}
    rows = []
    for seed in range(3):
        env = raw_env(num_players=2)
        env.reset(seed=700 + seed)
        rival = make("heuristic")
        while not env.game.game_over:
            observation = env.observe(env.agent_selection)
            seat = env.game.current_player
            view = seat_view(env.game, seat)
            if seat == 1:
                env.step(rival.act(observation, view=view))
                continue
            actions = {name: bot.act(observation, view=view) for name, bot in bots.items()}
            rows.append((view.decision, int(observation["action_mask"].sum()), actions))
            env.step(actions["reference"])
    return rows


def test_only_the_tempered_kinds_are_sampled(decisions) -> None:
    """At a very high challenge temperature the challenges come out near 50/50 while every other
    decision is the deterministic bot's own."""
    challenges = [a for kind, legal, a in decisions if kind == "challenge" and legal == 2]
    others = [a for kind, _, a in decisions if kind != "challenge"]
    assert len(challenges) >= 20 and len(others) >= 100
    assert all(a["hot"] == a["reference"] for a in others)
    changed = sum(a["hot"] != a["reference"] for a in challenges)
    assert 0.25 < changed / len(challenges) < 0.75


def test_a_cold_temperature_is_the_most_probable_action(decisions) -> None:
    assert all(a["cold"] == a["reference"] for _, _, a in decisions)


def test_sampling_is_reproducible_under_a_seed(decisions) -> None:
    assert all(a["warm_a"] == a["warm_a_again"] for _, _, a in decisions)
    assert any(a["warm_a"] != a["warm_b"] for _, _, a in decisions)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"bluffing": 2.0}, "unknown decision kinds \\['bluffing'\\]"),
        ({"challenge": 0}, "'challenge' is 0: a temperature is a positive finite number"),
        (-1.0, "is -1.0: a temperature is a positive finite number"),
        (float("nan"), "a temperature is a positive finite number"),
        (float("inf"), "a temperature is a positive finite number"),
        ({"challenge": True}, "'challenge' is True"),
        ({"challenge": "hot"}, "'challenge' is 'hot'"),
    ],
)
def test_bad_temperatures_are_refused(value, message) -> None:
    with pytest.raises(ValueError, match=message):
        play_temperatures(value)
    with pytest.raises(ValueError, match=message):
        load("full", temperature=value)


def test_one_number_covers_the_agents_kinds() -> None:
    assert play_temperatures(2, ["challenge", "plan_card"]) == {"challenge": 2.0, "plan_card": 2.0}
    assert play_temperatures(None) == {}
    bluffer = load("bluffer", temperature=1.5)
    assert set(bluffer.temperature) == set(bluffer.decisions)
    with pytest.raises(ValueError, match="temperature for \\['hire'\\], kinds this agent hands to"):
        load("bluffer", temperature={"hire": 2.0, "plan_card": 2.0})


def test_the_card_sets_the_default_temperature(tmp_path: Path) -> None:
    folder = tmp_path / "tempered"
    folder.mkdir()
    shutil.copy(MODELS_DIR / "full" / "model.zip", folder / "model.zip")
    card = json.loads((MODELS_DIR / "full" / "model_card.json").read_text())
    card.pop("models_by_players", None)  # its table models are not copied: the main model alone
    card["play_temperature"] = {"challenge": 3.0}
    (folder / "model_card.json").write_text(json.dumps(card))
    assert load(str(folder)).temperature == {"challenge": 3.0}
    assert load(str(folder), temperature={}).temperature == {}
    card["play_temperature"] = {"challenge": -3.0}
    (folder / "model_card.json").write_text(json.dumps(card))
    with pytest.raises(ValueError, match="positive finite number"):
        load(str(folder))



def test_model_specs_take_a_temperature() -> None:
    """The spec syntax of tournaments, the gauntlet and the exploiter probe."""
    assert make_bot("full:temperature.challenge=3:temperature.plan_card=2").temperature == {
        "challenge": 3.0,
        "plan_card": 2.0,
    }
    bluffer = make_bot("bluffer:temperature=1.5", seed=0)
    assert bluffer.temperature == dict.fromkeys(bluffer.decisions, 1.5)
    assert make_bot("full").temperature == {}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("full:simulations=3", "a model takes temperature=T, temperature.<decision"),
        ("full:temperature=2:temperature.challenge=3", "not both"),
        ("full:temperature.bluffing=3", "unknown decision kinds \\['bluffing'\\]"),
        ("full:temperature.challenge=hot", "is 'hot': a temperature is a positive"),
        ("full:temperature.=3", "bad option"),
    ],
)
def test_bad_model_options_are_refused(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)
