"""Readable text view of a game: the public table, plus one seat's own information if asked.

``viewer=None`` shows only public information (until the game is over, when every Safe is shown
with the score table). ``viewer=seat`` adds that seat's hand, face-down card values and the Safe
values it has seen: nothing another seat could not see is ever printed.
"""

from __future__ import annotations

from .engine import actions as A
from .engine.game import Game
from .engine.state import Granuja

SLOT_NAMES = {0: "face-up", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}


def granuja_name(game: Game, g: Granuja | None) -> str:
    """Printed name of a Granuja: Occupation, Trait and its timing/cost/tech."""
    if g is None:
        return "·"
    occ = game.catalog.occupation_cards[g.occ]
    trait = game.catalog.trait_cards[g.trait]
    t = trait.trait
    if t.timing == "slots":
        when = "/".join(SLOT_NAMES[s] for s in sorted(trait.slots))
    elif t.timing == "response":
        when = "resp " + "/".join(sorted(t.arrows))
    else:
        when = t.timing.replace("_", " ")
    extras = []
    if t.modifiers:
        extras.append("+".join(sorted(t.modifiers)))
    tech = occ.tech + trait.tech
    if tech:
        extras.append(f"{tech}T")
    extra = f", {', '.join(extras)}" if extras else ""
    return f"{occ.occupation.name} {t.name} [{when}, {game.hire_cost(g)}$]{extra}"


def _safe_text(game: Game, sid: int, viewer: int | None) -> str:
    safe = game.safes[sid]
    shown = game.game_over or (viewer is not None and sid in game.players[viewer].known_safes)
    value = str(safe.value) if shown else "?"
    marks = " ".join(f"p{o}:{f}" for o, f in safe.marks)
    return f"[{value}{(' ' + marks) if marks else ''}]"


def render_text(game: Game, viewer: int | None = None) -> str:
    """The table as text, from the public view or as ``viewer`` sees it."""
    lines = []
    state = "game over" if game.game_over else f"day {game.day}/{game.last_day}, turn {game.turn + 1}"
    lines.append(f"=== 3000 Granujas: {state}; first player p{game.first_player} ===")
    if not game.game_over:
        frame = game.stack[-1]
        lines.append(f"pending: {frame.kind} by p{frame.player} (turn of p{game.current})")
    for loc_index, loc in enumerate(game.rules.locations):
        row = game.board[loc_index]
        cells = " ".join("--" if sid is None else _safe_text(game, sid, viewer) for sid in row)
        lines.append(f"{loc.name:<12} {cells}   unused: {len(game.unused[loc_index])}")
    saloon = " | ".join(granuja_name(game, g) for g in game.saloon)
    lines.append(f"Saloon: {saloon}")
    top = granuja_name(game, game.discard[-1]) if game.discard else "empty"
    lines.append(
        f"Discard: {len(game.discard)} (top {top}); decks: {len(game.trait_deck)} Traits, "
        f"{len(game.occ_deck)} Occupations"
    )
    for player in game.players:
        seat = player.seat
        me = " (you)" if seat == viewer else ""
        h_on = sum(c.henchmen.count(seat) for p in game.players for c in p.played)
        lines.append(
            f"p{seat}{me}: {player.money}$ rep {player.reputation:+d} henchmen free {player.free_henchmen}"
            f"/jail {player.jailed_henchmen}/on cards {h_on} marks left {sum(player.marks)} "
            f"hand {len(player.hand)} deck {len(player.deck)}"
        )
        cards = []
        for card in sorted(player.played, key=lambda c: c.slot):
            shown = seat == viewer or game.game_over or card.slot == 0
            value = A.CARD_NAMES[card.value] if shown else "?"
            hench = f" h{','.join(map(str, card.henchmen))}" if card.henchmen else ""
            cards.append(f"{SLOT_NAMES[card.slot]}:{value}{hench}")
        lines.append(f"    played: {' '.join(cards) or '-'}")
        if seat == viewer:
            lines.append(f"    hand: {' '.join(A.CARD_NAMES[v] for v in player.hand) or '-'}")
        sheet = " | ".join(granuja_name(game, g) for g in player.sheet)
        lines.append(f"    sheet: {sheet}")
        safes = " ".join(_safe_text(game, sid, viewer) for sid in player.safes)
        lines.append(f"    safes: {safes or '-'}")
    if game.game_over and game.scores is not None:
        lines.append(score_table(game))
    return "\n".join(lines)


def score_table(game: Game) -> str:
    """Final score table: tech by source (the reputation square's tech beside the reputation the
    sheet shows: reputation -2 scores -3), money, winner."""
    head = (f"{'player':<8}{'safes':>7}{'marks':>7}{'reputation':>12}{'rep tech':>10}"
            f"{'granujas':>10}{'total':>7}{'money':>7}")
    rows = [head, "-" * len(head)]
    for seat in range(game.num_players):
        b = game.score_breakdown(seat)
        win = "  <- winner" if seat == game.winner else ""
        rows.append(
            f"p{seat:<7}{b['safes']:>7}{b['marks']:>7}{game.players[seat].reputation:>+12d}"
            f"{b['reputation']:>10}{b['granujas']:>10}{b['total']:>7}"
            f"{game.players[seat].money:>7}{win}"
        )
    squares = ", ".join(f"{r:+d}: {t}" for r, t in sorted(game.rules.reputation_tech.items()))
    rows.append(f"total = safes + marks + rep tech + granujas; rep tech is the tech of the "
                f"reputation square ({squares}); money breaks a tie")
    return "\n".join(rows)
