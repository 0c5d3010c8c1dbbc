"""Bang! The Dice Game through the shared integrity tools: the fuzzer (1M steps, planted failures
saved and reproduced), game records (round trip, replay, broken records, show/check) and
determinism of a whole game across processes."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from record_helpers import check_exception_failure, check_step_bound_failure, edit, random_actions

import granujas_env.bang_dice.engine.game as bang_game_module
from granujas_env import fuzz
from granujas_env import record as records
from granujas_env.bang_dice.engine import SHERIFF, BangConfig, BangGame
from granujas_env.bang_dice.engine import actions as BA
from granujas_env.bang_dice.invariants import check_invariants
from granujas_env.invariants import InvariantError
from granujas_env.record import RECORD_GAMES, RecordError, load, record_game

BANG = RECORD_GAMES["bang-dice"]


@pytest.fixture(scope="module")
def finished() -> tuple[BangConfig, int, list[int], BangGame, list[str]]:
    game = BangGame(BangConfig(5), 3)
    actions, digests = random_actions(game, 3, BANG.digest)
    return game.config, 3, actions, game, digests


@pytest.fixture
def saved(tmp_path: Path, finished) -> Path:
    config, seed, actions, _, _ = finished
    return record_game(config, seed, actions, snapshot=True).save(tmp_path / "bang.json")


# ------------------------------------------------------------------------------ fuzz
def test_one_million_fuzz_steps_without_a_failure(tmp_path: Path) -> None:
    """The documented run (docs/bang_dice/integrity.md): 14,100 games over 3-8 players, both
    policies, over a million steps (1,000,796 when measured) with every invariant checked after
    each; 13 s on the dev machine."""
    configs = [BangConfig(n) for n in range(3, 9)]
    summary = fuzz.run(configs, 14_100, seed=0, out=tmp_path, log=pytest.fail)
    assert summary["game"] == "bang-dice" and summary["failures"] == 0
    assert summary["steps"] >= 1_000_000 and summary["games"] == 14_100
    assert summary["invariant_checks"] == summary["steps"] + summary["games"]
    for c in summary["configs"]:
        assert c["games"] == 2_350 and c["failures"] == 0
        assert c["max_steps"] <= c["step_bound"] == fuzz.BANG_STEP_BOUND
    assert not list(tmp_path.iterdir())


def test_fuzz_command_line(tmp_path: Path, capsys) -> None:
    out = tmp_path / "fuzz.json"
    rc = fuzz.main(["--game", "bang-dice", "--games", "12", "--players", "3,8,9", "--seed", "2",
                    "--out", str(tmp_path / "f"), "--json", str(out)])
    printed = capsys.readouterr().out
    assert rc == 0 and printed.startswith("bang-dice fuzz summary\n")
    assert "9p" in printed and "unavailable: num_players must be an int in 3..8, got 9" in printed
    data = json.loads(out.read_text())
    assert data["game"] == "bang-dice" and data["failures"] == 0 and data["games"] == 12
    assert [(c["name"], c["config"], c["games"]) for c in data["configs"]] == [
        ("3p", {"num_players": 3}, 6), ("8p", {"num_players": 8}, 6)]


@pytest.mark.parametrize("flag", [["--length", "short"], ["--strategy-cards", "on"]])
def test_fuzz_refuses_granujas_options(flag: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as info:
        fuzz.main(["--game", "bang-dice", "--games", "1", *flag])
    assert info.value.code == 2
    assert f"{flag[0]} applies to granujas only, not to bang-dice" in capsys.readouterr().err


def _planted(game: BangGame) -> None:
    """A planted invariant: fails once the third turn has started."""
    check_invariants(game)
    if game.turn_number >= 3:
        raise InvariantError("planted: turn 3 reached")


def test_planted_invariant_failure_is_saved_and_reproduces(tmp_path: Path, capsys, monkeypatch) -> None:
    real = fuzz.FUZZ_GAMES["bang-dice"]
    monkeypatch.setitem(fuzz.FUZZ_GAMES, "bang-dice", dataclasses.replace(real, check=_planted))
    rc = fuzz.main(["--game", "bang-dice", "--games", "2", "--players", "4", "--seed", "5",
                    "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 1 and "FAILURE 4p seed 5000015 (uniform): invariant after step" in out
    assert "reproduce: python -m granujas_env.fuzz --replay" in out
    paths = sorted(tmp_path.glob("*.json"))
    assert [p.name for p in paths] == ["fuzz-bang-dice-4p-seed5000015.json",
                                       "fuzz-bang-dice-4p-seed5000016.json"]
    record = load(paths[0])  # validates, replays every step, checks the digest and snapshot
    assert record.game == "bang-dice" and record.config == BangConfig(4)
    assert record.failure["kind"] == "invariant" and "planted" in record.failure["message"]
    assert record.failure["step"] == len(record.steps) and record.snapshot is not None
    assert records.resume(record).turn_number == 3
    again = fuzz.reproduce(record)
    assert again is not None and (again.kind, again.step, again.message) == (
        record.failure["kind"], record.failure["step"], record.failure["message"])
    assert fuzz.main(["--replay", str(paths[0])]) == 1
    assert "reproduced: invariant after step" in capsys.readouterr().out
    # with the real invariants the same game is clean
    monkeypatch.setitem(fuzz.FUZZ_GAMES, "bang-dice", real)
    assert fuzz.reproduce(record) is None
    assert fuzz.main(["--replay", str(paths[0])]) == 0


def test_step_bound_failure(tmp_path: Path, capsys) -> None:
    out = check_step_bound_failure(["--game", "bang-dice", "--players", "6"], 7, tmp_path, capsys)
    assert "the game did not end within 7 steps (turn" in out


def test_engine_exception_is_saved_and_reproduces(tmp_path: Path, capsys, monkeypatch) -> None:
    real = bang_game_module._ANSWER["shoot"]

    def broken_shoot(game: BangGame, frame, action: int) -> None:
        if game.turn_number >= 2:
            raise RuntimeError("planted engine bug")
        real(game, frame, action)

    monkeypatch.setitem(bang_game_module._ANSWER, "shoot", broken_shoot)
    check_exception_failure(["--game", "bang-dice", "--players", "5"], "shoot", tmp_path, capsys,
                            fix=lambda: monkeypatch.setitem(bang_game_module._ANSWER, "shoot", real))


# ------------------------------------------------------------------------------ records
def test_round_trip_and_replay_equality(tmp_path: Path, finished) -> None:
    config, seed, actions, game, digests = finished
    record = record_game(config, seed, actions, meta={"note": "test"})
    path = record.save(tmp_path / "r.json")
    loaded = load(path)
    assert loaded.game == "bang-dice" and loaded.config == config and loaded.seed == seed
    assert loaded.actions == actions and loaded.meta == {"note": "test"}
    assert loaded.final_digest == BANG.digest(game)
    assert [BANG.digest(g) for g in records.replay(loaded)] == digests
    assert BANG.digest(records.resume(loaded)) == BANG.digest(game)
    assert records.resume(loaded).winners == game.winners
    assert loaded.to_json() == path.read_text()  # loading and saving again changes nothing


def test_record_names_its_game_and_reads_like_granujas_records(saved: Path, finished) -> None:
    text = saved.read_text()
    assert text.startswith('{\n  "format": "granujas-game-record",\n  "version": 2,\n'
                           '  "env_version": "bang_dice_v0",\n')
    raw = json.loads(text)
    assert raw["config"] == {"num_players": 5}
    assert [s["name"] for s in raw["steps"]] == [BA.describe(a) for a in finished[2]]
    assert raw["snapshot"]["winners"] == sorted(finished[3].winners)
    assert "_rng_shared" not in raw["snapshot"] and "_legal_cache" not in raw["snapshot"]


def test_snapshot_resumes_a_mid_game_record_that_continues(tmp_path: Path) -> None:
    config = BangConfig(7)
    game = BangGame(config, 8)
    rng = random.Random(8)
    actions = []
    for _ in range(20):
        actions.append(rng.choice(game.legal_actions()))
        game.apply(actions[-1])
    assert not game.game_over
    path = record_game(config, 8, actions, snapshot=True).save(tmp_path / "m.json")
    resumed = records.resume(load(path))
    while not game.game_over:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        resumed.apply(action)
    assert BANG.digest(resumed) == BANG.digest(game)


def _other_legal(saved: Path) -> tuple[int, int]:
    record = load(saved)
    game = records.start(record)
    for i, step in enumerate(record.steps):
        others = [a for a in game.legal_actions() if a != step.action]
        if others and i > 3:
            return i, others[0]
        game.apply(step.action)
    raise AssertionError("no step with another legal action")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(env_version="bang_dice_v1"), r"record made with bang_dice_v1; this is "
         r"bang_dice_v0: a newer granujas made it: upgrade granujas to replay it"),
        (lambda r: r.update(env_version="bang_v0"), r"field 'env_version' must be a granujas "
         r"version like 'granujas_v1', got 'bang_v0' \(other games: 'bang_dice_v0'\)"),
        (lambda r: r.update(config={"num_players": 5, "game_length": "short"}),
         r"field 'config' must be a table of num_players, got"),
        (lambda r: r["config"].update(num_players=9), r"num_players must be an int in 3..8, got 9"),
        (lambda r: r["steps"][2].update(decision="hire"), r"steps\[2\]: unknown decision kind "
         r"'hire' \(known: reroll, "),
        (lambda r: r["steps"][2].update(action=47), r"steps\[2\]: action 47 is not an id in 0..46"),
        (lambda r: r["steps"][2].update(player=5), r"steps\[2\]: player 5 is not a seat"),
        (lambda r: r["steps"][2].update(name="yes"), r"steps\[2\]: action \d+ is '.*' but the "
         r"record names it 'yes'"),
        (lambda r: r.update(data_fingerprint="f" * 64), r"different rules or card data"),
        (lambda r: r.update(final_digest="0" * 64), r"replayed final state .* differs"),
        (lambda r: r["snapshot"]["life"].__setitem__(0, 99),
         r"the snapshot differs from the replayed state at snapshot.life\[0\]: the record has 99"),
        (lambda r: r["snapshot"].pop("_rng"),
         r"the snapshot differs from the replayed state at snapshot._rng: missing from the record"),
        (lambda r: r.update(seed=r["seed"] + 1), r"step \d+: |replayed final state .* differs"),
    ],
)
def test_broken_record_fails_clearly(saved: Path, change, message: str) -> None:
    edit(saved, change)
    with pytest.raises(RecordError, match=message) as info:
        load(saved)
    assert str(saved) in str(info.value)


def test_another_legal_choice_is_caught(saved: Path) -> None:
    i, other = _other_legal(saved)

    def change(raw: dict) -> None:
        raw["steps"][i].update(action=other, name=BA.describe(other))

    edit(saved, change)
    with pytest.raises(RecordError):
        load(saved)


def test_unchecked_snapshot_is_checked_on_resume(saved: Path) -> None:
    raw = json.loads(saved.read_text())
    raw["snapshot"]["arrow_pile"] = 0
    with pytest.raises(RecordError, match=r"snapshot.arrow_pile: the record has 0"):
        records.resume(records.loads(json.dumps(raw), check=False))


def test_record_of_another_game_is_refused_by_name(saved: Path, tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"a record of bang-dice \(bang_dice_v0\), not of granujas"):
        load(saved, game="granujas")
    assert load(saved, game="bang-dice").game == "bang-dice"
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        load(saved, game="chess")
    with pytest.raises(ValueError, match="bang-dice takes no rules or card catalog"):
        records.start(load(saved), rules=object())  # type: ignore[arg-type]


def test_check_and_show_commands(saved: Path, finished, capsys) -> None:
    config, seed, actions, game, _ = finished
    assert records.main(["check", str(saved)]) == 0
    assert capsys.readouterr().out == (
        f"{saved}: ok ({len(actions)} steps, 5 players, seed {seed}, bang_dice_v0)\n")
    assert records.main(["check", str(saved), "--game", "bang-dice"]) == 0
    capsys.readouterr()
    assert records.main(["check", str(saved), "--game", "granujas"]) == 2
    assert "not of granujas" in capsys.readouterr().err
    assert records.main(["show", str(saved)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"record: 5 players, seed {seed}, {len(actions)} steps\n")
    # the table at the start of every turn, then the final one
    assert out.count("Bang! The Dice Game, 5 players, turn ") == game.turn_number + 1
    assert out.rstrip().endswith(
        "game over: winners " + ", ".join(f"p{s}" for s in sorted(game.winners)))
    for step in load(saved).steps:
        assert f"  p{step.player} {step.decision}: {step.name}\n" in out


def test_show_as_a_seat_shows_only_what_it_knows(saved: Path, finished) -> None:
    game = finished[3]
    seat = next(s for s in range(5) if game.roles[s] != SHERIFF)
    first_table = list(records.show(load(saved), seat=seat))[1]
    lines = first_table.splitlines()[1:6]
    for s, line in enumerate(lines):
        known = s == seat or game.roles[s] == SHERIFF
        assert (f": {game.roles[s]}, " in line) == known, line
        assert ("role hidden" in line) == (not known), line
    assert "(you)" in lines[seat]


# ------------------------------------------------------------------------------ determinism
_DIGEST = """
import random, sys
from granujas_env.bang_dice.engine import BangConfig, BangGame
from granujas_env.record import record_game
seed = int(sys.argv[1])
game, rng, actions = BangGame(BangConfig(8), seed), random.Random(seed), []
while not game.game_over:
    actions.append(rng.choice(game.legal_actions()))
    game.apply(actions[-1])
print(record_game(BangConfig(8), seed, actions, snapshot=True).final_digest)
"""


def _digest_in_process(seed: int) -> str:
    return random_actions(BangGame(BangConfig(8), seed), seed, BANG.digest)[1][-1]


def test_a_seed_plays_the_same_full_game_in_other_processes() -> None:
    """The digest of the whole final state (roles, characters, dice stream, events) of an
    8-player game, in two fresh interpreters with different hash seeds and in this one."""
    outputs = [
        subprocess.run(
            [sys.executable, "-c", _DIGEST, "11"], capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        ).stdout.strip()
        for hash_seed in ("0", "987654")
    ]
    assert outputs[0] == outputs[1] == _digest_in_process(11)
    assert _digest_in_process(12) != outputs[0]  # the digest tells games apart
