"""Hostile files at every file entry point: game records (``granujas_env.record.load``/``loads``),
card catalogs (``load_catalog``) and rules files (``load_rules``).

Every bad input must raise :class:`RecordError` / :class:`CatalogError` (both ``ValueError``) whose
message names the file, the card (when there is one), the field and what is allowed; and whatever
the loaders accept must play: random games with the observation encoded at every step.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from granujas_env.codecs import ObservationLayout
from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.engine.data import (
    DATA_DIR,
    GRANUJA_ONLY_STEPS,
    MAX_AMOUNT,
    MAX_COPIES,
    MAX_COST,
    MAX_DAYS,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_HENCHMEN,
    MAX_MONEY,
    MAX_REPUTATION,
    MAX_REPUTATION_TECH,
    MAX_SCORE_SCALE,
    MAX_TECH,
    SAFE_VALUES,
    SLOT_NUMBERS,
    CatalogError,
    load_catalog,
    load_rules,
    parse_catalog,
    parse_rules,
)
from granujas_env.engine.vocabulary import ARROWS, MODIFIERS, REQUIREMENTS, TIMINGS, VERB_SPECS
from granujas_env.fuzz import STEPS_PER_TURN_BOUND
from granujas_env.invariants import check_invariants
from granujas_env.record import RecordError, load, loads, record_game

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CARDS = (DATA_DIR / "cards.toml").read_text(encoding="utf-8")
RULES = (DATA_DIR / "rules.toml").read_text(encoding="utf-8")
LOADERS = [
    pytest.param(load, RecordError, "game record file", id="record"),
    pytest.param(load_catalog, CatalogError, "card catalog file", id="catalog"),
    pytest.param(load_rules, CatalogError, "rules file", id="rules"),
]


@pytest.fixture(scope="module")
def record_text() -> str:
    config, seed = GameConfig(2, "short"), 4
    game, rng, actions = Game(config, seed), random.Random(4), []
    while not game.game_over:
        actions.append(rng.choice(game.legal_actions()))
        game.apply(actions[-1])
    return record_game(config, seed, actions, snapshot=True).to_json()


def write(tmp_path: Path, content: str | bytes, name: str = "file") -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def raises(error: type[ValueError], call: Any, *args: Any) -> str:
    """The message of the ``error`` that ``call(*args)`` raises (anything else fails the test)."""
    with pytest.raises(error) as info:
        call(*args)
    assert isinstance(info.value, ValueError)
    return str(info.value)


# ------------------------------------------------------------------------------ paths
@pytest.mark.parametrize(("loader", "error", "what"), LOADERS)
def test_a_path_that_is_not_a_readable_file(tmp_path: Path, loader, error, what: str) -> None:
    assert raises(error, loader, tmp_path) == f"{tmp_path}: is a directory, not a {what}"
    assert raises(error, loader, tmp_path / "nope") == f"{tmp_path / 'nope'}: file not found"
    if Path("/dev/null").exists():
        assert raises(error, loader, "/dev/null") == (
            f"/dev/null: not a regular file (a {what} must be one)"
        )
    for bad in (3, 2.5, b"cards.toml", ["cards.toml"]):
        assert raises(error, loader, bad).startswith(
            f"the {what} path must be a str or os.PathLike, got {type(bad).__name__} "
        )
    big = tmp_path / "big"
    with big.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk written
    assert raises(error, loader, big) == (
        f"{big}: larger than {MAX_FILE_BYTES} bytes, the most a {what} may be"
    )


def test_none_is_no_record_path_but_the_shipped_data() -> None:
    assert raises(RecordError, load, None) == (
        "the game record file path must be a str or os.PathLike, got NoneType None"
    )
    assert load_catalog(None).source == str(DATA_DIR / "cards.toml")
    assert load_rules(None).hand_size == 4


# ------------------------------------------------------------------------------ text and syntax
@pytest.mark.parametrize(("loader", "error", "what"), LOADERS)
def test_not_utf8(tmp_path: Path, loader, error, what: str) -> None:
    path = write(tmp_path, b"format = 1\n# caf\xe9\n")  # Latin-1, not UTF-8
    assert raises(error, loader, path) == (
        f"{path}: not UTF-8 text (byte 16: invalid continuation byte); the file is corrupted or "
        "in another encoding"
    )


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_deeply_nested_record(tmp_path: Path, depth: int) -> None:
    path = write(tmp_path, "[" * depth + "]" * depth)
    message = raises(RecordError, load, path)
    assert message.startswith(f"{path}: not a game record: lists or objects nested ")
    assert f"{MAX_DEPTH} levels" in message
    # bytes given to loads directly go through the same checks
    assert raises(RecordError, loads, path.read_bytes()).startswith("<record>: not a game record")


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000])
@pytest.mark.parametrize("loader", [load_catalog, load_rules])
def test_deeply_nested_toml(tmp_path: Path, loader, depth: int) -> None:
    for text in ("a = " + "[" * depth + "]" * depth, "a = " + "{b = " * depth + "1" + "}" * depth):
        path = write(tmp_path, text)
        message = raises(CatalogError, loader, path)
        assert message.startswith(f"{path}: tables or lists nested ")
        assert f"{MAX_DEPTH} levels" in message


def test_numbers_of_thousands_of_digits(tmp_path: Path, record_text: str) -> None:
    huge = "9" * 5000
    path = write(tmp_path, record_text.replace('"seed": 4,', f'"seed": {huge},'))
    assert raises(RecordError, load, path) == (
        f"{path}: not valid JSON (a number has more digits than Python converts, 4300 by default)"
    )
    path = write(tmp_path, CARDS.replace("tech = 0", f"tech = {huge}", 1))
    assert raises(CatalogError, load_catalog, path) == (
        f"{path}: not valid TOML (a number has more digits than Python converts, 4300 by default)"
    )
    # long but convertible: the value is cut in the message, which names card and field
    path = write(tmp_path, CARDS.replace("tech = 0", f"tech = {'9' * 4000}", 1))
    message = raises(CatalogError, load_catalog, path)
    assert "occupation[0] 'buscador_de_oro'.cards[0]: field 'tech' is 999" in message
    assert message.endswith("; must be an integer 0..3") and len(message) < 300


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_is_not_json(tmp_path: Path, record_text: str, constant: str) -> None:
    path = write(tmp_path, record_text.replace('"seed": 4,', f'"seed": {constant},'))
    assert raises(RecordError, load, path) == (
        f"{path}: not valid JSON ({constant} is not a JSON number)"
    )


def test_loads_takes_text_or_bytes_only() -> None:
    assert raises(RecordError, loads, 3) == (
        "<record>: a game record is JSON text (str or bytes), got int"
    )
    assert raises(RecordError, loads, b"\xff{}").startswith("<record>: not UTF-8 text")


# ------------------------------------------------------------------------------ record fields
def _set(path: tuple, value: object):
    def change(raw: dict) -> None:
        target = raw
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set(("steps",), {"0": 1}), "field 'steps' must be a list, got {'0': 1}"),
        (_set(("steps", 0), [0, "plan_card", 3]), "steps[0]: must be a table of ['player', "),
        (_set(("steps", 0, "decision"), ["plan_card"]), "steps[0]: unknown decision kind "
         "['plan_card'] (known: start_ability,"),
        (_set(("steps", 0, "player"), True), "steps[0]: player True is not a seat of a 2-player"),
        (_set(("steps", 0, "action"), 3.0), "steps[0]: action 3.0 is not an id in 0.."),
        (_set(("steps", 0, "name"), 7), "steps[0]: action "),
        (_set(("config",), None), "field 'config' must be a table of num_players, game_length,"),
        (_set(("config", "game_length"), ["short"]), "field 'config': game_length must be one of"),
        (_set(("seed",), True), "field 'seed' must be an integer, got True"),
        (_set(("seed",), 4.0), "field 'seed' must be an integer, got 4.0"),
        (_set(("meta",), ["x"]), "field 'meta' must be a table, got ['x']"),
        (_set(("failure",), "boom"), "failure: must be a table, got 'boom'"),
        (_set(("data_fingerprint",), "zz" * 32), "field 'data_fingerprint' must be a 64-digit hex"),
        (_set(("final_digest",), 7), "field 'final_digest' must be a 64-digit hex SHA-256 or null"),
        (_set(("snapshot",), "x"), "field 'snapshot' must be a table (snapshot.to_dict) or absent"),
        (_set(("package_version",), 1), "field 'package_version' must be a string, got 1"),
        (_set(("format",), {"a": 1}), "not a granujas game record (format {'a': 1}, expected"),
    ],
)
def test_wrong_types_in_record_fields(tmp_path: Path, record_text: str, change, message: str) -> None:
    raw = json.loads(record_text)
    change(raw)
    path = write(tmp_path, json.dumps(raw))
    assert raises(RecordError, load, path).startswith(f"{path}: {message}")


# A snapshot is checked field by field against the replayed state: the first differing path is named.
@pytest.mark.parametrize(
    ("change", "difference"),
    [
        # a field of the wrong type where the rules or the catalog belong (the digest skips them)
        (_set(("snapshot", "rules"), "x"), "snapshot.rules: in the record, not in the replayed state"),
        (_set(("snapshot", "catalog"), {"cards": 1}),
         "snapshot.catalog: in the record, not in the replayed state"),
        # a changed value, a value of the wrong type, a missing field
        (_set(("snapshot", "players", 1, "money"), 999),
         "snapshot.players[1].money: the record has 999, the replayed state has "),
        (_set(("snapshot", "day"), 2.0), "snapshot.day: the record has 2.0, the replayed state has 2"),
        (_set(("snapshot", "game_over"), 1), "snapshot.game_over: the record has 1, the replayed "
         "state has True"),
        (_set(("snapshot", "players", 0, "hand"), "0123"),
         "snapshot.players[0].hand: the record has '0123', the replayed state has "),
        (lambda raw: raw["snapshot"]["safes"].pop(), "snapshot.safes: the record has 17 items, "
         "the replayed state has 18"),
    ],
)
def test_tampered_snapshot(tmp_path: Path, record_text: str, change, difference: str) -> None:
    raw = json.loads(record_text)
    change(raw)
    path = write(tmp_path, json.dumps(raw))
    message = raises(RecordError, load, path)
    assert message.startswith(f"{path}: the snapshot differs from the replayed state at {difference}")


# ------------------------------------------------------------------------------ catalog fields
@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        # a string where a table belongs
        ('  { colour = "green", count = 1, bullet_holes = 0, tech = 0 },\n  { colour = "green", '
         'count = 1, bullet_holes = 1, tech = 0 },', '  "green",',
         "occupation[0] 'buscador_de_oro'.cards[0]: must be a table {colour, count, ...}, got "
         "'green'"),
        ('effect = [{ verb = "gain_money", amount = 3 }]', 'effect = ["gain_money"]',
         "occupation[0] 'buscador_de_oro'.effect[0]: must be a table {verb = ...}, got 'gain_money'"),
        ('effect = [{ verb = "gain_money", amount = 3 }]', 'effect = "gain_money"',
         "occupation[0] 'buscador_de_oro': field 'effect' is 'gain_money'; must be a list of "
         "{verb = ...} tables"),
        # floats and bools where slot numbers or integers belong
        ("slots = [2, 5]", "slots = [2.0, 5]", "trait[0] 'mugrienta'.cards[0]: field 'slots' is "
         "[2.0, 5]; must be a list of distinct values from [1, 2, 3, 4, 5, 6]"),
        ("slots = [2, 5]", "slots = [true, 5]", "trait[0] 'mugrienta'.cards[0]: field 'slots' is "
         "[True, 5]; must be a list of distinct values"),
        ("count = 1, bullet_holes = 0, tech = 0", "count = 1, bullet_holes = 0, tech = true",
         "occupation[0] 'buscador_de_oro'.cards[0]: field 'tech' is True; must be an integer 0..3"),
        ("count = 1, bullet_holes = 0", "count = 1.0, bullet_holes = 0",
         "occupation[0] 'buscador_de_oro'.cards[0]: field 'count' is 1.0; must be an integer 1..20"),
        ('verb = "gain_money", amount = 3', 'verb = "gain_money", amount = true',
         "occupation[0] 'buscador_de_oro'.effect[0]: field 'amount' is True; must be an integer "
         "0..10"),
        ("discount = 3", "discount = true",
         "strategy[4] 'reclutar_marginados': field 'discount' is True; must be an integer 0..5"),
        ("format = 1", "format = true", "field 'format' is True; must be 1"),
        # lists of the wrong shape
        ("slots = [2, 5]", "slots = [2, 2]", "trait[0] 'mugrienta'.cards[0]: field 'slots' is "
         "[2, 2]; must be a list of distinct values"),
        ('arrows = ["left"]', 'arrows = [["left"]]', "trait[5] 'servicial': field 'arrows' is "
         "[['left']]; must be a list of distinct values from [left, right]"),
        ('requires = ["money_zero"]', 'requires = "money_zero"', "trait[11] 'generosa': field "
         "'requires' is 'money_zero'; must be a list of distinct values from [henchman_in_jail, "),
        ('verb = "gain_money", amount = 3', 'verb = ["gain_money"], amount = 3',
         "occupation[0] 'buscador_de_oro'.effect[0]: field 'verb' is ['gain_money']; must be one of"),
        ('provenance = "printed"', 'provenance = ["printed"]', "occupation[0] 'buscador_de_oro': "
         "field 'provenance' is ['printed']; must be one of invented, printed, reconstructed"),
        ('timing = "slots"', 'timing = {slots = 1}', "trait[0] 'mugrienta': field 'timing' is "
         "{'slots': 1}; must be one of after_gain_reputation,"),
        # out of range
        ("count = 1, bullet_holes = 0", "count = 100000000, bullet_holes = 0",
         "occupation[0] 'buscador_de_oro'.cards[0]: field 'count' is 100000000; must be an integer "
         f"1..{MAX_COPIES}"),
        ("count = 1, cost = 0", f"count = 1, cost = {MAX_COST + 1}", "trait[0] 'mugrienta'.cards[0]: "
         f"field 'cost' is {MAX_COST + 1}; must be an integer 0..{MAX_COST}"),
        ('verb = "gain_money", amount = 3', f'verb = "gain_money", amount = {MAX_AMOUNT + 1}',
         f"occupation[0] 'buscador_de_oro'.effect[0]: field 'amount' is {MAX_AMOUNT + 1}; must be "
         f"an integer 0..{MAX_AMOUNT}"),
        # ids, and steps a Strategy card cannot hold (it is no Granuja)
        ('id = "buscador_de_oro"', "id = 3", "occupation[0]: field 'id' is 3; must be a non-empty "
         "string"),
        ('id = "impresor"', 'id = "buscador_de_oro"', "occupation[1] 'buscador_de_oro': duplicate id"),
        ('effect = [{ verb = "jail_own_henchman", amount = 1 }, { verb = "gain_money", amount = 6 }]',
         'effect = [{ verb = "discard_self" }]', "strategy[0] 'robar_el_banco'.effect[0]: "
         "discard_self acts on the Granuja being used; a strategy effect has none"),
    ],
)
def test_wrong_catalog_fields(tmp_path: Path, old: str, new: str, problem: str) -> None:
    assert old in CARDS
    path = write(tmp_path, CARDS.replace(old, new, 1), "cards.toml")
    message = raises(CatalogError, load_catalog, path)
    assert message.startswith(f"{path}: 1 problem(s)\n  - ")  # the file, one line per problem
    assert message.split("\n  - ", 1)[1].startswith(problem)  # the card, the field, what is allowed


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ('format = 1\noccupation = "x"\n', [
            "occupation: must be an array of tables ([[occupation]]), got 'x'",
            "occupation: the catalog has no Occupation cards",
            "trait: the catalog has no Trait cards",
        ]),
        ("format = 1\ntrait = [1, 2]\n", [
            "trait[0]: must be a table, got 1", "trait[1]: must be a table, got 2",
            "occupation: the catalog has no Occupation cards",
            "trait: the catalog has no Trait cards",
        ]),
        ('format = 1\nstrategy = {id = "x"}\n', [
            "occupation: the catalog has no Occupation cards",
            "trait: the catalog has no Trait cards",
            "strategy: must be an array of tables ([[strategy]]), got {'id': 'x'}",
        ]),
    ],
)
def test_a_string_where_a_catalog_table_belongs(tmp_path: Path, text: str, problems: list) -> None:
    path = write(tmp_path, text)
    message = raises(CatalogError, load_catalog, path)
    assert message == f"{path}: {len(problems)} problem(s)\n  - " + "\n  - ".join(problems)


# ------------------------------------------------------------------------------ rules fields
@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("hand_size = 4 ", "hand_size = 4.0 ", "setup: field 'hand_size' is 4.0; must be an integer 1..7"),
        ("hand_size = 4 ", "hand_size = true ", "setup: field 'hand_size' is True; must be an integer"),
        ("hand_size = 4 ", 'hand_size = "4" ', "setup: field 'hand_size' is '4'; must be an integer"),
        ("turns_per_day = 4 ", "turns_per_day = 7 ", "setup: field 'turns_per_day' is 7; must be "
         "an integer 1..4"),
        ("saloon_size = 3", "saloon_size = 4", "setup: field 'saloon_size' is 4; must be 3"),
        ('counts = { "2/3" = 2, "4/5" = 3, "6/7" = 2 }', 'counts = "2/3"', "marks: field 'counts' "
         "is '2/3'; must be a table"),
        ("[sheriff]", "[sheriff_]", "unknown field 'sheriff_' (allowed: setup, marks, days,"),
        ('traits = { blue = 14, red = "all" }', 'traits = "blue"', "decks.short.2: field 'traits' "
         "is 'blue'; must be a table"),
        ('traits = { blue = 14, red = "all" }', 'traits = { blue = -1, red = "all" }',
         "decks.short.2.traits: field 'blue' is -1; must be an integer 0..200 or \"all\""),
        ("values = [2, 2, 3, 3, 4, 4]", "values = [2, 2, 3, 3, 4]", "locations[0] 'estacion': field "
         "'values' is [2, 2, 3, 3, 4]; must be a list of 6 Safe values from 2..7"),
        ("values = [2, 2, 3, 3, 4, 4]", "values = [2, 2, 3, 3, 4, 8]", "locations[0] 'estacion': "
         "field 'values' is [2, 2, 3, 3, 4, 8]"),
        ('"-2" = -3, ', "", "reputation.tech: field '-2' is missing; must be an integer -10..10"),
        ("score_scale = 20", "score_scale = nan", "rewards: field 'score_scale' is nan; must be a "
         "number 1..1000"),
        ("score_scale = 20", "score_scale = inf", "rewards: field 'score_scale' is inf;"),
        ("slots = [5]", "slots = [5.0]", "leader[3]: field 'slots' is [5.0]; must be a list of "
         "distinct values from [1, 2, 3, 4, 5, 6]"),
        ("slots = [5]", "slots = [4]", "leader[3]: slot 4 already has a leader ability"),
        ('effect = [{ verb = "steal_safe" }]', 'effect = [{ verb = "swap_halves", half = '
         '"occupation" }]', "leader[3].effect[0]: swap_halves occupation acts on the Granuja being "
         "used; a leader effect has none"),
    ],
)
def test_wrong_rules_fields(tmp_path: Path, old: str, new: str, problem: str) -> None:
    assert old in RULES
    path = write(tmp_path, RULES.replace(old, new, 1), "rules.toml")
    message = raises(CatalogError, load_rules, path)
    assert message.startswith(f"{path}: ")
    assert any(line.startswith(problem) for line in message.split("\n  - ")[1:]), message


# ------------------------------------------------------------------------------ accepted data plays
CARD_RAW = tomllib.loads(CARDS)
RULES_RAW = tomllib.loads(RULES)
NUMBER = {"low": lambda lo, hi, rng: lo, "high": lambda lo, hi, rng: hi,
          "mixed": lambda lo, hi, rng: rng.choice((lo, hi, rng.randint(lo, hi)))}


def _subset(rng: random.Random, items, nonempty: bool = False) -> list:
    items = sorted(items)
    out = [x for x in items if rng.random() < 0.5]
    return out or ([rng.choice(items)] if nonempty else [])


def _steps(rng: random.Random, steps: list, amount, granuja: bool, new_verbs: bool) -> None:
    for k, step in enumerate(steps):
        if new_verbs and rng.random() < 0.3:
            verbs = [v for v in sorted(VERB_SPECS) if granuja or (v, "") not in GRANUJA_ONLY_STEPS]
            step = steps[k] = {"verb": rng.choice(verbs)}
        needs_amount, option, allowed, _ = VERB_SPECS[step["verb"]]
        step.pop("amount", None)
        if needs_amount:
            step["amount"] = amount(0, MAX_AMOUNT, rng)
        if option:
            choices = [o for o in allowed if granuja or (step["verb"], o) not in GRANUJA_ONLY_STEPS]
            step[option] = rng.choice(choices)


def mutated_catalog(seed: int, numbers: str, new_verbs: bool, new_timings: bool) -> dict:
    """The shipped catalog with its numbers at their limits ("low", "high") or anywhere between
    ("mixed"), slot icons, arrows, modifiers, requirements and options redrawn, and optionally
    other verbs and timings: always a file the loader accepts."""
    rng, raw = random.Random(seed), copy.deepcopy(CARD_RAW)
    number = NUMBER[numbers]
    for row in raw["occupation"]:
        _steps(rng, row.get("effect", []), number, True, new_verbs)
        row["requires"] = _subset(rng, REQUIREMENTS) if rng.random() < 0.2 else row.get("requires", [])
        for card in row["cards"]:
            card.update(bullet_holes=number(0, MAX_COST, rng), tech=number(0, MAX_TECH, rng))
    for row in raw["trait"]:
        if new_timings and rng.random() < 0.3:
            row["timing"] = rng.choice(sorted(TIMINGS))
        row["arrows"] = _subset(rng, ARROWS, nonempty=row["timing"] == "response")
        row["slots"] = _subset(rng, SLOT_NUMBERS, nonempty=row["timing"] == "slots")
        row["modifiers"] = _subset(rng, MODIFIERS)
        for key in ("before", "after"):
            _steps(rng, row.get(key, []), number, True, new_verbs)
        for card in row["cards"]:
            card.update(cost=number(0, MAX_COST, rng), tech=number(0, MAX_TECH, rng))
            card["slots"] = _subset(rng, SLOT_NUMBERS, nonempty=row["timing"] == "slots")
    for row in raw["strategy"]:
        _steps(rng, row.get("effect", []), number, False, new_verbs)
        row["discount"] = number(0, MAX_COST, rng)
        if new_timings:
            row["timing"] = rng.choice(("step2", "start_of_turn", "on_hire"))
    return raw


def mutated_rules(seed: int, numbers: str) -> dict:
    """The shipped rules with every free number at its limits or between (always accepted)."""
    rng, raw = random.Random(seed), copy.deepcopy(RULES_RAW)
    number = NUMBER[numbers]
    setup = raw["setup"]
    setup["starting_money"] = number(0, MAX_MONEY, rng)
    setup["hand_size"] = number(1, 7, rng)
    setup["turns_per_day"] = number(1, min(6, setup["hand_size"]), rng)
    setup["henchmen"] = number(1, MAX_HENCHMEN, rng)
    setup["henchmen_in_jail"] = number(0, setup["henchmen"], rng)
    first = number(0, 7, rng)
    second = number(0, 7 - first, rng)
    raw["marks"]["counts"] = {"2/3": first, "4/5": second, "6/7": 7 - first - second}
    raw["days"] = {"short": number(1, MAX_DAYS, rng), "long": number(1, MAX_DAYS, rng)}
    for by_players in raw["decks"].values():
        for table in by_players.values():
            for colours in table.values():
                for colour in colours:
                    colours[colour] = rng.choice(["all", number(0, 200, rng)])
    for location in raw["locations"]:
        location["values"] = [number(SAFE_VALUES[0], SAFE_VALUES[-1], rng) for _ in range(6)]
    rep = raw["reputation"]
    rep["min"], rep["max"] = number(-MAX_REPUTATION, 0, rng), number(0, MAX_REPUTATION, rng)
    rep["start"] = number(rep["min"], rep["max"], rng)
    rep["tech"] = {str(k): number(-MAX_REPUTATION_TECH, MAX_REPUTATION_TECH, rng)
                   for k in range(rep["min"], rep["max"] + 1)}
    sheriff = raw["sheriff"]
    for key in ("sell_information", "bail_cost", "bribe_cost"):
        sheriff[key] = number(0, MAX_MONEY, rng)
    sheriff["bail_max"] = number(0, setup["henchmen"], rng)
    for row in raw["leader"]:
        _steps(rng, row["effect"], number, False, True)
    raw["rewards"]["score_scale"] = number(1, MAX_SCORE_SCALE, rng)
    return raw


def piece_at(layout: ObservationLayout, index: int) -> str:
    return max((p for p in layout.pieces if p.offset <= index), key=lambda p: p.offset).name


def play_encoded(catalog, rules, config: GameConfig, seed: int) -> None:
    """A random game (abilities preferred to passing) with the acting seat's observation encoded
    at every step (every seat's at the end), inside the layout's bounds, and the state invariants
    checked."""
    game = Game(config, seed, rules=rules, catalog=catalog)
    layout = ObservationLayout(catalog, rules)
    rng = random.Random(seed)
    bound = STEPS_PER_TURN_BOUND * rules.days[config.game_length] * rules.turns_per_day * config.num_players
    for _ in range(bound):
        seats = range(config.num_players) if game.game_over else [game.current_player]
        for seat in seats:
            obs = layout.encode(game, seat)
            assert obs.shape == (layout.size,) and np.isfinite(obs).all()
            outside = np.flatnonzero((obs < layout.low) | (obs > layout.high))
            assert not outside.size, [(piece_at(layout, i), obs[i], layout.high[i]) for i in outside]
        if game.game_over:
            return
        legal = game.legal_actions()
        eager = len(legal) > 1 and legal[0] == A.PASS and rng.random() < 0.8
        game.apply(rng.choice(legal[1:] if eager else legal))
        check_invariants(game)
    raise AssertionError(f"the game did not end within {bound} steps")


CONFIGS = st.builds(GameConfig, st.integers(2, 4), st.sampled_from(["short", "long"]), st.booleans())
SLOW = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(seed=st.integers(0, 2**32), numbers=st.sampled_from(sorted(NUMBER)), new_verbs=st.booleans(),
       new_timings=st.booleans(), config=CONFIGS)
def test_every_catalog_the_loader_accepts_plays(seed: int, numbers: str, new_verbs: bool,
                                                 new_timings: bool, config: GameConfig) -> None:
    catalog = parse_catalog(mutated_catalog(seed, numbers, new_verbs, new_timings), "mutated")
    play_encoded(catalog, load_rules(), config, seed)


@SLOW
@given(seed=st.integers(0, 2**32), numbers=st.sampled_from(sorted(NUMBER)), config=CONFIGS)
def test_every_rules_file_the_loader_accepts_plays(seed: int, numbers: str, config: GameConfig) -> None:
    rules = parse_rules(mutated_rules(seed, numbers), "mutated")
    catalog = parse_catalog(mutated_catalog(seed, numbers, True, True), "mutated")
    play_encoded(catalog, rules, config, seed)


def test_the_mutations_reach_the_limits() -> None:
    """The generators above do test the extremes: every number at its low and high limit."""
    low = parse_catalog(mutated_catalog(1, "low", False, False))
    high = parse_catalog(mutated_catalog(1, "high", False, False))
    assert {c.cost for c in low.trait_cards} == {0} and {c.cost for c in high.trait_cards} == {MAX_COST}
    assert {c.tech for c in high.occupation_cards} == {MAX_TECH}
    assert {c.bullet_holes for c in high.occupation_cards} == {MAX_COST}
    amounts = {s.amount for o in high.occupations.values() for s in o.effect if VERB_SPECS[s.verb][0]}
    assert amounts == {MAX_AMOUNT}
    rules = parse_rules(mutated_rules(1, "high"))
    assert (rules.hand_size, rules.turns_per_day, rules.starting_money) == (7, 6, MAX_MONEY)
    assert (rules.reputation_min, rules.reputation_max) == (0, MAX_REPUTATION)
    assert rules.score_scale == MAX_SCORE_SCALE
