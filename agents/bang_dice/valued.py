"""The Bang! expectimax bot valuing positions by a win probability learnt from play.

:class:`ValuedExpectimax` (bot name ``valued``) is :class:`~agents.bang_dice.expectimax.ExpectimaxHeuristic`
with the heuristic's hand-set numbers replaced, where they value an outcome, by a small network's
estimate of the probability that this seat's side wins (:class:`WinProbability`, trained by
``python -m train.bang_value`` on positions of played games labelled with their outcome):

* **rerolls**: the final dice are placed as the expectimax bot places them (the bull's-eyes on the
  heuristic's best target in reach, beers on its best heal, a Gatling, three dynamite, Suzy
  Lafayette) and the position after them is valued by the network; an arrow rolled costs what
  one more arrow held costs in that estimate; the dice to keep maximise the expected estimate
  over the rolls still to come (:func:`~agents.bang_dice.expectimax.plan_keep`);
* **targets** (the Sheriff, a Deputy, a Renegade): each bull's-eye (after this turn's earlier
  ones), beer and Sid Ketchum heal goes to the seat whose hit or heal leaves the highest
  estimate. An Outlaw aims and heals as the heuristic does: on the two sets of screening deals
  (1700000-1700999, 1710000-1711999) the estimate's targets won 3 to 5 points more as the Sheriff
  and 3 to 5 points fewer as an Outlaw than the heuristic's (:attr:`ValuedExpectimax.target_roles`).

Every other decision is the heuristic's. The network reads only what the seat may know: its
:class:`~granujas_env.bang_dice.view.BangView` and the bot's own role posterior
(:func:`position_features`). It is trained on 4 to 8 players; at 3 players (roles open, a target
each) the bot plays as ``expectimax``. The weights are data (:data:`VALUE_NET_FILES`, ``.npz``
files with their training command in ``meta``), checked when loaded; inference is NumPy only.

The estimate is the mean of four networks (:class:`MeanWinProbability`): 128 and 256 wide, fitted
on each of two sets of positions, the second played by the mean of the first two. The bot takes
the best of many estimates a few hundredths apart, so one network's errors pick its mistakes, and
averaging cancels part of them (the screening and the ratings: docs/bang_dice/training.md, "The
mean of two networks" and "After the mean of two").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from itertools import product
from pathlib import Path

import numpy as np

from agents.bang_dice.expectimax import Counts, ExpectimaxHeuristic, plan_keep
from agents.base import legal_ids
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.game import (
    ARROWS,
    BEER,
    DEPUTY,
    DYNAMITE,
    FACES,
    GATLING,
    ONE,
    RENEGADE,
    ROLES,
    SHERIFF,
    TWO,
)
from granujas_env.bang_dice.view import BangView

__all__ = [
    "FEATURE_SIZE", "VALUE_NET_FILES", "MeanWinProbability", "ValuedExpectimax", "WinProbability",
    "position_features", "states_features",
]

#: the shipped networks, whose estimates the bot averages: two fitted on the first set of positions
#: and two on the second (played by the mean of the first two), 128 and 256 wide each; each file's
#: ``meta`` holds its command
VALUE_NET_FILES = (
    Path(__file__).parent / "data" / "bang_value_net.npz",
    Path(__file__).parent / "data" / "bang_value_net_wide.npz",
    Path(__file__).parent / "data" / "bang_value_net_set2.npz",
    Path(__file__).parent / "data" / "bang_value_net_set2_wide.npz",
)

MAX_SEATS = 8
PER_SEAT = 12  # present, in play, life, life missing, arrows, at 1, at 2, plays next, 4 roles
#: per seat round the table from this one, then this seat's role, the arrow pile, the table size
FEATURE_SIZE = MAX_SEATS * PER_SEAT + len(ROLES) + 1 + 5
FEATURE_VERSION = 1

_FACE = {face: FACES.index(face) for face in FACES}


def position_features(
    view: BangView, marginals: Mapping[int, Mapping[str, float]], roles: Sequence[str | None] | None = None
) -> np.ndarray:
    """The network's input for ``view`` as its seat sees it: per seat, counted clockwise from this
    one (padded to 8), whether it is at the table and in play, its life and life missing (/10), its
    arrows (/9), whether it is at 1 or 2 life and plays next, and the probability of each role (1
    for a role the seat knows, else ``marginals[seat]``); then this seat's role, the arrow pile
    (/9) and the table size (4-8). ``roles``: the roles to count as known instead of the view's
    (a trainer hides the roles a game's end shows)."""
    n, me = view.num_players, view.seat
    if not 4 <= n <= MAX_SEATS:
        raise ValueError(f"the value features need 4 to {MAX_SEATS} players, got {n}")
    x = np.zeros(FEATURE_SIZE, dtype=np.float32)
    for k in range(n):
        s = (me + k) % n
        p = view.players[s]
        o = k * PER_SEAT
        life = p.life if p.alive else 0
        x[o] = 1.0
        _set_life(x, o, life, p.max_life, p.arrows, s == view.turn_player)
        known = p.role if roles is None else roles[s]
        if s == me:
            known = view.role
        if known is not None:
            x[o + 8 + ROLES.index(known)] = 1.0
        else:
            x[o + 8 : o + 12] = [marginals[s].get(r, 0.0) for r in ROLES]
    o = MAX_SEATS * PER_SEAT
    x[o + ROLES.index(view.role)] = 1.0
    x[o + len(ROLES)] = view.arrow_pile / ARROWS
    x[o + len(ROLES) + 1 + n - 4] = 1.0
    return x


def _set_life(x: np.ndarray, o: int, life: int, max_life: int, arrows: int, plays_next: bool) -> None:
    alive = life > 0
    x[o + 1] = alive
    x[o + 2] = max(life, 0) / 10.0
    x[o + 3] = (max_life - life) / 10.0 if alive else 0.0
    x[o + 4] = arrows / ARROWS if alive else 0.0
    x[o + 5] = life == 1
    x[o + 6] = life == 2
    x[o + 7] = plays_next


def states_features(
    view: BangView, marginals: Mapping[int, Mapping[str, float]], states: Sequence[tuple[Sequence[int], int]]
) -> np.ndarray:
    """One row per ``(lives, my_arrows)`` state: ``view``'s features with every seat's life (0: out
    of play) and this seat's arrows replaced, and the next seat in play after this one to play."""
    base = position_features(view, marginals)
    n, me = view.num_players, view.seat
    xs = np.repeat(base[None, :], len(states), axis=0)
    for i, (lives, my_arrows) in enumerate(states):
        after = next((s for s in ((me + k) % n for k in range(1, n)) if lives[s] > 0), me)
        for k in range(n):
            s = (me + k) % n
            p = view.players[s]
            arrows = my_arrows if s == me else p.arrows
            _set_life(xs[i], k * PER_SEAT, lives[s], p.max_life, arrows, s == after)
    return xs


class WinProbability:
    """A multilayer perceptron (ReLU, then a logistic output) read from an ``.npz`` of ``w0, b0,
    w1, b1, ...`` (``w_i``: inputs x outputs) and a JSON ``meta``; ValueError naming the file and
    what is wrong with it."""

    def __init__(self, path: Path | str = VALUE_NET_FILES[0]) -> None:
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, ValueError) as exc:
            raise ValueError(f"cannot read the value network {path}: {exc}") from None
        problem = _check_net(arrays)
        if problem:
            raise ValueError(f"{path}: {problem}")
        depth = sum(1 for name in arrays if name.startswith("w"))
        self.layers = [
            (arrays[f"w{i}"].astype(np.float32), arrays[f"b{i}"].astype(np.float32)) for i in range(depth)
        ]
        #: what the file says of itself (training command, seeds, losses)
        self.meta: dict = json.loads(str(arrays["meta"]))

    def __call__(self, features: np.ndarray) -> np.ndarray:
        """The win probability of each row of ``features`` (rows x FEATURE_SIZE)."""
        h = np.asarray(features, dtype=np.float32)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            # einsum, not @: a BLAS call spreads these small products over threads, which on
            # a busy machine made whole games three times slower
            h = np.einsum("ij,jk->ik", h, w) + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return 1.0 / (1.0 + np.exp(-h[:, 0].astype(np.float64)))


def _check_net(arrays: Mapping[str, np.ndarray]) -> str | None:
    """What is wrong with a network's arrays, or None."""
    depth = sum(1 for name in arrays if name.startswith("w"))
    expected = {f"w{i}" for i in range(depth)} | {f"b{i}" for i in range(depth)} | {"meta"}
    if depth == 0 or set(arrays) != expected:
        return f"expected arrays w0..wK, b0..bK and meta, got {sorted(arrays)}"
    try:
        meta = json.loads(str(arrays["meta"]))
    except ValueError:
        return "meta is not JSON"
    if not isinstance(meta, dict) or meta.get("feature_version") != FEATURE_VERSION:
        return f"meta.feature_version must be {FEATURE_VERSION} (the features this code computes)"
    width = FEATURE_SIZE
    for i in range(depth):
        w, b = arrays[f"w{i}"], arrays[f"b{i}"]
        if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
            return f"layer {i}: weights {w.shape} and bias {b.shape} do not take {width} inputs"
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            return f"layer {i} holds values that are not finite"
        width = w.shape[1]
    if width != 1:
        return f"the last layer must have 1 output, has {width}"
    return None


class MeanWinProbability:
    """The mean of several :class:`WinProbability` networks' estimates."""

    def __init__(self, paths: Sequence[Path | str]) -> None:
        if not paths:
            raise ValueError("a value estimate needs at least one network file")
        self.nets = [_load_net(str(path)) for path in paths]

    def __call__(self, features: np.ndarray) -> np.ndarray:
        """The mean win probability of each row of ``features`` over the networks."""
        return np.mean([net(features) for net in self.nets], axis=0)


@cache
def _load_net(path: str) -> WinProbability:
    return WinProbability(path)


def _net_files(net: Path | str | Sequence[Path | str] | None) -> tuple[str, ...]:
    """The files ``net`` names: :data:`VALUE_NET_FILES` for None, a file, a sequence of files,
    or files joined by ``+`` in one string (a bot spec's ``:net=a.npz+b.npz``)."""
    if net is None:
        return tuple(str(path) for path in VALUE_NET_FILES)
    if isinstance(net, Path):
        return (str(net),)
    if isinstance(net, str):
        files = tuple(net.split("+"))
    else:
        files = tuple(str(path) for path in net)
    if not all(files):  # an empty name; an empty list is MeanWinProbability's to refuse
        raise ValueError(f"net: expected network files (a path, a list, or paths joined by '+'), got {net!r}")
    return files


@cache
def _final_counts(dice: int) -> tuple[Counts, ...]:
    """Every face count ``dice`` dice can show, in a fixed order."""
    return tuple(c for c in product(range(dice + 1), repeat=len(FACES)) if sum(c) == dice)


class ValuedExpectimax(ExpectimaxHeuristic):
    """The expectimax bot valuing outcomes by a learnt win probability (the module docstring).
    ``net``: the network file or files whose mean estimate it plays by (:data:`VALUE_NET_FILES`
    unless given; several as a list or joined by ``+``; ValueError on a bad one)."""

    name = "valued"
    #: the roles whose targets the estimate chooses (the others aim as the heuristic)
    target_roles = frozenset({SHERIFF, DEPUTY, RENEGADE})

    def __init__(self, seed: int | None = None, net: Path | str | Sequence[Path | str] | None = None) -> None:
        super().__init__(seed)
        self.net = MeanWinProbability(_net_files(net))
        self._arrow_cost = 0.0

    def __repr__(self) -> str:
        return f"ValuedExpectimax(seed={self.seed!r})"

    def win_probabilities(self, view: BangView, states: Sequence[tuple[Sequence[int], int]]) -> np.ndarray:
        """The network's estimate for this seat after each ``(lives, my_arrows)`` state."""
        keys = [(tuple(lives), arrows) for lives, arrows in states]
        unique = list(dict.fromkeys(keys))  # many dice end in the same position
        values = self.net(states_features(view, self.posterior(view), unique))
        index = {key: i for i, key in enumerate(unique)}
        return values[[index[key] for key in keys]]

    def final_value(self, view: BangView) -> Callable[[Counts], float]:
        if view.num_players == 3:
            return super().final_value(view)
        scores = self.enemy_scores(view)
        me = view.players[view.seat]
        need = 2 if me.character == "willy_the_kid" else 3
        reach_one, reach_two = self.bullseye_reach(view)
        gatling_hits = self.gatling_targets(view)
        lives0 = [p.life if p.alive else 0 for p in view.players]
        max_life = [p.max_life for p in view.players]
        suzy = me.character == "suzy_lafayette"

        def hit(seat: int, lives: list[int]) -> float:
            return self.hit_worth(view, scores, seat, lives[seat])

        finals = _final_counts(len(view.dice))
        states: list[tuple[list[int], int]] = []
        # the lives after the bull's-eyes and beers depend on those three counts alone
        placed: dict[tuple[int, int, int], list[int]] = {}
        for c in finals:
            key = (c[_FACE[ONE]], c[_FACE[TWO]], c[_FACE[BEER]])
            if key not in placed:
                lives = list(lives0)
                self.place_shots(c, lives, reach_one, reach_two, hit)
                for _ in range(c[_FACE[BEER]]):
                    # the heuristic's heal value at the lives the dice have left (-1: a wasted beer)
                    worth = [self._heal_value(view, scores, s, lives[s]) for s in range(view.num_players)]
                    best = max(range(view.num_players), key=worth.__getitem__)
                    if worth[best] > 0:
                        lives[best] += 1
                placed[key] = lives
            lives = list(placed[key])
            arrows = me.arrows
            if c[_FACE[GATLING]] >= need:
                for s in gatling_hits:
                    lives[s] -= lives[s] > 0
                arrows = 0
            if c[_FACE[DYNAMITE]] >= 3:
                lives[view.seat] -= 1
            if suzy and c[_FACE[ONE]] + c[_FACE[TWO]] == 0 and lives[view.seat] > 0:
                lives[view.seat] = min(max_life[view.seat], lives[view.seat] + 2)
            states.append((lives, arrows))
        states += [(lives0, me.arrows), (lives0, me.arrows + 1)]
        values = self.win_probabilities(view, states)
        self._arrow_cost = max(0.0, float(values[-2] - values[-1]))
        return dict(zip(finals, values[:-2].tolist())).__getitem__

    def reroll_plan(self, view: BangView) -> tuple[Counts, float]:
        if view.num_players == 3:
            return super().reroll_plan(view)
        counts = [0] * len(FACES)
        for face in view.dice:
            counts[_FACE[face]] += 1
        value = self.final_value(view)  # sets the arrow cost of this position
        locked = view.players[view.seat].character != "black_jack"
        return plan_keep(tuple(counts), view.rerolls_left, value, self._arrow_cost, locked)

    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        if (
            isinstance(view, BangView) and view.num_players > 3 and view.role in self.target_roles
            and view.decision in ("shoot", "beer", "sid_ketchum")
        ):
            n, me = view.num_players, view.seat
            targets = {(me + a - A.TARGET_BASE) % n: a for a in legal_ids(observation) if A.TARGET_BASE <= a < A.YES}
            if len(targets) > 1:
                return targets[self._best_target(view, list(targets))]
        return super().act(observation, view)

    def _best_target(self, view: BangView, seats: list[int]) -> int:
        """The seat whose hit (a shot) or heal leaves the highest estimate."""
        lives0 = [p.life if p.alive else 0 for p in view.players]
        amount = 1
        if view.decision == "shoot":
            # this turn's earlier bull's-eyes hit when all are aimed: count them as landed
            for event in reversed(view.events):
                if event[0] == "turn":
                    break
                if event[0] == "shot" and event[1] == view.seat:
                    lives0[event[2]] -= event[4]
                elif event[:3] == ("ability", view.seat, "slab_the_killer"):
                    amount = 2 if event[3] == view.decision_data.get("die") else 1
        arrows = view.players[view.seat].arrows
        states = []
        for s in seats:
            lives = list(lives0)
            if view.decision == "shoot":
                lives[s] -= amount
            else:
                lives[s] = min(view.players[s].max_life, lives[s] + 1)
            states.append((lives, arrows))
        return seats[int(np.argmax(self.win_probabilities(view, states)))]
