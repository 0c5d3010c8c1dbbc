"""The rules engine of 3000 Granujas: setup, turn flow, challenges, end of day and scoring.

The engine owns the flow. At any moment it says who must decide (:attr:`Game.current_player`), what
kind of decision it is (:attr:`Game.decision`) and which action ids are legal
(:meth:`Game.legal_actions`); :meth:`Game.apply` changes the state. Interrupts (challenge windows,
response arrows, timing triggers, sub-choices of an effect) are frames pushed on a decision stack and
popped when answered. All chance comes from one seeded ``random.Random`` owned by the game.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from operator import index as as_index

from . import actions as A
from .data import GAME_LENGTHS, Catalog, Rules, Step, StrategyCard, load_catalog, load_rules
from .state import Frame, Granuja, PlayedCard, Player, Safe
from .vocabulary import EVENT_TIMINGS


class IllegalActionError(ValueError):
    """An action that is not legal for the pending decision. The state is left unchanged."""


class GameOverError(IllegalActionError):
    """An action was applied after the game ended."""


@dataclass(frozen=True)
class GameConfig:
    """What game to play. Invalid values fail at construction with a clear message."""

    num_players: int = 4
    game_length: str = "short"
    strategy_cards: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.num_players, bool) or not isinstance(self.num_players, int):
            raise ValueError(f"num_players must be an int in 2..4, got {self.num_players!r}")
        if not 2 <= self.num_players <= 4:
            raise ValueError(f"num_players must be 2, 3 or 4, got {self.num_players}")
        if self.game_length not in GAME_LENGTHS:
            raise ValueError(
                f"game_length must be one of {GAME_LENGTHS}, got {self.game_length!r}"
            )
        if not isinstance(self.strategy_cards, bool):
            raise ValueError(f"strategy_cards must be True or False, got {self.strategy_cards!r}")


def check_seed(seed: object) -> int | None:
    """``seed`` as a Python int (numpy integers too), or None; anything else raises TypeError."""
    if seed is None:
        return None
    if not isinstance(seed, bool):  # True == 1 in Python, but a flag is no seed
        try:
            return as_index(seed)
        except TypeError:
            pass
    raise TypeError(
        f"seed must be None or an integer (int or numpy integer), got {type(seed).__name__} "
        f"{seed!r}"
    )


_MT_SIZE = 624  # words of the Mersenne Twister state behind random.Random


def new_rng(seed: int | None) -> random.Random:
    """The game's ``random.Random``: a distinct generator for every int seed.

    ``random.Random(seed)`` keys the Mersenne Twister with the 32-bit words of ``abs(seed)`` (most
    significant word non-zero), so -5 would deal seed 5's game. Non-negative seeds keep exactly
    that key (the same deals as ever). A negative seed keys it with the words of its absolute
    value followed by zero words, at least one, up to more words than the state has: no
    non-negative int gives that key (its top word is 0), and the seeding mixes a key longer than
    the state word by word without repeating it, so no shorter key mixes the same way (a short
    key is repeated: [1, 0] would mix as [1], the key of seed 1). None: seeded from the OS.
    """
    if seed is None or seed >= 0:
        return random.Random(seed)
    magnitude = -seed
    key = [(magnitude >> shift) & 0xFFFFFFFF for shift in range(0, magnitude.bit_length(), 32)]
    key += [0] * max(1, _MT_SIZE + 1 - len(key))
    return rng_with_state((3, (*_mt_init_by_array(key), _MT_SIZE), None))


def rng_with_state(state: tuple) -> random.Random:
    """A ``random.Random`` in ``state`` (a ``getstate()`` value), without seeding it first."""
    rng = random.Random.__new__(random.Random)  # __init__ would seed it from the OS, for nothing
    rng.setstate(state)
    return rng


def _mt_init_by_array(key: list[int]) -> list[int]:
    """The state words of ``init_by_array(key)``, the reference MT19937 seeding that CPython's
    ``random.seed(int)`` runs (tests check it against ``random.Random(n)`` for n >= 0)."""
    n, mask = _MT_SIZE, 0xFFFFFFFF
    mt = [19650218] + [0] * (n - 1)
    for i in range(1, n):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & mask
    i, j = 1, 0
    for _ in range(max(n, len(key))):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & mask
        i, j = i + 1, (j + 1) % len(key)
        if i >= n:
            mt[0], i = mt[n - 1], 1
    for _ in range(n - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & mask
        i += 1
        if i >= n:
            mt[0], i = mt[n - 1], 1
    mt[0] = 0x80000000  # a non-zero state is assured
    return mt


_DEFAULT_DATA: tuple[Rules, Catalog] | None = None


def default_data() -> tuple[Rules, Catalog]:
    """The shipped rules and catalog, loaded and validated once."""
    global _DEFAULT_DATA
    if _DEFAULT_DATA is None:
        _DEFAULT_DATA = (load_rules(), load_catalog())
    return _DEFAULT_DATA


# Decision kinds: a pending decision's kind names what is being asked (docs/actions.md).
DECISION_KINDS: dict[str, str] = {
    "start_ability": "start of turn: use a start-of-turn Granuja (sheet) or pass",
    "plan_card": "step 1 Plan: choose the poker card to play (card)",
    "plan_slot": "step 1 Plan: choose the empty slot to play it in, i.e. the declared slot (slot)",
    "challenge": "challenge window: place a henchman on the current player's card (confirm) or pass",
    "ability": "step 2: use the leader ability (leader) or a matching Granuja (sheet), or end the step (pass)",
    "response": "use a Granuja whose response arrow points at the Granuja just used (sheet) or pass",
    "trigger": "a timing text applies (e.g. after you gain reputation): use that Granuja (sheet) or pass",
    "use_again": "use-twice modifier: use the Granuja a second time (confirm) or not (pass)",
    "hire": "step 3: hire a Saloon Granuja (saloon) or use the Sheriff's Office (sheriff)",
    "on_hire": "an «Al contratar» Granuja was hired: use its ability (confirm) or not (pass)",
    "place": "place the hired Granuja on the sheet (sheet); when full, discard one (sheet) or it (discard_new)",
    "rearrange": "after hiring: swap two sheet positions (swap) or finish (pass)",
    "sheriff_option": "Sheriff's Office: sell information, pay bail or bribe the sheriff (sheriff_option)",
    "bail": "pay bail: whose jailed henchman to free (seat); pass to stop after the first",
    "peek_target": "choose the board Safe to peek at (board_safe)",
    "steal_target": "choose the board Safe to steal (board_safe)",
    "mark_source": "out of Marks: move one of yours from another Safe (board_safe / held_safe) or skip (pass)",
    "mark_face": "choose the face of the Mark placed on the Safe (mark_face)",
    "abandon": "over the Safe limit: choose the held Safe to abandon (held_safe)",
    "unused_location": "choose the location whose unused Safe you peek at (location)",
    "first_player": "highest reputation: choose who plays the first turn of the new day (seat)",
    "end_of_day_order": "end of day, last-turn player: choose who uses its end-of-day abilities next (seat)",
    "another_target": "use another Granuja: choose it (sheet / saloon / discard_top)",
    "hire_target": "an ability hires from the Saloon: choose the Granuja (saloon)",
    "swap_first": "swap halves: choose which of your other Granujas gives a half (sheet)",
    "swap_half": "swap halves: the Occupation or the Trait (half)",
    "swap_second": "swap halves: choose the Granuja to swap with (sheet / saloon)",
    "choose_strategy": "setup (Strategy cards rule): choose one of your leader's two cards, in secret (strategy)",
}

# Decisions answered automatically when the only legal action is to pass: asking would add a step
# that carries no choice.
_AUTO_PASS = {
    "start_ability", "ability", "response", "trigger", "mark_source", "bail", "rearrange", "on_hire"
}


class Game:
    """One game of 3000 Granujas. Create it, then loop over ``legal_actions`` / ``apply``.

    ``seed``: None (a game seeded from the OS) or an integer; every integer deals its own game
    (:func:`new_rng`). Anything else raises TypeError.
    """

    def __init__(
        self,
        config: GameConfig | None = None,
        seed: int | None = None,
        *,
        rules: Rules | None = None,
        catalog: Catalog | None = None,
    ) -> None:
        self.config = config or GameConfig()
        default_rules, default_catalog = default_data()
        self.rules = rules or default_rules
        self.catalog = catalog or default_catalog
        self.seed = check_seed(seed)
        self.rng = new_rng(self.seed)
        self.num_players = self.config.num_players
        self.last_day = self.rules.days[self.config.game_length]
        self._legal_cache: list[int] | None = None
        self._setup()
        self._advance()

    # ------------------------------------------------------------------ setup
    def _setup(self) -> None:
        rules, rng, n = self.rules, self.rng, self.num_players
        table = rules.decks[(self.config.game_length, n)]

        def build(colours: dict[str, int | str]) -> list[int]:
            deck: list[int] = []
            for colour, count in colours.items():  # listed top colour first
                cards = self.catalog.cards_of_colour(colour)
                rng.shuffle(cards)
                take = len(cards) if count == "all" else min(int(count), len(cards))
                deck.extend(cards[:take])
            deck.reverse()  # the end of the list is the top of the deck
            return deck

        self.trait_deck = build(table["traits"])
        self.occ_deck = build(table["occupations"])
        self.next_uid = 0
        self.saloon: list[Granuja | None] = [None] * rules.saloon_size
        self.discard: list[Granuja] = []
        self.limbo: Granuja | None = None  # a hired Granuja on its way to the sheet
        for _ in range(rules.saloon_size):  # three Granujas: each new one enters on the left
            self._refill_saloon(None)

        self.safes: list[Safe] = []
        self.board: list[list[int | None]] = []
        self.unused: list[list[int]] = []
        for loc_index, loc in enumerate(rules.locations):
            values = list(loc.values)
            rng.shuffle(values)
            ids = []
            for value in values:
                safe = Safe(id=len(self.safes), location=loc_index, value=value)
                self.safes.append(safe)
                ids.append(safe.id)
            row: list[int | None] = []
            for pos, sid in enumerate(ids[: rules.safes_on_board]):
                self.safes[sid].board_pos = pos
                row.append(sid)
            self.board.append(row)
            self.unused.append(ids[rules.safes_on_board :])
        # Safe ids are a physical identity only: shuffle them so an id says nothing of its value.
        order = list(range(len(self.safes)))
        rng.shuffle(order)
        remap = {old: new for new, old in enumerate(order)}
        for safe in self.safes:
            safe.id = remap[safe.id]
        self.safes.sort(key=lambda s: s.id)
        self.board = [[remap[s] for s in row] for row in self.board]  # type: ignore[index]
        self.unused = [[remap[s] for s in pile] for pile in self.unused]

        self.players: list[Player] = []
        for seat in range(n):
            deck = list(rules.poker_cards)
            rng.shuffle(deck)
            hand = [deck.pop() for _ in range(rules.hand_size)]
            self.players.append(
                Player(
                    seat=seat,
                    hand=sorted(hand),
                    deck=deck,
                    money=rules.starting_money,
                    reputation=rules.reputation_start,
                    free_henchmen=rules.henchmen - rules.henchmen_in_jail,
                    jailed_henchmen=rules.henchmen_in_jail,
                    marks=list(rules.mark_counts),
                    sheet=[None] * rules.sheet_size,
                )
            )
        self.first_player = rng.randrange(n)
        self.day = 1
        self.turn = 0  # index of the turn within the day
        self.current = self.first_player
        self.last_turn_player = -1
        self.used: set[object] = set()  # abilities used in this player's turn / this end of day
        self.events: list[tuple[int, str]] = []  # timing events waiting to be offered
        self.history: list[tuple] = []  # public log
        # [day][seat] -> (slot, value) of every card played: slots are public, values private
        self.played_log: list[list[list[tuple[int, int]]]] = [[[] for _ in range(n)]]
        self.reveals: list[tuple[int, int, int, int]] = []  # (day index, seat, slot, value)
        self.game_over = False
        self.scores: list[int] | None = None
        self.winner: int | None = None
        self.stack: list[Frame] = [Frame("game")]
        self.strategies_revealed = not self.config.strategy_cards
        if self.config.strategy_cards:
            if not self.catalog.strategies:
                raise ValueError("strategy_cards=True needs a catalog with Strategy cards")
            # chosen secretly, in turn order; revealed together once all have chosen
            self._push("strategy_reveal")
            for k in reversed(range(n)):
                self._push("choose_strategy", (self.first_player + k) % n)

    # ------------------------------------------------------------------ public API
    @property
    def decision(self) -> Frame | None:
        """The pending decision (kind, player, context), or None when the game is over."""
        return None if self.game_over else self.stack[-1]

    @property
    def current_player(self) -> int:
        """Seat that must decide now (-1 when the game is over)."""
        return -1 if self.game_over else self.stack[-1].player

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids for the pending decision (empty when the game is over)."""
        if self.game_over:
            return []
        if self._legal_cache is None:
            frame = self.stack[-1]
            self._legal_cache = sorted(_LEGAL[frame.kind](self, frame))
        return self._legal_cache

    def apply(self, action: int) -> None:
        """Apply a legal action id. Illegal input raises and leaves the state unchanged."""
        if self.game_over:
            raise GameOverError("the game is over: no action can be applied (reset to play again)")
        try:
            if type(action) is not int:  # the common case needs no conversion
                if isinstance(action, bool) or isinstance(action, float):
                    raise TypeError
                action = as_index(action)
        except TypeError:
            raise IllegalActionError(
                f"action must be an integer id, got {action!r} ({type(action).__name__}); "
                f"pending decision {self.stack[-1].kind!r} of player {self.current_player} "
                f"allows {self.legal_actions()}"
            ) from None
        legal = self.legal_actions()
        if action not in legal:
            shown = ", ".join(f"{a} ({A.describe(a)})" for a in legal)
            what = A.describe(action) if 0 <= action < A.NUM_ACTIONS else "out of range"
            raise IllegalActionError(
                f"action {action} ({what}) is not legal for the pending decision "
                f"{self.stack[-1].kind!r} of player {self.current_player}; legal ids: {shown}"
            )
        frame = self.stack.pop()
        self._legal_cache = None
        _ANSWER[frame.kind](self, frame, action)
        self._advance()

    def known_card_values(self, seat: int) -> list[tuple[int, int, int, int]]:
        """(day index, seat, slot, value) of every played card whose value ``seat`` knows:
        its own cards, and the others' cards revealed by a challenge."""
        return sorted(set(self.iter_known_card_values(seat)))

    def iter_known_card_values(self, seat: int) -> Iterator[tuple[int, int, int, int]]:
        """The entries of :meth:`known_card_values` in no order, some maybe twice (cheaper where
        only the set matters: the observation encoder)."""
        played_log = self.played_log
        for day, by_seat in enumerate(played_log):
            for slot, value in by_seat[seat]:
                yield day, seat, slot, value
        for revealed in self.reveals:
            if revealed[1] != seat:
                yield revealed
        for day, s, slot in self.players[seat].peeked:
            if s != seat:
                for played_slot, value in played_log[day][s]:
                    if played_slot == slot:
                        yield day, s, slot, value

    def returns(self) -> list[float]:
        """Terminal rewards: +1 to the winner, -1/(N-1) to the others (zeros before the end)."""
        if not self.game_over:
            return [0.0] * self.num_players
        lose = -1.0 / (self.num_players - 1)
        return [1.0 if seat == self.winner else lose for seat in range(self.num_players)]

    def score_margins(self) -> list[float]:
        """(own score - best rival score) / score_scale, clipped to [-1, 1]; zeros before the end."""
        if not self.game_over or self.scores is None:
            return [0.0] * self.num_players
        out = []
        for seat, score in enumerate(self.scores):
            best = max(s for j, s in enumerate(self.scores) if j != seat)
            out.append(max(-1.0, min(1.0, (score - best) / self.rules.score_scale)))
        return out

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_legal_cache"] = None  # derived; never part of the state
        return state

    def clone(self) -> Game:
        """An independent copy of the game in progress (for search: branch, play on, discard).

        The same state as ``copy.deepcopy`` (tests/test_clone.py), built field by field: about
        18x faster (``python -m granujas_env.bench --clone``). Each Granuja lies in exactly one place (Saloon, a sheet, the discard pile or
        limbo) and frames hold uids, never objects, so copying each container keeps identities.
        """
        new = Game.__new__(Game)
        fields = new.__dict__
        fields.update(self.__dict__)  # numbers and flags; config, rules, catalog: immutable, shared
        fields["rng"] = rng_with_state(self.rng.getstate())
        fields["_legal_cache"] = None if self._legal_cache is None else self._legal_cache.copy()
        fields["trait_deck"] = self.trait_deck.copy()
        fields["occ_deck"] = self.occ_deck.copy()
        fields["saloon"] = [None if g is None else g.copy() for g in self.saloon]
        fields["discard"] = [g.copy() for g in self.discard]
        fields["limbo"] = None if self.limbo is None else self.limbo.copy()
        fields["safes"] = [safe.copy() for safe in self.safes]
        fields["board"] = [row.copy() for row in self.board]
        fields["unused"] = [pile.copy() for pile in self.unused]
        fields["players"] = [player.copy() for player in self.players]
        fields["used"] = self.used.copy()  # uids, strings and tuples of them
        fields["events"] = self.events.copy()  # tuples
        fields["history"] = self.history.copy()  # tuples
        fields["played_log"] = [[log.copy() for log in day] for day in self.played_log]
        fields["reveals"] = self.reveals.copy()  # tuples
        fields["scores"] = None if self.scores is None else self.scores.copy()
        fields["stack"] = [frame.copy() for frame in self.stack]
        return new

    def __deepcopy__(self, memo: dict) -> Game:
        if not memo:
            # The game is the root of this copy: nothing else copied with it can point into it,
            # so the fast clone gives the very same result.
            clone = self.clone()
            memo[id(self)] = clone
            return clone
        # Copied inside a larger object (an env...): other objects may share parts of the game,
        # so every field goes through the memo to keep that sharing.
        clone = Game.__new__(Game)
        memo[id(self)] = clone
        for key, value in self.__getstate__().items():
            if key in ("rules", "catalog", "config"):
                setattr(clone, key, value)  # immutable, shared
            else:
                setattr(clone, key, copy.deepcopy(value, memo))
        return clone

    # ------------------------------------------------------------------ flow
    def _advance(self) -> None:
        """Run engine continuations until a decision is pending or the game is over."""
        while not self.game_over:
            frame = self.stack[-1]
            kind = frame.kind
            if kind in _LEGAL:
                if kind in _AUTO_PASS:
                    legal = self.legal_actions()
                    if len(legal) == 1 and legal[0] == A.PASS:
                        self.stack.pop()
                        self._legal_cache = None
                        _ANSWER[kind](self, frame, A.PASS)
                        continue
                return
            if self.events and kind in _SAFE_POINTS:
                data: dict[str, object] = {"events": self.events}
                if kind == "day_end":  # simultaneous at the end of day: may need an order
                    data["serving"] = -1
                self.stack.append(Frame.holding("triggers", -1, data))
                self.events = []
                continue
            _RUN[kind](self, frame)
        self._legal_cache = None

    def _push(self, kind: str, player: int = -1, **data: object) -> None:
        self.stack.append(Frame.holding(kind, player, data))

    def _run_game(self, frame: Frame) -> None:
        if self.turn < self.rules.turns_per_day * self.num_players:
            self.current = (self.first_player + self.turn) % self.num_players
            self._push("turn", self.current, stage="start")
        else:
            self._push("day_end", stage="reveal")

    def _run_turn(self, frame: Frame) -> None:
        p = frame.player
        stage = frame.data["stage"]
        if stage == "start":
            self.used = set()
            frame.data["stage"] = "start_abilities"
            frame.data["slot"] = 0
        elif stage == "start_abilities":
            self._push("start_ability", p)
        elif stage == "plan":
            frame.data["stage"] = "after_plan"
            if self.players[p].hand:
                self._push("plan_card", p)
        elif stage == "after_plan":
            # a face-up 0 (Honesto) matches no slot, but its turn still has a step 2 (a Strategy
            # card of step 2); no card played: nothing to use
            frame.data["stage"] = "abilities" if self.current_card() is not None else "step3"
            self._push_window(p)
        elif stage == "abilities":
            self._push("ability", p, slot=frame.data["slot"])
        elif stage == "after_abilities":
            frame.data["stage"] = "step3"
            self._push_window(p)
        elif stage == "step3":
            frame.data["stage"] = "after_step3"
            self._push("hire", p)
        elif stage == "after_step3":
            # «Después del paso 3» Granujas (Egoísta) come first; the window after them is the
            # rivals' last chance to challenge.
            frame.data["stage"] = "last_window"
            self._emit(p, "step3")
        elif stage == "last_window":
            frame.data["stage"] = "end"
            self._push_window(p)
        else:  # end
            self.last_turn_player = p
            self.turn += 1
            self.stack.pop()

    def _turn_frame(self) -> Frame:
        for frame in reversed(self.stack):
            if frame.kind == "turn":
                return frame
        raise RuntimeError("no turn in progress")

    def current_card(self) -> PlayedCard | None:
        """The card the current player played this turn, if any."""
        if self.game_over:
            return None
        player = self.players[self.current]
        for card in player.played:
            if card.turn == self.turn:
                return card
        return None

    # ------------------------------------------------------------------ challenges
    def _push_window(self, p: int) -> None:
        card = self.current_card()
        if card is None:
            return
        queue = [(p + k) % self.num_players for k in range(1, self.num_players)]
        self._push("window", p, queue=queue)

    def _may_challenge(self, seat: int, card: PlayedCard) -> bool:
        # a face-up card (slot 0, Honesto) cannot be challenged
        return card.slot > 0 and self.players[seat].free_henchmen > 0 and seat not in card.henchmen

    def _run_window(self, frame: Frame) -> None:
        card = self.current_card()
        queue = frame.data["queue"]
        while queue:
            seat = queue.pop(0)
            if card is not None and self._may_challenge(seat, card):
                self._push("challenge", seat)
                return
        self.stack.pop()

    def _legal_challenge(self, frame: Frame) -> list[int]:
        return [A.PASS, A.CONFIRM]

    def _answer_challenge(self, frame: Frame, action: int) -> None:
        if action == A.CONFIRM:
            card = self.current_card()
            assert card is not None
            seat = frame.player
            self.players[seat].free_henchmen -= 1
            card.henchmen.append(seat)
            self.history.append(("challenge", self.day, seat, self.current, card.slot))

    # ------------------------------------------------------------------ step 1: plan
    def _legal_plan_card(self, frame: Frame) -> list[int]:
        return [A.CARD + v for v in self.players[frame.player].hand]

    def _answer_plan_card(self, frame: Frame, action: int) -> None:
        self._push("plan_slot", frame.player, card=action - A.CARD)

    def _legal_plan_slot(self, frame: Frame) -> list[int]:
        p = frame.player
        taken = {c.slot for c in self.players[p].played}
        out = [A.SLOT + s for s in self.rules.slots if s not in taken]
        if frame.data["card"] == 0 and self._honest(p) is not None:
            out.append(A.FACE_UP)
        return out

    def _honest(self, p: int) -> int | None:
        """Sheet position of a usable Honesto-like Granuja (play the 0 face up), if any."""
        for i, g in enumerate(self.players[p].sheet):
            if self._usable(p, g, "zero_face_up"):
                return i
        return None

    def _answer_plan_slot(self, frame: Frame, action: int) -> None:
        p, value = frame.player, frame.data["card"]
        slot = 0 if action == A.FACE_UP else action - A.SLOT  # slot 0: face up beside the sheet
        if slot == 0:
            pos = self._honest(p)
            assert pos is not None
            self._push_use(p, pos, via="timing")
        player = self.players[p]
        player.hand.remove(value)
        player.played.append(PlayedCard(value=value, slot=slot, turn=self.turn))
        self._turn_frame().data["slot"] = slot
        self.played_log[-1][p].append((slot, value))
        self.history.append(("plan", self.day, p, slot))
        if slot == 0:  # face up: its value is public
            self.reveals.append((self.day - 1, p, 0, value))

    # ------------------------------------------------------------------ step 2: abilities
    def _granuja_program(self, g: Granuja) -> tuple[tuple[Step, ...], bool]:
        """The steps of a Granuja's ability and whether it discards itself afterwards."""
        trait = self.catalog.trait_cards[g.trait].trait
        occ = self.catalog.occupation_cards[g.occ].occupation
        steps = trait.before + occ.effect + trait.after
        discard = any(s.verb == "discard_self" for s in steps)
        return tuple(s for s in steps if s.verb != "discard_self"), discard

    def _can_pay(self, seat: int, steps: tuple[Step, ...], bonus: int = 0) -> bool:
        """Whether every cost verb of ``steps`` can be paid in full (``bonus`` $ arriving first)."""
        player = self.players[seat]
        money = jail = reputation = 0
        for step in steps:
            if step.verb == "spend_money":
                money += step.amount
            elif step.verb == "jail_own_henchman":
                jail += step.amount
            elif step.verb == "lose_reputation":
                reputation += step.amount
        return (
            player.money + bonus >= money
            and player.free_henchmen >= jail
            and player.reputation - reputation >= self.rules.reputation_min
        )

    def _requirements_met(self, seat: int, g: Granuja) -> bool:
        trait = self.catalog.trait_cards[g.trait].trait
        occ = self.catalog.occupation_cards[g.occ].occupation
        return all(REQUIREMENT_CHECKS[r](self, seat) for r in trait.requires | occ.requires)

    def _usable(self, seat: int, g: Granuja | None, timing: str, slot: int = 0) -> bool:
        if g is None or g.uid in self.used:
            return False
        card = self.catalog.trait_cards[g.trait]
        trait = card.trait
        if trait.timing != timing or (timing == "slots" and slot not in card.slots):
            return False
        # the +1 $ icon pays out before the ability when a poker card activates it
        bonus = 1 if timing == "slots" and "extra_money" in trait.modifiers else 0
        return self._can_pay(seat, self._granuja_program(g)[0], bonus) and self._requirements_met(
            seat, g
        )

    def _legal_start_ability(self, frame: Frame) -> list[int]:
        sheet = self.players[frame.player].sheet
        usable = [
            A.SHEET + i for i, g in enumerate(sheet) if self._usable(frame.player, g, "start_of_turn")
        ]
        if self._strategy_usable(frame.player, "start_of_turn"):
            usable.append(A.STRATEGY)
        return [A.PASS, *usable]

    def _strategy_usable(self, p: int, timing: str) -> bool:
        card = self.strategy_of(p)
        return (
            card is not None
            and card.timing == timing
            and ("strategy", p) not in self.used
            and self._can_pay(p, card.effect)
        )

    def _use_strategy(self, p: int) -> None:
        """Strategy cards are not Granujas: no modifiers, no responses, no Granuja money events."""
        card = self.strategy_of(p)
        assert card is not None
        self.used.add(("strategy", p))
        self.history.append(("strategy", self.day, p, card.index))
        self._push("effect", p, steps=card.effect, pc=0, safe=-1, granuja=-1)

    def _answer_start_ability(self, frame: Frame, action: int) -> None:
        if action == A.PASS:
            self._turn_frame().data["stage"] = "plan"
        elif action == A.STRATEGY:
            self._use_strategy(frame.player)
        else:
            self._push_use(frame.player, action - A.SHEET, via="timing")

    def _legal_ability(self, frame: Frame) -> list[int]:
        p, slot = frame.player, frame.data["slot"]
        out = [A.PASS]
        if slot in self.rules.leader and "leader" not in self.used:
            out.append(A.LEADER)
        for i, g in enumerate(self.players[p].sheet):
            if self._usable(p, g, "slots", slot):
                out.append(A.SHEET + i)
        if self._strategy_usable(p, "step2"):
            out.append(A.STRATEGY)
        return out

    def _answer_ability(self, frame: Frame, action: int) -> None:
        p = frame.player
        if action == A.PASS:
            self._turn_frame().data["stage"] = "after_abilities"
        elif action == A.STRATEGY:
            self._use_strategy(p)
        elif action == A.LEADER:
            self.used.add("leader")
            self._push("effect", p, steps=self.rules.leader[frame.data["slot"]], pc=0, safe=-1, granuja=-1)
        else:
            self._push_use(p, action - A.SHEET, via="slot")

    def _push_use(self, p: int, pos: int, via: str) -> None:
        """Use the Granuja at sheet position ``pos`` (via 'slot', 'response' or 'timing')."""
        g = self.players[p].sheet[pos]
        assert g is not None
        self._push("use", p, uid=g.uid, pos=pos, via=via, stage="begin")

    def _run_use(self, frame: Frame) -> None:
        p, data = frame.player, frame.data
        g = self._find_granuja(p, data["uid"])
        stage = data["stage"]
        if stage == "begin":
            assert g is not None
            self.used.add(g.uid)
            trait = self.catalog.trait_cards[g.trait].trait
            steps, discard = self._granuja_program(g)
            data["discard"] = discard
            # Modifier icons act when the Granuja is used by its own timing, never through another.
            own_timing = data["via"] != "another"
            data["twice"] = own_timing and "use_twice" in trait.modifiers
            if own_timing and "extra_money" in trait.modifiers:
                self.players[p].money += 1
                self._emit(p, "money_from_granuja")  # money gained by using a Granuja
            data["stage"] = "first_done"
            self._push("effect", p, steps=steps, pc=0, safe=-1, granuja=g.uid)
        elif stage == "first_done":
            data["stage"] = "effects_done"
            # The second use follows the new state (Arrebatadora ruling: «vuelve a usarlo según
            # el nuevo estado de la partida»): a swapped Occupation, a payable cost, a requirement
            # that still holds (a Rebelde that evened the Safe count may not steal again).
            if (
                data["twice"]
                and g is not None
                and self._can_pay(p, self._granuja_program(g)[0])
                and self._requirements_met(p, g)
            ):
                self._push("use_again", p)
        elif stage == "second":
            data["stage"] = "effects_done"
            assert g is not None
            self._push("effect", p, steps=self._granuja_program(g)[0], pc=0, safe=-1, granuja=g.uid)
        elif stage == "effects_done":
            data["stage"] = "end"
            # «Al contratar» Granujas used from the discard pile go under it like self-discarding
            # ones (Sepulturero/a ruling); hired ones are already on the pile.
            on_hire = g is not None and self.catalog.trait_cards[g.trait].trait.timing == "on_hire"
            from_pile = data["via"] == "another" and on_hire and g in self.discard
            if g is not None and data["via"] != "hired" and (data["discard"] or from_pile):
                self._discard_used(p, g)
            answers = [(data["uid"], data["pos"], data["discard"]), *data.get("answers", ())]
            outer = self._enclosing_use()
            if data["via"] == "another" and outer is not None:
                # «Los Granujas no pueden interrumpir una capacidad que se esté usando»: the
                # responses to a Granuja used through another wait until the outer ability (both
                # uses of a use-twice one) completes (ruling A-16)
                outer.data["answers"] = [*outer.data.get("answers", ()), *answers]
                return
            where = [self._response_position(p, *answer) for answer in answers]
            # the first is offered first: the user's own responses, then the queued ones
            for q in reversed([q for q in where if q is not None]):
                self._push("response", p, pos=q)
        else:
            self.stack.pop()

    def _enclosing_use(self) -> Frame | None:
        """The use frame under the running one (the ability it was used through), if any."""
        for frame in reversed(self.stack[:-1]):
            if frame.kind == "use":
                return frame
        return None

    def _response_position(self, p: int, uid: int, pos: int, discarded: bool) -> int | None:
        """Where the neighbours that may respond to a used Granuja are: where it is on the sheet
        now (a hire's rearrangement may have moved it: Nervioso ruling), or where it was if it
        discarded itself; None if it was not used from the sheet, or a hire during its own
        ability replaced it (Matasanos ruling)."""
        if pos < 0:
            return None
        for i, g in enumerate(self.players[p].sheet):
            if g is not None and g.uid == uid:
                return i
        return pos if discarded else None

    def _legal_use_again(self, frame: Frame) -> list[int]:
        return [A.PASS, A.CONFIRM]

    def _answer_use_again(self, frame: Frame, action: int) -> None:
        if action == A.CONFIRM:
            self.stack[-1].data["stage"] = "second"

    def _find_granuja(self, p: int, uid: int) -> Granuja | None:
        """A Granuja p may be using: on p's sheet, just hired, in the Saloon or the discard pile."""
        for g in self.players[p].sheet:
            if g is not None and g.uid == uid:
                return g
        if self.limbo is not None and self.limbo.uid == uid:
            return self.limbo
        for g in self.saloon:
            if g is not None and g.uid == uid:
                return g
        for g in self.discard:
            if g.uid == uid:
                return g
        return None

    def _discard_used(self, p: int, g: Granuja) -> None:
        """Discard a Granuja whose ability discards itself, from wherever it was used."""
        sheet = self.players[p].sheet
        for i, other in enumerate(sheet):
            if other is g:
                sheet[i] = None
                self.discard.append(g)
                return
        for i, other in enumerate(self.saloon):
            if other is g:  # Posadero/a: discarded the usual way, then the Saloon refills
                self.discard.append(g)
                self._refill_saloon(i)
                return
        if g in self.discard:  # Sepulturero/a: back under the discard pile
            self.discard.remove(g)
            self.discard.insert(0, g)

    def _legal_response(self, frame: Frame) -> list[int]:
        p, pos = frame.player, frame.data["pos"]
        sheet = self.players[p].sheet
        out = [A.PASS]
        for q, arrow in ((pos + 1, "left"), (pos - 1, "right")):
            if 0 <= q < len(sheet) and self._usable(p, sheet[q], "response"):
                g = sheet[q]
                assert g is not None
                if arrow in self.catalog.trait_cards[g.trait].trait.arrows:
                    out.append(A.SHEET + q)
        return out

    def _answer_response(self, frame: Frame, action: int) -> None:
        if action != A.PASS:
            # Ask again afterwards: a Granuja may have response partners on both sides.
            self.stack.append(frame)
            self._push_use(frame.player, action - A.SHEET, via="response")

    # ------------------------------------------------------------------ timing triggers
    def _emit(self, seat: int, event: str) -> None:
        # A timing text is offered for the event only to the Granujas on the sheet when it
        # happens (Matasanos ruling on Codicioso: not to one hired afterwards).
        uids = tuple(g.uid for g in self.players[seat].sheet if g is not None)
        self.events.append((seat, event, uids))

    def _run_triggers(self, frame: Frame) -> None:
        data = frame.data
        events = data["events"]
        if not events:
            self.stack.pop()
            return
        index = 0
        if "serving" in data:
            # End of day: the events of a batch happened at the same moment (the reveals, or one
            # player's end-of-day turn). When two or more players can use a Granuja for them, the
            # player who played the last turn chooses whose go first (rulebook, end-of-day
            # clarifications); that player then answers all its events, in order. Otherwise they
            # are offered in the order they happened, as during a turn.
            serving = data["serving"]
            if serving >= 0 and any(e[0] == serving for e in events):
                index = next(i for i, e in enumerate(events) if e[0] == serving)
            else:
                data["serving"] = -1
                ready = self._trigger_seats_ready(events)
                if len(ready) >= 2:
                    self._push("end_of_day_order", self.last_turn_player, seats=ready)
                    return
        seat, event, uids = events.pop(index)
        timing = _EVENT_TIMING.get(event)
        if timing is not None:
            self._push("trigger", seat, timing=timing, uids=list(uids))

    def _trigger_seats_ready(self, events: list[tuple]) -> list[int]:
        """Seats, in the order of their first event, with a Granuja usable now for one of
        their pending ``events``."""
        ready: list[int] = []
        for seat, event, uids in events:
            timing = _EVENT_TIMING.get(event)
            if seat not in ready and timing is not None and self._timing_options(seat, timing, uids):
                ready.append(seat)
        return ready

    def _timing_options(self, p: int, timing: str, uids: Sequence[int]) -> list[int]:
        """Sheet ids of p's Granujas among ``uids`` usable now by the timing text ``timing``."""
        return [
            A.SHEET + i
            for i, g in enumerate(self.players[p].sheet)
            if g is not None and g.uid in uids and self._usable(p, g, timing)
        ]

    def _legal_trigger(self, frame: Frame) -> list[int]:
        return [A.PASS, *self._timing_options(frame.player, frame.data["timing"], frame.data["uids"])]

    def _answer_trigger(self, frame: Frame, action: int) -> None:
        if action != A.PASS:
            self.stack.append(frame)  # another Granuja with the same timing may follow
            self._push_use(frame.player, action - A.SHEET, via="timing")

    # ------------------------------------------------------------------ effects
    def _run_effect(self, frame: Frame) -> None:
        data = frame.data
        steps = data["steps"]
        while data["pc"] < len(steps):
            step = steps[data["pc"]]
            data["pc"] += 1
            _VERBS[step.verb](self, frame, step)
            if self.stack[-1] is not frame:
                return  # a decision was pushed; the effect resumes once it is answered
        self.stack.pop()

    def _verb_gain_money(self, frame: Frame, step: Step) -> None:
        self.players[frame.player].money += step.amount
        self.money_from_granuja(frame)

    def money_from_granuja(self, frame: Frame) -> None:
        """Emit the Codicioso event when the running effect is a Granuja's (not leader/Sheriff)."""
        if frame.kind == "effect" and frame.data.get("granuja", -1) >= 0:
            self._emit(frame.player, "money_from_granuja")

    def _verb_spend_money(self, frame: Frame, step: Step) -> None:
        player = self.players[frame.player]
        if player.money < step.amount:  # cannot pay: the rest of the ability does not happen
            frame.data["pc"] = len(frame.data["steps"])
            return
        player.money -= step.amount

    def _change_reputation(self, seat: int, delta: int) -> None:
        player = self.players[seat]
        new = max(self.rules.reputation_min, min(self.rules.reputation_max, player.reputation + delta))
        if new > player.reputation:
            self._emit(seat, "gain_reputation")
        elif new < player.reputation:
            self._emit(seat, "lose_reputation")
        player.reputation = new

    def _verb_gain_reputation(self, frame: Frame, step: Step) -> None:
        self._change_reputation(frame.player, step.amount)

    def _verb_lose_reputation(self, frame: Frame, step: Step) -> None:
        self._change_reputation(frame.player, -step.amount)

    def _board_safes(self) -> list[int]:
        """Action ids of the board positions that hold a Safe."""
        return [
            A.BOARD_SAFE + loc * A.BOARD_POSITIONS + pos
            for loc, row in enumerate(self.board)
            for pos, sid in enumerate(row)
            if sid is not None
        ]

    def _verb_peek_safe(self, frame: Frame, step: Step) -> None:
        frame.data["safe"] = -1
        if self._board_safes():
            self._push("peek_target", frame.player)

    def _legal_board_target(self, frame: Frame) -> list[int]:
        return self._board_safes()

    def _safe_at(self, action: int) -> int:
        loc, pos = divmod(action - A.BOARD_SAFE, A.BOARD_POSITIONS)
        sid = self.board[loc][pos]
        assert sid is not None
        return sid

    def _answer_peek_target(self, frame: Frame, action: int) -> None:
        sid = self._safe_at(action)
        self.players[frame.player].known_safes.add(sid)
        self.stack[-1].data["safe"] = sid  # the effect's "this Safe" for a following mark
        self._emit(frame.player, "peek")

    def _answer_steal_target(self, frame: Frame, action: int) -> None:
        self.take_safe(frame.player, self._safe_at(action))

    def take_safe(self, p: int, sid: int) -> None:
        """``p`` steals Safe ``sid`` from the board or the unused pile, keeping every Mark on it;
        over the Safe limit, an abandon decision follows."""
        safe = self.safes[sid]
        if safe.board_pos >= 0:
            self.board[safe.location][safe.board_pos] = None
        else:
            self.unused[safe.location].remove(sid)
        safe.board_pos = -1
        safe.holder = p
        player = self.players[p]
        player.safes.append(sid)
        player.known_safes.add(sid)
        self.history.append(("steal", self.day, p, sid))
        if len(player.safes) > self.day:
            self._push("abandon", p)

    def _legal_abandon(self, frame: Frame) -> list[int]:
        return [A.HELD_SAFE + i for i in range(len(self.players[frame.player].safes))]

    def _answer_abandon(self, frame: Frame, action: int) -> None:
        player = self.players[frame.player]
        sid = player.safes.pop(action - A.HELD_SAFE)
        safe = self.safes[sid]
        safe.holder = -1
        row = self.board[safe.location]
        if None in row:
            safe.board_pos = row.index(None)
            row[safe.board_pos] = sid
        else:  # the location is full: the Safe joins the unused pile
            self.unused[safe.location].append(sid)
        self.history.append(("abandon", self.day, frame.player, sid))

    def _verb_mark_safe(self, frame: Frame, step: Step) -> None:
        sid = frame.data.get("safe", -1)
        if sid < 0:
            return
        player = self.players[frame.player]
        if any(player.marks):
            self._push("mark_face", frame.player, safe=sid, source=-1)
        elif self._mark_sources(frame.player, sid):
            self._push("mark_source", frame.player, safe=sid)

    def _mark_sources(self, p: int, target: int) -> list[int]:
        """Action ids of Safes carrying one of p's Marks that may be moved (not a rival's Safe)."""
        out = []
        for loc, row in enumerate(self.board):
            for pos, sid in enumerate(row):
                if sid is not None and sid != target and any(o == p for o, _ in self.safes[sid].marks):
                    out.append(A.BOARD_SAFE + loc * A.BOARD_POSITIONS + pos)
        for i, sid in enumerate(self.players[p].safes):
            if sid != target and any(o == p for o, _ in self.safes[sid].marks):
                out.append(A.HELD_SAFE + i)
        return out

    def _legal_mark_source(self, frame: Frame) -> list[int]:
        return [A.PASS, *self._mark_sources(frame.player, frame.data["safe"])]

    def _answer_mark_source(self, frame: Frame, action: int) -> None:
        if action == A.PASS:
            return
        p = frame.player
        if action >= A.HELD_SAFE and action < A.HELD_SAFE + A.MAX_HELD_SAFES:
            source = self.players[p].safes[action - A.HELD_SAFE]
        else:
            source = self._safe_at(action)
        self._push("mark_face", p, safe=frame.data["safe"], source=source)

    def _legal_mark_face(self, frame: Frame) -> list[int]:
        p, source = frame.player, frame.data["source"]
        if source < 0:
            types = [t for t, left in enumerate(self.players[p].marks) if left]
        else:
            types = sorted({(face - 2) // 2 for o, face in self.safes[source].marks if o == p})
        return [A.MARK_FACE + 2 + 2 * t + k for t in types for k in (0, 1)]

    def _answer_mark_face(self, frame: Frame, action: int) -> None:
        p, sid, source = frame.player, frame.data["safe"], frame.data["source"]
        face = action - A.MARK_FACE
        mark_type = (face - 2) // 2
        if source < 0:
            self.players[p].marks[mark_type] -= 1
        else:
            marks = self.safes[source].marks
            for i, (owner, shown) in enumerate(marks):
                if owner == p and (shown - 2) // 2 == mark_type:
                    del marks[i]
                    break
        self.safes[sid].marks.append((p, face))
        self.players[p].known_safes.add(sid)
        if face not in self.rules.locations[self.safes[sid].location].values:
            self._emit(p, "mark_impossible")
        self.history.append(("mark", self.day, p, sid, face))
        self._emit(p, "mark")

    def _verb_peek_unused_safe(self, frame: Frame, step: Step) -> None:
        if any(self.unused):
            self._push("unused_location", frame.player)

    def _legal_unused_location(self, frame: Frame) -> list[int]:
        return [A.LOCATION + loc for loc, pile in enumerate(self.unused) if pile]

    def _answer_unused_location(self, frame: Frame, action: int) -> None:
        pile = self.unused[action - A.LOCATION]
        self.players[frame.player].known_safes.add(pile[-1])  # the top of that location's pile
        self._emit(frame.player, "peek")

    def _verb_sheriff_option(self, frame: Frame, step: Step) -> None:
        self._push("sheriff_option", frame.player)

    # ------------------------------------------------------------------ step 3: hire / sheriff
    def hire_cost(self, g: Granuja, seat: int | None = None) -> int:
        """Dollar icons of the Trait not covered by the Occupation's bullet holes; for ``seat``,
        less its Strategy card's discount on the rightmost Saloon Granuja (once a turn)."""
        cost = self.catalog.trait_cards[g.trait].cost
        cost = max(0, cost - self.catalog.occupation_cards[g.occ].bullet_holes)
        if seat is not None:
            cost = max(0, cost - self._hire_discount(g, seat))
        return cost

    def _hire_discount(self, g: Granuja, seat: int) -> int:
        # «Cada carta de Estrategia solo se puede usar una vez durante el turno»: the first hire
        # of the rightmost Saloon Granuja in a turn takes the discount; its use is automatic.
        card = self.strategy_of(seat)
        if (
            card is None
            or card.timing != "on_hire"
            or g is not self.saloon[-1]
            or ("strategy", seat) in self.used
        ):
            return 0
        return card.discount

    def strategy_of(self, seat: int) -> StrategyCard | None:
        """The Strategy card a seat chose (optional rule), if any."""
        index = self.players[seat].strategy
        return self.catalog.strategies[index] if index >= 0 else None

    def _legal_hire(self, frame: Frame) -> list[int]:
        money = self.players[frame.player].money
        out = [
            A.SALOON + i
            for i, g in enumerate(self.saloon)
            if g is not None and self.hire_cost(g, frame.player) <= money
        ]
        out.append(A.SHERIFF)
        return out

    def _answer_hire(self, frame: Frame, action: int) -> None:
        p = frame.player
        if action == A.SHERIFF:
            right = self.saloon[-1]
            if right is not None:
                self.discard.append(right)
            self._refill_saloon(len(self.saloon) - 1)
            self._push("sheriff_option", p)
            return
        k = action - A.SALOON
        g = self.saloon[k]
        assert g is not None
        self._hire(p, g)

    def _hire(self, p: int, g: Granuja) -> None:
        """Hire ``g`` from the Saloon or the top of the discard pile, paying its cost; then place
        it (or resolve its «Al contratar» ability and discard it) and rearrange."""
        self.players[p].money -= self.hire_cost(g, p)
        if self._hire_discount(g, p):
            self.used.add(("strategy", p))
        if g in self.saloon:
            self._refill_saloon(self.saloon.index(g))
        else:
            self.discard.remove(g)
        self.history.append(("hire", self.day, p, g.occ, g.trait))
        self._emit(p, "hire")
        if self.catalog.trait_cards[g.trait].trait.timing == "on_hire":
            self.discard.append(g)
            self._push("on_hire", p, uid=g.uid)
        else:
            self.limbo = g
            self._push("place", p)

    # ------------------------------------------------------------------ other Granujas
    def _usable_via_another(self, p: int, g: Granuja | None) -> bool:
        """Used through another Granuja: timing ignored; not used yet; costs and requirements hold."""
        if g is None or g.uid in self.used:
            return False
        return self._can_pay(p, self._granuja_program(g)[0]) and self._requirements_met(p, g)

    def _verb_use_another(self, frame: Frame, step: Step) -> None:
        if self._legal_another_target(Frame("another_target", frame.player, source=step.option)):
            self._push("another_target", frame.player, source=step.option)

    def _legal_another_target(self, frame: Frame) -> list[int]:
        p, source = frame.player, frame.data["source"]
        if source == "sheet":
            sheet = self.players[p].sheet
            # R86: a Granuja of the sheet given an «Al contratar este Granuja» Trait (a swap of
            # halves) cannot be used, not even through another
            return [
                A.SHEET + i
                for i, g in enumerate(sheet)
                if self._usable_via_another(p, g)
                and self.catalog.trait_cards[g.trait].trait.timing != "on_hire"
            ]
        if source == "saloon":
            return [A.SALOON + i for i, g in enumerate(self.saloon) if self._usable_via_another(p, g)]
        if not self.discard:
            return []
        top = self.discard[-1]
        occ = self.catalog.occupation_cards[top.occ].occupation
        if any(s.verb == "use_another" and s.option == "discard_top" for s in occ.effect):
            return []  # a Sepulturero/a on top of the pile has no effect
        return [A.DISCARD_TOP] if self._usable_via_another(p, top) else []

    def _answer_another_target(self, frame: Frame, action: int) -> None:
        p = frame.player
        if A.SHEET <= action < A.SHEET + A.SHEET_SIZE:
            self._push_use(p, action - A.SHEET, via="another")
            return
        g = self.saloon[action - A.SALOON] if action != A.DISCARD_TOP else self.discard[-1]
        assert g is not None
        self._push("use", p, uid=g.uid, pos=-1, via="another", stage="begin")

    def _verb_hire(self, frame: Frame, step: Step) -> None:
        p = frame.player
        if step.option == "discard_top":
            top = self.discard[-1] if self.discard else None
            # a second use (use-twice) may not hire the same card again (Matasanos ruling)
            if top is not None and ("hired", top.uid) not in self.used:
                if self.hire_cost(top, p) <= self.players[p].money:
                    self.used.add(("hired", top.uid))
                    self._hire(p, top)
        elif self._legal_hire_target(frame):
            self._push("hire_target", p)

    def _legal_hire_target(self, frame: Frame) -> list[int]:
        return [a for a in self._legal_hire(frame) if a != A.SHERIFF]

    def _answer_hire_target(self, frame: Frame, action: int) -> None:
        g = self.saloon[action - A.SALOON]
        assert g is not None
        self._hire(frame.player, g)

    def _verb_swap_halves(self, frame: Frame, step: Step) -> None:
        p, me = frame.player, frame.data.get("granuja", -1)
        if step.option == "occupation":  # As del disfraz: this Granuja's Occupation
            context = Frame("swap_second", p, first=me, half=0, exclude=me)
            if self._legal_swap_second(context):
                self._push("swap_second", p, first=me, half=0, exclude=me)
        elif step.option == "trait_with_saloon":  # Transformar aliados: own Trait <-> Saloon Trait
            context = Frame("swap_first", p, exclude=me, half=1)
            if any(self.saloon) and self._legal_swap_first(context):
                self._push("swap_first", p, exclude=me, half=1)
        else:  # Sastre: one of your other Granujas, either half
            if self._legal_swap_first(Frame("swap_first", p, exclude=me)):
                self._push("swap_first", p, exclude=me)

    def _legal_swap_first(self, frame: Frame) -> list[int]:
        sheet = self.players[frame.player].sheet
        exclude = frame.data["exclude"]
        others = sum(1 for g in sheet if g is not None) + sum(1 for g in self.saloon if g is not None)
        if "half" not in frame.data and others < 3:  # Sastre: itself, a partner and a third one
            return []
        return [A.SHEET + i for i, g in enumerate(sheet) if g is not None and g.uid != exclude]

    def _answer_swap_first(self, frame: Frame, action: int) -> None:
        g = self.players[frame.player].sheet[action - A.SHEET]
        assert g is not None
        if "half" in frame.data:  # the half is fixed: the other Granuja comes from the Saloon
            self._push("swap_second", frame.player, first=g.uid, half=frame.data["half"],
                       exclude=-1, saloon_only=True)
        else:
            self._push("swap_half", frame.player, first=g.uid, exclude=frame.data["exclude"])

    def _legal_swap_half(self, frame: Frame) -> list[int]:
        return [A.HALF, A.HALF + 1]

    def _answer_swap_half(self, frame: Frame, action: int) -> None:
        data = frame.data
        self._push("swap_second", frame.player, first=data["first"], half=action - A.HALF,
                   exclude=data["exclude"])

    def _legal_swap_second(self, frame: Frame) -> list[int]:
        first, exclude = frame.data["first"], frame.data["exclude"]
        sheet = self.players[frame.player].sheet
        out = []
        if not frame.data.get("saloon_only"):
            # the Sastre may give its Trait but never its own Occupation
            barred = (first, exclude) if frame.data["half"] == 0 else (first,)
            out += [A.SHEET + i for i, g in enumerate(sheet) if g is not None and g.uid not in barred]
        out += [A.SALOON + i for i, g in enumerate(self.saloon) if g is not None]
        return out

    def _answer_swap_second(self, frame: Frame, action: int) -> None:
        p = frame.player
        a = self._find_granuja(p, frame.data["first"])
        if A.SHEET <= action < A.SHEET + A.SHEET_SIZE:
            b = self.players[p].sheet[action - A.SHEET]
        else:
            b = self.saloon[action - A.SALOON]
        assert a is not None and b is not None
        if frame.data["half"] == 0:
            a.occ, b.occ = b.occ, a.occ
        else:
            a.trait, b.trait = b.trait, a.trait
        # A Granuja part of which was used this turn counts as used, whichever half moved.
        if a.uid in self.used or b.uid in self.used:
            self.used.update((a.uid, b.uid))
        self.history.append(("swap", self.day, p, frame.data["half"]))

    def _refill_saloon(self, removed: int | None) -> None:
        """Remove the Granuja at ``removed`` (None: nothing), shift the rest right and add a new
        one on the left."""
        saloon = self.saloon
        if removed is not None:
            saloon[removed] = None
        kept = [g for g in saloon if g is not None]
        saloon[:] = [None] * (len(saloon) - len(kept)) + kept
        if saloon[0] is None and self.trait_deck and self.occ_deck:
            saloon[0] = Granuja(uid=self.next_uid, occ=self.occ_deck.pop(), trait=self.trait_deck.pop())
            self.next_uid += 1

    def _legal_on_hire(self, frame: Frame) -> list[int]:
        g = self._find_granuja(frame.player, frame.data["uid"])
        assert g is not None
        # once a turn, however it is used: one used from the Saloon by a Posadero/a earlier this
        # turn stays used when it is hired
        payable = (
            g.uid not in self.used
            and self._can_pay(frame.player, self._granuja_program(g)[0])
            and self._requirements_met(frame.player, g)
        )
        return [A.PASS, A.CONFIRM] if payable else [A.PASS]

    def _answer_on_hire(self, frame: Frame, action: int) -> None:
        # «Al contratar» Granujas never reach the sheet: already on the discard pile, used or not
        self._push("rearrange", frame.player, swaps=0)
        if action == A.CONFIRM:
            self._push("use", frame.player, uid=frame.data["uid"], pos=-1, via="hired", stage="begin")

    def _legal_place(self, frame: Frame) -> list[int]:
        sheet = self.players[frame.player].sheet
        empty = [A.SHEET + i for i, g in enumerate(sheet) if g is None]
        if empty:
            return empty
        return [*(A.SHEET + i for i in range(len(sheet))), A.DISCARD_NEW]

    def _answer_place(self, frame: Frame, action: int) -> None:
        p, g = frame.player, self.limbo
        assert g is not None
        self.limbo = None
        if action == A.DISCARD_NEW:
            self.discard.append(g)
        else:
            sheet = self.players[p].sheet
            pos = action - A.SHEET
            old = sheet[pos]
            if old is not None:
                self.discard.append(old)
            sheet[pos] = g
        self._push("rearrange", p, swaps=0)

    _MAX_SWAPS = A.SHEET_SIZE - 1  # any order of 5 positions is reachable in 4 swaps

    def _legal_rearrange(self, frame: Frame) -> list[int]:
        if frame.data["swaps"] >= self._MAX_SWAPS:
            return [A.PASS]
        sheet = self.players[frame.player].sheet
        return [A.PASS] + [
            A.SWAP + k
            for k, (i, j) in enumerate(A.SWAP_PAIRS)
            if sheet[i] is not None or sheet[j] is not None
        ]

    def _answer_rearrange(self, frame: Frame, action: int) -> None:
        if action == A.PASS:
            return
        i, j = A.SWAP_PAIRS[action - A.SWAP]
        sheet = self.players[frame.player].sheet
        sheet[i], sheet[j] = sheet[j], sheet[i]
        self._push("rearrange", frame.player, swaps=frame.data["swaps"] + 1)

    def _legal_sheriff_option(self, frame: Frame) -> list[int]:
        rules, money = self.rules, self.players[frame.player].money
        out = [A.SELL_INFORMATION]
        if money >= rules.bail_cost and any(pl.jailed_henchmen for pl in self.players):
            out.append(A.PAY_BAIL)
        if self.day == self.last_day and money >= rules.bribe_cost and self._board_safes():
            out.append(A.BRIBE_SHERIFF)
        return out

    def _answer_sheriff_option(self, frame: Frame, action: int) -> None:
        p = frame.player
        if action == A.SELL_INFORMATION:
            self.players[p].money += self.rules.sell_information
        elif action == A.PAY_BAIL:
            self._push("bail", p, freed=0)
        else:
            self.players[p].money -= self.rules.bribe_cost
            self._push("steal_target", p)
        self.history.append(("sheriff", self.day, p, action - A.SHERIFF_OPTION))

    def _legal_bail(self, frame: Frame) -> list[int]:
        p, n = frame.player, self.num_players
        out = [A.PASS] if frame.data["freed"] else []
        if self.players[p].money >= self.rules.bail_cost:
            out += [A.SEAT + k for k in range(n) if self.players[(p + k) % n].jailed_henchmen]
        return out

    def _answer_bail(self, frame: Frame, action: int) -> None:
        if action == A.PASS:
            return
        p = frame.player
        target = self.players[(p + action - A.SEAT) % self.num_players]
        self.players[p].money -= self.rules.bail_cost
        target.jailed_henchmen -= 1
        target.free_henchmen += 1
        self.history.append(("bail", self.day, p, target.seat))
        freed = frame.data["freed"] + 1
        if freed < self.rules.bail_max:
            self._push("bail", p, freed=freed)

    # ------------------------------------------------------------------ end of day
    def _turn_order(self) -> list[int]:
        return [(self.first_player + k) % self.num_players for k in range(self.num_players)]

    def _run_day_end(self, frame: Frame) -> None:
        # Stages: reveal -> after_reveal (poker cards under the deck, hands refilled) -> abilities
        # («Al final del día» Granujas, repeated until nobody waiting can use one) -> first_player
        # -> next_day. Timing events raised on the way (reputation from a caught bluff or from an
        # end-of-day ability) are offered between stages: day_end is a safe point. Each batch is
        # one moment: the last-turn player orders the players who can answer it (_run_triggers).
        data = frame.data
        stage = data["stage"]
        n = self.num_players
        if stage == "reveal":
            self.used = set()  # the end of day is its own "once" window
            self._reveal_challenged()
            data["stage"] = "after_reveal"
        elif stage == "after_reveal":
            if self.day == self.last_day:
                self._finish()
                return
            for player in self.players:
                played = [c.value for c in player.played]
                self.rng.shuffle(played)
                player.deck[:0] = played  # under the deck: the start of the list is the bottom
                player.played = []
                while len(player.hand) < self.rules.hand_size and player.deck:
                    player.hand.append(player.deck.pop())
                player.hand.sort()
            data["stage"] = "abilities"
            # Each player gets one end-of-day turn with the Granujas on its sheet now (one hired
            # during the end of day missed the moment, as for every timing text).
            data["waiting"] = [(self.last_turn_player + k) % n for k in range(n)]
            data["uids"] = [g.uid for pl in self.players for g in pl.sheet if g is not None]
        elif stage == "abilities":
            # Only players who can use an ability now count: a Granuja that cannot be paid (or
            # whose requirement fails) is no wish to act. A waiting player that cannot act now
            # keeps waiting: an earlier player's ability may make its own usable (e.g. a Safe
            # stolen by a rival lets a Rebelde act). Two or more at once: the player who played the last turn
            # orders them (rulebook, end-of-day clarifications), one choice at a time, since each
            # resolution can change who is still able. Strategy cards have no end-of-day timing
            # (data.STRATEGY_TIMINGS), so only Granujas take part.
            ready = [s for s in data["waiting"] if self._timing_options(s, "end_of_day", data["uids"])]
            if len(ready) >= 2:
                self._push("end_of_day_order", self.last_turn_player, seats=ready)
            elif ready:
                self._end_of_day_turn(frame, ready[0])
            else:
                data["stage"] = "first_player"
        elif stage == "first_player":
            # After the end-of-day abilities (reputation they gave counts): the unique highest
            # reputation chooses who starts the new day; a tie keeps the order, i.e. the player
            # left of the one who played the last turn starts.
            data["stage"] = "next_day"
            best = max(pl.reputation for pl in self.players)
            leaders = [pl.seat for pl in self.players if pl.reputation == best]
            self.first_player = (self.last_turn_player + 1) % n
            if len(leaders) == 1:
                self._push("first_player", leaders[0])
        else:
            self.day += 1
            self.turn = 0
            self.played_log.append([[] for _ in range(self.num_players)])
            self.history.append(("day", self.day, self.first_player))
            self.stack.pop()

    def _reveal_challenged(self) -> None:
        for seat in self._turn_order():
            player = self.players[seat]
            for card in sorted(player.played, key=lambda c: c.slot):
                if not card.henchmen:
                    continue
                bluff = card.value != card.slot
                self.history.append(
                    ("reveal", self.day, seat, card.slot, card.value, bluff, tuple(card.henchmen))
                )
                self.reveals.append((self.day - 1, seat, card.slot, card.value))
                for owner in card.henchmen:
                    if bluff:
                        self.players[owner].free_henchmen += 1
                        self._change_reputation(owner, 1)
                    else:
                        self.players[owner].jailed_henchmen += 1
                card.henchmen = []
                if bluff:
                    self._change_reputation(seat, -1)

    def _legal_first_player(self, frame: Frame) -> list[int]:
        return [A.SEAT + k for k in range(self.num_players)]

    def _answer_first_player(self, frame: Frame, action: int) -> None:
        self.first_player = (frame.player + action - A.SEAT) % self.num_players

    def _end_of_day_turn(self, day_end: Frame, seat: int) -> None:
        """``seat`` uses its end-of-day Granujas, as many as it wants, then passes."""
        day_end.data["waiting"].remove(seat)
        self._push("trigger", seat, timing="end_of_day", uids=list(day_end.data["uids"]))

    def _legal_end_of_day_order(self, frame: Frame) -> list[int]:
        p, n = frame.player, self.num_players
        return [A.SEAT + (seat - p) % n for seat in frame.data["seats"]]

    def _answer_end_of_day_order(self, frame: Frame, action: int) -> None:
        seat = (frame.player + action - A.SEAT) % self.num_players
        parent = self.stack[-1]  # the decision was pushed right on the frame that asked it
        if parent.kind == "triggers":  # simultaneous timing events: seat answers its own now
            parent.data["serving"] = seat
        else:  # «Al final del día» Granujas: seat takes its end-of-day turn
            assert parent.kind == "day_end"
            self._end_of_day_turn(parent, seat)

    # ------------------------------------------------------------------ Strategy cards
    def _legal_choose_strategy(self, frame: Frame) -> list[int]:
        return [A.STRATEGY, A.STRATEGY + 1]

    def _answer_choose_strategy(self, frame: Frame, action: int) -> None:
        leader = frame.player % len(self.catalog.leaders)
        card = self.catalog.leader_strategies(leader)[action - A.STRATEGY]
        self.players[frame.player].strategy = card.index

    def _run_strategy_reveal(self, frame: Frame) -> None:
        self.strategies_revealed = True
        self.history.append(("strategies", tuple(p.strategy for p in self.players)))
        self.stack.pop()

    def _verb_free_own_henchman(self, frame: Frame, step: Step) -> None:
        player = self.players[frame.player]
        freed = min(step.amount, player.jailed_henchmen)
        player.jailed_henchmen -= freed
        player.free_henchmen += freed

    # ------------------------------------------------------------------ scoring
    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Tech points of a seat by source: safes, marks, reputation, granujas, total."""
        player = self.players[seat]
        # plain loops, not generator sums: the training env's shaping reads every seat's score at
        # every learner step
        safes = marks = granujas = 0
        all_safes = self.safes
        for s in player.safes:
            safe = all_safes[s]
            value = safe.value
            safes += value
            for _, face in safe.marks:
                if face == value:
                    marks += 1
        reputation = self.rules.reputation_tech[player.reputation]
        occupations, traits = self.catalog.occupation_cards, self.catalog.trait_cards
        for g in player.sheet:
            if g is not None:
                granujas += occupations[g.occ].tech + traits[g.trait].tech
        total = safes + marks + reputation + granujas
        return {"safes": safes, "marks": marks, "reputation": reputation, "granujas": granujas,
                "total": total}

    def _finish(self) -> None:
        self.scores = [self.score_breakdown(s)["total"] for s in range(self.num_players)]
        order = self._turn_order()

        def rank(seat: int) -> tuple[int, int, int]:
            # ties: more money, then the tied player who played latest in the final round
            return (self.scores[seat], self.players[seat].money, order.index(seat))  # type: ignore[index]

        self.winner = max(range(self.num_players), key=rank)
        self.game_over = True
        self.stack = []
        self.history.append(("end", self.day, tuple(self.scores), self.winner))


_RUN: dict[str, Callable[[Game, Frame], None]] = {
    "game": Game._run_game,
    "turn": Game._run_turn,
    "window": Game._run_window,
    "use": Game._run_use,
    "effect": Game._run_effect,
    "triggers": Game._run_triggers,
    "day_end": Game._run_day_end,
    "strategy_reveal": Game._run_strategy_reveal,
}
# Continuations at which queued timing events are offered: never in the middle of an ability.
_SAFE_POINTS = frozenset({"game", "turn", "window", "day_end"})
_EVENT_TIMING = EVENT_TIMINGS

_LEGAL: dict[str, Callable[[Game, Frame], list[int]]] = {
    "start_ability": Game._legal_start_ability,
    "plan_card": Game._legal_plan_card,
    "plan_slot": Game._legal_plan_slot,
    "challenge": Game._legal_challenge,
    "ability": Game._legal_ability,
    "response": Game._legal_response,
    "trigger": Game._legal_trigger,
    "use_again": Game._legal_use_again,
    "hire": Game._legal_hire,
    "on_hire": Game._legal_on_hire,
    "place": Game._legal_place,
    "rearrange": Game._legal_rearrange,
    "sheriff_option": Game._legal_sheriff_option,
    "bail": Game._legal_bail,
    "peek_target": Game._legal_board_target,
    "steal_target": Game._legal_board_target,
    "mark_source": Game._legal_mark_source,
    "mark_face": Game._legal_mark_face,
    "abandon": Game._legal_abandon,
    "unused_location": Game._legal_unused_location,
    "first_player": Game._legal_first_player,
    "end_of_day_order": Game._legal_end_of_day_order,
    "another_target": Game._legal_another_target,
    "hire_target": Game._legal_hire_target,
    "swap_first": Game._legal_swap_first,
    "swap_half": Game._legal_swap_half,
    "swap_second": Game._legal_swap_second,
    "choose_strategy": Game._legal_choose_strategy,
}
_ANSWER: dict[str, Callable[[Game, Frame, int], None]] = {
    "start_ability": Game._answer_start_ability,
    "plan_card": Game._answer_plan_card,
    "plan_slot": Game._answer_plan_slot,
    "challenge": Game._answer_challenge,
    "ability": Game._answer_ability,
    "response": Game._answer_response,
    "trigger": Game._answer_trigger,
    "use_again": Game._answer_use_again,
    "hire": Game._answer_hire,
    "on_hire": Game._answer_on_hire,
    "place": Game._answer_place,
    "rearrange": Game._answer_rearrange,
    "sheriff_option": Game._answer_sheriff_option,
    "bail": Game._answer_bail,
    "peek_target": Game._answer_peek_target,
    "steal_target": Game._answer_steal_target,
    "mark_source": Game._answer_mark_source,
    "mark_face": Game._answer_mark_face,
    "abandon": Game._answer_abandon,
    "unused_location": Game._answer_unused_location,
    "first_player": Game._answer_first_player,
    "end_of_day_order": Game._answer_end_of_day_order,
    "another_target": Game._answer_another_target,
    "hire_target": Game._answer_hire_target,
    "swap_first": Game._answer_swap_first,
    "swap_half": Game._answer_swap_half,
    "swap_second": Game._answer_swap_second,
    "choose_strategy": Game._answer_choose_strategy,
}
_VERBS: dict[str, Callable[[Game, Frame, Step], None]] = {
    "gain_money": Game._verb_gain_money,
    "spend_money": Game._verb_spend_money,
    "gain_reputation": Game._verb_gain_reputation,
    "lose_reputation": Game._verb_lose_reputation,
    "peek_safe": Game._verb_peek_safe,
    "mark_safe": Game._verb_mark_safe,
    "peek_unused_safe": Game._verb_peek_unused_safe,
    "sheriff_option": Game._verb_sheriff_option,
    "use_another": Game._verb_use_another,
    "hire": Game._verb_hire,
    "swap_halves": Game._verb_swap_halves,
    "free_own_henchman": Game._verb_free_own_henchman,
}
assert set(_LEGAL) == set(_ANSWER) == set(DECISION_KINDS)


def register_decision(
    kind: str,
    description: str,
    legal: Callable[[Game, Frame], list[int]],
    answer: Callable[[Game, Frame, int], None],
    *,
    auto_pass: bool = False,
) -> None:
    """Add a decision kind (for effect modules): who answers is the frame's player."""
    if kind in DECISION_KINDS:
        raise ValueError(f"decision kind {kind!r} is already registered")
    DECISION_KINDS[kind] = description
    _LEGAL[kind] = legal
    _ANSWER[kind] = answer
    if auto_pass:
        _AUTO_PASS.add(kind)


def register_verb(verb: str, handler: Callable[[Game, Frame, Step], None]) -> None:
    """Add the handler of a vocabulary verb (for effect modules)."""
    if verb in _VERBS:
        raise ValueError(f"verb {verb!r} already has a handler")
    _VERBS[verb] = handler


def register_continuation(kind: str, run: Callable[[Game, Frame], None]) -> None:
    """Add an engine continuation frame kind (for effect modules)."""
    if kind in _RUN:
        raise ValueError(f"continuation {kind!r} is already registered")
    _RUN[kind] = run


REQUIREMENT_CHECKS: dict[str, Callable[[Game, int], bool]] = {
    "henchman_in_jail": lambda game, seat: any(p.jailed_henchmen for p in game.players),
    "money_zero": lambda game, seat: game.players[seat].money == 0,
    "rival_has_more_safes": lambda game, seat: any(
        len(p.safes) > len(game.players[seat].safes) for p in game.players if p.seat != seat
    ),
}
