"""Effect verbs on henchmen, poker cards, money and Safes beyond the base ones in game.py.

Each handler has the signature ``(game, frame, step)`` of the effect interpreter and is registered
with :func:`~granujas_env.engine.game.register_verb`; decisions it needs are registered with
:func:`~granujas_env.engine.game.register_decision`, engine continuations with
:func:`~granujas_env.engine.game.register_continuation`.

Conventions shared by every handler here (docs/catalog_reconstruction.md §0.4-0.5):

* ``frame`` is the effect frame being executed; its player is the actor. A handler that needs a
  choice pushes a decision frame (its context in ``frame.data`` of the decision) and returns; the
  effect resumes after the decision (and whatever it pushed in turn) has been answered.
* Decisions are pushed only when they have at least one legal id, so no decision is ever empty.
* "End of day" (a ``day_end`` frame on the stack) is no player's turn: abilities then cannot touch
  played poker cards or henchmen on cards (rule 0.4-10 / E5): no peek at a poker card, no placing,
  no destroying, no Ayudante-style pre-emption.
* A card played face up (slot 0: Honesto's 0) is not a face-down card: it cannot be peeked at,
  carry henchmen or be pre-empted on.
* Money a Granuja's ability gains or steals for its user emits ``money_from_granuja`` (the
  Codicioso timing); money from a leader ability, a Strategy card or the Sheriff's Office does not
  (R29).
* Every public happening appends a ``game.history`` event (see ``HISTORY_EVENTS``); private
  knowledge goes to the knowing player's state (``known_safes``, ``peeked``).
"""

from __future__ import annotations

from . import actions as A
from .data import Step
from .game import Game, register_continuation, register_decision, register_verb
from .state import Frame, PlayedCard

# history event kind -> its tuple layout (every one is public information)
HISTORY_EVENTS: dict[str, str] = {
    "steal_money": "(kind, day, thief, victim, amount taken)",
    "jail": "(kind, day, owner, cause seat): one henchman of owner goes from its reserve to jail",
    "free": "(kind, day, actor, owner): one henchman of owner goes from jail to its reserve",
    "place_henchman": "(kind, day, actor, owner, card seat, slot): owner's henchman put on a card",
    "destroy": "(kind, day, actor, slot, owners): henchmen on actor's card destroyed",
    "draw": "(kind, day, seat, count): poker cards drawn from the deck into the hand",
    "card_on_deck": "(kind, day, seat): a hand card put face down on top of the poker deck",
    "shuffle": "(kind, day, seat): the poker deck shuffled",
    "deck_top": "(kind, day, seat, value): the top poker card revealed to everyone (Apostador/a)",
    "peek_card": "(kind, day, actor, card seat, slot): actor looked at that face-down card",
    "jail_or_reputation": "(kind, day, rival, 'jail' | 'reputation' | 'none'): a Presidiario/a answer",
    # a pre-emptive placement is logged as the ordinary ("challenge", day, seat, current, slot)
    # and an unused-Safe theft as the ordinary ("steal", day, seat, safe id)
}


# ------------------------------------------------------------------------------------ helpers
def at_end_of_day(game: Game) -> bool:
    """Whether the end of day is being resolved (no player's turn)."""
    return any(f.kind == "day_end" for f in game.stack)


def _by_granuja(game: Game, frame: Frame) -> bool:
    """Whether the effect frame ``frame`` is a Granuja's ability: its ``granuja`` uid (>= 0), or,
    for effect frames without that key, whether a ``use`` frame pushed it (just below it)."""
    if "granuja" in frame.data:
        return frame.data["granuja"] >= 0
    for i in range(len(game.stack) - 1, 0, -1):
        if game.stack[i] is frame:
            return game.stack[i - 1].kind == "use"
    return False


def _face_down(card: PlayedCard) -> bool:
    """A card played in a slot; slot 0 is a 0 played face up beside the sheet (Honesto)."""
    return card.slot > 0


def _seat(game: Game, actor: int, action: int) -> int:
    """Absolute seat of a SEAT action id (relative to ``actor``)."""
    return (actor + action - A.SEAT) % game.num_players


def _seat_action(game: Game, actor: int, seat: int) -> int:
    return A.SEAT + (seat - actor) % game.num_players


def _poker_action(game: Game, actor: int, seat: int, slot: int) -> int:
    return A.POKER_TARGET + ((seat - actor) % game.num_players) * 6 + slot - 1


def _poker_card(game: Game, actor: int, action: int) -> tuple[int, PlayedCard]:
    rel, slot_index = divmod(action - A.POKER_TARGET, 6)
    seat = (actor + rel) % game.num_players
    card = game.players[seat].card_in_slot(slot_index + 1)
    assert card is not None
    return seat, card


def _gain(game: Game, seat: int, amount: int, granuja: bool) -> None:
    """``amount`` $ for ``seat`` from the bank; a Granuja's money raises ``money_from_granuja``."""
    if amount <= 0:
        return
    game.players[seat].money += amount
    if granuja:
        game._emit(seat, "money_from_granuja")


# ------------------------------------------------------------------------------------ money
def verb_gain_money_per_card_played(game: Game, frame: Frame, step: Step) -> None:
    """``amount`` $ per poker card the actor played this day, this turn's card and a face-up 0
    included (R46, R40); at the end of day the day's cards still count after they went under the
    deck (R47): ``played_log[-1]`` keeps the day's cards until the next day begins."""
    p = frame.player
    played = len(game.played_log[-1][p])
    _gain(game, p, step.amount * played, _by_granuja(game, frame))


def verb_steal_money(game: Game, frame: Frame, step: Step) -> None:
    """Choose a rival; take min(amount, its money)."""
    game._push(
        "steal_money_target", frame.player, amount=step.amount, granuja=_by_granuja(game, frame)
    )


def _legal_steal_money_target(game: Game, frame: Frame) -> list[int]:
    return [A.SEAT + k for k in range(1, game.num_players)]


def _answer_steal_money_target(game: Game, frame: Frame, action: int) -> None:
    p = frame.player
    victim = game.players[_seat(game, p, action)]
    taken = min(frame.data["amount"], victim.money)
    victim.money -= taken
    game.history.append(("steal_money", game.day, p, victim.seat, taken))
    _gain(game, p, taken, frame.data["granuja"])


# ------------------------------------------------------------------------------------ henchmen
def verb_jail_own_henchman(game: Game, frame: Frame, step: Step) -> None:
    """Cost: ``amount`` of the actor's free (reserve) henchmen go to jail. Not payable in full:
    the rest of the ability does not happen (as ``spend_money``)."""
    player = game.players[frame.player]
    if player.free_henchmen < step.amount:
        frame.data["pc"] = len(frame.data["steps"])
        return
    for _ in range(step.amount):
        player.free_henchmen -= 1
        player.jailed_henchmen += 1
        game.history.append(("jail", game.day, player.seat, player.seat))


def _may_preempt(game: Game, victim: int) -> bool:
    """Ayudante del sheriff's ruling (R23, X03, X09): before one of its henchmen is jailed, the
    owner may put a free henchman on the current player's face-down card of this turn (normal
    placement limits: not its own card, one henchman per player per card; not at end of day)."""
    if at_end_of_day(game) or victim == game.current:
        return False
    card = game.current_card()
    return (
        card is not None
        and _face_down(card)
        and game.players[victim].free_henchmen > 0
        and victim not in card.henchmen
    )


def _preempt(game: Game, victim: int) -> None:
    card = game.current_card()
    assert card is not None
    game.players[victim].free_henchmen -= 1
    card.henchmen.append(victim)
    game.history.append(("challenge", game.day, victim, game.current, card.slot))


def _jail_one(game: Game, owner: int, cause: int) -> bool:
    player = game.players[owner]
    if player.free_henchmen <= 0:
        return False
    player.free_henchmen -= 1
    player.jailed_henchmen += 1
    game.history.append(("jail", game.day, owner, cause))
    return True


def verb_jail_rival_henchman(game: Game, frame: Frame, step: Step) -> None:
    """Ayudante del sheriff / Cazarrecompensas: choose a rival with a free henchman; it may first
    pre-empt (challenge the current card); then one of its remaining free henchmen goes to jail;
    if one did, the actor gains ``amount`` $ («Si lo haces, obtén 3 $»). No rival with a free
    henchman: nothing happens."""
    p = frame.player
    if any(game.players[s].free_henchmen for s in range(game.num_players) if s != p):
        game._push("jail_rival_target", p, amount=step.amount, granuja=_by_granuja(game, frame))


def _legal_jail_rival_target(game: Game, frame: Frame) -> list[int]:
    p = frame.player
    return [
        _seat_action(game, p, s)
        for s in range(game.num_players)
        if s != p and game.players[s].free_henchmen > 0
    ]


def _answer_jail_rival_target(game: Game, frame: Frame, action: int) -> None:
    p = frame.player
    victim = _seat(game, p, action)
    data = {
        "actor": p,
        "victim": victim,
        "amount": frame.data["amount"],
        "granuja": frame.data["granuja"],
    }
    game._push("jail_rival_resolve", p, **data)
    if _may_preempt(game, victim):
        game._push("preempt_jail", victim, **data)


def _legal_preempt(game: Game, frame: Frame) -> list[int]:
    return [A.PASS, A.CONFIRM]


def _answer_preempt(game: Game, frame: Frame, action: int) -> None:
    if action == A.CONFIRM:
        _preempt(game, frame.player)


def _run_jail_rival_resolve(game: Game, frame: Frame) -> None:
    game.stack.pop()
    data = frame.data
    if _jail_one(game, data["victim"], data["actor"]):
        _gain(game, data["actor"], data["amount"], data["granuja"])


def verb_rivals_jail_or_lose_reputation(game: Game, frame: Frame, step: Step) -> None:
    """Presidiario/a: each rival, clockwise from the actor (R72), chooses: jail one of its free
    henchmen (with the Ayudante pre-emption first, X09) or lose 1 reputation. A rival that can do
    only one of them does it without a decision (R73: no free henchman -> loses reputation; at the
    bottom of the track -> jails); one that can do neither does nothing."""
    p = frame.player
    queue = [(p + k) % game.num_players for k in range(1, game.num_players)]
    game._push("rivals_choose", p, queue=queue)


def _can_lose_reputation(game: Game, seat: int) -> bool:
    return game.players[seat].reputation > game.rules.reputation_min


def _run_rivals_choose(game: Game, frame: Frame) -> None:
    queue = frame.data["queue"]
    actor = frame.player
    while queue:
        rival = queue.pop(0)
        can_jail = game.players[rival].free_henchmen > 0
        can_lose = _can_lose_reputation(game, rival)
        if can_jail and can_lose:
            game._push("jail_or_reputation", rival, actor=actor)
            return
        if can_jail:
            _choose_jail(game, rival, actor)
            return
        if can_lose:
            game.history.append(("jail_or_reputation", game.day, rival, "reputation"))
            game._change_reputation(rival, -1)
        else:
            game.history.append(("jail_or_reputation", game.day, rival, "none"))
    game.stack.pop()


def _choose_jail(game: Game, rival: int, actor: int) -> None:
    game.history.append(("jail_or_reputation", game.day, rival, "jail"))
    game._push("own_jail_resolve", rival, actor=actor)
    if _may_preempt(game, rival):
        game._push("preempt_jail", rival, actor=actor, victim=rival)


def _legal_jail_or_reputation(game: Game, frame: Frame) -> list[int]:
    return [A.PASS, A.CONFIRM]


def _answer_jail_or_reputation(game: Game, frame: Frame, action: int) -> None:
    rival = frame.player
    if action == A.CONFIRM:
        _choose_jail(game, rival, frame.data["actor"])
    else:
        game.history.append(("jail_or_reputation", game.day, rival, "reputation"))
        game._change_reputation(rival, -1)


def _run_own_jail_resolve(game: Game, frame: Frame) -> None:
    """The rival chose to jail a henchman. If its pre-emption used its last free one, it cannot
    jail one any more, so it loses 1 reputation instead (R73's fallback)."""
    game.stack.pop()
    rival = frame.player
    if not _jail_one(game, rival, frame.data["actor"]):
        game._change_reputation(rival, -1)


def verb_free_and_place_henchman(game: Game, frame: Frame, step: Step) -> None:
    """Lavacerebros: free a jailed henchman of any player (to its owner's reserve), then put that
    henchman on a face-down poker card played this day — any turn (R49) — by a rival of the actor
    that is not the henchman's owner (R51) and carries none of the owner's henchmen (R52).
    Nothing freed -> nothing placed (R50). No legal card, or end of day -> it stays free."""
    p = frame.player
    if any(pl.jailed_henchmen for pl in game.players):
        game._push("free_target", p)


def _legal_free_target(game: Game, frame: Frame) -> list[int]:
    p = frame.player
    return [
        _seat_action(game, p, s) for s in range(game.num_players) if game.players[s].jailed_henchmen
    ]


def _placement_targets(game: Game, actor: int, owner: int) -> list[int]:
    if at_end_of_day(game):
        return []
    return sorted(
        _poker_action(game, actor, s, card.slot)
        for s in range(game.num_players)
        if s not in (actor, owner)
        for card in game.players[s].played
        if _face_down(card) and owner not in card.henchmen
    )


def _answer_free_target(game: Game, frame: Frame, action: int) -> None:
    p = frame.player
    owner = _seat(game, p, action)
    player = game.players[owner]
    player.jailed_henchmen -= 1
    player.free_henchmen += 1
    game.history.append(("free", game.day, p, owner))
    if _placement_targets(game, p, owner):
        game._push("place_freed", p, owner=owner)


def _legal_place_freed(game: Game, frame: Frame) -> list[int]:
    return _placement_targets(game, frame.player, frame.data["owner"])


def _answer_place_freed(game: Game, frame: Frame, action: int) -> None:
    p, owner = frame.player, frame.data["owner"]
    seat, card = _poker_card(game, p, action)
    game.players[owner].free_henchmen -= 1
    card.henchmen.append(owner)
    game.history.append(("place_henchman", game.day, p, owner, seat, card.slot))


def verb_destroy_henchmen(game: Game, frame: Frame, step: Step) -> None:
    """Pirómano/a: choose one of the actor's face-down cards of this day carrying henchmen; every
    henchman on it goes back to the box for the rest of the game (R70). Not at end of day."""
    if _destroy_targets(game, frame.player):
        game._push("destroy_target", frame.player)


def _destroy_targets(game: Game, p: int) -> list[int]:
    if at_end_of_day(game):
        return []
    return sorted(
        A.SLOT + card.slot for card in game.players[p].played if card.henchmen and _face_down(card)
    )


def _legal_destroy_target(game: Game, frame: Frame) -> list[int]:
    return _destroy_targets(game, frame.player)


def _answer_destroy_target(game: Game, frame: Frame, action: int) -> None:
    p = frame.player
    card = game.players[p].card_in_slot(action - A.SLOT)
    assert card is not None
    owners = tuple(card.henchmen)
    for owner in owners:
        game.players[owner].destroyed_henchmen += 1
    card.henchmen = []
    game.history.append(("destroy", game.day, p, card.slot, owners))


# ------------------------------------------------------------------------------------ poker deck
def verb_draw_poker(game: Game, frame: Frame, step: Step) -> None:
    """Draw up to ``amount`` cards from the top of the deck (fewer if it runs out, R21); there is
    no hand limit (R20)."""
    player = game.players[frame.player]
    count = min(step.amount, len(player.deck))
    for _ in range(count):
        player.hand.append(player.deck.pop())
    player.hand.sort()
    if count:
        game.history.append(("draw", game.day, player.seat, count))


def verb_put_hand_card_on_deck(game: Game, frame: Frame, step: Step) -> None:
    """Choose a card from hand and put it on top of the poker deck (nothing with an empty hand)."""
    if game.players[frame.player].hand:
        game._push("deck_top_card", frame.player)


def _legal_deck_top_card(game: Game, frame: Frame) -> list[int]:
    return sorted({A.CARD + v for v in game.players[frame.player].hand})


def _answer_deck_top_card(game: Game, frame: Frame, action: int) -> None:
    player = game.players[frame.player]
    player.hand.remove(action - A.CARD)
    player.deck.append(action - A.CARD)
    game.history.append(("card_on_deck", game.day, player.seat))


def verb_may_shuffle_poker_deck(game: Game, frame: Frame, step: Step) -> None:
    """«Puedes barajar tu mazo»: asked only after the earlier steps resolved (R01), and only when
    shuffling could change something (two or more cards in the deck)."""
    if len(game.players[frame.player].deck) >= 2:
        game._push("shuffle_deck", frame.player)


def _legal_shuffle_deck(game: Game, frame: Frame) -> list[int]:
    return [A.PASS, A.CONFIRM]


def _answer_shuffle_deck(game: Game, frame: Frame, action: int) -> None:
    if action == A.CONFIRM:
        _shuffle_deck(game, frame.player)


def _shuffle_deck(game: Game, seat: int) -> None:
    game.rng.shuffle(game.players[seat].deck)
    game.history.append(("shuffle", game.day, seat))


def verb_gamble_deck_top(game: Game, frame: Frame, step: Step) -> None:
    """Apostador/a: reveal the top card of the poker deck to everyone; a 5 or 6 gives ``amount``
    $, anything else 1 $; the card goes back into the deck, which is shuffled in every case (R09).
    Empty deck: nothing is revealed and nothing gained."""
    player = game.players[frame.player]
    if not player.deck:
        return
    value = player.deck[-1]  # taken, shown, and added back: it never leaves the deck
    game.history.append(("deck_top", game.day, player.seat, value))
    _gain(game, player.seat, step.amount if value in (5, 6) else 1, _by_granuja(game, frame))
    _shuffle_deck(game, player.seat)


def verb_peek_poker_card(game: Game, frame: Frame, step: Step) -> None:
    """Periodista: look at one face-down poker card played this day by any player, own cards
    included (R68). Not at end of day (R69: the rest of the ability still resolves)."""
    if _peek_targets(game, frame.player):
        game._push("peek_card_target", frame.player)


def _peek_targets(game: Game, p: int) -> list[int]:
    if at_end_of_day(game):
        return []
    return sorted(
        _poker_action(game, p, s, card.slot)
        for s in range(game.num_players)
        for card in game.players[s].played
        if _face_down(card)
    )


def _legal_peek_card_target(game: Game, frame: Frame) -> list[int]:
    return _peek_targets(game, frame.player)


def _answer_peek_card_target(game: Game, frame: Frame, action: int) -> None:
    p = frame.player
    seat, card = _poker_card(game, p, action)
    game.players[p].peeked.add((game.day - 1, seat, card.slot))  # played_log's day index
    game.history.append(("peek_card", game.day, p, seat, card.slot))


# ------------------------------------------------------------------------------------ Safes
def verb_blind_mark(game: Game, frame: Frame, step: Step) -> None:
    """Cerebro: ``amount`` times, choose a board Safe and mark it without peeking first (R24); the
    same Safe may be chosen again (R26). Each mark uses the engine's mark flow (face choice, or
    moving one of the player's Marks when the supply is empty) and makes the value known after."""
    if step.amount > 0:
        game._push("blind_mark_next", frame.player, left=step.amount)


def _can_mark(game: Game, p: int) -> bool:
    """A Mark in supply, or one of p's Marks on a Safe it may move (board or own sheet)."""
    if any(game.players[p].marks):
        return True
    on_board = any(
        sid is not None and any(o == p for o, _ in game.safes[sid].marks)
        for row in game.board
        for sid in row
    )
    held = any(any(o == p for o, _ in game.safes[sid].marks) for sid in game.players[p].safes)
    return on_board or held


def _run_blind_mark_next(game: Game, frame: Frame) -> None:
    p = frame.player
    if frame.data["left"] <= 0 or not game._board_safes() or not _can_mark(game, p):
        game.stack.pop()
        return
    frame.data["left"] -= 1
    game._push("blind_mark_target", p)


def _legal_blind_mark_target(game: Game, frame: Frame) -> list[int]:
    return game._board_safes()


def _answer_blind_mark_target(game: Game, frame: Frame, action: int) -> None:
    p = frame.player
    sid = game._safe_at(action)
    if any(game.players[p].marks):
        game._push("mark_face", p, safe=sid, source=-1)
    elif game._mark_sources(p, sid):
        game._push("mark_source", p, safe=sid)


def verb_steal_safe(game: Game, frame: Frame, step: Step) -> None:
    """Steal a Safe: from the board (``scope = "board"``: choose one, the ``steal_target`` decision
    the Sheriff's bribe also uses), or unseen from an unused pile (``scope = "unused"``,
    Inventor/a): choose a location whose unused pile holds a Safe (R41, R42) and take the top one
    of that pile without peeking first (R43); its value is known once held. Over the Safe limit,
    the usual abandon decision follows: the abandoned Safe goes to its location, or to the unused
    pile when the location is full (R44, R45)."""
    if step.option == "unused":
        if any(game.unused):
            game._push("steal_unused_target", frame.player)
    elif game._board_safes():
        game._push("steal_target", frame.player)


def _answer_steal_unused_target(game: Game, frame: Frame, action: int) -> None:
    game.take_safe(frame.player, game.unused[action - A.LOCATION][-1])


# ------------------------------------------------------------------------------------ registration
for _verb, _handler in (
    ("gain_money_per_card_played", verb_gain_money_per_card_played),
    ("steal_money", verb_steal_money),
    ("jail_own_henchman", verb_jail_own_henchman),
    ("jail_rival_henchman", verb_jail_rival_henchman),
    ("rivals_jail_or_lose_reputation", verb_rivals_jail_or_lose_reputation),
    ("free_and_place_henchman", verb_free_and_place_henchman),
    ("destroy_henchmen", verb_destroy_henchmen),
    ("draw_poker", verb_draw_poker),
    ("put_hand_card_on_deck", verb_put_hand_card_on_deck),
    ("may_shuffle_poker_deck", verb_may_shuffle_poker_deck),
    ("gamble_deck_top", verb_gamble_deck_top),
    ("peek_poker_card", verb_peek_poker_card),
    ("blind_mark", verb_blind_mark),
    ("steal_safe", verb_steal_safe),
):
    register_verb(_verb, _handler)

for _kind, _description, _legal, _answer in (
    (
        "steal_money_target",
        "steal money: choose the rival to take the money from (seat)",
        _legal_steal_money_target,
        _answer_steal_money_target,
    ),
    (
        "jail_rival_target",
        "jail a rival's henchman: choose a rival that has a free henchman (seat)",
        _legal_jail_rival_target,
        _answer_jail_rival_target,
    ),
    (
        "preempt_jail",
        "one of your free henchmen is about to be jailed: first put one on the current player's "
        "card (confirm) or not (pass)",
        _legal_preempt,
        _answer_preempt,
    ),
    (
        "jail_or_reputation",
        "a rival's Presidiario/a: put one of your free henchmen in jail (confirm) or lose 1 "
        "reputation (pass)",
        _legal_jail_or_reputation,
        _answer_jail_or_reputation,
    ),
    (
        "free_target",
        "free a henchman: choose the player whose jailed henchman is freed (seat)",
        _legal_free_target,
        _answer_free_target,
    ),
    (
        "place_freed",
        "put the freed henchman on a rival's face-down poker card of this day (poker_target)",
        _legal_place_freed,
        _answer_place_freed,
    ),
    (
        "destroy_target",
        "destroy every henchman on one of your face-down poker cards: choose its slot (slot)",
        _legal_destroy_target,
        _answer_destroy_target,
    ),
    (
        "deck_top_card",
        "choose the hand card to put on top of your poker deck (card)",
        _legal_deck_top_card,
        _answer_deck_top_card,
    ),
    (
        "shuffle_deck",
        "you may shuffle your poker deck: shuffle (confirm) or leave it (pass)",
        _legal_shuffle_deck,
        _answer_shuffle_deck,
    ),
    (
        "peek_card_target",
        "choose a face-down poker card of this day to look at, your own included (poker_target)",
        _legal_peek_card_target,
        _answer_peek_card_target,
    ),
    (
        "blind_mark_target",
        "choose the board Safe to mark without peeking at it first (board_safe)",
        _legal_blind_mark_target,
        _answer_blind_mark_target,
    ),
    (
        "steal_unused_target",
        "steal an unused Safe: choose the location whose unused Safe you take (location)",
        Game._legal_unused_location,  # the same choice as peeking at an unused Safe
        _answer_steal_unused_target,
    ),
):
    register_decision(_kind, _description, _legal, _answer)

for _kind, _run in (
    ("jail_rival_resolve", _run_jail_rival_resolve),
    ("rivals_choose", _run_rivals_choose),
    ("own_jail_resolve", _run_own_jail_resolve),
    ("blind_mark_next", _run_blind_mark_next),
):
    register_continuation(_kind, _run)
