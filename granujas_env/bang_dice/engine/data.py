"""The character data file (data/characters.toml), validated at load."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

#: the 16 character ids the engine implements, in the seed's order
CHARACTER_IDS: tuple[str, ...] = (
    "bart_cassidy", "black_jack", "calamity_janet", "el_gringo", "jesse_jones", "jourdonnais",
    "kit_carlson", "lucky_duke", "paul_regret", "pedro_ramirez", "rose_doolan", "sid_ketchum",
    "slab_the_killer", "suzy_lafayette", "vulture_sam", "willy_the_kid",
)


class CharacterDataError(ValueError):
    """The character file is malformed; the message names the entry and the field."""


@dataclass(frozen=True)
class Character:
    """One character card: id, printed name, life points and ability text."""

    id: str
    name: str
    life: int
    text_es: str
    text_en: str


_FIELDS = {"id": str, "name": str, "life": int, "text_es": str, "text_en": str}


def parse_characters(raw: dict) -> dict[str, Character]:
    """Validate a parsed characters file and return id -> :class:`Character` (seed order)."""
    entries = raw.get("character")
    if not isinstance(entries, list):
        raise CharacterDataError("characters file: expected a [[character]] array of tables")
    out: dict[str, Character] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise CharacterDataError(f"character #{i}: expected a table")
        extra = set(entry) - set(_FIELDS)
        missing = set(_FIELDS) - set(entry)
        if extra or missing:
            raise CharacterDataError(
                f"character #{i}: fields must be {sorted(_FIELDS)}; "
                f"missing {sorted(missing)}, unknown {sorted(extra)}"
            )
        for name, kind in _FIELDS.items():
            value = entry[name]
            if not isinstance(value, kind) or isinstance(value, bool):
                raise CharacterDataError(
                    f"character #{i} {name}: expected {kind.__name__}, got {value!r}"
                )
        cid = entry["id"]
        if cid not in CHARACTER_IDS:
            raise CharacterDataError(f"character #{i}: unknown id {cid!r}; allowed: {CHARACTER_IDS}")
        if cid in out:
            raise CharacterDataError(f"character #{i}: id {cid!r} listed twice")
        if not 1 <= entry["life"] <= 12:
            raise CharacterDataError(f"character {cid}: life must be in 1..12, got {entry['life']}")
        out[cid] = Character(**entry)
    if set(out) != set(CHARACTER_IDS):
        raise CharacterDataError(
            f"characters file: missing {sorted(set(CHARACTER_IDS) - set(out))}"
        )
    return {cid: out[cid] for cid in CHARACTER_IDS}


def load_characters(path: Path | None = None) -> dict[str, Character]:
    """Read and validate the characters file (default: the shipped one)."""
    path = path or DATA_DIR / "characters.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CharacterDataError(f"{path}: not valid TOML: {exc}") from None
    return parse_characters(raw)


CHARACTERS: dict[str, Character] = load_characters()
