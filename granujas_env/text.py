"""Text interface for people and language-model agents: what one seat may know, in plain words.

Everything here is built from the seat's semantic view (:func:`granujas_env.view.seat_view`), which
holds exactly that seat's information, so no text shows a rival's hand, an unseen Safe value or a
deck order (tests/test_text.py checks it the way the observation leak tests do)::

    from granujas_env import text
    print(text.text_observation(env, seat=0))           # table, events, decision and menu
    for item in text.legal_action_menu(env.unwrapped.game):
        print(item.id, item.name, item.meaning)           # 13 slot:5 play the 4 face down in slot 5 (a bluff)
    action = text.parse_action("Action: 13", legal, names)

Action ids are the env's (``granujas_env.engine.actions``): a menu line and an answer use the same
id as ``env.step``, and only action ids are written ``13)`` (the Saloon's spaces are ``S1``-``S3``).
:func:`parse_action` reads a bare id, an action name (``slot:5``), words that begin or sit inside
one menu line, yes/no words, ``Action: 13``, ``[13]`` or a JSON ``{"action": 13}``; two different
answers in one reply are invalid. :data:`PROMPTS` words each decision as a question.

The events are narrated with the cause of every change (:class:`Narrator`, fed views as the game
goes; :func:`history_lines` from the events alone), ending with a game-over line that gives each
score by source.

:data:`TEXT` is granujas' text interface (:class:`granujas_env.core.textio.TextGame`): the
terminal, the language-model agent and the TextArena wrapper read the game through it; the
menu items and the answer parser are shared by every game (:mod:`granujas_env.core.textio`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .core.textio import MenuItem, TextGameBase, menu_text
from .core.textio import parse_action as _parse_action
from .docs import _effect_words
from .engine import actions as A
from .engine.data import Catalog
from .engine.game import DECISION_KINDS, Game
from .engine.vocabulary import REQUIREMENTS
from .render import SLOT_NAMES, render_text
from .view import GranujaView, PlayerView, SeatView, seat_view

__all__ = [
    "ANSWER_HELP",
    "PROMPTS",
    "RULES_SUMMARY",
    "TEXT",
    "GranujasText",
    "MenuItem",
    "Narrator",
    "describe_action",
    "decision_text",
    "events_text",
    "granuja_text",
    "history_lines",
    "legal_action_menu",
    "menu_text",
    "narrate",
    "order_matters",
    "parse_action",
    "render_view",
    "resolve_view",
    "text_observation",
]


#: What a language model needs to know before its first decision (agents add the answer format).
RULES_SUMMARY = (
    "You are playing 3000 Granujas, a board game of bluffing and Safe-cracking for 2-4 players. "
    "Each turn a player plays a poker card face down in a slot (A, 2-6) and uses the abilities "
    "of that slot, whatever the card really is; rivals may challenge the card with a henchman "
    "(at the end of the day a caught bluff costs the bluffer 1 reputation and gives each "
    "challenger 1; an honest card sends the challengers' henchmen to jail). Peek at, mark and "
    "steal Safes, hire Granujas, and finish with the most tech: Safes, Marks matching a Safe's "
    "value, reputation and Granujas. You see only what your seat may know. At each of your "
    "decisions you get the table and the legal actions, one a line: id) name meaning."
)


# ------------------------------------------------------------------------------------ sources
def resolve_view(source: Any, seat: int | None = None) -> SeatView:
    """The seat view of ``source``: a :class:`SeatView`, a :class:`Game`, or an env (wrapped or
    raw) holding ``.game``. ``seat`` defaults to the deciding seat (the view's own for a view)."""
    if isinstance(source, SeatView):
        if seat is not None and seat != source.seat:
            raise ValueError(f"this view is seat {source.seat}'s, not seat {seat}'s")
        return source
    game = _game_of(source)
    if seat is None:
        if game.decision is None:
            raise ValueError("the game is over: no seat is deciding; name the seat")
        seat = game.decision.player
    return seat_view(game, seat)


def _game_of(source: Any) -> Game:
    game = source if isinstance(source, Game) else getattr(
        getattr(source, "unwrapped", source), "game", None
    )
    if not isinstance(game, Game):
        raise TypeError(
            f"expected a SeatView, a Game or a granujas env with a game in progress, got "
            f"{type(source).__name__} (call env.reset() first)"
        )
    return game


# ------------------------------------------------------------------------------------ pieces
def _who(view: SeatView, seat: int) -> str:
    return "you" if seat == view.seat else f"p{seat}"


def _whose(view: SeatView, seat: int) -> str:
    return "your" if seat == view.seat else f"p{seat}'s"


def _location(view: SeatView, loc: int) -> str:
    return view.rules.locations[loc].name


_MODIFIERS = {"extra_money": "+1 $ when used", "use_twice": "usable twice"}


def granuja_text(g: GranujaView | None, catalog: Catalog, *, cost: int | None = None,
                 effect: bool = True) -> str:
    """A Granuja in words: names, when it acts, hire cost, tech, modifiers and (``effect``) what
    it does. ``cost`` overrides the printed cost (what hiring it costs a given seat)."""
    if g is None:
        return "(empty)"
    name = (f"{catalog.occupation_cards[g.occ].occupation.name} "
            f"{catalog.trait_cards[g.trait].trait.name}")
    if g.timing == "slots":
        when = "slot " + "/".join(SLOT_NAMES[s] for s in sorted(g.slots))
    elif g.timing == "response":
        when = "answers the Granuja on its " + "/".join(sorted(g.arrows))
    else:
        when = g.timing.replace("_", " ")
    parts = [when, f"{g.cost if cost is None else cost}$"]
    if g.tech:
        parts.append(f"{g.tech} tech")
    parts += sorted(_MODIFIERS.get(m, m) for m in g.modifiers)
    parts += [f"only if {REQUIREMENTS.get(r, r)}" for r in sorted(g.requires)]
    words = f"{name} [{', '.join(parts)}]"
    return f"{words}: {_effect_words(g.effect)}" if effect else words


def _safe_words(view: SeatView, sid: int) -> str:
    safe = view.safes[sid]
    value = "value unknown" if safe.value is None else f"value {safe.value}"
    marks = ", ".join(f"p{o}:{f}" for o, f in safe.marks)
    where = (f"{_location(view, safe.location)} {safe.board_pos + 1}" if safe.board_pos >= 0
             else f"{_whose(view, safe.holder)} {_location(view, safe.location)} Safe")
    return f"{where} ({value}{'; Marks ' + marks if marks else ''})"


def _board_sid(view: SeatView, index: int) -> int:
    loc, pos = divmod(index, A.BOARD_POSITIONS)
    sid = view.board[loc][pos]
    if sid is None:
        raise ValueError(f"no Safe at {_location(view, loc)} {pos + 1}")
    return sid


def narrate(event: tuple, catalog: Catalog) -> str | None:
    """One public history event as a sentence that makes sense alone (None for events not worth
    a line). Causes that need the events before it (whose Safe was taken, who loses what at a
    reveal) come from :func:`history_lines` and :class:`Narrator`."""
    lines = Narrator(catalog)._event(event, None)
    return "\n".join(lines) if lines else None


def history_lines(view: SeatView) -> list[str | None]:
    """The narration of every event of ``view.history``, aligned with it (None for events not
    worth a line; an event may give several lines, joined by newlines). Causes are derived from
    the event sequence: who gains or loses reputation, money, henchmen and Safes at each event,
    and why. Changes the engine logs no event for (money from an ability...) need a
    :class:`Narrator` fed after every action."""
    narrator = Narrator(view.catalog, view.rules)
    return [("\n".join(lines) if lines else None)
            for lines in (narrator._event(e, view) for e in view.history)]


# Public numbers of a player that the narration accounts for, in this order.
_MONEY, _REP, _FREE, _JAILED, _ON_CARDS, _DESTROYED = range(6)
_HENCHMEN_WORDS = {_FREE: "free", _JAILED: "in jail", _ON_CARDS: "on cards",
                   _DESTROYED: "destroyed"}
# Decisions asked only when no ability is being resolved: an earlier ability has finished.
_IDLE_DECISIONS = frozenset({"start_ability", "ability", "plan_card", "plan_slot", "hire",
                             "challenge", "first_player", "end_of_day_order"})


def _numbers(view: SeatView) -> list[list[int]]:
    return [[p.money, p.reputation, p.free_henchmen, p.jailed_henchmen, p.henchmen_on_cards,
             p.destroyed_henchmen] for p in view.players]


class Narrator:
    """The public events of one game in words, every change with its cause, fed seat views as
    the game goes: ``lines = narrator.update(view)`` returns the lines of the events since the
    last call. Uses only public information (any seat's view narrates the same lines).

    The causes of changes the engine logs as events (reveals, challenges, the Sheriff's Office,
    bail, thefts, jail...) are derived from the events. Changes it logs no event for (money or
    reputation from an ability, its costs, a hire's price) are found by comparing each player's
    money, reputation and henchmen with the previous view, and named by the ability in use (the
    view shows which Granujas were used this turn). Fed after every action
    (``every_action=True``), each such change is tied to the action that made it; fed less often
    (e.g. at one seat's decisions only), the changes in between are summed and said to come from
    the abilities and effects since the last update."""

    def __init__(self, catalog: Catalog, rules: Any = None, *, every_action: bool = True) -> None:
        self.catalog, self.rules, self.every_action = catalog, rules, every_action
        self._clear()

    def _clear(self) -> None:
        self.seen = 0  # events of the history already narrated
        self._numbers: list[list[int]] | None = None  # players' numbers at the last update
        self._holders: dict[int, int] = {}  # Safe id -> seat holding it (-1: on the board)
        self._places: dict[int, str] = {}  # Safe id -> where it lay on the board
        self._names: dict[int, str] = {}  # Granuja uid -> its name
        self._owners: dict[int, int] = {}  # Granuja uid -> seat whose sheet it was on
        self._turn: tuple[int, int] | None = None  # (day, turn) of the last update
        self._used: frozenset[int] = frozenset()
        self._leader_used = False
        self._ability: str | None = None  # the ability being resolved, in words
        self._hired: dict[int, str] = {}  # seat -> Granuja it hired in this update
        self._estimate: list[list[int]] | None = None  # numbers as the events so far leave them
        self._asked: tuple[str | None, int] = (None, -1)  # the decision pending at the last update
        self._last_hire: dict[int, str] = {}  # seat -> the Granuja it hired last

    def update(self, view: SeatView) -> list[str]:
        """The lines of the events since the last update (all of them the first time), then a
        line for each change of money, reputation or henchmen that no event explains."""
        if self.rules is None:
            self.rules = view.rules
        if len(view.history) < self.seen:  # a new game
            self._clear()
        self._learn(view)
        noticed = self._notice_abilities(view)
        if not self.every_action:  # an ability seen now need not be the cause of earlier events
            self._ability = None
        elif not noticed:  # one begun and ended within this action: named by the decision asked
            self._ability = self._asked_ability() or self._ability
        self._estimate = None if self._numbers is None else [row[:] for row in self._numbers]
        self._hired = {}
        lines: list[str] = []
        new = view.history[self.seen:]
        for event in new:
            lines += self._event(event, view)
        self.seen = len(view.history)
        if self._estimate is not None:
            lines += self._unexplained(view, self._estimate, self._cause(new))
        self._numbers = _numbers(view)
        self._asked = (view.decision, view.deciding_player)
        self._remember_safes(view)
        if view.decision in _IDLE_DECISIONS or view.game_over:
            self._ability = None
        return lines

    # -------------------------------------------------------------------- what the views show
    def _learn(self, view: SeatView) -> None:
        """Granuja names by uid (a used Granuja may leave the table), Safe places."""
        for p in view.players:
            for g in p.sheet:
                if g is not None:
                    self._names[g.uid] = granuja_text(g, self.catalog, effect=False).split(" [")[0]
                    self._owners[g.uid] = p.seat
        for g in (*view.saloon, view.limbo, view.discard_top):
            if g is not None:
                self._names.setdefault(g.uid, granuja_text(g, self.catalog, effect=False)
                                       .split(" [")[0])

    def _remember_safes(self, view: SeatView) -> None:
        for sid, safe in view.safes.items():
            self._holders[sid] = safe.holder
            if safe.board_pos >= 0:
                self._places[sid] = f"{_location(view, safe.location)} {safe.board_pos + 1}"

    def _notice_abilities(self, view: SeatView) -> bool:
        """Whether an ability began since the last update (a Granuja newly among the used ones,
        or the leader's slot ability); it becomes the ability in use."""
        turn = (view.day, view.turn)
        same = turn == self._turn
        used = view.used - self._used if same else view.used
        leader = view.leader_used and not (same and self._leader_used)
        self._turn, self._used, self._leader_used = turn, view.used, view.leader_used
        named = []
        if leader:
            named.append(f"p{view.current_player}'s leader ability of slot "
                         f"{SLOT_NAMES[view.current_slot]}")
        for uid in sorted(used):
            owner = self._owners.get(uid, view.deciding_player)
            named.append(f"p{owner}'s {self._names.get(uid, 'Granuja')}")
        if named:
            self._ability = " and ".join(named)
        return bool(named)

    # -------------------------------------------------------------------- accounting
    def _change(self, seat: int, what: int, delta: int) -> int:
        """Apply an event's change to the estimate; the change that really happens (reputation
        stays on its track). Without an estimate the change is taken as given."""
        if self._estimate is None:
            return delta
        row = self._estimate[seat]
        new = row[what] + delta
        if what == _REP and self.rules is not None:
            new = max(self.rules.reputation_min, min(self.rules.reputation_max, new))
        done, row[what] = new - row[what], new
        return done

    def _reputation(self, seat: int, delta: int, why: str) -> str:
        done = self._change(seat, _REP, delta)
        now = "" if self._estimate is None else f" (now {self._estimate[seat][_REP]:+d})"
        if done == 0 and delta != 0:
            edge = "lowest" if delta < 0 else "highest"
            return f"    p{seat} would {'lose' if delta < 0 else 'gain'} {abs(delta)} " \
                   f"reputation ({why}) but is on the track's {edge} square{now}"
        verb = "gains" if done > 0 else "loses"
        return f"    p{seat} {verb} {abs(done)} reputation{now}: {why}"

    def _asked_ability(self) -> str | None:
        """The ability that the decision pending at the last update can start, in words."""
        kind, player = self._asked
        if kind == "on_hire":
            return f"p{player}'s {self._last_hire.get(player, 'Granuja')} (its on-hire ability)"
        if kind == "trigger":
            return f"a Granuja of p{player} whose timing text applied"
        if kind == "response":
            return f"a response Granuja of p{player}"
        return None

    def _cause(self, events: Sequence[tuple]) -> str:
        """Words for what made the changes no event explains."""
        if not self.every_action:
            return "abilities and effects since the last update, which the event log does not name"
        if self._ability:
            return self._ability
        if any(e[0] == "day" for e in events):
            return "an end-of-day ability"
        return "an effect the event log does not name"

    def _unexplained(self, view: SeatView, estimate: list[list[int]], cause: str) -> list[str]:
        lines = []
        for seat, (row, guess) in enumerate(zip(_numbers(view), estimate)):
            money = row[_MONEY] - guess[_MONEY]
            if money < 0 and seat in self._hired and self.every_action:
                lines.append(f"    p{seat} pays {-money} $ for {self._hired[seat]}")
            elif money:
                verb = "gains" if money > 0 else "pays"
                lines.append(f"    p{seat} {verb} {abs(money)} $ ({cause})")
            rep = row[_REP] - guess[_REP]
            if rep:
                lines.append(f"    p{seat} {'gains' if rep > 0 else 'loses'} {abs(rep)} "
                             f"reputation (now {row[_REP]:+d}): {cause}")
            moved = [f"{_HENCHMEN_WORDS[k]} {guess[k]} -> {row[k]}"
                     for k in (_FREE, _JAILED, _ON_CARDS, _DESTROYED) if row[k] != guess[k]]
            if moved:
                lines.append(f"    p{seat}'s henchmen: {', '.join(moved)} ({cause})")
        return lines

    # -------------------------------------------------------------------- the events
    def _safe(self, sid: int, view: SeatView | None) -> str:
        place = self._places.get(sid)
        if view is not None and sid in view.safes:
            where = _location(view, view.safes[sid].location)
            return f"the Safe at {place}" if place else f"a Safe of {where}"
        return f"the Safe at {place}" if place else "a Safe"

    def _event(self, event: tuple, view: SeatView | None) -> list[str]:
        """The lines of one event; updates the estimate and the Safe holders."""
        kind = event[0]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            return handler(event, view)
        line = _SIMPLE_EVENTS.get(kind)
        return [] if line is None else [line(event, self.catalog)]

    def _on_plan(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, seat, slot = event
        if slot == 0:
            return [f"p{seat} plays a 0 face up beside its sheet (Honesto: it cannot be "
                    f"challenged)"]
        return [f"p{seat} plays a card face down in slot {SLOT_NAMES[slot]}"]

    def _on_challenge(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, seat, target, slot = event
        self._change(seat, _FREE, -1)
        self._change(seat, _ON_CARDS, 1)
        return [f"    p{seat} challenges p{target}'s card in slot {SLOT_NAMES[slot]}: puts a "
                f"henchman on it (revealed at the end of the day)"]

    def _on_reveal(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, seat, slot, value, bluff, owners = event
        card, where = _a(A.CARD_NAMES[value]), SLOT_NAMES[slot]
        verdict = "a BLUFF" if bluff else "honest"
        lines = [f"  end of day: p{seat}'s challenged card in slot {where} is {card} "
                 f"({verdict})"]
        for owner in owners:
            self._change(owner, _ON_CARDS, -1)
            if bluff:
                self._change(owner, _FREE, 1)
                lines.append(self._reputation(
                    owner, 1, f"caught p{seat}'s bluff in slot {where}; its henchman comes back"))
            else:
                self._change(owner, _JAILED, 1)
                lines.append(f"    p{owner}'s henchman goes to jail: it challenged p{seat}'s "
                             f"honest card in slot {where}")
        if bluff:
            lines.append(self._reputation(
                seat, -1, f"bluff caught (played {card} in slot {where})"))
        return lines

    def _on_hire(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, seat, occ, trait = event
        name = (f"{self.catalog.occupation_cards[occ].occupation.name} "
                f"{self.catalog.trait_cards[trait].trait.name}")
        self._hired[seat] = self._last_hire[seat] = name
        return [f"    p{seat} hires {name}"]  # update() adds the price it paid

    def _on_sheriff(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, seat, option = event
        head = (f"    p{seat} uses the Sheriff's Office instead of hiring (the rightmost Saloon "
                f"Granuja is discarded)")
        rules = self.rules
        if option == 0:
            amount = rules.sell_information if rules is not None else 2
            self._change(seat, _MONEY, amount)
            return [f"{head} and sells information: gains {amount} $"]
        if option == 1:
            return [f"{head} and pays bail"]
        amount = rules.bribe_cost if rules is not None else 12
        self._change(seat, _MONEY, -amount)
        return [f"{head} and bribes the sheriff: pays {amount} $ to steal a Safe"]

    def _on_bail(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, seat, target = event
        cost = self.rules.bail_cost if self.rules is not None else 2
        self._change(seat, _MONEY, -cost)
        self._change(target, _JAILED, -1)
        self._change(target, _FREE, 1)
        return [f"    p{seat} pays {cost} $ bail: a jailed henchman of p{target} is free again"]

    def _on_steal(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, seat, sid = event
        before = self._holders.get(sid)
        self._holders[sid] = seat
        if before is not None and before >= 0:
            return [f"    p{seat} steals a Safe from p{before}: p{before} loses it"]
        if before == -1:
            return [f"    p{seat} takes {self._safe(sid, view)} from the board"]
        if self._numbers is not None and view is not None and sid in view.safes:
            # every Safe of the board was in the last view: this one came from an unused pile
            where = _location(view, view.safes[sid].location)
            return [f"    p{seat} takes the top unused Safe of {where}"]
        return [f"    p{seat} takes {self._safe(sid, view)}"]

    def _on_abandon(self, event: tuple, view: SeatView | None) -> list[str]:
        _, day, seat, sid = event
        self._holders[sid] = -1
        return [f"    p{seat} abandons a Safe: it holds more than the Safe limit ({day} on day "
                f"{day}); the Safe goes back to its location"]

    def _on_mark(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, seat, sid, face = event
        return [f"    p{seat} marks {self._safe(sid, view)} with a {face}"]

    def _on_steal_money(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, thief, victim, amount = event
        self._change(victim, _MONEY, -amount)
        self._change(thief, _MONEY, amount)
        why = f" ({self._ability})" if self._ability else ""
        return [f"    p{thief} takes {amount} $ from p{victim}{why}"]

    def _on_jail(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, owner, cause = event
        self._change(owner, _FREE, -1)
        self._change(owner, _JAILED, 1)
        if cause == owner:
            why = f"the cost of {self._ability}" if self._ability else "the cost of its ability"
        else:
            why = self._ability or f"p{cause}'s ability"
        return [f"    a free henchman of p{owner} goes to jail ({why})"]

    def _on_jail_or_reputation(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, rival, choice = event
        who = self._ability or "a rival's Presidiario/a"
        if choice == "reputation":
            return [self._reputation(rival, -1, f"chose it over jailing a henchman ({who})")]
        if choice == "jail":
            return [f"    p{rival} puts one of its free henchmen in jail rather than lose "
                    f"reputation ({who})"]
        return [f"    p{rival} has no free henchman and no reputation to lose: {who} takes "
                f"nothing from it"]

    def _on_free(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, actor, owner = event
        self._change(owner, _JAILED, -1)
        self._change(owner, _FREE, 1)
        why = f" ({self._ability})" if self._ability else ""
        return [f"    p{actor} frees a jailed henchman of p{owner}{why}"]

    def _on_place_henchman(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, actor, owner, seat, slot = event
        self._change(owner, _FREE, -1)
        self._change(owner, _ON_CARDS, 1)
        return [f"    p{actor} puts p{owner}'s henchman on p{seat}'s card in slot "
                f"{SLOT_NAMES[slot]} (it counts as a challenge)"]

    def _on_destroy(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, actor, slot, owners = event
        for owner in owners:
            self._change(owner, _ON_CARDS, -1)
            self._change(owner, _DESTROYED, 1)
        who = ", ".join(f"p{o}" for o in owners) or "nobody"
        return [f"    p{actor} destroys the henchmen on its card in slot {SLOT_NAMES[slot]}: "
                f"{who} lose(s) them for the rest of the game"]

    def _on_strategy(self, event: tuple, view: SeatView | None) -> list[str]:
        _, _, seat, index = event
        card = self.catalog.strategies[index]
        self._ability = f"p{seat}'s Strategy card {card.name}"
        return [f"    p{seat} uses its Strategy card {card.name}: {_effect_words(card.effect)}"]

    def _on_day(self, event: tuple, view: SeatView | None) -> list[str]:
        _, day, first = event
        return ["", f"--- day {day} begins; p{first} plays first ---"]

    def _on_end(self, event: tuple, view: SeatView | None) -> list[str]:
        _, day, scores, winner = event
        lines = ["", f"=== game over after day {day}: p{winner} wins with {scores[winner]} tech "
                 f"({', '.join(f'p{s}: {v}' for s, v in enumerate(scores))}) ==="]
        if view is None or not view.game_over:
            return lines
        for p in view.players:
            rep = view.rules.reputation_tech[p.reputation]
            granujas = sum(g.tech for g in p.sheet if g is not None)
            safes = scores[p.seat] - rep - granujas
            lines.append(f"    p{p.seat}: {scores[p.seat]} tech = {safes} (its {len(p.safes)} "
                         f"Safe(s) and their matching Marks) {'-' if rep < 0 else '+'} {abs(rep)} "
                         f"(reputation square {p.reputation:+d}) + {granujas} (Granujas' tech); "
                         f"{p.money} $ (breaks a tie)")
        return lines


_SIMPLE_EVENTS = {
    "draw": lambda e, c: f"    p{e[2]} draws {e[3]} poker card(s)",
    "card_on_deck": lambda e, c: f"    p{e[2]} puts a card from its hand on top of its poker deck",
    "shuffle": lambda e, c: f"    p{e[2]} shuffles its poker deck",
    "deck_top": lambda e, c: f"    p{e[2]} reveals {_a(A.CARD_NAMES[e[3]])} from the top of its "
                             "deck",
    "peek_card": lambda e, c: f"    p{e[2]} looks at p{e[3]}'s face-down card in slot "
                              f"{SLOT_NAMES[e[4]]}",
    "swap": lambda e, c: f"    p{e[2]} swaps the {('Occupations', 'Traits')[e[3]]} of two Granujas",
    "strategies": lambda e, c: "Strategy cards revealed: " + ", ".join(
        f"p{i}: {c.strategies[k].name}" for i, k in enumerate(e[1])
    ),
}


# ------------------------------------------------------------------------------------ the table
def render_view(view: SeatView) -> str:
    """The table as ``view.seat`` sees it: the board, the Saloon, every player (own hand and own
    card values included), earlier days' declarations and reveals, and whose decision it is."""
    catalog = view.catalog
    state = ("game over" if view.game_over
             else f"day {view.day}/{view.last_day}, turn {view.turn + 1} of "
                  f"{view.turns_per_day * view.num_players}")
    lines = [f"=== 3000 Granujas: {state}; first player p{view.first_player}; you are "
             f"p{view.seat} ==="]
    if view.game_over:
        lines.append(f"scores: {', '.join(f'p{s}: {v}' for s, v in enumerate(view.scores or ()))}"
                     f"; winner p{view.winner}")
    else:
        lines.append(f"p{view.current_player}'s turn; deciding: {_who(view, view.deciding_player)}"
                     f" ({_kind_words(view.decision)})")
    lines.append("Safes on the board (value if you have seen it, else ?; Marks as owner:face):")
    for loc, row in enumerate(view.board):
        cells = " ".join(
            f"{pos + 1}:--" if sid is None else f"{pos + 1}:{_safe_cell(view, sid)}"
            for pos, sid in enumerate(row)
        )
        seen = view.unused_known[loc]
        lines.append(
            f"  {_location(view, loc):<12} values {'/'.join(map(str, view.location_values[loc]))}"
            f"  {cells}  unused: {view.unused_counts[loc]}"
            + (f" (you saw {', '.join(map(str, seen))})" if seen else "")
        )
    lines.append(f"Saloon (spaces S1-S{len(view.saloon)} from left to right; cost for you):")
    for i, (g, cost) in enumerate(zip(view.saloon, view.saloon_costs)):
        lines.append(f"  S{i + 1}: {granuja_text(g, catalog, cost=cost)}")
    top = granuja_text(view.discard_top, catalog, effect=False) if view.discard_top else "none"
    lines.append(f"Discard pile: {view.discard_count} (top: {top}); decks: "
                 f"{view.trait_deck_count} Traits, {view.occupation_deck_count} Occupations")
    if view.limbo is not None:
        lines.append(f"Just hired, to place: {granuja_text(view.limbo, catalog)}")
    for p in view.players:
        lines += _player_lines(view, p)
    lines += _earlier_days(view)
    return "\n".join(lines)


def _safe_cell(view: SeatView, sid: int) -> str:
    safe = view.safes[sid]
    marks = " ".join(f"p{o}:{f}" for o, f in safe.marks)
    return f"[{'?' if safe.value is None else safe.value}{' ' + marks if marks else ''}]"


def _player_lines(view: SeatView, p: PlayerView) -> list[str]:
    catalog = view.catalog
    me = p.seat == view.seat
    marks = " ".join(f"{2 + 2 * t}/{3 + 2 * t}:{n}" for t, n in enumerate(p.marks_left))
    lines = [
        f"p{p.seat}{' (you)' if me else ''}: {p.money} $, reputation {p.reputation:+d}, henchmen "
        f"{p.free_henchmen} free / {p.jailed_henchmen} in jail / {p.henchmen_on_cards} on cards"
        + (f" / {p.destroyed_henchmen} destroyed" if p.destroyed_henchmen else "")
        + f"; Marks left {marks}; hand {p.hand_size}, deck {p.deck_size}"
    ]
    cards = []
    for c in p.played:
        value = "?" if c.value is None else A.CARD_NAMES[c.value]
        where = "face up" if c.slot == 0 else f"slot {SLOT_NAMES[c.slot]}"
        verdict = ""
        if c.value is not None and c.slot > 0:
            verdict = " honest" if c.value == c.slot else " bluff"
        hench = f" (henchmen of {', '.join(f'p{o}' for o in c.henchmen)})" if c.henchmen else ""
        cards.append(f"{where} = {value}{verdict}{hench}")
    lines.append(f"    played today: {'; '.join(cards) or '-'}")
    if me:
        lines.append(f"    hand: {' '.join(A.CARD_NAMES[v] for v in view.hand) or '-'}")
    for i, g in enumerate(p.sheet):
        if g is not None:
            lines.append(f"    sheet {i + 1}: {granuja_text(g, catalog)}")
    if not any(p.sheet):
        lines.append("    sheet: empty")
    safes = ", ".join(_safe_cell(view, sid) for sid in p.safes)
    lines.append(f"    Safes held: {safes or '-'}")
    if p.strategy >= 0:
        card = catalog.strategies[p.strategy]
        lines.append(f"    Strategy card: {card.name} ({card.gloss}): {_effect_words(card.effect)}")
    return lines


def _earlier_days(view: SeatView) -> list[str]:
    known = {(d, s, slot): v for d, s, slot, v in view.known_cards}
    revealed = {(d, s, slot) for d, s, slot, _ in view.reveals}
    lines = []
    for day, by_seat in enumerate(view.declared if view.game_over else view.declared[:-1]):
        parts = []
        for seat, slots in enumerate(by_seat):
            cards = []
            for slot in slots:
                value = known.get((day, seat, slot))
                shown = "" if value is None else f"={A.CARD_NAMES[value]}"
                tag = " revealed" if (day, seat, slot) in revealed else ""
                cards.append(f"{SLOT_NAMES[slot]}{shown}{tag}")
            parts.append(f"p{seat} {' '.join(cards) or '-'}")
        lines.append(f"Day {day + 1} declared slots (= value where you know it): {'; '.join(parts)}")
    return lines


# ------------------------------------------------------------------------------------ actions
def _granuja_at(view: SeatView, index: int) -> GranujaView | None:
    return view.players[view.seat].sheet[index]


def _use(view: SeatView, g: GranujaView | None, where: str) -> str:
    return f"use {where}: {granuja_text(g, view.catalog)}"


def _by_uid(view: SeatView, uid: Any) -> GranujaView | None:
    pool = [*view.players[view.seat].sheet, *view.saloon, view.limbo, view.discard_top]
    return next((g for g in pool if g is not None and g.uid == uid), None)


def _current_card(view: SeatView) -> str:
    return f"p{view.current_player}'s card in slot {SLOT_NAMES[view.current_slot]}"


def _pass_words(view: SeatView, kind: str | None) -> str:
    words = {
        "start_ability": "use no start-of-turn ability; go on to the Plan",
        "challenge": f"do not challenge {_current_card(view)}",
        "ability": "use no more abilities; end step 2",
        "response": "use no response Granuja",
        "trigger": "do not use it",
        "use_again": "do not use it a second time",
        "on_hire": "do not use its on-hire ability",
        "rearrange": "finish: keep the sheet in this order",
        "bail": "free no more henchmen",
        "mark_source": "place no Mark (move none of yours)",
        "preempt_jail": "do not challenge first",
        "jail_or_reputation": "lose 1 reputation instead",
        "shuffle_deck": "leave your poker deck as it is",
    }
    return words.get(kind or "", "pass")


def _confirm_words(view: SeatView, kind: str | None, context: Mapping[str, Any]) -> str:
    if kind == "challenge":
        return f"challenge {_current_card(view)} (put one of your henchmen on it)"
    if kind == "preempt_jail":
        return f"first challenge {_current_card(view)} with one of your free henchmen"
    if kind == "use_again":
        return "use the same Granuja a second time"
    if kind == "on_hire":
        return _use(view, _by_uid(view, context.get("uid")), "the on-hire ability of")
    words = {
        "jail_or_reputation": "put one of your free henchmen in jail",
        "shuffle_deck": "shuffle your poker deck",
    }
    return words.get(kind or "", "yes")


def describe_action(source: Any, action: int, *, seat: int | None = None) -> str:
    """The plain-words meaning of ``action`` (a legal id of the pending decision) for the deciding
    seat, e.g. ``play the 4 face down in slot 5 (a bluff)``; from a SeatView, a Game or an env.

    Raises ``ValueError`` when the view is not the deciding seat's or ``action`` is not legal."""
    view = resolve_view(source, seat)
    if not view.acting:
        raise ValueError(f"seat {view.seat} is not deciding now (p{view.deciding_player} is); "
                         "actions are described for the deciding seat only")
    if action not in view.legal_actions:
        raise ValueError(f"action {action!r} is not legal for the pending decision "
                         f"{view.decision!r}; legal ids: {list(view.legal_actions)}")
    return _describe(view, action)


def _describe(view: SeatView, action: int) -> str:
    kind, context = view.decision, view.context or {}
    block, index = A.block_of(action)
    me = view.players[view.seat]
    if block == "pass":
        return _pass_words(view, kind)
    if block == "confirm":
        return _confirm_words(view, kind, context)
    if block == "card":
        card = A.CARD_NAMES[index]
        if kind == "deck_top_card":
            return f"put the {card} from your hand on top of your poker deck"
        if kind == "plan_card":
            note = "a 0 in a slot is always a bluff; " if index == 0 else ""
            return f"play the {card} ({note}you choose its slot next)"
        return f"the {card} from your hand"
    if block == "slot":
        slot = index + 1
        if kind == "plan_slot":
            value = context["card"]
            verdict = "honest" if value == slot else "a bluff"
            return f"play the {A.CARD_NAMES[value]} face down in slot {SLOT_NAMES[slot]} ({verdict})"
        if kind == "destroy_target":
            card = next(c for c in me.played if c.slot == slot)
            owners = ", ".join(f"p{o}" for o in card.henchmen)
            return f"destroy the henchmen on your card in slot {SLOT_NAMES[slot]} ({owners})"
        return f"slot {SLOT_NAMES[slot]}"
    if block == "leader":
        slot = view.current_slot
        return (f"use your leader's slot-{SLOT_NAMES[slot]} ability: "
                f"{_effect_words(view.rules.leader[slot])}")
    if block == "sheet":
        return _sheet_words(view, kind, index)
    if block == "saloon":
        g, cost = view.saloon[index], view.saloon_costs[index]
        where = f"Saloon space S{index + 1}"
        if kind in ("hire", "hire_target"):
            return f"hire from {where} for {cost} $: {granuja_text(g, view.catalog, cost=cost)}"
        if kind == "another_target":
            return _use(view, g, where)
        if kind == "swap_second":
            return f"swap with {granuja_text(g, view.catalog, effect=False)} in {where}"
        return f"{granuja_text(g, view.catalog, cost=cost)} in {where}"
    if block == "sheriff":
        return ("use the Sheriff's Office instead of hiring (the rightmost Saloon Granuja is "
                "discarded, then you choose an option)")
    if block == "sheriff_option":
        rules = view.rules
        return (
            f"sell information: gain {rules.sell_information} $",
            f"pay bail: {rules.bail_cost} $ per jailed henchman you free (anyone's, up to "
            f"{rules.bail_max})",
            f"bribe the sheriff: pay {rules.bribe_cost} $ and steal any Safe on the board",
        )[index]
    if block == "discard_new":
        return f"discard {granuja_text(view.limbo, view.catalog, effect=False)} instead of placing it"
    if block == "swap":
        i, j = A.SWAP_PAIRS[index]
        a = granuja_text(_granuja_at(view, i), view.catalog, effect=False)
        b = granuja_text(_granuja_at(view, j), view.catalog, effect=False)
        return f"swap sheet positions {i + 1} and {j + 1} ({a} <-> {b})"
    if block == "board_safe":
        verb = {
            "peek_target": "peek at the Safe at",
            "steal_target": "steal the Safe at",
            "blind_mark_target": "mark without peeking the Safe at",
            "mark_source": "move one of your Marks from the Safe at",
        }.get(kind or "", "the Safe at")
        return f"{verb} {_safe_words(view, _board_sid(view, index))}"
    if block == "held_safe":
        sid = me.safes[index]
        verb = {"abandon": "abandon", "mark_source": "move one of your Marks from"}.get(
            kind or "", "choose")
        return f"{verb} your Safe {index + 1}: {_safe_words(view, sid)}"
    if block == "location":
        name, count = _location(view, index), view.unused_counts[index]
        if kind == "steal_unused_target":
            return f"steal the top unused Safe of {name} ({count} unused there)"
        if kind == "unused_location":
            return f"peek at the top unused Safe of {name} ({count} unused there)"
        return name
    if block == "mark_face":
        return _mark_words(view, context, index + 2)
    if block == "seat":
        return _seat_words(view, kind, context, (view.seat + index) % view.num_players)
    if block == "poker_target":
        rel, slot_index = divmod(index, 6)
        target = (view.seat + rel) % view.num_players
        card = f"{_whose(view, target)} card in slot {SLOT_NAMES[slot_index + 1]}"
        if kind == "place_freed":
            return f"put p{context.get('owner')}'s freed henchman on {card}"
        if kind == "peek_card_target":
            return f"look at {card}"
        return card
    if block == "discard_top":
        return _use(view, view.discard_top, "the top of the discard pile")
    if block == "half":
        half = ("Occupation", "Trait")[index]
        return f"swap the {half}s" if kind == "swap_half" else f"the {half}"
    if block == "face_up":
        return "play the 0 face up beside your sheet (Honesto: honest, cannot be challenged)"
    if block == "strategy":
        catalog = view.catalog
        if kind == "choose_strategy":
            card = catalog.leader_strategies(view.seat % len(catalog.leaders))[index]
            return f"choose the Strategy card {card.name} ({card.gloss}): {_effect_words(card.effect)}"
        card = catalog.strategies[me.strategy]
        return f"use your Strategy card {card.name}: {_effect_words(card.effect)}"
    return A.describe(action)


def _sheet_words(view: SeatView, kind: str | None, index: int) -> str:
    g = _granuja_at(view, index)
    where = f"your sheet position {index + 1}"
    if kind == "place":
        new = granuja_text(view.limbo, view.catalog, effect=False)
        if g is None:
            return f"place {new} in {where}"
        return f"place {new} in {where}, discarding {granuja_text(g, view.catalog, effect=False)}"
    if kind == "swap_first":
        return f"take a half from {granuja_text(g, view.catalog, effect=False)} ({where})"
    if kind == "swap_second":
        return f"swap with {granuja_text(g, view.catalog, effect=False)} ({where})"
    if kind in ("start_ability", "ability", "response", "trigger", "another_target"):
        return _use(view, g, where)
    return f"{granuja_text(g, view.catalog, effect=False)} ({where})"


def _mark_words(view: SeatView, context: Mapping[str, Any], face: int) -> str:
    sid = context.get("safe", -1)
    if sid not in view.safes:
        return f"mark with a {face}"
    value = view.safes[sid].value
    truth = "" if value is None else (" (matches its value)" if face == value else " (false face)")
    moved = ""
    source = context.get("source", -1)
    if source in view.safes:
        moved = f", moving your Mark from {_safe_words(view, source)}"
    return f"mark this Safe ({_safe_words(view, sid)}) with a {face}{truth}{moved}"


def _seat_words(view: SeatView, kind: str | None, context: Mapping[str, Any], target: int) -> str:
    who = _who(view, target)
    if kind == "first_player":
        return f"{who} {'play' if target == view.seat else 'plays'} first on the new day"
    if kind == "end_of_day_order":
        own = target == view.seat
        return f"{who} {'use your' if own else 'uses its'} end-of-day abilities next"
    if kind == "bail":
        return f"pay {view.rules.bail_cost} $ to free a jailed henchman of {who}"
    if kind == "steal_money_target":
        return (f"take up to {context.get('amount')} $ from p{target} "
                f"(who has {view.players[target].money} $)")
    if kind == "jail_rival_target":
        return f"put a free henchman of p{target} in jail"
    if kind == "free_target":
        return f"free a jailed henchman of {who}"
    return who


def legal_action_menu(source: Any, *, seat: int | None = None) -> list[MenuItem]:
    """The legal actions of the pending decision for the deciding seat: id, short name, meaning.
    Empty for a seat that is not deciding (and at the end of the game)."""
    if seat is None and not isinstance(source, SeatView) and _game_of(source).decision is None:
        return []  # the game is over: nobody decides
    return _menu(resolve_view(source, seat))


def _menu(view: SeatView) -> list[MenuItem]:
    if not view.acting:
        return []
    return [MenuItem(a, A.describe(a), _describe(view, a)) for a in view.legal_actions]


#: Each decision kind as a question in plain words ({card}: the current player's card).
PROMPTS: dict[str, str] = {
    "start_ability": "Start of your turn: use a start-of-turn Granuja or Strategy card, or go on "
                     "to the Plan.",
    "plan_card": "Plan: choose the poker card to play this turn (you choose its slot next).",
    "plan_slot": "Plan: choose the slot to play the card in, face down. You get that slot's "
                 "abilities whatever the card is; a card that does not match its slot is a bluff.",
    "challenge": "Challenge {card}? A challenge puts one of your henchmen on it; at the end of "
                 "the day a bluff costs its player 1 reputation and gives you 1, an honest card "
                 "sends your henchman to jail.",
    "ability": "Your card is in slot {slot}: use that slot's abilities (your leader's, Granujas "
               "with the slot's icon) one at a time, or end this step.",
    "response": "A Granuja beside the one you just used can answer it: use it, or not.",
    "trigger": "One of your Granujas can act now (its timing text applies): use it, or not.",
    "use_again": "This Granuja may be used a second time: use it again, or not.",
    "hire": "Hire a Granuja from the Saloon, or use the Sheriff's Office instead.",
    "on_hire": "You hired a Granuja that acts when hired: use its ability, or not (it goes to "
               "the discard pile either way).",
    "place": "Place the Granuja you hired on your sheet (when the sheet is full, replace one or "
             "discard the new one).",
    "rearrange": "Rearrange your sheet: swap two positions, or finish (the order matters only "
                 "for Granujas that answer their neighbour).",
    "sheriff_option": "Sheriff's Office: choose one option.",
    "bail": "Pay bail: choose whose jailed henchman to free next, or stop.",
    "peek_target": "Choose the Safe on the board to peek at (you then mark it).",
    "steal_target": "Choose the Safe on the board to steal.",
    "mark_source": "You have no Mark of that kind left: move one of yours from another Safe, or "
                   "place none.",
    "mark_face": "Choose the face of the Mark you put on the Safe.",
    "abandon": "You hold more Safes than today's limit: choose the one to abandon.",
    "unused_location": "Choose the location whose top unused Safe you peek at.",
    "first_player": "You have the highest reputation: choose who plays first on the new day.",
    "end_of_day_order": "End of the day: choose who uses end-of-day abilities next.",
    "another_target": "Choose the Granuja whose ability you use.",
    "hire_target": "Choose the Saloon Granuja to hire.",
    "swap_first": "Swap halves: choose which of your Granujas gives a half.",
    "swap_half": "Swap halves: swap the Occupations or the Traits?",
    "swap_second": "Swap halves: choose the Granuja to swap with.",
    "choose_strategy": "Choose your Strategy card (secret until everyone has chosen).",
    "steal_money_target": "Choose the rival to take money from.",
    "jail_rival_target": "Choose the rival whose free henchman goes to jail.",
    "preempt_jail": "One of your free henchmen is about to go to jail: first put one on {card} "
                    "as a challenge, or not.",
    "jail_or_reputation": "A rival's Presidiario/a: put one of your free henchmen in jail, or "
                          "lose 1 reputation.",
    "free_target": "Choose the player whose jailed henchman is freed.",
    "place_freed": "Choose the rival's face-down card to put the freed henchman on.",
    "destroy_target": "Choose your face-down card whose henchmen are destroyed.",
    "deck_top_card": "Choose the card of your hand to put on top of your poker deck.",
    "shuffle_deck": "You may shuffle your poker deck: shuffle it, or leave it.",
    "peek_card_target": "Choose a face-down card played today to look at (yours included).",
    "blind_mark_target": "Choose the Safe on the board to mark without peeking at it.",
    "steal_unused_target": "Choose the location whose top unused Safe you steal.",
}


def _a(card: str) -> str:
    """A poker card's name with its article: a 4, an A."""
    return f"an {card}" if card == "A" else f"a {card}"


def _kind_words(kind: str | None) -> str:
    """A decision kind as words for a line about another seat (``plan_card`` -> plan card)."""
    return (kind or "nothing").replace("_", " ")


def decision_text(view: SeatView) -> str:
    """What is being asked of ``view.seat`` now in plain words (or who is deciding, or the
    result)."""
    if view.game_over:
        return f"The game is over; p{view.winner} won."
    if not view.acting:
        return (f"p{view.deciding_player} is deciding ({_kind_words(view.decision)}); you have "
                "nothing to choose.")
    kind = view.decision or ""
    prompt = PROMPTS.get(kind) or DECISION_KINDS.get(kind, kind)
    card = _current_card(view) if view.current_slot else "the current player's card"
    return "Your decision: " + prompt.format(card=card, slot=SLOT_NAMES[view.current_slot])


def events_text(view: SeatView, since: int | None = None) -> str:
    """The public events of ``view.history[since:]`` narrated, one a line (None: the events
    since the start of the current day)."""
    history = view.history
    if since is None:
        starts = [i for i, e in enumerate(history) if e[0] == "day"]
        since = starts[-1] if starts else 0
    if not 0 <= since <= len(history):
        raise ValueError(f"since must be in 0..{len(history)} (events so far), got {since}")
    lines = history_lines(view)[since:]
    return "\n".join(line.strip("\n") for line in lines if line)


def text_observation(source: Any, seat: int | None = None, *, since: int | None = None,
                     menu: bool = True, events: str | None = None) -> str:
    """Everything ``seat`` may know, as text: the public events since ``since`` (an index into
    the view's public history; None: since the start of the current day), the table as the seat
    sees it (own hand and card values, the Safes it has seen) and the pending decision with the
    menu of legal actions when the seat is deciding (``menu=False`` leaves the menu out).
    ``events`` replaces the narrated events (e.g. a :class:`Narrator`'s lines)."""
    view = resolve_view(source, seat)
    parts = [f"You are p{view.seat} in a {view.num_players}-player game of 3000 Granujas."]
    if events is None:
        events = events_text(view, since)
    if events.strip("\n"):
        parts.append("Events:\n" + events.strip("\n"))
    parts.append(render_view(view))
    parts.append(decision_text(view))
    if menu and view.acting:
        parts.append("Legal actions (id, name, meaning):\n" + menu_text(_menu(view)))
    return "\n\n".join(parts)


def parse_action(text: object, legal: Sequence[int],
                 names: Mapping[int, str | Sequence[str]] | None = None) -> int:
    """The legal action id meant by a free-text answer (:func:`granujas_env.core.textio.
    parse_action` with granujas' words: ``yes``/``challenge``/``use`` confirm, ``no``/``pass``/
    ``skip`` pass; ``names`` default to the action names such as ``slot:5``)."""
    return _parse_action(text, legal, names, yes_no=(A.CONFIRM, A.PASS), describe=A.describe)


# ------------------------------------------------------------------------------------ the game
ANSWER_HELP = (
    "Answer with the id before ')' (e.g. 13), the action name (e.g. slot:5) or words that begin "
    "one line of the menu (e.g. 'slot 5', 'challenge'); 'yes'/'no' answer a yes-or-no question "
    "('no' and 'pass' pass). Saloon spaces are S1-S3, never plain numbers. '?' shows the menu "
    "again, 'table' the whole screen, 'quit' leaves the game."
)


def order_matters(view: SeatView) -> bool:
    """Whether the order of the seat's sheet can change anything: only Granujas with a
    response arrow care about their neighbours, and only with two Granujas or more."""
    sheet = [g for g in view.players[view.seat].sheet if g is not None]
    return len(sheet) >= 2 and any(g.arrows for g in sheet)


class GranujasText(TextGameBase):
    """3000 Granujas for the text tools (:class:`granujas_env.core.textio.TextGame`)."""

    def narrator(self, view: SeatView, *, every_action: bool = True) -> Narrator:
        return Narrator(view.catalog, view.rules, every_action=every_action)

    def automatic(self, view: SeatView, legal: Sequence[int], *, auto_pass: bool = False
                  ) -> tuple[int, str] | None:
        """One legal action; a challenge window with ``auto_pass``; rearranging a sheet whose
        order changes nothing (:func:`order_matters`)."""
        if auto_pass and view.decision == "challenge" and len(legal) > 1:
            return A.PASS, "challenge windows pass automatically (--auto-pass)"
        if view.decision == "rearrange" and A.PASS in legal and len(legal) > 1 \
                and not order_matters(view):
            alone = sum(g is not None for g in view.players[view.seat].sheet) < 2
            why = ("one Granuja on your sheet" if alone
                   else "no Granuja on your sheet answers a neighbour")
            return A.PASS, f"{why}, so the order changes nothing; played for you"
        return super().automatic(view, legal)

    def history(self, view: SeatView) -> Sequence[tuple]:
        return view.history

    def observation(self, view: SeatView, *, events: str | None = None, menu: bool = True) -> str:
        return text_observation(view, events=events, menu=menu)

    def headline(self, game: Game) -> str:
        return f"{super().headline(game)}, {game.config.game_length} game"

    def menu(self, view: SeatView) -> list[MenuItem]:
        return _menu(view)

    def opening(self, game: Game) -> list[str]:
        return [f"\n--- day 1 begins; p{game.first_player} plays first ---"]

    result = staticmethod(decision_text)
    final_table = staticmethod(render_text)

    def outcome_text(self, game: Game) -> str:
        scores = ", ".join(f"p{s}: {v}" for s, v in enumerate(game.scores or ()))
        return f"p{game.winner} wins; tech scores {scores}"


#: the text interface of 3000 Granujas (named by the granujas spec's tools["text"])
TEXT = GranujasText("granujas", "3000 Granujas", SeatView, rules_summary=RULES_SUMMARY,
                    answer_help=ANSWER_HELP, yes_no=(A.CONFIRM, A.PASS))
