"""The heuristic's shortcuts change no decision (complements tests/test_cheap_opponents.py).

Games the repository does not otherwise play (their own seeds; random, honest and heuristic seats;
the same bots carried from game to game across player counts, lengths and the Strategy option)
are played with the fast path (lazy views shared by an advisor, ``reuse=True``: the analyses kept
by record, the public log read incrementally) and the reference path (complete views,
``reuse=False``) side by side, decision by decision. Every challenge at the turn's last window is
also checked against the rule without its shortcut (the wait for a likelier bluff is only
weighed when the challenge is worth something on its own), equal record keys must mean equal
records, and the bluff model's day tables must equal, to the last bit, those of the plain
recursion they were optimised from.
"""

from __future__ import annotations

import itertools
import random

import numpy as np

from agents import HeuristicAgent, HonestAgent
from agents.bluff_model import (
    HandInference,
    PlayerType,
    PublicLog,
    public_record,
    record_key,
    today_evidence,
)
from agents.heuristic import HENCHMAN_VALUE, KEEP_DISCOUNT, RIVAL_REP_WEIGHT, _Ctx
from agents.random_agent import RandomAgent
from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.view import DecisionViews, seat_view

# (seat kinds, length, Strategy cards, seed): h heuristic, o honest, r random
GAMES = [
    ("hrh", "short", True, 9101),
    ("hh", "long", False, 9102),
    ("rhhh", "short", True, 9103),
    ("hoh", "long", False, 9104),
    ("hhrh", "long", True, 9105),
    ("hr", "short", False, 9106),
]


def _mask(legal: list[int]) -> dict[str, np.ndarray]:
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[legal] = 1
    return {"action_mask": mask}


def _other(kind: str, seed: int):
    return HonestAgent(seed) if kind == "o" else RandomAgent(seed)


def challenge_without_shortcut(bot: HeuristicAgent, view) -> int:
    """The heuristic's challenge rule at the turn's last window, always weighing the wait."""
    ctx = _Ctx(bot, view)
    b = float(bot.analysis(view, view.current_player)["bluff"])
    reward = ctx.rep_value(ctx.me.reputation, 1) + RIVAL_REP_WEIGHT
    jail = HENCHMAN_VALUE if view.last_day - view.day > 0 else 0.0

    def ev(p: float) -> float:
        return p * reward - (1.0 - p) * jail

    n = view.num_players
    later = [(view.first_player + t) % n for t in range(view.turn + 1, view.turns_per_day * n)]
    future: list[float] = []
    for o in range(n):
        count = later.count(o)
        if o != view.seat and count:
            result = bot.analysis(view, o)
            future += [float(result["future_best"])] + [float(result["future_mean"])] * (count - 1)
    future.sort(reverse=True)
    free = ctx.me.free_henchmen
    keep = max(0.0, ev(future[free - 1])) * KEEP_DISCOUNT if len(future) >= free else 0.0
    return A.CONFIRM if ev(b) > keep + 0.02 else A.PASS


def test_fast_and_reference_heuristics_agree_over_carried_bots() -> None:
    fast = [HeuristicAgent(seed=s, reuse=True) for s in range(4)]
    reference = [HeuristicAgent(seed=s, reuse=False) for s in range(4)]
    advisor = HeuristicAgent(seed=50, reuse=True)
    compared = last_windows = confirmed = 0
    for kinds, length, strategy, seed in GAMES:
        game = Game(GameConfig(len(kinds), length, strategy), seed=seed)
        others = [_other(k, seed + s) for s, k in enumerate(kinds)]
        for seat in range(len(kinds)):
            fast[seat].reset(seed=seed + seat)
            reference[seat].reset(seed=seed + seat)
        views = DecisionViews(game)
        while not game.game_over:
            seat = game.current_player
            legal = game.legal_actions()
            observation = _mask(legal)
            if kinds[seat] != "h":
                advisor.act(observation, view=views(seat))  # reads the shared view first
                action = others[seat].act(observation, view=views(seat))
            else:
                action = fast[seat].act(observation, view=views(seat))
                complete = seat_view(game, seat)
                expected = reference[seat].act(observation, view=complete)
                assert action == expected, (seed, seat, game.decision.kind, compared)
                compared += 1
                if game.decision.kind == "challenge" and complete.window in (0, 3):
                    assert action == challenge_without_shortcut(reference[seat], complete)
                    last_windows += 1
                    confirmed += action == A.CONFIRM
            views.expire()
            game.apply(action)
    assert compared > 1500
    assert last_windows > 100 and 0 < confirmed < last_windows  # both answers were checked


def test_equal_record_keys_mean_equal_records() -> None:
    records: dict[tuple, tuple] = {}
    rng = random.Random(7)
    for seed in (9201, 9202, 9203):
        game = Game(GameConfig(2 + seed % 3, "long", seed % 2 == 0), seed=seed)
        logs: dict[int, PublicLog | None] = {}
        while not game.game_over:
            seat = rng.randrange(game.num_players)
            view = seat_view(game, seat, lazy=True)
            log = logs[seat] = PublicLog.of(view, logs.get(seat))
            for other in range(game.num_players):
                record = (
                    public_record(view, other, log),
                    today_evidence(view, other, log),
                )
                assert records.setdefault(record_key(view, other, log), record) == record
            game.apply(rng.choice(game.legal_actions()))
    assert len(records) > 200


def test_public_log_is_kept_while_no_event_is_new() -> None:
    game = Game(GameConfig(3, "short", False), seed=9301)
    rng = random.Random(1)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    log = PublicLog.of(seat_view(game, 0, lazy=True))
    assert PublicLog.of(seat_view(game, 1, lazy=True), log) is log  # same game and moment
    while len(seat_view(game, 0, lazy=True).history) == len(log.events):
        game.apply(rng.choice(game.legal_actions()))
    later = PublicLog.of(seat_view(game, 0, lazy=True), log)
    fresh = PublicLog.of(seat_view(game, 0, lazy=True))
    assert (later.made, later.chances, later.free) == (fresh.made, fresh.chances, fresh.free)
    other = Game(GameConfig(4, "short", False), seed=9302)
    restarted = PublicLog.of(seat_view(other, 0, lazy=True), later)
    assert restarted is not later and restarted.num_players == 4


def reference_day_table(model: HandInference, t: int, seq, revealed, want_future: bool) -> dict:
    """HandInference's day table as the plain recursion computed it before (the reference)."""
    ptype = model.types[t]
    lam, beta = ptype.lam, ptype.beta
    rev = dict(revealed)
    zero_bit = 1 << model.index[0]
    frees = [model._all_free]
    for slot in seq:
        frees.append(frees[-1] & ~model._slot_bit.get(slot, 0))
    nothing = (0.0, 0.0, 0.0, 0.0)
    top = min(len(seq), model.hand_size)
    if top == len(seq):
        below = {
            left: (1.0, 0.0, *(model._future(t, left, frees[top]) if want_future else (0.0, 0.0)))
            for left in model._by_size[model.hand_size - top]
        }
    else:
        below = {0: nothing}
    for j in range(top - 1, -1, -1):
        free, slot, want = frees[j], seq[j], rev.get(j)
        level = {}
        for left in model._by_size[model.hand_size - j]:
            if slot not in model._slot_bit:
                level[left] = below[left & ~zero_bit] if left & zero_bit else nothing
                continue
            z = model._z(t, left, free)
            total = bluff = fbest = fmean = 0.0
            if z > 0.0:
                for v, rest in model._children[left]:
                    if want is not None and model.values[v] != want:
                        continue
                    honest = model.match_slot[v] == slot
                    p = (lam if honest else beta[slot - 1]) / z
                    ct, cb, cf, cm = below[rest]
                    total += p * ct
                    bluff += p * (ct if j == len(seq) - 1 and not honest else cb)
                    if want_future:
                        fbest += p * cf
                        fmean += p * cm
            level[left] = (total, bluff, fbest, fmean)
        below = level
    return {hand: below[hand] for hand in model.hands}


def test_day_tables_equal_the_plain_recursion_exactly() -> None:
    rng = random.Random(3)
    model = HandInference()
    seqs = [()] + [s for k in (1, 2, 3) for s in itertools.permutations(range(7), k)]
    seqs += [tuple(rng.sample(range(7), k)) for k in (4, 5) for _ in range(60)]
    checked = 0
    for seq in rng.sample(seqs, 150) + [(0, 1, 2, 3), (5, 5, 1, 2)]:
        reveals = [()]
        if seq:
            i = rng.randrange(len(seq))
            reveals += [((i, rng.randrange(7)),), ((i, seq[i] if seq[i] else 0),)]
        for revealed in reveals:
            for t in range(len(model.types)):
                for want_future in (False, True):
                    expected = reference_day_table(model, t, seq, revealed, want_future)
                    assert model._day_table(t, seq, revealed, want_future) == expected
                    checked += 1
    assert checked > 1200


def test_day_tables_equal_the_plain_recursion_for_other_types_and_hand_sizes() -> None:
    """Also where some hands cannot have made a play at all (a strictly honest type: z = 0 when
    no card left matches a free slot), for a type that never bluffs into one slot, and for
    another hand size; every type's table comes from one computation."""
    types = (
        PlayerType("strictly honest", 0.3, 1.0, (0.0,) * 6),
        PlayerType("no slot-4 bluffs", 0.7, 3.0, (0.5, 2.0, 1.0, 0.0, 4.0, 1.0)),
    )
    rng = random.Random(8)
    checked = unexplained = 0
    for model in (HandInference(types=types), HandInference(hand_size=3, types=types)):
        for _ in range(60):
            seq = tuple(rng.sample(range(7), rng.randint(0, model.hand_size + 1)))
            revealed = ((0, rng.randrange(7)),) if seq and rng.random() < 0.4 else ()
            for want_future in (False, True):
                tables = model._day_tables(seq, revealed, want_future)
                for t in range(len(types)):
                    expected = reference_day_table(model, t, seq, revealed, want_future)
                    assert tables[t] == expected
                    unexplained += sum(1 for entry in expected.values() if entry[0] == 0.0)
                    checked += 1
    assert checked == 480 and unexplained > 100
