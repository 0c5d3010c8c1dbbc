"""Load and validate the data files: the rule numbers (rules.toml) and the card catalog (cards.toml).

Every error names the file, the card (or table) and the field that is wrong, and what is allowed.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


class _Problems:
    def __init__(self, source: str) -> None:
        self.source = source
        self.items: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.items.append(f"{where}: {message}")

    def raise_if_any(self) -> None:
        if self.items:
            lines = "\n  - ".join(self.items)
            raise CatalogError(f"{self.source}: {len(self.items)} problem(s)\n  - {lines}")


def _load_toml(path: Path | str) -> dict[str, Any]:
    path = Path(path)
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError as exc:
        raise CatalogError(f"{path}: file not found") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML ({exc})") from exc


def _parse_effect(raw: Any, where: str, problems: _Problems) -> tuple[Step, ...]:
    if not isinstance(raw, list):
        problems.add(where, f"must be a list of {{verb = ...}} tables, got {type(raw).__name__}")
        return ()
    steps = []
    for i, item in enumerate(raw):
        here = f"{where}[{i}]"
        if not isinstance(item, dict) or "verb" not in item:
            problems.add(here, "must be a table with a 'verb' key")
            continue
        verb = item["verb"]
        if verb not in VERB_SPECS:
            problems.add(here, f"unknown verb {verb!r}; allowed: {', '.join(sorted(VERB_SPECS))}")
            continue
        needs_amount, option_name, allowed, _ = VERB_SPECS[verb]
        params = {"amount"} if needs_amount else set()
        if option_name:
            params.add(option_name)
        for key in item:
            if key != "verb" and key not in params:
                shown = ", ".join(sorted(params)) or "none"
                problems.add(here, f"verb {verb!r} takes no parameter {key!r} (allowed: {shown})")
        amount = item.get("amount", 0)
        if needs_amount and "amount" not in item:
            problems.add(here, f"verb {verb!r} needs parameter 'amount'")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            problems.add(here, f"amount must be a non-negative integer, got {amount!r}")
            amount = 0
        option = ""
        if option_name:
            option = item.get(option_name, allowed[0])
            if option not in allowed:
                problems.add(here, f"{option_name} must be one of {', '.join(allowed)}, got {option!r}")
                option = allowed[0]
        steps.append(Step(verb=verb, amount=amount, option=option))
    return tuple(steps)


def _requirements(row: dict[str, Any], where: str, problems: _Problems) -> frozenset[str]:
    value = row.get("requires", [])
    if not isinstance(value, list) or any(r not in REQUIREMENTS for r in value):
        problems.add(where, f"requires must be a list of {sorted(REQUIREMENTS)}, got {value!r}")
        return frozenset()
    return frozenset(value)


def _text(row: dict[str, Any], key: str, where: str, problems: _Problems, required: bool) -> str:
    value = row.get(key, "")
    if not isinstance(value, str) or (required and not value):
        problems.add(where, f"field {key!r} must be a non-empty string")
        return ""
    return value


def _parse_cards(
    raw: Any,
    where: str,
    colours: tuple[str, ...],
    fields: tuple[str, ...],
    problems: _Problems,
    extra: tuple[str, ...] = (),
) -> list[dict[str, Any]]:
    if not isinstance(raw, list) or not raw:
        problems.add(where, "field 'cards' must be a non-empty list of {colour, count, ...}")
        return []
    out = []
    for i, item in enumerate(raw):
        here = f"{where}.cards[{i}]"
        if not isinstance(item, dict):
            problems.add(here, "must be a table")
            continue
        ok = True
        if item.get("colour") not in colours:
            problems.add(here, f"colour {item.get('colour')!r} not one of {', '.join(colours)}")
            ok = False
        for key in ("count", *fields):
            value = item.get(key, 0 if key != "count" else None)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                problems.add(here, f"{key} must be a non-negative integer, got {value!r}")
                ok = False
        for key in item:
            if key not in ("colour", "count", *fields, *extra):
                allowed = ", ".join(("colour", "count", *fields, *extra))
                problems.add(here, f"unknown field {key!r} (allowed: {allowed})")
        if ok:
            out.append(item)
    return out


def load_catalog(path: Path | str | None = None) -> Catalog:
    """Load and validate a card catalog file (default: the shipped ``data/cards.toml``)."""
    path = Path(path) if path is not None else DATA_DIR / "cards.toml"
    raw = _load_toml(path)
    problems = _Problems(str(path))
    if raw.get("format") != CATALOG_FORMAT:
        problems.add("format", f"must be {CATALOG_FORMAT}, got {raw.get('format')!r}")
    for key in raw:
        if key not in ("format", "occupation", "trait", "strategy"):
            problems.add(key, "unknown top-level table (allowed: format, occupation, trait, strategy)")

    occupations: dict[str, Occupation] = {}
    occ_cards: list[OccupationCard] = []
    for i, row in enumerate(raw.get("occupation", [])):
        where = f"occupation[{i}] {row.get('id', '?')!r}"
        oid = row.get("id")
        if not isinstance(oid, str) or not oid:
            problems.add(where, "field 'id' must be a non-empty string")
            continue
        if oid in occupations:
            problems.add(where, "duplicate id")
            continue
        provenance = row.get("provenance")
        if provenance not in PROVENANCES:
            problems.add(where, f"provenance {provenance!r} not one of {sorted(PROVENANCES)}")
        allowed = {"id", "name", "gloss", "text", "provenance", "basis", "effect", "requires", "cards"}
        for key in row:
            if key not in allowed:
                problems.add(where, f"unknown field {key!r} (allowed: {', '.join(sorted(allowed))})")
        occ = Occupation(
            id=oid,
            name=_text(row, "name", where, problems, True),
            gloss=_text(row, "gloss", where, problems, False),
            text=_text(row, "text", where, problems, True),
            provenance=str(provenance),
            basis=_text(row, "basis", where, problems, False),
            effect=_parse_effect(row.get("effect", []), f"{where}.effect", problems),
            requires=_requirements(row, where, problems),
        )
        occupations[oid] = occ
        for item in _parse_cards(
            row.get("cards"), where, OCCUPATION_COLOURS, ("bullet_holes", "tech"), problems
        ):
            for _ in range(item["count"]):
                occ_cards.append(
                    OccupationCard(
                        index=len(occ_cards),
                        occupation=occ,
                        colour=item["colour"],
                        bullet_holes=item.get("bullet_holes", 0),
                        tech=item.get("tech", 0),
                    )
                )

    traits: dict[str, Trait] = {}
    trait_cards: list[TraitCard] = []
    for i, row in enumerate(raw.get("trait", [])):
        where = f"trait[{i}] {row.get('id', '?')!r}"
        tid = row.get("id")
        if not isinstance(tid, str) or not tid:
            problems.add(where, "field 'id' must be a non-empty string")
            continue
        if tid in traits:
            problems.add(where, "duplicate id")
            continue
        allowed = {
            "id", "name", "gloss", "text", "provenance", "basis", "timing", "slots", "arrows",
            "modifiers", "before", "after", "requires", "cards",
        }
        for key in row:
            if key not in allowed:
                problems.add(where, f"unknown field {key!r} (allowed: {', '.join(sorted(allowed))})")
        provenance = row.get("provenance")
        if provenance not in PROVENANCES:
            problems.add(where, f"provenance {provenance!r} not one of {sorted(PROVENANCES)}")
        timing = row.get("timing")
        if timing not in TIMINGS:
            problems.add(where, f"timing {timing!r} not one of {', '.join(sorted(TIMINGS))}")
        slots = row.get("slots", [])
        if not isinstance(slots, list) or any(s not in range(1, 7) for s in slots):
            problems.add(where, f"slots must be a list of slot numbers 1-6 (1 = A), got {slots!r}")
            slots = []
        arrows = row.get("arrows", [])
        if not isinstance(arrows, list) or any(a not in ARROWS for a in arrows):
            problems.add(where, f"arrows must be a list of {sorted(ARROWS)}, got {arrows!r}")
            arrows = []
        if timing == "response" and not arrows:
            problems.add(where, "timing 'response' needs a non-empty 'arrows' list")
        modifiers = row.get("modifiers", [])
        if not isinstance(modifiers, list) or any(m not in MODIFIERS for m in modifiers):
            problems.add(where, f"modifiers must be a list of {sorted(MODIFIERS)}, got {modifiers!r}")
            modifiers = []
        trait = Trait(
            id=tid,
            name=_text(row, "name", where, problems, True),
            gloss=_text(row, "gloss", where, problems, False),
            text=_text(row, "text", where, problems, False),
            provenance=str(provenance),
            basis=_text(row, "basis", where, problems, False),
            timing=str(timing),
            slots=frozenset(slots),
            arrows=frozenset(arrows),
            modifiers=frozenset(modifiers),
            before=_parse_effect(row.get("before", []), f"{where}.before", problems),
            after=_parse_effect(row.get("after", []), f"{where}.after", problems),
            requires=_requirements(row, where, problems),
        )
        traits[tid] = trait
        for item in _parse_cards(
            row.get("cards"), where, TRAIT_COLOURS, ("cost", "tech"), problems, extra=("slots",)
        ):
            card_slots = item.get("slots", sorted(trait.slots))
            if not isinstance(card_slots, list) or any(x not in range(1, 7) for x in card_slots):
                problems.add(f"{where}.cards", f"slots must be slot numbers 1-6, got {card_slots!r}")
                card_slots = []
            if timing == "slots" and not card_slots:
                problems.add(f"{where}.cards", "timing 'slots' needs slot icons (trait or card)")
            for _ in range(item["count"]):
                trait_cards.append(
                    TraitCard(
                        index=len(trait_cards),
                        trait=trait,
                        colour=item["colour"],
                        cost=item.get("cost", 0),
                        tech=item.get("tech", 0),
                        slots=frozenset(card_slots),
                    )
                )
    if not occ_cards:
        problems.add("occupation", "the catalog has no Occupation cards")
    if not trait_cards:
        problems.add("trait", "the catalog has no Trait cards")
    strategies = _parse_strategies(raw.get("strategy", []), problems)
    problems.raise_if_any()
    return Catalog(
        occupations, traits, tuple(occ_cards), tuple(trait_cards), str(path), tuple(strategies)
    )


def _parse_strategies(rows: Any, problems: _Problems) -> list[StrategyCard]:
    out: list[StrategyCard] = []
    allowed = {"id", "name", "gloss", "leader", "text", "provenance", "basis", "timing", "effect",
               "discount"}
    for i, row in enumerate(rows):
        where = f"strategy[{i}] {row.get('id', '?')!r}"
        for key in row:
            if key not in allowed:
                problems.add(where, f"unknown field {key!r} (allowed: {', '.join(sorted(allowed))})")
        timing = row.get("timing", "step2")
        if timing not in STRATEGY_TIMINGS:
            problems.add(where, f"timing {timing!r} not one of {', '.join(STRATEGY_TIMINGS)}")
        if row.get("provenance") not in PROVENANCES:
            problems.add(where, f"provenance {row.get('provenance')!r} not one of {sorted(PROVENANCES)}")
        discount = row.get("discount", 0)
        if not isinstance(discount, int) or discount < 0:
            problems.add(where, f"discount must be a non-negative integer, got {discount!r}")
            discount = 0
        out.append(
            StrategyCard(
                index=len(out),
                id=_text(row, "id", where, problems, True),
                name=_text(row, "name", where, problems, True),
                gloss=_text(row, "gloss", where, problems, False),
                leader=_text(row, "leader", where, problems, True),
                text=_text(row, "text", where, problems, True),
                provenance=str(row.get("provenance")),
                basis=_text(row, "basis", where, problems, False),
                timing=str(timing),
                effect=_parse_effect(row.get("effect", []), f"{where}.effect", problems),
                discount=discount,
            )
        )
    leaders: dict[str, int] = {}
    for card in out:
        leaders[card.leader] = leaders.get(card.leader, 0) + 1
    if out and (len(leaders) != 4 or any(n != 2 for n in leaders.values())):
        problems.add("strategy", f"need 2 Strategy cards for each of 4 leaders, got {leaders}")
    return out


def load_rules(path: Path | str | None = None) -> Rules:
    """Load and validate the rule numbers (default: the shipped ``data/rules.toml``)."""
    path = Path(path) if path is not None else DATA_DIR / "rules.toml"
    raw = _load_toml(path)
    problems = _Problems(str(path))
    try:
        setup = raw["setup"]
        marks = raw["marks"]["counts"]
        mark_counts = (int(marks["2/3"]), int(marks["4/5"]), int(marks["6/7"]))
        decks: dict[tuple[str, int], dict[str, dict[str, int | str]]] = {}
        for length, by_players in raw["decks"].items():
            for players, table in by_players.items():
                decks[(length, int(players))] = {
                    "traits": dict(table["traits"]),
                    "occupations": dict(table["occupations"]),
                }
        locations = tuple(
            Location(loc["id"], loc["name"], loc.get("gloss", ""), tuple(loc["values"]))
            for loc in raw["locations"]
        )
        rep = raw["reputation"]
        leader: dict[int, tuple[Step, ...]] = {}
        leader_text: dict[int, str] = {}
        for i, row in enumerate(raw["leader"]):
            effect = _parse_effect(row["effect"], f"leader[{i}].effect", problems)
            for slot in row["slots"]:
                leader[int(slot)] = effect
                leader_text[int(slot)] = row["text"]
        rules = Rules(
            starting_money=int(setup["starting_money"]),
            hand_size=int(setup["hand_size"]),
            turns_per_day=int(setup["turns_per_day"]),
            henchmen=int(setup["henchmen"]),
            henchmen_in_jail=int(setup["henchmen_in_jail"]),
            poker_cards=tuple(setup["poker_cards"]),
            slots=tuple(setup["slots"]),
            saloon_size=int(setup["saloon_size"]),
            sheet_size=int(setup["sheet_size"]),
            safes_on_board=int(setup["safes_on_board_per_location"]),
            min_players=int(setup["min_players"]),
            max_players=int(setup["max_players"]),
            mark_counts=mark_counts,
            days={k: int(v) for k, v in raw["days"].items()},
            decks=decks,
            locations=locations,
            reputation_min=int(rep["min"]),
            reputation_max=int(rep["max"]),
            reputation_start=int(rep["start"]),
            reputation_tech={int(k): int(v) for k, v in rep["tech"].items()},
            sell_information=int(raw["sheriff"]["sell_information"]),
            bail_cost=int(raw["sheriff"]["bail_cost"]),
            bail_max=int(raw["sheriff"]["bail_max"]),
            bribe_cost=int(raw["sheriff"]["bribe_cost"]),
            leader=leader,
            leader_text=leader_text,
            score_scale=float(raw["rewards"]["score_scale"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise CatalogError(f"{path}: missing or malformed entry ({exc!r})") from exc
    if len(locations) != 3:
        problems.add("locations", f"need exactly 3 locations, got {len(locations)}")
    for loc in locations:
        if len(loc.values) != rules.safes_on_board + 1:
            problems.add(f"locations {loc.id!r}", f"needs {rules.safes_on_board + 1} Safe values")
        if any(v not in range(2, 8) for v in loc.values):
            problems.add(f"locations {loc.id!r}", "Safe values must lie in 2..7")
    if sum(mark_counts) != 7:
        problems.add("marks.counts", f"must add up to 7 Marks per player, got {sum(mark_counts)}")
    span = range(rules.reputation_min, rules.reputation_max + 1)
    if set(rules.reputation_tech) != set(span):
        problems.add("reputation.tech", f"needs one entry per square {rules.reputation_min}..{rules.reputation_max}")
    problems.raise_if_any()
    return rules
