"""Observation codec of Bang! The Dice Game: what one seat may know, as one float32 vector.

Each piece has a name, a size and a meaning (:data:`LAYOUT`); docs/bang_dice/observation.md is
generated from that one definition (``python -m granujas_env.bang_dice.docs``) and a test checks
they agree. The vector has the same size at every table (3..8 players): per-seat pieces have 8
rows, seats relative to the observer (row 0 = self, 1 = next clockwise, ...), rows of absent
seats zero. The encoder reads exactly what :mod:`granujas_env.bang_dice.view` gives the seat
(a hidden role is encoded as "unknown"). Every value lies in [0, 1].
"""

from __future__ import annotations

import numpy as np

from ..core.layout import Piece, lay_out
from .engine import actions as A
from .engine.data import CHARACTER_IDS, CHARACTERS
from .engine.game import DECISION_KINDS, FACES, GATLING_HIT, ROLES, SHOT, BangGame
from .view import Tally, known_roles

__all__ = ["Piece", "ObservationLayout", "LAYOUT", "KINDS", "MAX_LIFE", "COUNT_CAP", "TURN_CAP"]

P = A.MAX_PLAYERS
KINDS = tuple(DECISION_KINDS)
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
ROLE_INDEX = {role: i for i, role in enumerate(ROLES)}
CHARACTER_INDEX = {c: i for i, c in enumerate(CHARACTER_IDS)}
FACE_INDEX = {face: i for i, face in enumerate(FACES)}
#: the largest life a seat can have: the largest card's, +2 for the Sheriff
MAX_LIFE = max(c.life for c in CHARACTERS.values()) + 2
#: shot and heal counts are clipped here (a seat rarely aims at another more often)
COUNT_CAP = 10
#: the turn counter is clipped here
TURN_CAP = 100
CAUSES = (SHOT, GATLING_HIT)


_SPECS = [
    ("decision_kind", len(KINDS), "one-hot of the pending decision kind, whoever decides (zero once the game is over): "
     + ", ".join(KINDS)),
    ("acting", 1, "1 if this seat must decide now"),
    ("deciding_seat", P, "relative seat that decides now (one-hot)"),
    ("turn_player", P, "relative seat whose turn it is (one-hot)"),
    ("num_players", P - 2, "one-hot of the player count 3..8"),
    ("own_role", len(ROLES), "own role one-hot: " + ", ".join(ROLES)),
    ("target", P, "3 players: relative seat of own target (one-hot); zero at 4+ players"),
    ("last_standing", 1, "3 players: a target fell to another hand, the last one standing wins"),
    ("present", P, "per relative seat: the seat exists at this table"),
    ("alive", P, "per relative seat: still in play"),
    ("role", P * (len(ROLES) + 1), "per relative seat: known role one-hot (" + ", ".join(ROLES)
     + "), then 1 if unknown to this seat (hidden roles are never encoded)"),
    ("character", P * len(CHARACTER_IDS), "per relative seat: character one-hot (" + ", ".join(CHARACTER_IDS) + ")"),
    ("life", P, f"per relative seat: life points / {MAX_LIFE}"),
    ("max_life", P, f"per relative seat: maximum life / {MAX_LIFE}"),
    ("arrows", P, f"per relative seat: arrows held / {A.NUM_DICE + 4}"),
    ("dice", A.NUM_DICE * len(FACES), "per die 0-4: face one-hot (" + ", ".join(FACES) + "); zero before the first roll"),
    ("rolls", 2, "rolls made this turn / 4, rerolls left / 3"),
    ("arrow_pile", 1, "arrows in the pile / 9"),
    ("context_die", A.NUM_DICE, "the die the decision is about (shoot, beer), one-hot"),
    ("context_face", 2, "the face of the bull's-eye to aim (shoot): 1, 2"),
    ("context_cause", len(CAUSES), "Bart Cassidy: what hits him: " + ", ".join(CAUSES)),
    ("shots", P * P, f"per relative shooter and relative target: life points aimed by bull's-eyes / {COUNT_CAP} "
     "(clipped)"),
    ("heals", P * P, f"per relative healer and relative target: beers and Sid Ketchum heals given / {COUNT_CAP} "
     "(clipped)"),
    ("turn_number", 1, f"turns played / {TURN_CAP} (clipped)"),
    ("game_over", 1, "1 once the game is over"),
]


class ObservationLayout:
    """The named pieces of the observation vector (the same at every table size)."""

    def __init__(self) -> None:
        self.pieces, self.offset, self.size = lay_out(_SPECS)
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.ones(self.size, dtype=np.float32)
        self.low.flags.writeable = self.high.flags.writeable = False
        self._indices: dict[tuple[int, int], tuple[list[int], np.ndarray]] = {}
        # the encoder writes shots and heals as one block (Tally.counts)
        assert self.offset["heals"] == self.offset["shots"] + P * P

    def _seat_indices(self, n: int, seat: int) -> tuple[list[int], np.ndarray]:
        """For a table of ``n`` seen from ``seat``: each seat's relative row, and the positions
        in the vector of :attr:`Tally.counts` raveled (shots then heals, absolute [a, b])."""
        key = (n, seat)
        cached = self._indices.get(key)
        if cached is None:
            rel = [(s - seat) % n for s in range(n)]
            pairs = np.array([ra * P + rb for ra in rel for rb in rel], dtype=np.intp)
            # shots then heals: adjacent pieces of P * P each, as Tally.counts is [2, n, n]
            pairs = self.offset["shots"] + np.concatenate([pairs, pairs + P * P])
            cached = self._indices[key] = (rel, pairs)
        return cached

    def encode(self, game: BangGame, seat: int, tally: Tally | None = None) -> np.ndarray:
        """The observation of ``seat``; ``tally``: a :class:`Tally` kept for ``game`` (synced
        here), to save recounting the history."""
        o = self.offset
        n = game.num_players
        rel, pairs = self._seat_indices(n, seat)
        # (position, value) pairs gathered in lists and written at once: one numpy call instead
        # of one per entry
        at: list[int] = []
        values: list[float] = []
        frame = game.decision
        if frame is not None:
            at += [o["decision_kind"] + KIND_INDEX[frame.kind], o["acting"], o["deciding_seat"] + rel[frame.player]]
            values += [1.0, float(frame.player == seat), 1.0]
            data = frame.data
            if "die" in data:
                at.append(o["context_die"] + data["die"])
                values.append(1.0)
            face = data.get("face")
            if face is not None:
                at.append(o["context_face"] + (face != "1"))
                values.append(1.0)
            cause = data.get("cause")
            if cause in CAUSES:
                at.append(o["context_cause"] + CAUSES.index(cause))
                values.append(1.0)
        at += [o["turn_player"] + rel[game.turn_player], o["num_players"] + n - 3,
               o["own_role"] + ROLE_INDEX[game.roles[seat]]]
        values += [1.0, 1.0, 1.0]
        if game.three_player:
            at += [o["target"] + rel[game.target_of[seat]], o["last_standing"]]
            values += [1.0, float(game.last_standing)]
        roles = known_roles(game, seat)
        width = len(ROLES) + 1
        chars = len(CHARACTER_IDS)
        unknown = len(ROLES)
        for s in range(n):
            r = rel[s]
            role = roles[s]
            at += [
                o["present"] + r, o["alive"] + r,
                o["role"] + r * width + (unknown if role is None else ROLE_INDEX[role]),
                o["character"] + r * chars + CHARACTER_INDEX[game.characters[s]],
                o["life"] + r, o["max_life"] + r, o["arrows"] + r,
            ]
            values += [
                1.0, float(game.alive[s]), 1.0, 1.0,
                game.life[s] / MAX_LIFE, game.max_life[s] / MAX_LIFE, game.arrows[s] / 9.0,
            ]
        faces = len(FACES)
        for i, face in enumerate(game.dice):
            at.append(o["dice"] + i * faces + FACE_INDEX[face])
            values.append(1.0)
        at += [o["rolls"], o["rolls"] + 1, o["arrow_pile"], o["turn_number"], o["game_over"]]
        values += [game.rolls_done / 4.0, game.rerolls_left / 3.0, game.arrow_pile / 9.0,
                   min(game.turn_number, TURN_CAP) / TURN_CAP, float(game.game_over)]
        out = np.zeros(self.size, dtype=np.float32)
        out[at] = values
        tally = (tally or Tally(n)).sync(game)
        out[pairs] = np.minimum(tally.counts.ravel(), COUNT_CAP) * (1.0 / COUNT_CAP)
        return out


LAYOUT = ObservationLayout()
