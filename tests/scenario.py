"""Helpers to build exact rules scenarios for the engine tests.

The setters here (``set_hand``, ``put_on_sheet``, ``give_safe``...) only arrange the *starting
position* of a scenario, keeping every component conserved (7 poker cards per player, physical
Occupation/Trait cards taken out of their decks, Safes taken off the board or the unused pile).
Everything after that goes through ``Game.apply`` with legality asserted (``play``), so the rules
under test are never bypassed.
"""

from __future__ import annotations

from collections.abc import Iterable

from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.engine.state import Frame, Granuja

# --------------------------------------------------------------------------- building a game


def new_game(
    players: int = 2, length: str = "short", seed: int = 0, first: int | None = 0, catalog=None
) -> Game:
    """A fresh game whose first turn is played by seat ``first`` (None: keep the seeded choice),
    with the shipped card catalog or ``catalog``."""
    game = Game(GameConfig(players, length), seed=seed, catalog=catalog)
    if first is not None and first != game.first_player:
        game.first_player = first
        restart_turn(game)
    return game


def restart_turn(game: Game) -> None:
    """Re-run the start of the current turn (after changing the setup, e.g. adding an Anciana).

    Only allowed before the current player has played a card this turn: nothing of the turn has
    happened yet, so this is still the starting position.
    """
    assert game.decision is not None and game.decision.kind in ("plan_card", "start_ability")
    current = (game.first_player + game.turn) % game.num_players
    assert not any(c.turn == game.turn for c in game.players[current].played)
    game.stack = [Frame("game")]
    game.used = set()
    game._legal_cache = None
    game._advance()


def _cards_in_play(game: Game) -> list[Granuja]:
    out = [g for g in game.saloon if g is not None]
    out += [g for p in game.players for g in p.sheet if g is not None]
    out += list(game.discard)
    if game.limbo is not None:
        out.append(game.limbo)
    return out


def make_granuja(
    game: Game,
    occupation_id: str,
    trait_id: str,
    *,
    occ_colour: str | None = None,
    bullet_holes: int | None = None,
    occ_tech: int | None = None,
    trait_colour: str | None = None,
    cost: int | None = None,
    trait_tech: int | None = None,
    slots: Iterable[int] | None = None,
) -> Granuja:
    """Sleeve a new Granuja from physical cards of the catalog, with a fresh uid.

    The keyword arguments select the physical copy: Occupation colour / bullet holes / tech, Trait
    colour / cost / tech and ``slots``, the exact poker-slot icons of the Trait copy (copies of a
    Trait may show different icons, e.g. ``slots=[6]`` for the Arrebatadora used from slot 6).
    The cards are taken out of the Occupation / Trait decks when a matching one is there (so the
    component count stays right); otherwise a matching card not in play (left in the box) is used.
    """
    in_play = _cards_in_play(game)
    used_occ = {g.occ for g in in_play}
    used_trait = {g.trait for g in in_play}

    def pick(cards, deck: list[int], used: set[int], wanted: dict) -> int:
        candidates = [
            c.index
            for c in cards
            if c.index not in used
            and all(v is None or getattr(c, k) == v for k, v in wanted.items())
        ]
        assert candidates, f"no free card matches {wanted}"
        for index in reversed(deck):  # prefer the top-most matching card of the deck
            if index in candidates:
                deck.remove(index)
                return index
        return candidates[0]

    occ_cards = [c for c in game.catalog.occupation_cards if c.occupation.id == occupation_id]
    trait_cards = [c for c in game.catalog.trait_cards if c.trait.id == trait_id]
    assert occ_cards, f"unknown occupation {occupation_id!r}"
    assert trait_cards, f"unknown trait {trait_id!r}"
    occ = pick(
        occ_cards,
        game.occ_deck,
        used_occ,
        {"colour": occ_colour, "bullet_holes": bullet_holes, "tech": occ_tech},
    )
    trait = pick(
        trait_cards,
        game.trait_deck,
        used_trait,
        {
            "colour": trait_colour,
            "cost": cost,
            "tech": trait_tech,
            "slots": None if slots is None else frozenset(slots),
        },
    )
    g = Granuja(uid=game.next_uid, occ=occ, trait=trait)
    game.next_uid += 1
    return g


def put_on_sheet(game: Game, seat: int, pos: int, granuja: Granuja) -> Granuja:
    sheet = game.players[seat].sheet
    assert sheet[pos] is None, f"sheet position {pos} of seat {seat} is taken"
    sheet[pos] = granuja
    game._legal_cache = None
    return granuja


def set_saloon(game: Game, granujas: list[Granuja | None]) -> None:
    """Replace the Saloon (index 0 = leftmost); the old Saloon Granujas go back to the box."""
    assert len(granujas) == len(game.saloon)
    game.saloon[:] = list(granujas)
    game._legal_cache = None


def set_hand(game: Game, seat: int, hand: Iterable[int], deck: list[int] | None = None) -> None:
    """Set a player's hand; the rest of the 7 poker cards (not played) form the deck.

    ``deck`` gives the deck order, top of the deck last (as in ``Player.deck``); by default the
    remaining cards are in ascending order.
    """
    player = game.players[seat]
    played = [c.value for c in player.played]
    hand = sorted(hand)
    rest = sorted(set(game.rules.poker_cards) - set(hand) - set(played))
    if deck is None:
        deck = rest
    assert sorted(hand + list(deck) + played) == sorted(game.rules.poker_cards), (
        f"hand {hand} + deck {deck} + played {played} are not the 7 poker cards"
    )
    player.hand = hand
    player.deck = list(deck)
    game._legal_cache = None


def set_henchmen(game: Game, seat: int, free: int, jailed: int) -> None:
    player = game.players[seat]
    on_cards = sum(c.henchmen.count(seat) for p in game.players for c in p.played)
    assert free + jailed + on_cards + player.destroyed_henchmen == game.rules.henchmen
    player.free_henchmen = free
    player.jailed_henchmen = jailed
    game._legal_cache = None


# --------------------------------------------------------------------------- Safes


def board_action(loc: int, pos: int) -> int:
    return A.BOARD_SAFE + loc * A.BOARD_POSITIONS + pos


def board_action_of(game: Game, sid: int) -> int:
    safe = game.safes[sid]
    assert safe.board_pos >= 0, f"Safe {sid} is not on the board"
    return board_action(safe.location, safe.board_pos)


def board_safe(game: Game, loc: int, value: int | None = None, exclude: Iterable[int] = ()) -> int:
    """Id of a board Safe of location ``loc`` (of that value, when given)."""
    exclude = set(exclude)
    for sid in game.board[loc]:
        if sid is None or sid in exclude:
            continue
        if value is None or game.safes[sid].value == value:
            return sid
    raise AssertionError(f"no board Safe of value {value} in location {loc}")


def give_safe(game: Game, seat: int, sid: int) -> None:
    """Setup: seat holds Safe ``sid``, taken from the board or the unused pile."""
    safe = game.safes[sid]
    assert safe.holder < 0
    if safe.board_pos >= 0:
        game.board[safe.location][safe.board_pos] = None
        safe.board_pos = -1
    else:
        game.unused[safe.location].remove(sid)
    safe.holder = seat
    game.players[seat].safes.append(sid)
    game.players[seat].known_safes.add(sid)
    game._legal_cache = None


def place_mark(game: Game, seat: int, sid: int, face: int) -> None:
    """Setup: put one of seat's Marks (from its supply) on Safe ``sid`` showing ``face``."""
    kind = (face - 2) // 2
    player = game.players[seat]
    assert player.marks[kind] > 0, f"seat {seat} has no {2 + 2 * kind}/{3 + 2 * kind} Mark left"
    player.marks[kind] -= 1
    game.safes[sid].marks.append((seat, face))
    player.known_safes.add(sid)
    game._legal_cache = None


# --------------------------------------------------------------------------- playing


def legal(game: Game) -> list[int]:
    return list(game.legal_actions())


def play(game: Game, *actions: int) -> None:
    """Apply actions one by one, asserting that each is legal when applied."""
    for action in actions:
        assert game.decision is not None, f"game over, cannot apply {A.describe(action)}"
        ids = game.legal_actions()
        assert action in ids, (
            f"{A.describe(action)} is not legal for {game.decision.kind!r} of player "
            f"{game.decision.player}; legal: {[A.describe(a) for a in ids]}"
        )
        game.apply(action)


def expect(game: Game, kind: str, player: int | None = None, legal_ids: list[int] | None = None):
    """Assert the pending decision (kind, player and, when given, the exact legal ids)."""
    frame = game.decision
    assert frame is not None, f"expected {kind!r}, the game is over"
    assert frame.kind == kind, f"expected decision {kind!r}, got {frame.kind!r} ({frame})"
    if player is not None:
        assert frame.player == player, f"{kind!r} asked of {frame.player}, expected {player}"
    if legal_ids is not None:
        got = game.legal_actions()
        assert got == sorted(legal_ids), (
            f"{kind!r}: legal {[A.describe(a) for a in got]}, "
            f"expected {[A.describe(a) for a in sorted(legal_ids)]}"
        )
    return frame


def default_action(game: Game, challengers: Iterable[int] = ()) -> int:
    """A plain, deterministic choice: pass where possible, Sheriff + sell information to end a turn,
    lowest card in the lowest free slot; challenge only for seats in ``challengers``."""
    frame = game.decision
    assert frame is not None
    ids = game.legal_actions()
    kind = frame.kind
    if kind == "challenge":
        return A.CONFIRM if frame.player in set(challengers) else A.PASS
    if kind == "hire":
        return A.SHERIFF
    if kind == "sheriff_option":
        return A.SELL_INFORMATION
    if kind == "first_player":
        return A.SEAT  # keep the start with the chooser
    if kind == "abandon":
        return ids[-1]  # the Safe just taken
    if A.PASS in ids:
        return A.PASS
    return ids[0]


def advance_to(
    game: Game,
    kind: str,
    player: int | None = None,
    challengers: Iterable[int] = (),
    max_steps: int = 2000,
) -> None:
    """Play default choices until a ``kind`` decision (of ``player``, when given) is pending."""
    for _ in range(max_steps):
        frame = game.decision
        assert frame is not None, f"the game ended before a {kind!r} decision"
        if frame.kind == kind and (player is None or frame.player == player):
            return
        play(game, default_action(game, challengers))
    raise AssertionError(f"no {kind!r} decision within {max_steps} steps")


def advance_to_day(game: Game, day: int) -> None:
    """Play default choices until the first plan of day ``day``."""
    for _ in range(5000):
        frame = game.decision
        assert frame is not None, f"the game ended before day {day}"
        if game.day == day and frame.kind == "plan_card":
            return
        play(game, default_action(game))
    raise AssertionError(f"day {day} not reached")


def finish_game(game: Game, challengers: Iterable[int] = ()) -> None:
    for _ in range(5000):
        if game.decision is None:
            return
        play(game, default_action(game, challengers))
    raise AssertionError("the game did not end")


def play_card(game: Game, card: int, slot: int) -> None:
    """Step 1 of the current player's turn: play ``card`` (0..6) into ``slot`` (1..6)."""
    advance_to(game, "plan_card")
    play(game, A.CARD + card, A.SLOT + slot)


def finish_turn(game: Game, challengers: Iterable[int] = ()) -> None:
    """Default choices until the current turn is over (``challengers`` place a henchman)."""
    start = (game.day, game.turn)
    for _ in range(500):
        if game.decision is None or (game.day, game.turn) != start:
            return
        play(game, default_action(game, challengers))
    raise AssertionError("the turn did not end")


def play_turn(game: Game, card: int, slot: int, challengers: Iterable[int] = ()) -> None:
    """A whole plain turn: play the card, let ``challengers`` challenge it at the first
    opportunity, pass the abilities and sell information at the Sheriff's Office."""
    play_card(game, card, slot)
    finish_turn(game, challengers)


def decisions_until(game: Game, stop, choose=default_action) -> list[Frame]:
    """Apply ``choose(game)`` until ``stop(game)``; return the decision frames met (copies)."""
    seen = []
    for _ in range(2000):
        if game.decision is None or stop(game):
            return seen
        frame = game.decision
        seen.append(Frame(frame.kind, frame.player, **dict(frame.data)))
        play(game, choose(game))
    raise AssertionError("stop condition never met")


def free_slot(game: Game, seat: int, card: int) -> int:
    """The card's own slot when free (no bluff), else the lowest free slot."""
    taken = {c.slot for c in game.players[seat].played}
    if 1 <= card <= 6 and card not in taken:
        return card
    return min(s for s in game.rules.slots if s not in taken)


def play_plain_turns(game: Game, count: int, challengers: Iterable[int] = ()) -> None:
    """``count`` plain turns: the current player plays its highest card, honestly if it can."""
    for _ in range(count):
        advance_to(game, "plan_card", challengers=challengers)
        seat = game.current
        card = game.players[seat].hand[-1]
        play_turn(game, card, free_slot(game, seat, card), challengers)


def set_money(game: Game, seat: int, amount: int) -> None:
    game.players[seat].money = amount
    game._legal_cache = None


def set_reputation(game: Game, seat: int, reputation: int) -> None:
    assert game.rules.reputation_min <= reputation <= game.rules.reputation_max
    game.players[seat].reputation = reputation
    game._legal_cache = None
