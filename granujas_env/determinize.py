"""Determinization: a game consistent with what one seat knows, its hidden information resampled.

:func:`sample_hidden` is what an information-set search (IS-MCTS, PIMC) needs: a clone of the game
in which everything ``seat`` may not know is redrawn uniformly among the states consistent with
what it knows, and everything it knows is kept, so the seat's observation, legal actions and
:func:`~granujas_env.view.seat_view` are unchanged. "What a seat knows" is the definition the leak
tests use (``tests/test_no_leak.py``, ``tests/hidden.py``; DESIGN.md "Observations"):

* **Rivals' poker cards.** Each player owns one poker card of each value (``rules.poker_cards``).
  A rival's values the seat does not know (all but its face-up 0 and the face-down cards the seat
  peeked at) are dealt anew to the rival's hand, its unknown face-down cards and its deck. A
  pending ``plan_slot`` of that rival gets a card of the new hand. Values of earlier days' cards
  never revealed or peeked at are redrawn among the values the seat does not know of that day.
* **Deck orders**, the seat's own deck included (no observation tells its order).
* **Safe values** the seat has not seen (``known_safes``): per location, the values of the
  location not among the ones it has seen, over its board, unused and held Safes.
* **Granuja decks**: per colour layer (the deck table's order, top colour first, is public), the
  cards of that colour the seat has not seen anywhere (Saloon, sheets, discard pile, limbo).
* **Rivals' Strategy choice** (optional rule) before the reveal: one of that leader's two cards.
* **Future chance**: the game's ``random.Random`` is reseeded from ``rng``, and the sample's
  ``seed`` is ``None`` (the seed would give the true deal back).

Counts, slots, Marks, henchmen, money, sheets, the public history and the decision stack stay as
they are. The sample depends only on what the seat knows and on ``rng``: sampling a game and a copy
in which only hidden information differs, with equal ``rng`` states, gives identical samples.

Not modelled (as in the leak tests' knowledge): what a perfect-recall player could still deduce
from the order of events, e.g. that a card revealed yesterday went under its owner's deck, or the
card a player put on top of its own deck.
"""

from __future__ import annotations

import random
from collections import Counter

from .engine.data import Catalog, Rules
from .engine.game import Game

__all__ = ["resample_hidden", "sample_hidden"]


def sample_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """A clone of ``game`` with everything ``seat`` may not know resampled (module docstring);
    ``game`` is left unchanged."""
    sample = game.clone()
    resample_hidden(sample, seat, rng)
    return sample


def resample_hidden(game: Game, seat: int, rng: random.Random) -> None:
    """Resample in place everything ``seat`` may not know (for search code that has just cloned
    the game). A finished game is left as it is: every card and Safe is shown at the end."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be an int in 0..{game.num_players - 1}, got {seat!r}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, got {type(rng).__name__}")
    if game.game_over:
        return
    known_cards = {(day, s, slot) for day, s, slot, _ in game.known_card_values(seat)}
    for player in game.players:
        if player.seat == seat:
            player.deck.sort()  # canonical order first: the true order must not shape the draw
            rng.shuffle(player.deck)
        else:
            _deal_rival(game, player.seat, known_cards, rng)
    _resample_safes(game, seat, rng)
    _resample_granuja_decks(game, rng)
    if game.config.strategy_cards and not game.strategies_revealed:
        leaders = len(game.catalog.leaders)
        for player in game.players:
            if player.seat != seat and player.strategy >= 0:
                choices = game.catalog.leader_strategies(player.seat % leaders)
                player.strategy = rng.choice(choices).index
    game.rng.seed(rng.getrandbits(64))
    game.seed = None
    game._legal_cache = None  # a rival's legal ids may have changed with its hand


def _deal_rival(game: Game, p: int, known_cards: set[tuple[int, int, int]], rng: random.Random) -> None:
    """Redeal rival ``p``'s poker values the seat does not know (``known_cards``: (day, seat, slot))."""
    player = game.players[p]
    today = len(game.played_log) - 1
    hidden = [c for c in player.played if c.slot > 0 and (today, p, c.slot) not in known_cards]
    pool = sorted(game.rules.poker_cards)
    for card in player.played:
        if card.slot == 0 or (today, p, card.slot) in known_cards:
            pool.remove(card.value)
    size = len(player.hand)
    if len(pool) != size + len(hidden) + len(player.deck):
        raise RuntimeError(
            f"p{p}'s poker cards are not the rules' {sorted(game.rules.poker_cards)}: hand "
            f"{player.hand}, deck {player.deck}, played {[c.value for c in player.played]}"
        )
    rng.shuffle(pool)
    player.hand = sorted(pool[:size])
    for card, value in zip(hidden, pool[size : size + len(hidden)]):
        card.value = value
    player.deck = pool[size + len(hidden) :]
    for frame in game.stack:
        if frame.kind == "plan_slot" and frame.player == p:  # the card chosen, not yet played
            frame.data["card"] = rng.choice(player.hand)
    on_table = {c.slot: c.value for c in player.played}
    for day, by_seat in enumerate(game.played_log):
        log = by_seat[p]
        free = []
        seen = set()
        for i, (slot, value) in enumerate(log):
            if day == today and slot in on_table:
                log[i] = (slot, on_table[slot])
            elif slot == 0 or (day, p, slot) in known_cards:
                seen.add(value)
            else:
                free.append(i)
        if free:
            # cards of an earlier day (or of today, once back under the deck): distinct values
            # among those the seat does not know were played that day
            values = rng.sample([v for v in sorted(game.rules.poker_cards) if v not in seen], len(free))
            for i, value in zip(free, values):
                log[i] = (log[i][0], value)


def _resample_safes(game: Game, seat: int, rng: random.Random) -> None:
    known = game.players[seat].known_safes
    for loc_index, loc in enumerate(game.rules.locations):
        pool = sorted(loc.values)
        unknown = []
        for safe in game.safes:  # id order: ids carry no value information
            if safe.location != loc_index:
                continue
            if safe.id in known:
                pool.remove(safe.value)
            else:
                unknown.append(safe)
        rng.shuffle(pool)
        for safe, value in zip(unknown, pool, strict=True):
            safe.value = value


# (catalog id, rules id, length, players) -> (catalog, rules, Occupation layers, Trait layers); the
# objects are kept so that their ids stay unique while cached
_LAYERS: dict[tuple[int, int, str, int], tuple[Catalog, Rules, _Layers, _Layers]] = {}


class _Layers:
    """A Granuja deck's colour layers, bottom first (the rules' deck table lists the top colour
    first), each with the card indices of its colour."""

    __slots__ = ("colours", "cards", "colour_of")

    def __init__(self, catalog: Catalog, table: dict) -> None:
        self.colours = tuple(reversed(list(table)))
        self.cards = {c: tuple(catalog.cards_of_colour(c)) for c in self.colours}
        self.colour_of = {i: c for c, cards in self.cards.items() for i in cards}


def _layers(game: Game) -> tuple[_Layers, _Layers]:
    key = (id(game.catalog), id(game.rules), game.config.game_length, game.num_players)
    cached = _LAYERS.get(key)
    if cached is None or cached[0] is not game.catalog or cached[1] is not game.rules:
        table = game.rules.decks[(game.config.game_length, game.num_players)]
        cached = _LAYERS[key] = (
            game.catalog,
            game.rules,
            _Layers(game.catalog, table["occupations"]),
            _Layers(game.catalog, table["traits"]),
        )
    return cached[2], cached[3]


def _resample_granuja_decks(game: Game, rng: random.Random) -> None:
    granujas = [g for g in game.saloon if g is not None] + game.discard
    granujas += [g for p in game.players for g in p.sheet if g is not None]
    if game.limbo is not None:
        granujas.append(game.limbo)
    occ_layers, trait_layers = _layers(game)
    game.occ_deck = _redraw(game.occ_deck, occ_layers, {g.occ for g in granujas}, rng, "Occupation")
    game.trait_deck = _redraw(game.trait_deck, trait_layers, {g.trait for g in granujas}, rng, "Trait")


def _redraw(deck: list[int], layers: _Layers, seen: set[int], rng: random.Random, half: str) -> list[int]:
    """A deck with the same number of cards of each colour, layered bottom first, each card drawn
    among the unseen cards of its colour."""
    counts = Counter(map(layers.colour_of.get, deck))
    out: list[int] = []
    for colour in layers.colours:
        count = counts.pop(colour, 0)
        if count:
            out += rng.sample([i for i in layers.cards[colour] if i not in seen], count)
    if counts:
        raise RuntimeError(f"{half} deck holds cards of colours outside the deck table: {dict(counts)}")
    return out
