"""Shared by the leak tests: random mid-game states, and copies in which only what one seat may
not know has changed."""

from __future__ import annotations

import copy
import random

from granujas_env.engine import Game, GameConfig


def random_midgame(
    seed: int, players: int, length: str = "long", strategy: bool = False
) -> Game:
    """A game after a random number of random legal steps."""
    rng = random.Random(seed)
    config = GameConfig(num_players=players, game_length=length, strategy_cards=strategy)
    game = Game(config, seed=seed)
    for _ in range(rng.randrange(20, 500)):
        if game.game_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def hide_shuffle(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy where everything ``seat`` may not know is changed and everything else kept."""
    other = copy.deepcopy(game)
    known = {(d, s, slot) for d, s, slot, _ in game.known_card_values(seat)}
    today = len(other.played_log) - 1
    for player in other.players:
        rng.shuffle(player.deck)
        if player.seat == seat:
            continue
        # this day's face-down cards the seat does not know, and the hand, dealt anew
        hidden = [
            c for c in player.played if c.slot > 0 and (today, player.seat, c.slot) not in known
        ]
        pool = player.hand + [c.value for c in hidden]
        rng.shuffle(pool)
        player.hand = sorted(pool[: len(player.hand)])
        for card, value in zip(hidden, pool[len(player.hand) :]):
            card.value = value
        by_slot = {c.slot: c.value for c in player.played}
        log = other.played_log[today][player.seat]
        other.played_log[today][player.seat] = [(s, by_slot.get(s, v)) for s, v in log]
        # earlier days: the values of cards never revealed or peeked
        for day in range(today):
            log = other.played_log[day][player.seat]
            free = [
                i for i, (s, _) in enumerate(log) if (day, player.seat, s) not in known and s > 0
            ]
            values = [log[i][1] for i in free]
            rng.shuffle(values)
            for i, v in zip(free, values):
                log[i] = (log[i][0], v)
    unknown = [s for s in other.safes if s.id not in other.players[seat].known_safes]
    values = [s.value for s in unknown]
    rng.shuffle(values)
    for safe, value in zip(unknown, values):
        safe.value = value
    rng.shuffle(other.trait_deck)
    rng.shuffle(other.occ_deck)
    return other
