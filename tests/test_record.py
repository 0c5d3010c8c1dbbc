"""Game records and state snapshots: round trips, exact replays, and broken files that must fail."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from record_helpers import edit, random_actions

from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.engine.snapshot import SnapshotError, digest, from_dict, to_dict
from granujas_env.engine.state import Frame
from granujas_env.record import (
    FORMAT,
    VERSION,
    RecordError,
    load,
    loads,
    main,
    record_game,
    replay,
    resume,
    start,
)

CONFIGS = [GameConfig(2, "short"), GameConfig(3, "long", True), GameConfig(4, "short", True)]


@pytest.fixture(scope="module")
def finished() -> tuple[GameConfig, int, list[int], Game, list[str]]:
    game = Game(GameConfig(3, "short", True), 21)
    actions, digests = random_actions(game, 5, digest)
    return game.config, 21, actions, game, digests


@pytest.fixture
def saved(tmp_path: Path, finished) -> Path:
    config, seed, actions, _, _ = finished
    return record_game(config, seed, actions, snapshot=True).save(tmp_path / "game.json")


# ------------------------------------------------------------------------------ snapshots
def strict_equal(a: object, b: object, where: str = "game") -> None:
    """Equal values *and* equal types all the way down (a tuple is not a list)."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, Frame):
        strict_equal((a.kind, a.player, a.data), (b.kind, b.player, b.data), where)
    elif isinstance(a, random.Random):
        assert a.getstate() == b.getstate(), where
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            strict_equal(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            strict_equal(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            strict_equal(x, y, f"{where}[{i}]")
    elif isinstance(a, (set, frozenset)):
        assert a == b, where
        for x in a:
            y = next(v for v in b if v == x)
            strict_equal(x, y, f"{where}{{{x!r}}}")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def game_vars(game: Game) -> dict:
    return {k: v for k, v in vars(game).items() if k != "_legal_cache"}


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_snapshot_restores_exactly_and_continues_identically(config: GameConfig) -> None:
    game = Game(config, seed=3)
    rng = random.Random(3)
    restored_points = 0
    while not game.game_over:
        if rng.random() < 0.05:
            text = json.dumps(to_dict(game))  # through JSON, as a record stores it
            clone = from_dict(json.loads(text))
            assert digest(clone) == digest(game)
            strict_equal(game_vars(clone), game_vars(game))
            # the restored game goes on exactly as the original (same RNG draws, same choices)
            original = copy.deepcopy(game)
            cont = random.Random(restored_points)
            for _ in range(40):
                if original.game_over:
                    break
                assert clone.legal_actions() == original.legal_actions()
                action = cont.choice(original.legal_actions())
                original.apply(action)
                clone.apply(action)
                assert digest(clone) == digest(original)
            strict_equal(game_vars(clone), game_vars(original))
            restored_points += 1
        game.apply(rng.choice(game.legal_actions()))
    assert restored_points >= 3
    strict_equal(game_vars(from_dict(to_dict(game))), game_vars(game))  # finished games too


def test_from_dict_refuses_a_missing_or_unknown_field() -> None:
    state = to_dict(Game(GameConfig(2), seed=1))
    broken = dict(state)
    del broken["rng"]
    with pytest.raises(SnapshotError, match=r"missing fields \['rng'\]"):
        from_dict(broken)
    broken = dict(state, new_pile=[1, 2])
    with pytest.raises(SnapshotError, match=r"unknown field 'new_pile' holding a list"):
        from_dict(broken)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("day",), "2", r"snapshot.day: expected an integer, got '2'"),
        (("players", 0, "money"), None, r"snapshot.players\[0\].money: expected an integer"),
        (("players", 1, "hand"), 3, r"snapshot.players\[1\].hand: expected a list"),
        (("rng",), [3, [1, 2], None], r"snapshot.rng: not a valid random.Random state"),
        (("config", "num_players"), 9, r"snapshot.config: num_players must be 2, 3 or 4"),
        (("num_players",), 3, r"num_players 3 and 2 players do not match"),
    ],
)
def test_from_dict_names_the_bad_field(path: tuple, value: object, message: str) -> None:
    state = json.loads(json.dumps(to_dict(Game(GameConfig(2), seed=1))))
    target = state
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(SnapshotError, match=message):
        from_dict(state)


# ------------------------------------------------------------------------------ records
def test_round_trip_and_replay_equality(tmp_path: Path, finished) -> None:
    config, seed, actions, game, digests = finished
    record = record_game(config, seed, actions, meta={"note": "test"})
    path = record.save(tmp_path / "r.json")
    loaded = load(path)
    assert loaded.config == config and loaded.seed == seed and loaded.actions == actions
    assert loaded.final_digest == digest(game) and loaded.meta == {"note": "test"}
    assert [s.decision for s in loaded.steps] == [s.decision for s in record.steps]
    assert [digest(g) for g in replay(loaded)] == digests
    assert digest(resume(loaded)) == digest(game)
    assert loaded.to_json() == path.read_text()  # loading and saving again changes nothing


def test_record_is_human_readable(saved: Path, finished) -> None:
    text = saved.read_text()
    assert text.startswith('{\n  "format": "granujas-game-record",\n  "version": 2,\n'
                           '  "env_version": "granujas_v1",\n')
    lines = text.splitlines()
    step_lines = [ln for ln in lines if ln.strip().startswith('{"player"')]
    assert len(step_lines) == len(finished[2])  # one step a line
    first = json.loads(step_lines[0].rstrip(","))
    assert set(first) == {"player", "decision", "action", "name"}
    assert first["name"] == A.describe(first["action"])


def test_snapshot_resume_without_replay(saved: Path, finished) -> None:
    record = load(saved)
    assert record.snapshot is not None
    game = resume(record)
    assert digest(game) == digest(finished[3])
    strict_equal(game_vars(game), game_vars(finished[3]))


def test_mid_game_record_resumes_and_continues(tmp_path: Path) -> None:
    config = GameConfig(4, "long", True)
    game = Game(config, 8)
    actions, _ = random_actions(game, 8, digest, limit=150)
    path = record_game(config, 8, actions, snapshot=True).save(tmp_path / "mid.json")
    resumed = resume(load(path))
    rng = random.Random(0)
    while not game.game_over:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        resumed.apply(action)
    assert digest(resumed) == digest(game)


def test_record_game_refuses_illegal_or_surplus_actions(finished) -> None:
    config, seed, actions, _, _ = finished
    with pytest.raises(RecordError, match=r"step 0: action"):
        record_game(config, seed, [A.SHERIFF] + actions)
    with pytest.raises(RecordError, match=r"the game is already over; 1 action\(s\) left over"):
        record_game(config, seed, actions + [0])
    with pytest.raises(TypeError, match="seed must be an int"):
        record_game(config, None, actions)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ broken files
def test_truncated_file(saved: Path) -> None:
    text = saved.read_text()
    saved.write_text(text[: len(text) // 2])
    with pytest.raises(RecordError, match=r"not valid JSON .*truncated or corrupted"):
        load(saved)


def test_not_utf8_and_missing_file(saved: Path, tmp_path: Path) -> None:
    saved.write_bytes(b"\xff\xfe" + saved.read_bytes()[:50])
    with pytest.raises(RecordError, match="not UTF-8"):
        load(saved)
    with pytest.raises(RecordError, match="file not found"):
        load(tmp_path / "nope.json")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(version=VERSION + 1), r"format version 3 is newer than this granujas"),
        (lambda r: r.update(version=1), r"record made with granujas_v0; this is granujas_v1: the "
         r"end-of-day rules changed, so it cannot be replayed"),
        (lambda r: r.update(env_version="granujas_v0"), r"record made with granujas_v0; this is "
         r"granujas_v1: the end-of-day rules changed, so it cannot be replayed"),
        (lambda r: r.update(env_version="granujas_v2"), r"record made with granujas_v2; this is "
         r"granujas_v1: a newer granujas made it: upgrade granujas to replay it"),
        (lambda r: r.update(env_version=1), r"field 'env_version' must be a granujas version like "
         r"'granujas_v1', got 1"),
        (lambda r: r.pop("env_version"), r"missing field\(s\) \['env_version'\]"),
        (lambda r: r.update(version=0), r"invalid format version 0"),
        (lambda r: r.update(version="1"), r"invalid format version '1'"),
        (lambda r: r.update(format="chess-pgn"), r"not a granujas game record"),
        (lambda r: r.pop("seed"), r"missing field\(s\) \['seed'\]"),
        (lambda r: r.pop("steps"), r"missing field\(s\) \['steps'\]"),
        (lambda r: r.pop("final_digest"), r"missing field\(s\) \['final_digest'\]"),
        (lambda r: r.update(extra=1), r"unknown field\(s\) \['extra'\]"),
        (lambda r: r.update(seed="21"), r"field 'seed' must be an integer"),
        (lambda r: r.update(config={"num_players": 3}), r"field 'config' must be a table"),
        (lambda r: r["config"].update(num_players=7), r"num_players must be 2, 3 or 4"),
        (lambda r: r["steps"][3].pop("action"), r"steps\[3\]: must be a table of"),
        (lambda r: r["steps"][3].update(action=500), r"steps\[3\]: action 500 is not an id"),
        (lambda r: r["steps"][3].update(player=5), r"steps\[3\]: player 5 is not a seat"),
        (lambda r: r["steps"][3].update(decision="dance"), r"unknown decision kind 'dance'"),
        (lambda r: r["steps"][3].update(action=r["steps"][3]["action"] + 1),
         r"steps\[3\]: action \d+ is '.*' but the record names it"),
        (lambda r: r.update(final_digest="0" * 64), r"replayed final state .* differs"),
        (lambda r: r.update(final_digest=None), r"final_digest is null but the record has no failure"),
        (lambda r: r.update(data_fingerprint="f" * 64), r"different rules or card data"),
        (lambda r: r["snapshot"]["players"][0].update(money=99),
         r"the snapshot differs from the replayed state at snapshot.players\[0\].money: the record "
         r"has 99, the replayed state has \d+$"),
        (lambda r: r["snapshot"].pop("rng"),
         r"the snapshot differs from the replayed state at snapshot.rng: missing from the record"),
        (lambda r: r["snapshot"].update(rules="x"),
         r"the snapshot differs from the replayed state at snapshot.rules: in the record, not in "
         r"the replayed state$"),
        (lambda r: r.update(failure={"kind": "boom", "step": 1, "message": ""}),
         r"failure.kind: must be one of"),
    ],
)
def test_broken_record_fails_clearly(saved: Path, change, message: str) -> None:
    edit(saved, change)
    with pytest.raises(RecordError, match=message) as info:
        load(saved)
    assert str(saved) in str(info.value)  # the error names the file


def test_json_that_is_not_an_object(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text("[1, 2, 3]")
    with pytest.raises(RecordError, match="a game record is a JSON object, got list"):
        load(path)


def _illegal_id(game: Game) -> int:
    legal = set(game.legal_actions())
    return next(a for a in range(A.NUM_ACTIONS) if a not in legal)


def test_wrong_action_is_refused_at_its_step(saved: Path) -> None:
    record = load(saved)
    game = start(record)
    for step in record.steps[:10]:
        game.apply(step.action)
    bad = _illegal_id(game)

    def change(raw: dict) -> None:
        raw["steps"][10].update(action=bad, name=A.describe(bad))

    edit(saved, change)
    with pytest.raises(RecordError, match=rf"step 10: action {bad} \(.*\) is not legal for"):
        load(saved)


def test_swapped_legal_action_is_still_caught(saved: Path) -> None:
    """A different but legal choice gives another game: a later step or the digest must fail."""
    record = load(saved)
    game = start(record)
    for i, step in enumerate(record.steps):
        others = [a for a in game.legal_actions() if a != step.action]
        if others and i > 5:
            break
        game.apply(step.action)

    def change(raw: dict) -> None:
        raw["steps"][i].update(action=others[0], name=A.describe(others[0]))

    edit(saved, change)
    with pytest.raises(RecordError):
        load(saved)


def test_wrong_seed_or_player_fails(saved: Path) -> None:
    edit(saved, lambda r: r.update(seed=r["seed"] + 1))
    with pytest.raises(RecordError):
        load(saved)


def test_recorded_player_must_match(saved: Path) -> None:
    def change(raw: dict) -> None:
        step = raw["steps"][4]
        step["player"] = (step["player"] + 1) % 3

    edit(saved, change)
    with pytest.raises(RecordError, match=r"step 4: the record says decision .* of p\d, the replay asks"):
        load(saved)


def test_extra_step_after_the_end(saved: Path) -> None:
    edit(saved, lambda r: r["steps"].append({"player": 0, "decision": "hire", "action": 0}))
    with pytest.raises(RecordError, match=r"the game is already over, yet the record has 1 more"):
        load(saved)


def test_check_false_only_parses(saved: Path) -> None:
    edit(saved, lambda r: r.update(final_digest="0" * 64))
    record = load(saved, check=False)
    assert record.final_digest == "0" * 64
    assert loads(saved.read_text(), check=False).seed == record.seed


# ------------------------------------------------------------------------------ show
def test_show_renders_turn_by_turn(saved: Path, capsys) -> None:
    assert main(["show", str(saved)]) == 0
    out = capsys.readouterr().out
    record = load(saved)
    turns = record.config.num_players * 4 * 2  # 3 players, short game
    # the start of every turn, plus the table at the end of day 1 (the end of day 2 is game over)
    assert out.count("=== 3000 Granujas: day") == turns + 1
    assert "game over" in out and "<- winner" in out  # the final table with the scores
    # public view: nobody's face-down card value is printed
    assert "plan_card: card:?" in out and "plan_card: card:" + "A" not in out
    for step in record.steps:
        assert f"p{step.player} {step.decision}:" in out


def test_show_as_a_seat_hides_the_others_secrets(saved: Path, capsys) -> None:
    assert main(["show", str(saved), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    plans = [ln for ln in out.splitlines() if "plan_card:" in ln]
    assert all(ln.endswith("card:?") for ln in plans if not ln.startswith("  p1 "))
    assert all(not ln.endswith("card:?") for ln in plans if ln.startswith("  p1 "))
    assert "(you)" in out
    assert main(["show", str(saved), "--reveal"]) == 0
    assert "card:?" not in capsys.readouterr().out


def test_show_and_check_errors(saved: Path, capsys) -> None:
    assert main(["check", str(saved)]) == 0
    assert "ok (" in capsys.readouterr().out
    assert main(["show", str(saved), "--seat", "7"]) == 2
    assert "--seat must be a seat 0..2" in capsys.readouterr().err
    edit(saved, lambda r: r.update(version=99))
    assert main(["check", str(saved)]) == 2
    assert "newer than this granujas" in capsys.readouterr().err


def test_format_constants() -> None:
    assert FORMAT == "granujas-game-record" and VERSION == 2


def test_resume_refuses_a_snapshot_that_does_not_restore_as_written(saved: Path) -> None:
    """Even unchecked, a snapshot field that would replace the game's rules or catalog (skipped
    by the digest) is refused rather than resumed into a broken game."""
    for key, value in (("rules", "x"), ("catalog", 3)):
        raw = json.loads(saved.read_text())
        raw["snapshot"][key] = value
        with pytest.raises(RecordError, match=rf"snapshot: unknown field '{key}' holding a"):
            resume(loads(json.dumps(raw), check=False))


def test_show_into_a_closed_pipe_exits_quietly(saved: Path) -> None:
    """``python -m granujas_env.record show FILE | head`` : no BrokenPipeError traceback."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "granujas_env.record", "show", str(saved), "--every-step"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"record: 3 players, short game, seed 21")
    proc.stdout.close()  # what head does once it has its lines
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141 and err == b""


def test_help_texts(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m granujas_env.record [-h] {show,check} ...")
    assert f"format version {VERSION}, granujas_v1" in out and "Exit status: 0" in out
    with pytest.raises(SystemExit):
        main(["show", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m granujas_env.record show [-h]")
    assert "without it, the public view" in out and "default" not in out
