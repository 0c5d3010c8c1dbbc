"""Load and validate the data files: the rule numbers (rules.toml) and the card catalog (cards.toml).

Every problem is a :class:`CatalogError` naming the file, the card (or table) and the field, and
what is allowed: a path that is not a readable regular file, a file over :data:`MAX_FILE_BYTES`,
text that is not UTF-8 or not TOML, tables nested deeper than :data:`MAX_DEPTH`, numbers of
thousands of digits, a value of the wrong type (a string where a table belongs, a float or a bool
where an integer belongs, a list of the wrong shape) or out of its range. The ranges are the
``MAX_*`` constants below: the engine and the observation encoder are tested with values at those
limits (tests/test_hostile_files.py), so a file the loader accepts plays without crashing.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.messages import shown
from . import actions as A
from .vocabulary import (
    ARROWS,
    MODIFIERS,
    OCCUPATION_COLOURS,
    PROVENANCES,
    REQUIREMENTS,
    TIMINGS,
    TRAIT_COLOURS,
    VERB_SPECS,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
CATALOG_FORMAT = 1
GAME_LENGTHS = ("short", "long")

# Any data file or game record: larger files are refused unread, deeper nesting is refused (the
# shipped files nest 4 levels, game records 8).
MAX_FILE_BYTES = 16 * 2**20
MAX_DEPTH = 32

# Limits of the catalog's numbers. The observation encoder scales by them (hire cost = Trait cost
# minus the Occupation's bullet holes, so 0..MAX_COST; tech icons of a Granuja: 0..2 * MAX_TECH).
MAX_COST = 5  # dollar icons on one Trait card; also the most bullet holes and a Strategy discount
MAX_TECH = 3  # tech icons on one half (Occupation or Trait card)
MAX_AMOUNT = 10  # the ``amount`` of one verb step
MAX_COPIES = 20  # ``count`` of one ``cards`` entry
MAX_CARDS = 200  # physical cards of one kind (Occupations, Traits); so also designs of one kind
# Steps that act on the Granuja being used (discard it, swap its own Occupation): a Strategy card
# or a leader ability is no Granuja, so their effects may not hold them.
GRANUJA_ONLY_STEPS = frozenset({("discard_self", ""), ("swap_halves", "occupation")})

# Limits of rules.toml. Numbers that the fixed action and observation layout builds in allow only
# their one value (slots, poker cards, Saloon, sheet, Safes per location, players).
POKER_CARDS = tuple(range(A.SIZE["card"]))  # 0, A (= 1), 2..6
SLOT_NUMBERS = tuple(range(1, A.SIZE["slot"] + 1))  # 1 (= A)..6
SAFE_VALUES = tuple(range(2, 2 + A.SIZE["mark_face"]))  # a Safe's value is a Mark face: 2..7
MAX_DAYS = A.MAX_HELD_SAFES - 1  # the Safe limit is the day number; one more is held briefly
MAX_HENCHMEN = 3
MARKS = 7  # Marks per player
MAX_MONEY = 30  # starting money and every Sheriff's Office price
MAX_REPUTATION = 10  # the track lies within -MAX_REPUTATION..MAX_REPUTATION
MAX_REPUTATION_TECH = 10  # tech points of a reputation square, either sign
MAX_SCORE_SCALE = 1000


class CatalogError(ValueError):
    """A data file is malformed; the message lists every problem found, by card and field."""


@dataclass(frozen=True)
class Step:
    """One verb of an effect, with its parameters."""

    verb: str
    amount: int = 0
    option: str = ""


@dataclass(frozen=True)
class Occupation:
    id: str
    name: str
    gloss: str
    text: str
    provenance: str
    basis: str
    effect: tuple[Step, ...]
    requires: frozenset[str] = frozenset()


@dataclass(frozen=True)
class OccupationCard:
    """One physical Occupation card."""

    index: int
    occupation: Occupation
    colour: str
    bullet_holes: int
    tech: int


@dataclass(frozen=True)
class Trait:
    id: str
    name: str
    gloss: str
    text: str
    provenance: str
    basis: str
    timing: str
    slots: frozenset[int]
    arrows: frozenset[str]
    modifiers: frozenset[str]
    before: tuple[Step, ...]
    after: tuple[Step, ...]
    requires: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TraitCard:
    """One physical Trait card."""

    index: int
    trait: Trait
    colour: str
    cost: int
    tech: int
    slots: frozenset[int]  # poker-slot icons of this copy (copies of a Trait may differ)


@dataclass(frozen=True)
class StrategyCard:
    """An optional-rule Strategy card: not a Granuja; used once per player's turn."""

    index: int
    id: str
    name: str
    gloss: str
    leader: str
    text: str
    provenance: str
    basis: str
    timing: str  # "step2", "start_of_turn" or "on_hire" (a discount on the hire being made)
    effect: tuple[Step, ...]
    discount: int = 0  # on_hire: dollars off a Granuja hired from the rightmost Saloon space


STRATEGY_TIMINGS = ("step2", "start_of_turn", "on_hire")


@dataclass(frozen=True)
class Catalog:
    occupations: dict[str, Occupation]
    traits: dict[str, Trait]
    occupation_cards: tuple[OccupationCard, ...]
    trait_cards: tuple[TraitCard, ...]
    source: str
    strategies: tuple[StrategyCard, ...] = ()

    @property
    def leaders(self) -> list[str]:
        """Leaders in catalog order; seat i plays leader i (their Strategy cards differ)."""
        out: list[str] = []
        for card in self.strategies:
            if card.leader not in out:
                out.append(card.leader)
        return out

    def leader_strategies(self, leader: int) -> list[StrategyCard]:
        """The Strategy cards of leader number ``leader``."""
        name = self.leaders[leader]
        return [c for c in self.strategies if c.leader == name]

    def __deepcopy__(self, memo: dict) -> Catalog:
        return self  # immutable

    def cards_of_colour(self, colour: str) -> list[int]:
        """Indices of the physical cards of one colour (Occupation or Trait colours)."""
        if colour in OCCUPATION_COLOURS:
            return [c.index for c in self.occupation_cards if c.colour == colour]
        return [c.index for c in self.trait_cards if c.colour == colour]


@dataclass(frozen=True)
class Location:
    id: str
    name: str
    gloss: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class Rules:
    """The rule numbers of rules.toml."""

    starting_money: int
    hand_size: int
    turns_per_day: int
    henchmen: int
    henchmen_in_jail: int
    poker_cards: tuple[int, ...]
    slots: tuple[int, ...]
    saloon_size: int
    sheet_size: int
    safes_on_board: int
    min_players: int
    max_players: int
    mark_counts: tuple[int, int, int]  # marks of type 2/3, 4/5, 6/7
    days: dict[str, int]
    decks: dict[tuple[str, int], dict[str, dict[str, int | str]]]
    locations: tuple[Location, ...]
    reputation_min: int
    reputation_max: int
    reputation_start: int
    reputation_tech: dict[int, int]
    sell_information: int
    bail_cost: int
    bail_max: int
    bribe_cost: int
    leader: dict[int, tuple[Step, ...]]
    leader_text: dict[int, str]
    score_scale: float


# ---------------------------------------------------------------------------------------- reading


def is_int(value: object) -> bool:
    """An ``int`` that is not a ``bool`` (``True == 1`` in Python, not in a data file)."""
    return isinstance(value, int) and not isinstance(value, bool)


def nested_too_deep(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether lists and tables nest more than ``limit`` levels in ``value`` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def read_text(
    path: object, error: type[ValueError], what: str, max_bytes: int = MAX_FILE_BYTES
) -> tuple[Path, str]:
    """The path and UTF-8 text of the regular file ``path`` (a ``str`` or ``os.PathLike``).

    Every failure (wrong type, missing, a directory or device, unreadable, over ``max_bytes``, not
    UTF-8) raises ``error`` naming the file; ``what`` names the kind of file ("rules file").
    """
    if not isinstance(path, (str, os.PathLike)):
        raise error(f"the {what} path must be a str or os.PathLike, got {type(path).__name__} "
                    f"{shown(path)}")
    try:
        path = Path(path)
    except TypeError as exc:  # an os.PathLike whose __fspath__ gives bytes or another type
        raise error(f"the {what} path {shown(path)} is not a usable path ({exc})") from None
    if path.is_dir():
        raise error(f"{path}: is a directory, not a {what}")
    if not path.exists():
        raise error(f"{path}: file not found")
    if not path.is_file():  # a device or a pipe could block or never end
        raise error(f"{path}: not a regular file (a {what} must be one)")
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise error(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise error(f"{path}: larger than {max_bytes} bytes, the most a {what} may be")
    try:
        return path, data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason}); the file is "
                    "corrupted or in another encoding") from None


def _parse_toml(path: Path, text: str) -> dict[str, Any]:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML ({exc})") from None
    except RecursionError:
        raise CatalogError(f"{path}: tables or lists nested too deeply (at most {MAX_DEPTH} "
                           "levels)") from None
    except ValueError:  # tomllib's int() of a number longer than Python converts
        raise CatalogError(f"{path}: not valid TOML (a number has more digits than Python "
                           "converts, 4300 by default)") from None
    if nested_too_deep(raw):
        raise CatalogError(f"{path}: tables or lists nested more than {MAX_DEPTH} levels deep")
    return raw


# ---------------------------------------------------------------------------------------- checking
_MISSING: Any = object()


class _Broken(dict):
    """Stands for a table that is missing or not a table (already reported): its fields are not
    reported again one by one."""


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _span(lo: int, hi: int) -> str:
    return f"{lo}" if lo == hi else f"an integer {lo}..{hi}"


def _member(value: object, choices: tuple | frozenset | dict) -> bool:
    # type(...) is exact: a bool or a float equal to an allowed integer is not that integer
    return type(value) in (int, str) and value in choices


class _Problems:
    """Every problem found in one file, raised together as one :class:`CatalogError`.

    The getters record a problem and return ``fallback`` for a missing or bad value, so the check
    goes on and reports everything at once; nothing built from a fallback is ever returned.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.items: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.items.append(f"{where}: {message}" if where else message)

    def raise_if_any(self) -> None:
        if self.items:
            lines = "\n  - ".join(self.items)
            raise CatalogError(f"{self.source}: {len(self.items)} problem(s)\n  - {lines}")

    def value(
        self, table: dict, key: str, where: str, ok: Callable[[Any], bool], allowed: str,
        default: Any = _MISSING, fallback: Any = None,
    ) -> Any:
        """``table[key]`` if ``ok`` accepts it, else a problem saying it must be ``allowed``."""
        if key not in table:
            if default is not _MISSING:
                return default
            if not isinstance(table, _Broken):
                self.add(where, f"field {key!r} is missing; must be {allowed}")
            return fallback
        value = table[key]
        if not ok(value):
            self.add(where, f"field {key!r} is {shown(value)}; must be {allowed}")
            return fallback
        return value

    def integer(self, table: dict, key: str, where: str, lo: int, hi: int,
                default: Any = _MISSING, fallback: Any = _MISSING) -> Any:
        """An integer in lo..hi (never a bool or a float); ``fallback`` (default ``lo``) if not."""
        return self.value(table, key, where, lambda v: is_int(v) and lo <= v <= hi,
                          _span(lo, hi), default, lo if fallback is _MISSING else fallback)

    def text(self, table: dict, key: str, where: str, required: bool) -> str:
        if required:
            return self.value(table, key, where, lambda v: isinstance(v, str) and v != "",
                              "a non-empty string", fallback="")
        return self.value(table, key, where, lambda v: isinstance(v, str), "a string", "", "")

    def choice(self, table: dict, key: str, where: str, choices: tuple | frozenset,
               default: Any = _MISSING) -> str:
        return self.value(table, key, where, lambda v: _member(v, choices),
                          f"one of {', '.join(map(str, sorted(choices)))}", default,
                          sorted(choices)[0])

    def members(self, table: dict, key: str, where: str, choices: tuple | frozenset,
                default: Any = ()) -> list:
        """A list of distinct values from ``choices``."""

        def ok(v: Any) -> bool:
            return (isinstance(v, list) and all(_member(x, choices) for x in v)
                    and len(set(v)) == len(v))

        allowed = f"a list of distinct values from [{', '.join(map(str, sorted(choices)))}]"
        return list(self.value(table, key, where, ok, allowed, default, ()))

    def table(self, parent: dict, key: str, where: str, keys: tuple[str, ...]) -> dict:
        """The table ``parent[key]`` with its unknown keys reported (the getters that read its
        fields report the missing ones)."""
        value = self.value(parent, key, where, lambda v: isinstance(v, dict), "a table",
                           fallback=_Broken())
        self.keys(value, _join(where, key), keys)
        return value

    def keys(self, table: dict, where: str, allowed: tuple[str, ...],
             required: tuple[str, ...] = ()) -> None:
        for key in table:
            if key not in allowed:
                self.add(where, f"unknown field {shown(key)} (allowed: {', '.join(allowed)})")
        missing = [k for k in required if k not in table]
        if missing and not isinstance(table, _Broken):
            self.add(where, f"missing field(s) {', '.join(missing)}")

    def rows(self, raw: dict, key: str) -> Iterator[tuple[str, dict]]:
        """The tables of the array ``raw[key]`` (``[[key]]``), each with its name for messages."""
        rows = raw.get(key, [])
        if not isinstance(rows, list):
            self.add(key, f"must be an array of tables ([[{key}]]), got {shown(rows)}")
            return
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                self.add(f"{key}[{i}]", f"must be a table, got {shown(row)}")
                continue
            rid = row.get("id")
            yield (f"{key}[{i}] {shown(rid)}" if isinstance(rid, str) else f"{key}[{i}]"), row

    def effect(self, table: dict, key: str, where: str, granuja: bool = True) -> tuple[Step, ...]:
        """A list of verb steps ``[{verb = ..., amount = ..., <option> = ...}, ...]``; without
        ``granuja`` (Strategy cards, leader abilities) no step of :data:`GRANUJA_ONLY_STEPS`."""
        raw = self.value(table, key, where, lambda v: isinstance(v, list),
                         "a list of {verb = ...} tables", [], [])
        here = _join(where, key)
        steps = []
        for i, item in enumerate(raw):
            at = f"{here}[{i}]"
            if not isinstance(item, dict):
                self.add(at, f"must be a table {{verb = ...}}, got {shown(item)}")
                continue
            verb = self.value(item, "verb", at, lambda v: _member(v, VERB_SPECS),
                              f"one of {', '.join(sorted(VERB_SPECS))}")
            if verb is None:
                continue
            needs_amount, option_name, allowed, _ = VERB_SPECS[verb]
            params = (("amount",) if needs_amount else ()) + ((option_name,) if option_name else ())
            for name in item:
                if name != "verb" and name not in params:
                    self.add(at, f"verb {verb!r} takes no parameter {shown(name)} (allowed: "
                             f"{', '.join(params) or 'none'})")
            amount = self.integer(item, "amount", at, 0, MAX_AMOUNT) if needs_amount else 0
            option = self.choice(item, option_name, at, allowed, allowed[0]) if option_name else ""
            if not granuja and (verb, option) in GRANUJA_ONLY_STEPS:
                self.add(at, f"{verb} {option}".strip() + " acts on the Granuja being used; a "
                         f"{where.split('[')[0]} effect has none")
            steps.append(Step(verb=verb, amount=amount, option=option))
        return tuple(steps)

    def copies(self, row: dict, where: str, colours: tuple[str, ...], numbers: dict[str, int],
               slots: frozenset[int] | None = None) -> list[tuple[str, dict[str, Any]]]:
        """The ``cards`` entries of a design, each as (its name, its checked values): colour,
        count, the integer fields ``numbers`` (name -> largest value) and, given a Trait's
        ``slots``, the entry's own slot icons (default: those). Entries with problems are left out."""
        raw = self.value(row, "cards", where, lambda v: isinstance(v, list) and v != [],
                         "a non-empty list of {colour, count, ...} tables", fallback=[])
        fields = ("colour", "count", *numbers, *(("slots",) if slots is not None else ()))
        out = []
        for i, item in enumerate(raw):
            at = f"{where}.cards[{i}]"
            if not isinstance(item, dict):
                self.add(at, f"must be a table {{colour, count, ...}}, got {shown(item)}")
                continue
            before = len(self.items)
            self.keys(item, at, fields)
            entry = {
                "colour": self.choice(item, "colour", at, colours),
                "count": self.integer(item, "count", at, 1, MAX_COPIES),
            }
            for name, hi in numbers.items():
                entry[name] = self.integer(item, name, at, 0, hi, 0)
            if slots is not None:
                entry["slots"] = frozenset(self.members(item, "slots", at, SLOT_NUMBERS,
                                                        sorted(slots)))
            if len(self.items) == before:
                out.append((at, entry))
        return out


# ---------------------------------------------------------------------------------------- catalog
def load_catalog(path: Path | str | None = None) -> Catalog:
    """Load and validate a card catalog file (default: the shipped ``data/cards.toml``)."""
    path, text = read_text(DATA_DIR / "cards.toml" if path is None else path, CatalogError,
                           "card catalog file")
    return parse_catalog(_parse_toml(path, text), str(path))


def parse_catalog(raw: dict[str, Any], source: str = "<catalog>") -> Catalog:
    """Validate a parsed catalog file (``tomllib`` output) and build the :class:`Catalog`."""
    problems = _Problems(source)
    if not isinstance(raw, dict):
        problems.add("", f"a catalog is a table of format, occupation, trait, strategy; got "
                     f"{shown(raw)}")
        problems.raise_if_any()
    problems.integer(raw, "format", "", CATALOG_FORMAT, CATALOG_FORMAT)
    for key in raw:
        if key not in ("format", "occupation", "trait", "strategy"):
            problems.add(shown(key), "unknown top-level table (allowed: format, occupation, trait, "
                         "strategy)")

    occupations: dict[str, Occupation] = {}
    occ_cards: list[OccupationCard] = []
    occ_fields = ("id", "name", "gloss", "text", "provenance", "basis", "effect", "requires",
                  "cards")
    for where, row in problems.rows(raw, "occupation"):
        oid = problems.text(row, "id", where, True)
        if oid in occupations:
            problems.add(where, "duplicate id")
        problems.keys(row, where, occ_fields)
        occ = Occupation(
            id=oid,
            name=problems.text(row, "name", where, True),
            gloss=problems.text(row, "gloss", where, False),
            text=problems.text(row, "text", where, True),
            provenance=problems.choice(row, "provenance", where, PROVENANCES),
            basis=problems.text(row, "basis", where, False),
            effect=problems.effect(row, "effect", where),
            requires=frozenset(problems.members(row, "requires", where, tuple(REQUIREMENTS))),
        )
        occupations.setdefault(oid, occ)
        numbers = {"bullet_holes": MAX_COST, "tech": MAX_TECH}
        for _, entry in problems.copies(row, where, OCCUPATION_COLOURS, numbers):
            occ_cards += [
                OccupationCard(len(occ_cards) + k, occ, entry["colour"], entry["bullet_holes"],
                               entry["tech"])
                for k in range(entry["count"])
            ]
            if len(occ_cards) > MAX_CARDS:
                break

    traits: dict[str, Trait] = {}
    trait_cards: list[TraitCard] = []
    trait_fields = ("id", "name", "gloss", "text", "provenance", "basis", "timing", "slots",
                    "arrows", "modifiers", "before", "after", "requires", "cards")
    for where, row in problems.rows(raw, "trait"):
        tid = problems.text(row, "id", where, True)
        if tid in traits:
            problems.add(where, "duplicate id")
        problems.keys(row, where, trait_fields)
        timing = problems.choice(row, "timing", where, TIMINGS)
        reported = len(problems.items)
        arrows = problems.members(row, "arrows", where, ARROWS)
        if timing == "response" and not arrows and len(problems.items) == reported:
            problems.add(where, "timing 'response' needs a non-empty 'arrows' list")
        trait = Trait(
            id=tid,
            name=problems.text(row, "name", where, True),
            gloss=problems.text(row, "gloss", where, False),
            text=problems.text(row, "text", where, False),
            provenance=problems.choice(row, "provenance", where, PROVENANCES),
            basis=problems.text(row, "basis", where, False),
            timing=timing,
            slots=frozenset(problems.members(row, "slots", where, SLOT_NUMBERS)),
            arrows=frozenset(arrows),
            modifiers=frozenset(problems.members(row, "modifiers", where, MODIFIERS)),
            before=problems.effect(row, "before", where),
            after=problems.effect(row, "after", where),
            requires=frozenset(problems.members(row, "requires", where, tuple(REQUIREMENTS))),
        )
        traits.setdefault(tid, trait)
        numbers = {"cost": MAX_COST, "tech": MAX_TECH}
        for at, entry in problems.copies(row, where, TRAIT_COLOURS, numbers, trait.slots):
            slots = entry["slots"]
            if timing == "slots" and not slots:
                problems.add(at, "timing 'slots' needs slot icons (on the trait or the card)")
            trait_cards += [
                TraitCard(len(trait_cards) + k, trait, entry["colour"], entry["cost"], entry["tech"],
                          slots)
                for k in range(entry["count"])
            ]
            if len(trait_cards) > MAX_CARDS:
                break
    for kind, cards in (("occupation", occ_cards), ("trait", trait_cards)):
        if not cards:
            problems.add(kind, f"the catalog has no {kind.capitalize()} cards")
        if len(cards) > MAX_CARDS:
            problems.add(kind, f"more than {MAX_CARDS} {kind.capitalize()} cards (the most allowed)")
    strategies = _parse_strategies(raw, problems)
    problems.raise_if_any()
    return Catalog(
        occupations, traits, tuple(occ_cards), tuple(trait_cards), source, tuple(strategies)
    )


def _parse_strategies(raw: dict[str, Any], problems: _Problems) -> list[StrategyCard]:
    out: list[StrategyCard] = []
    fields = ("id", "name", "gloss", "leader", "text", "provenance", "basis", "timing", "effect",
              "discount")
    for where, row in problems.rows(raw, "strategy"):
        problems.keys(row, where, fields)
        sid = problems.text(row, "id", where, True)
        if any(card.id == sid for card in out):
            problems.add(where, "duplicate id")
        out.append(
            StrategyCard(
                index=len(out),
                id=sid,
                name=problems.text(row, "name", where, True),
                gloss=problems.text(row, "gloss", where, False),
                leader=problems.text(row, "leader", where, True),
                text=problems.text(row, "text", where, True),
                provenance=problems.choice(row, "provenance", where, PROVENANCES),
                basis=problems.text(row, "basis", where, False),
                timing=problems.choice(row, "timing", where, STRATEGY_TIMINGS, "step2"),
                effect=problems.effect(row, "effect", where, granuja=False),
                discount=problems.integer(row, "discount", where, 0, MAX_COST, 0),
            )
        )
    leaders: dict[str, int] = {}
    for card in out:
        leaders[card.leader] = leaders.get(card.leader, 0) + 1
    if out and (len(leaders) != 4 or any(n != 2 for n in leaders.values())):
        problems.add("strategy", f"need 2 Strategy cards for each of 4 leaders, got {leaders}")
    return out


# ---------------------------------------------------------------------------------------- rules
def load_rules(path: Path | str | None = None) -> Rules:
    """Load and validate the rule numbers (default: the shipped ``data/rules.toml``)."""
    path, text = read_text(DATA_DIR / "rules.toml" if path is None else path, CatalogError,
                           "rules file")
    return parse_rules(_parse_toml(path, text), str(path))


def _counts(p: _Problems, parent: dict, key: str, where: str, colours: tuple[str, ...]) -> dict:
    # a deck's cards by colour, top colour first: a count or "all" (every card of that colour)
    table = p.table(parent, key, where, colours)
    here = _join(where, key)
    if not table and not isinstance(table, _Broken):
        p.add(here, f"needs at least one colour of {', '.join(colours)}")
    return {
        colour: p.value(table, colour, here, lambda v: v == "all" or (is_int(v) and 0 <= v <= MAX_CARDS),
                        f'an integer 0..{MAX_CARDS} or "all"', fallback=0)
        for colour in table if colour in colours
    }


def parse_rules(raw: dict[str, Any], source: str = "<rules>") -> Rules:
    """Validate a parsed rules file (``tomllib`` output) and build the :class:`Rules`."""
    p = _Problems(source)
    if not isinstance(raw, dict):
        p.add("", f"a rules file is a table of tables, got {shown(raw)}")
        p.raise_if_any()
    p.keys(raw, "", ("setup", "marks", "days", "decks", "locations", "reputation", "sheriff",
                     "leader", "rewards"))
    setup_keys = ("starting_money", "hand_size", "turns_per_day", "henchmen", "henchmen_in_jail",
                  "poker_cards", "slots", "saloon_size", "sheet_size",
                  "safes_on_board_per_location", "min_players", "max_players")
    setup = p.table(raw, "setup", "", setup_keys)
    # a bad bound falls back to its largest value, so the fields checked against it are not
    # reported as well
    hand_size = p.integer(setup, "hand_size", "setup", 1, len(POKER_CARDS), fallback=len(POKER_CARDS))
    henchmen = p.integer(setup, "henchmen", "setup", 1, MAX_HENCHMEN, fallback=MAX_HENCHMEN)
    poker_cards = p.value(setup, "poker_cards", "setup",
                          lambda v: isinstance(v, list) and sorted(v, key=repr) == list(POKER_CARDS)
                          and all(is_int(x) for x in v),
                          f"the poker cards {list(POKER_CARDS)}, each once", fallback=POKER_CARDS)
    slots = p.value(setup, "slots", "setup", lambda v: v == list(SLOT_NUMBERS)
                    and all(is_int(x) for x in v), f"{list(SLOT_NUMBERS)}", fallback=SLOT_NUMBERS)
    safes_on_board = p.integer(setup, "safes_on_board_per_location", "setup", A.BOARD_POSITIONS,
                               A.BOARD_POSITIONS)

    marks = p.table(raw, "marks", "", ("counts", "provenance"))
    p.text(marks, "provenance", "marks", False)
    faces = ("2/3", "4/5", "6/7")
    counts = p.table(marks, "counts", "marks", faces)
    mark_counts = tuple(p.integer(counts, face, "marks.counts", 0, MARKS, fallback=None)
                        for face in faces)
    if None not in mark_counts and sum(mark_counts) != MARKS:  # type: ignore[arg-type]
        p.add("marks.counts", f"must add up to {MARKS} Marks per player, got {sum(mark_counts)}")

    days_table = p.table(raw, "days", "", GAME_LENGTHS)
    days = {length: p.integer(days_table, length, "days", 1, MAX_DAYS) for length in GAME_LENGTHS}

    decks: dict[tuple[str, int], dict[str, dict[str, int | str]]] = {}
    players = tuple(range(2, A.MAX_PLAYERS + 1))
    by_length = p.table(raw, "decks", "", GAME_LENGTHS)
    for length in GAME_LENGTHS:
        by_players = p.table(by_length, length, "decks", tuple(map(str, players)))
        for n in players:
            where = f"decks.{length}.{n}"
            table = p.table(by_players, str(n), f"decks.{length}", ("traits", "occupations"))
            decks[(length, n)] = {
                "traits": _counts(p, table, "traits", where, TRAIT_COLOURS),
                "occupations": _counts(p, table, "occupations", where, OCCUPATION_COLOURS),
            }

    locations: list[Location] = []
    raw_locations = list(p.rows(raw, "locations"))
    if isinstance(raw.get("locations"), list) and len(raw["locations"]) != A.LOCATIONS:
        p.add("locations", f"need exactly {A.LOCATIONS} locations, got {len(raw['locations'])}")
    size = safes_on_board + 1
    for where, row in raw_locations:
        p.keys(row, where, ("id", "name", "gloss", "values", "provenance"))
        loc_id = p.text(row, "id", where, True)
        if any(loc.id == loc_id for loc in locations):
            p.add(where, "duplicate id")
        p.text(row, "provenance", where, False)
        values = p.value(row, "values", where, lambda v: isinstance(v, list) and len(v) == size
                         and all(_member(x, SAFE_VALUES) for x in v),
                         f"a list of {size} Safe values from {SAFE_VALUES[0]}..{SAFE_VALUES[-1]}",
                         fallback=())
        locations.append(Location(loc_id, p.text(row, "name", where, True),
                                  p.text(row, "gloss", where, False), tuple(values)))

    rep = p.table(raw, "reputation", "", ("min", "max", "start", "tech", "provenance"))
    p.text(rep, "provenance", "reputation", False)
    rep_min = p.integer(rep, "min", "reputation", -MAX_REPUTATION, 0, fallback=None)
    rep_max = p.integer(rep, "max", "reputation", 0, MAX_REPUTATION, fallback=None)
    if rep_min is None or rep_max is None:  # reported; the squares of the tech table are unknown
        rep_min = rep_max = 0
        tech: dict = _Broken()
    else:
        tech = p.table(rep, "tech", "reputation", tuple(map(str, range(rep_min, rep_max + 1))))
    squares = range(rep_min, rep_max + 1)
    reputation_tech = {
        k: p.integer(tech, str(k), "reputation.tech", -MAX_REPUTATION_TECH, MAX_REPUTATION_TECH)
        for k in squares
    }

    sheriff = p.table(raw, "sheriff", "", ("sell_information", "bail_cost", "bail_max",
                                            "bribe_cost"))
    leader: dict[int, tuple[Step, ...]] = {}
    leader_text: dict[int, str] = {}
    for where, row in p.rows(raw, "leader"):
        p.keys(row, where, ("slots", "text", "effect"), required=("effect",))
        text = p.text(row, "text", where, True)
        effect = p.effect(row, "effect", where, granuja=False)
        for slot in p.members(row, "slots", where, SLOT_NUMBERS, _MISSING):
            if slot in leader:
                p.add(where, f"slot {slot} already has a leader ability")
            leader[slot], leader_text[slot] = effect, text
    rewards = p.table(raw, "rewards", "", ("score_scale",))
    score_scale = p.value(
        rewards, "score_scale", "rewards",
        lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
        and 1 <= v <= MAX_SCORE_SCALE,
        f"a number 1..{MAX_SCORE_SCALE}", fallback=1.0,
    )
    rules = Rules(
        starting_money=p.integer(setup, "starting_money", "setup", 0, MAX_MONEY),
        hand_size=hand_size,
        # each turn fills one slot from the hand
        turns_per_day=p.integer(setup, "turns_per_day", "setup", 1,
                                min(hand_size, len(SLOT_NUMBERS))),
        henchmen=henchmen,
        henchmen_in_jail=p.integer(setup, "henchmen_in_jail", "setup", 0, henchmen),
        poker_cards=tuple(poker_cards),
        slots=tuple(slots),
        saloon_size=p.integer(setup, "saloon_size", "setup", A.SIZE["saloon"], A.SIZE["saloon"]),
        sheet_size=p.integer(setup, "sheet_size", "setup", A.SHEET_SIZE, A.SHEET_SIZE),
        safes_on_board=safes_on_board,
        min_players=p.integer(setup, "min_players", "setup", players[0], players[0]),
        max_players=p.integer(setup, "max_players", "setup", players[-1], players[-1]),
        mark_counts=mark_counts,  # type: ignore[arg-type]
        days=days,
        decks=decks,
        locations=tuple(locations),
        reputation_min=rep_min,
        reputation_max=rep_max,
        reputation_start=p.integer(rep, "start", "reputation", rep_min, rep_max),
        reputation_tech=reputation_tech,
        sell_information=p.integer(sheriff, "sell_information", "sheriff", 0, MAX_MONEY),
        bail_cost=p.integer(sheriff, "bail_cost", "sheriff", 0, MAX_MONEY),
        bail_max=p.integer(sheriff, "bail_max", "sheriff", 0, henchmen),
        bribe_cost=p.integer(sheriff, "bribe_cost", "sheriff", 0, MAX_MONEY),
        leader=leader,
        leader_text=leader_text,
        score_scale=float(score_scale),
    )
    p.raise_if_any()
    return rules
