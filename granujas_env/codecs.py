"""Observation codec: what one seat may know, as one flat float32 vector of named pieces.

Each piece has a name, a size and a meaning (:data:`ObservationLayout.pieces`); docs/observation.md
is generated from that one definition (``python -m granujas_env.docs``) and a test checks they agree.
Seats are relative to the observer (0 = self, 1 = next clockwise, ...); absent seats stay zero.
The encoder reads only what the observer may know: own hand and face-down cards, public declared
slots, reveals, henchmen, money, reputation, Marks, the Safe values this seat has seen, public cards.

Every value lies in ``[layout.low, layout.high]`` (the env's ``Box`` bounds): one-hots and flags in
[0, 1], counts up to the most the rules and the catalog allow (henchmen, Marks, poker cards, Safes,
card costs and tech icons, deck sizes). Money is the one quantity the rules leave unbounded: it is
clipped at :data:`MONEY_CAP`.
"""

from __future__ import annotations

import numpy as np

from .core.layout import Piece, lay_out  # noqa: F401 - Piece: the public name of the layout's pieces
from .engine import actions as A
from .engine.data import Catalog, Rules
from .engine.game import DECISION_KINDS, Game
from .engine.vocabulary import MODIFIERS, TIMINGS

P = A.MAX_PLAYERS
SLOTS = 6
POSITIONS = 7  # where a poker card lies: 0 = face up beside the sheet (Honesto), 1..6 = slot A..6
CARDS = 7
FACES = 6  # Mark faces / Safe values 2..7
MAX_DAYS = 3
KINDS = tuple(DECISION_KINDS)
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
TIMING_LIST = tuple(sorted(TIMINGS))
MODIFIER_LIST = tuple(sorted(MODIFIERS))
SAFE_FEATURES = 1 + FACES + P * FACES  # present, known value, Mark counts by (owner, face)
MONEY_SCALE = 10.0
# The box holds 38 dollar tokens, 30 of 1 $ and 8 of 5 $ (rulebook, "Componentes"): no table holds
# more than 70 $. The engine's bank is unlimited, so the encoder clips a seat's money here.
MONEY_CAP = 70


class ObservationLayout:
    """The named pieces of the observation vector, for one catalog."""

    def __init__(self, catalog: Catalog, rules: Rules) -> None:
        self.occupation_ids = tuple(catalog.occupations)
        self.trait_ids = tuple(catalog.traits)
        self.rep_min = rules.reputation_min
        self.rep_squares = rules.reputation_max - rules.reputation_min + 1
        # present, used, Occupation, Trait, slot icons, timing, arrows, cost, tech, modifiers
        g = 2 + len(self.occupation_ids) + len(self.trait_ids) + SLOTS + len(TIMING_LIST) + 2 + 2
        g += len(MODIFIER_LIST)
        self.granuja_size = g
        granuja = (
            f"present, used this turn, Occupation one-hot ({len(self.occupation_ids)}), Trait one-hot "
            f"({len(self.trait_ids)}), slot icons A..6, timing one-hot ({', '.join(TIMING_LIST)}), "
            f"arrows left/right, hire cost/5, tech icons/3, modifiers ({', '.join(MODIFIER_LIST)})"
        )
        specs = [
            ("decision_kind", len(KINDS), "one-hot of the pending decision kind (zero if the game is over)"),
            ("acting", 1, "1 if this seat must decide now"),
            ("current_player", P, "relative seat whose turn it is (one-hot)"),
            ("first_player", P, "relative seat that played first this day (one-hot)"),
            ("num_players", P - 1, "one-hot of the player count 2, 3, 4"),
            ("day", MAX_DAYS, "one-hot of the current day 1..3"),
            ("last_day", 1, "1 on the last day of the game"),
            ("turn", 1, "turn index within the day / (4 x players)"),
            ("context_card", CARDS, "Plan: the card chosen for this turn, before its slot (one-hot)"),
            ("context_sheet", A.SHEET_SIZE, "the sheet position the decision is about (response source)"),
            ("context_safe", A.LOCATIONS * A.BOARD_POSITIONS + A.MAX_HELD_SAFES,
             "the Safe the decision is about: board position or own held index (one-hot)"),
            ("context_count", 1, "swaps made (rearrange) or henchmen freed (bail), / 4"),
            ("own_hand", CARDS, "poker cards in own hand (0, A, 2..6)"),
            ("own_slots", POSITIONS * CARDS, "own played cards: value one-hot per position (face-up, A..6)"),
            ("slot_occupied", P * POSITIONS,
             "per relative seat and position (face-up, A..6): a card lies there this day (public)"),
            ("slot_this_turn", POSITIONS, "position of the card played this turn by the current player"),
            ("henchmen_on_cards", P * POSITIONS * P,
             "per relative seat, position and henchman owner (relative): henchman on that card"),
            ("henchmen", P * 4, "per relative seat: free, jailed, on cards, destroyed (/3)"),
            ("money", P, f"per relative seat: money / {MONEY_SCALE:g} (clipped at {MONEY_CAP} $)"),
            ("reputation", P * self.rep_squares,
             f"per relative seat: one-hot reputation square {rules.reputation_min}..{rules.reputation_max}"),
            ("hand_size", P, "per relative seat: cards in hand / 7"),
            ("deck_size", P, "per relative seat: cards in poker deck / 7"),
            ("marks_left", P * 3, "per relative seat: Marks left of type 2/3, 4/5, 6/7 (/3)"),
            ("safe_count", P, "per relative seat: Safes held / 3"),
            ("leader_used", 1, "own leader ability already used this turn"),
            ("strategy", P * max(1, len(catalog.strategies)),
             "per relative seat: chosen Strategy card one-hot (others' only once all are revealed)"),
            ("strategy_used", 1, "own Strategy card already used this turn"),
            ("board_safes", A.LOCATIONS * A.BOARD_POSITIONS * SAFE_FEATURES,
             "per board position (location x 5): present, value one-hot 2..7 if this seat has seen "
             "it, Mark counts per (relative owner, face 2..7)"),
            ("held_safes", P * A.MAX_HELD_SAFES * SAFE_FEATURES,
             "per relative seat and held index: same features (value only if this seat has seen it)"),
            ("unused_safes", A.LOCATIONS * (1 + FACES),
             "per location: unused Safes (/3), known values among them (counts by value 2..7)"),
            ("saloon", 3 * g, f"per Saloon position 0-2: {granuja}"),
            ("sheets", P * A.SHEET_SIZE * g, f"per relative seat and sheet position: {granuja}"),
            ("discard_top", g, f"top of the Granuja discard pile: {granuja}"),
            ("piles", 3, "Granuja discard pile size / 20, Trait deck / 50, Occupation deck / 60"),
            ("card_history", MAX_DAYS * P * POSITIONS * (1 + CARDS),
             "per day, relative seat, position: declared (public) and value one-hot if known "
             "(own cards always; others' only when revealed by a challenge)"),
        ]
        self.pieces, self.offset, self.size = lay_out(specs)
        self._cost_at = g - len(MODIFIER_LIST) - 2  # hire cost, then tech, in a Granuja's features
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = self._highs(catalog, rules)
        self._occ_index = {oid: i for i, oid in enumerate(self.occupation_ids)}
        self._trait_index = {tid: i for i, tid in enumerate(self.trait_ids)}
        # The features of every Granuja as rows [occupation x trait], then a zero row (an empty
        # place); _granujas is the same table by (occupation, trait).
        table = self._granuja_table(catalog)
        self._granuja_flat = np.concatenate(
            [table.reshape(-1, g), np.zeros((1, g), dtype=np.float32)]
        )
        self._granuja_flat.flags.writeable = False
        self._granujas = self._granuja_flat[:-1].reshape(table.shape)
        self._empty_granuja = len(self._granuja_flat) - 1
        # saloon, sheets and the discard top follow each other: one block of Granuja rows
        self._granuja_rows = 3 + P * A.SHEET_SIZE + 1
        assert self.offset["discard_top"] == self.offset["saloon"] + (self._granuja_rows - 1) * g

    def _highs(self, catalog: Catalog, rules: Rules) -> np.ndarray:
        """The largest value of every entry: 1 for one-hots and flags; for counts, the most that
        the rules and this catalog allow, divided by the piece's scale."""
        high = np.ones(self.size, dtype=np.float32)

        def put(name: str, values: list[float]) -> None:
            start = self.offset[name]
            high[start : start + len(values)] = values

        marks = rules.mark_counts  # Marks of each type (2/3, 4/5, 6/7): they move, never multiply
        # present, value one-hot 2..7, then per (owner, face): how many Marks can show that face
        safe = [1.0] * (1 + FACES) + [float(marks[face // 2]) for face in range(FACES)] * P
        granuja = np.ones(self.granuja_size, dtype=np.float32)
        granuja[self._cost_at] = max((c.cost for c in catalog.trait_cards), default=0) / 5.0
        granuja[self._cost_at + 1] = (
            max((c.tech for c in catalog.occupation_cards), default=0)
            + max((c.tech for c in catalog.trait_cards), default=0)
        ) / 3.0
        occupations, traits = len(catalog.occupation_cards), len(catalog.trait_cards)
        put("context_count", [max(A.SHEET_SIZE - 1, rules.bail_max) / 4.0])
        put("henchmen", [rules.henchmen / 3.0] * (P * 4))
        put("money", [MONEY_CAP / MONEY_SCALE] * P)
        cards = len(rules.poker_cards) / 7.0  # a seat's whole poker deck, in hand or in its deck
        put("hand_size", [cards] * P)
        put("deck_size", [cards] * P)
        put("marks_left", [m / 3.0 for m in marks] * P)
        put("safe_count", [A.MAX_HELD_SAFES / 3.0] * P)
        put("board_safes", safe * (A.LOCATIONS * A.BOARD_POSITIONS))
        put("held_safes", safe * (P * A.MAX_HELD_SAFES))
        put("unused_safes", [v for loc in rules.locations for v in [len(loc.values) / 3.0] + [1.0] * FACES])
        put("saloon", list(granuja) * 3)
        put("sheets", list(granuja) * (P * A.SHEET_SIZE))
        put("discard_top", list(granuja))
        put("piles", [min(occupations, traits) / 20.0, traits / 50.0, occupations / 60.0])
        high.flags.writeable = False
        return high

    def _granuja_table(self, catalog: Catalog) -> np.ndarray:
        """Features of every Granuja, ``[occupation card, trait card, feature]`` (present flag
        set, 'used' left 0): the Occupation's one-hot plus the Trait's features, then the two
        features of both halves, hire cost and tech icons."""
        occupations, traits = catalog.occupation_cards, catalog.trait_cards
        g = self.granuja_size
        occ_rows = np.zeros((len(occupations), g), dtype=np.float32)
        for i, occ_card in enumerate(occupations):
            occ_rows[i, 2 + self._occ_index[occ_card.occupation.id]] = 1.0
        trait_rows = np.zeros((len(traits), g), dtype=np.float32)
        for vec, trait_card in zip(trait_rows, traits):
            t = trait_card.trait
            vec[0] = 1.0  # present; index 1 is "used this turn", set by the encoder
            base = 2 + len(self.occupation_ids)
            vec[base + self._trait_index[t.id]] = 1.0
            base += len(self.trait_ids)
            for slot in trait_card.slots:
                vec[base + slot - 1] = 1.0
            base += SLOTS
            vec[base + TIMING_LIST.index(t.timing)] = 1.0
            base += len(TIMING_LIST)
            for k, arrow in enumerate(("left", "right")):
                vec[base + k] = arrow in t.arrows
            base = self._cost_at + 2  # after the arrows: hire cost, tech icons, then modifiers
            for k, modifier in enumerate(MODIFIER_LIST):
                vec[base + k] = modifier in t.modifiers
        table = occ_rows[:, None, :] + trait_rows[None, :, :]  # disjoint features: exact sums
        holes = np.array([c.bullet_holes for c in occupations], dtype=np.int64)
        costs = np.array([c.cost for c in traits], dtype=np.int64)
        table[:, :, self._cost_at] = np.maximum(0, costs[None, :] - holes[:, None]) / 5.0
        occ_tech = np.array([c.tech for c in occupations], dtype=np.int64)
        trait_tech = np.array([c.tech for c in traits], dtype=np.int64)
        table[:, :, self._cost_at + 1] = (occ_tech[:, None] + trait_tech[None, :]) / 3.0
        return table

    def granuja_vector(self, occ: int, trait: int) -> np.ndarray:
        """Dense features of a Granuja (present flag set, 'used' left 0), read-only."""
        return self._granujas[occ, trait]

    def encode(self, game: Game, seat: int) -> np.ndarray:
        """The observation vector of ``seat``: exactly what that player may know."""
        n = game.num_players
        off = self.offset
        rel = [(s - seat) % n for s in range(n)]
        idx: list[int] = []  # positions set to 1.0
        pos: list[int] = []  # positions set to the value at the same index of ``val``
        val: list[float] = []

        frame = game.decision
        if frame is not None:
            idx.append(off["decision_kind"] + KIND_INDEX[frame.kind])
            if frame.player == seat:
                idx.append(off["acting"])
                data = frame.data
                if frame.kind == "plan_slot":
                    idx.append(off["context_card"] + data["card"])
                elif frame.kind == "response":
                    idx.append(off["context_sheet"] + data["pos"])
                elif frame.kind in ("mark_face", "mark_source"):
                    safe = game.safes[data["safe"]]
                    if safe.board_pos >= 0:
                        idx.append(off["context_safe"] + safe.location * 5 + safe.board_pos)
                    elif safe.holder == seat:
                        held = game.players[seat].safes.index(safe.id)
                        idx.append(off["context_safe"] + 15 + held)
                count = data.get("swaps", data.get("freed", 0))
                if count:
                    pos.append(off["context_count"])
                    val.append(count / 4.0)
        idx.append(off["current_player"] + rel[game.current])
        idx.append(off["first_player"] + rel[game.first_player])
        idx.append(off["num_players"] + n - 2)
        idx.append(off["day"] + game.day - 1)
        if game.day == game.last_day:
            idx.append(off["last_day"])
        pos.append(off["turn"])
        val.append(game.turn / (game.rules.turns_per_day * n))

        me = game.players[seat]
        base = off["own_hand"]
        idx += [base + v for v in me.hand]
        base = off["own_slots"]
        idx += [base + card.slot * CARDS + card.value for card in me.played]
        current_card = game.current_card()
        if current_card is not None:
            idx.append(off["slot_this_turn"] + current_card.slot)
        if "leader" in game.used and game.current == seat:
            idx.append(off["leader_used"])

        n_strategies = max(1, len(game.catalog.strategies))
        for player in game.players:
            if player.strategy >= 0 and (player.seat == seat or game.strategies_revealed):
                idx.append(off["strategy"] + rel[player.seat] * n_strategies + player.strategy)
        if ("strategy", seat) in game.used:
            idx.append(off["strategy_used"])

        on_cards = [0] * n
        occupied, hench = off["slot_occupied"], off["henchmen_on_cards"]
        for player in game.players:
            r6 = rel[player.seat] * POSITIONS
            for card in player.played:
                idx.append(occupied + r6 + card.slot)
                for owner in card.henchmen:
                    on_cards[owner] += 1
                    idx.append(hench + (r6 + card.slot) * P + rel[owner])
        rep_base = off["reputation"] - self.rep_min
        sq = self.rep_squares
        h0, m0, marks0 = off["henchmen"], off["money"], off["marks_left"]
        hs0, ds0, sc0 = off["hand_size"], off["deck_size"], off["safe_count"]
        for player in game.players:
            r = rel[player.seat]
            h = h0 + r * 4
            m = marks0 + r * 3
            pos += [h, h + 1, h + 2, h + 3, m0 + r, hs0 + r, ds0 + r, sc0 + r, m, m + 1, m + 2]
            left = player.marks
            val += [
                player.free_henchmen / 3.0,
                player.jailed_henchmen / 3.0,
                on_cards[player.seat] / 3.0,
                player.destroyed_henchmen / 3.0,
                min(player.money, MONEY_CAP) / MONEY_SCALE,
                len(player.hand) / 7.0,
                len(player.deck) / 7.0,
                len(player.safes) / 3.0,
                left[0] / 3.0,
                left[1] / 3.0,
                left[2] / 3.0,
            ]
            idx.append(rep_base + r * sq + player.reputation)

        known = me.known_safes
        marks: list[int] = []  # Mark counts: the only positions that may repeat
        board0, held0 = off["board_safes"], off["held_safes"]
        players = game.players
        held_size = A.MAX_HELD_SAFES
        for safe in game.safes:
            if safe.board_pos >= 0:
                base = board0 + (safe.location * 5 + safe.board_pos) * SAFE_FEATURES
            elif safe.holder >= 0:
                held = players[safe.holder].safes.index(safe.id)
                base = held0 + (rel[safe.holder] * held_size + held) * SAFE_FEATURES
            else:
                continue
            idx.append(base)
            if safe.id in known:
                idx.append(base - 1 + safe.value)
            base += 1 + FACES - 2
            for owner, face in safe.marks:  # a loop, not a comprehension: most Safes have none
                marks.append(base + rel[owner] * FACES + face)
        for loc, pile in enumerate(game.unused):
            if pile:
                base = off["unused_safes"] + loc * (1 + FACES)
                pos.append(base)
                val.append(len(pile) / 3.0)
                for s in pile:
                    if s in known:
                        idx.append(base - 1 + game.safes[s].value)

        pos += [off["piles"], off["piles"] + 1, off["piles"] + 2]
        val += [len(game.discard) / 20.0, len(game.trait_deck) / 50.0, len(game.occ_deck) / 60.0]

        hist = off["card_history"]
        width = 1 + CARDS
        for day_index, by_seat in enumerate(game.played_log):
            for s, cards in enumerate(by_seat):
                row = hist + (day_index * P + rel[s]) * POSITIONS * width
                for slot, _ in cards:
                    idx.append(row + slot * width)
        for day_index, s, slot, value in game.iter_known_card_values(seat):
            idx.append(hist + ((day_index * P + rel[s]) * POSITIONS + slot) * width + 1 + value)

        # The saloon, the sheets and the discard top are one block of Granuja rows, in that order:
        # one take() from the table of every Granuja fills it, the empty rows from its zero row.
        empty = self._empty_granuja
        keys = [empty] * self._granuja_rows
        traits = self._granujas.shape[1]
        for i, gr in enumerate(game.saloon):
            if gr is not None:
                keys[i] = gr.occ * traits + gr.trait
        used = game.used
        g = self.granuja_size
        sheets = off["sheets"]
        for player in players:
            r5 = rel[player.seat] * A.SHEET_SIZE
            for p, gr in enumerate(player.sheet):
                if gr is not None:
                    keys[3 + r5 + p] = gr.occ * traits + gr.trait
                    if gr.uid in used:
                        idx.append(sheets + (r5 + p) * g + 1)
        if game.discard:
            top = game.discard[-1]
            keys[-1] = top.occ * traits + top.trait

        obs = np.zeros(self.size, dtype=np.float32)
        start = off["saloon"]
        block = obs[start : start + self._granuja_rows * g].reshape(-1, g)
        self._granuja_flat.take(keys, axis=0, out=block)  # the method: np.take() wraps it
        # put(), not obs[idx] = ...: the same writes (the last value of a repeated position),
        # without the indexing machinery
        obs.put(idx, 1.0)
        obs.put(pos, val)
        if marks:  # most states have none: not even an empty write
            if len(set(marks)) == len(marks):
                obs.put(marks, 1.0)
            else:
                np.add.at(obs, marks, 1.0)
        return obs
