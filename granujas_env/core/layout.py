"""Named pieces of a flat observation vector, shared by every game's codec."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Piece:
    """One named block of the observation: its size, meaning (for the docs) and offset."""

    name: str
    size: int
    meaning: str
    offset: int = 0


def lay_out(specs: Iterable[tuple[str, int, str]]) -> tuple[list[Piece], dict[str, int], int]:
    """Place ``(name, size, meaning)`` pieces one after another: the pieces, each name's offset
    and the total size."""
    pieces: list[Piece] = []
    offset = 0
    for name, size, meaning in specs:
        pieces.append(Piece(name, size, meaning, offset))
        offset += size
    return pieces, {p.name: p.offset for p in pieces}, offset
