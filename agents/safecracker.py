"""Safe bots: ``safecracker``, the heuristic reading its rivals' Marks, and ``safe_search``.

**SafecrackerAgent** (``agents.make("safecracker")``) plays exactly like the heuristic
(:class:`agents.heuristic.HeuristicAgent`) except for what it believes an unseen Safe is worth,
which every Safe decision (peek, steal, abandon, Mark, the bribe) and the Plan's peek and steal
values read. The heuristic believes the location's values not yet seen, sharpened by a rival's
Mark only as far as that rival's Marks matched the values it saw. But Marks are rarely honest and
still say a lot: the heuristic hides a good Safe under a low face and lures with a high face on a
poor one, and a player who marked a Safe and then stole another has told the table the Safe was
not worth taking. This bot reads the public record of each unseen Safe — where it is (on the
board, abandoned by someone who knew its value, held by a rival) and each rival Mark on it with its
face and whether its owner has since stolen another Safe (held: whether it is the holder's) —
through a :class:`MarkModel`, the likelihood of that record for each value, fitted from games
between heuristics (``python -m train.safe_marks``, stored in the model card). Each rival's Marks
are read by the model as far as its record allows (``prior_trust`` at first, then Bayes-updated by
its Marks on Safes this seat has seen: a rival who marks at random is soon read as noise). The
posterior of a location's unseen Safes is computed jointly and exactly (:func:`joint_marginals`:
every way of dealing the location's remaining values), so a rival's 7 on one Safe lowers the
chance of a 7 elsewhere. It reads only the seat view (``tests/test_safecracker.py`` changes the
hidden information and checks the decisions and beliefs stay the same). Measured (4 players, short,
against three heuristics, 2,000 games, seed 0: ``python -m train.tournament --agents
safecracker,heuristic,heuristic,heuristic --games 2000 --players 4 --seed 0``): mean Safe tech 11.11
against the heuristics' 10.74-10.77, +0.35 [0.27, 0.43] over the rivals' mean in the same games,
and 28.2% [26.3, 30.3] wins. ``prior_trust`` 0.5 / 0.8 / 0.95 screened alike (seed 100, 240 games:
+0.29 / +0.30 / +0.25). Options from strings: ``"safecracker:prior_trust=0.5"``. The model it
replaced, a MaskablePPO policy for the Safe decisions, is the shipped model ``safecracker-v1``.

**SafeSearchAgent** (``agents.make("safe_search")``): everywhere but the Safe decisions
(:data:`agents.decisions.SAFE_DECISIONS`: peek, Mark face and
source, steal, abandon, unused-location peek, Sheriff's Office) it plays exactly the heuristic's
action (:class:`agents.heuristic.HeuristicAgent`, which sees every decision, so its per-game memory
is the heuristic's own). At a Safe decision it runs the information-set MCTS of
:class:`agents.search.ISMCTSAgent` with another objective: each seat's reward at the end of a
playout is the tech of the Safes it holds (the tournament's "Safe tech", values only) over the
rules' score scale, clipped to [0, 1], instead of the score margin. The heuristic's action keeps its
prior (``prior_weight``): the search overrides it only where its playouts clearly find more Safe
tech. Measured (4 players, short, against three heuristics, seed 4242, 96 games each, paired Safe
tech difference to the rivals in the same games): prior_weight 0.5 plays exactly like the heuristic
(+0.00); 0.1 (the default) +0.06 [-0.29, 0.42] (seed 777: -0.02 [-0.38, 0.35]); 0.02 -0.34 [-0.72, 0.05] and 13.5% wins: the
searched choice alone is worse than the heuristic's at Safes. Not yet shown better than the
heuristic (issue 11 item 2). About 0.8 s a searched decision (24 simulations, busy 2-core
machine), 13 searched decisions a game.

It never uses what its seat may not know, for the reason :mod:`agents.search` gives: the live game
is read only through ``sample_hidden`` (and its legal ids and current player), and the choice of
searching or not depends only on the seat view's decision kind (``tests/test_safecracker.py``).

Options from strings (``agents.make_bot``, the tournament): ``"safe_search:simulations=24"``,
``"safe_search:rollout_steps=60:prior_weight=0.3"``.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from agents.decisions import SAFE_DECISIONS
from agents.heuristic import HeuristicAgent, _Ctx, _LocationMemo
from agents.honest import require_view
from agents.search import ISMCTSAgent
from granujas_env.engine.game import Game

__all__ = [
    "MarkModel",
    "SafeSearchAgent",
    "SafecrackerAgent",
    "joint_marginals",
    "likelihood",
    "mark_ratio",
    "mark_records",
    "safe_rewards",
    "shipped_model",
]

#: The shipped safecracker's model card, which holds its Mark model.
CARD = Path(__file__).resolve().parent / "models" / "safecracker" / "model_card.json"
PRIOR_TRUST = 0.8  # how far a rival's Marks are read by the model before its record says more
RATIO_CLIP = 2.0  # the most one seen Mark moves the log-odds of reading its owner by the model


def safe_rewards(game: Game) -> list[float]:
    """Each seat's Safe tech (the values of the Safes it holds now) over the score scale,
    clipped to [0, 1]."""
    scale = game.rules.score_scale
    return [
        min(1.0, sum(game.safes[s].value for s in player.safes) / scale) for player in game.players
    ]


class SafeSearchAgent(ISMCTSAgent):
    """The heuristic, with Safe decisions chosen by IS-MCTS for Safe tech (module docstring).
    Options as :class:`agents.search.ISMCTSAgent`'s; ``prior_weight`` must be positive (the
    heuristic plays every other decision)."""

    name = "safe_search"

    def __init__(
        self,
        simulations: int | None = 24,
        time_ms: float | None = None,
        rollout: str = "honest",
        rollout_steps: int | None = None,
        exploration: float = 0.7,
        prior_weight: float = 0.1,
        seed: int | None = None,
    ) -> None:
        if isinstance(prior_weight, (int, float)) and not isinstance(prior_weight, bool):
            if prior_weight <= 0:
                raise ValueError(
                    f"prior_weight must be positive for safe_search (the heuristic plays every "
                    f"other decision), got {prior_weight!r}"
                )
        super().__init__(
            simulations=simulations,
            time_ms=time_ms,
            rollout=rollout,
            rollout_steps=rollout_steps,
            exploration=exploration,
            prior_weight=prior_weight,
            seed=seed,
        )

    def rewards(self, state: Game) -> list[float]:
        """Safe tech per seat (:func:`safe_rewards`), the objective of the search."""
        return safe_rewards(state)

    def act(
        self,
        observation: Mapping[str, np.ndarray],
        view: object | None = None,
        game: Game | None = None,
    ) -> int:
        """The heuristic's action, searched (for Safe tech) at a Safe decision."""
        require_view(self, view)
        if view.decision in SAFE_DECISIONS:
            return super().act(observation, view=view, game=game)
        self.last_visits = {}
        return int(self._prior.act(observation, view=view))


# ------------------------------------------------------------------------ the Mark reader
#: Where an unseen Safe is, as evidence about its value: on the board, on the board after someone
#: abandoned it (they knew its value and kept others), held by a rival.
STATES = ("board", "abandoned", "held")


def mark_records(view) -> dict[int, tuple[str, tuple[tuple[int, int, bool], ...]]]:
    """Safe id -> (state, rivals' Marks on it as (owner, face, flag)) for every Safe of ``view``
    (:data:`STATES`; a Safe this seat holds counts as held). ``flag``: on a held Safe, whether
    the Mark is its holder's; elsewhere, whether the Mark's owner has stolen another Safe since
    placing it (a player who looked, then took something else). Public information only: the
    view's Safes and event log."""
    seat = view.seat
    marked_at: dict[tuple[int, int, int], int] = {}  # (owner, Safe, face) -> last event index
    steals: dict[int, list[tuple[int, int]]] = {}  # owner -> [(event index, Safe)]
    abandoned: set[int] = set()
    for i, event in enumerate(view.history):
        kind = event[0]
        if kind == "mark":
            marked_at[(event[2], event[3], event[4])] = i
        elif kind == "steal":
            steals.setdefault(event[2], []).append((i, event[3]))
        elif kind == "abandon":
            abandoned.add(event[3])
    out = {}
    for sid, safe in view.safes.items():
        held = safe.holder >= 0
        marks = []
        for owner, face in safe.marks:
            if owner == seat:
                continue
            if held:
                flag = owner == safe.holder
            else:
                since = marked_at.get((owner, sid, face), -1)
                flag = any(i > since and s != sid for i, s in steals.get(owner, ()))
            marks.append((owner, face, flag))
        state = "held" if held else ("abandoned" if sid in abandoned else "board")
        out[sid] = (state, tuple(marks))
    return out


def _mark_key(face: int, flag: bool) -> str:
    return f"{face}:{int(flag)}"


class MarkModel:
    """How likely the public record of an unseen Safe (:func:`mark_records`) is for each of its
    possible values, per number of players and location (a location is known by its tuple of
    values); fitted from games between heuristics by ``train/safe_marks.py`` and kept in the
    model card.

    Per state (:data:`STATES`) and value ``v``: ``p[v]`` = P(state | v), ``empty[v]`` = P(no
    rival Mark | v, state), ``marks[face:flag][v]`` = the expected number of rival Marks showing
    ``face`` with that flag (a Poisson count per kind of Mark) and ``pooled[face:flag]`` the same
    over all values (what a Mark says when its owner's Marks carry no information)."""

    def __init__(self, locations: Sequence[Mapping]) -> None:
        self.locations: dict[tuple[int, tuple[int, ...]], Mapping] = {}
        for location in locations:
            key = (int(location["players"]), tuple(location["values"]))
            missing = [s for s in STATES if s not in location["states"]]
            if missing:
                raise ValueError(f"Mark model of location {key}: no table for {missing}")
            self.locations[key] = location

    def table(self, players: int, values: Sequence[int]) -> Mapping | None:
        """The fitted table of the location of ``values`` in games of ``players`` (of the
        nearest number of players fitted for it), or None if the location was never fitted."""
        values = tuple(values)
        fitted = [n for n, v in self.locations if v == values]
        if not fitted:
            return None
        return self.locations[(min(fitted, key=lambda n: (abs(n - players), -n)), values)]

    @classmethod
    def from_card(cls, path: str | Path = CARD) -> MarkModel:
        """The model stored under ``"mark_model"`` in the model card at ``path``."""
        card = json.loads(Path(path).read_text())
        try:
            return cls(card["mark_model"]["locations"])
        except KeyError:
            raise ValueError(f"{path}: no mark_model.locations in this model card") from None

    def __deepcopy__(self, memo: dict) -> MarkModel:
        return self  # read-only: copies of a bot (search clones) share it

    def to_json(self) -> dict:
        """The JSON form :meth:`from_card` reads (under ``"mark_model"``)."""
        return {"locations": list(self.locations.values())}


def likelihood(
    location: Mapping,
    state: str,
    marks: Sequence[tuple[int, int, bool]],
    weight: Mapping[int, float],
) -> dict[int, float]:
    """Value -> likelihood of (``state``, ``marks``) by the fitted ``location`` table
    (:meth:`MarkModel.table`); each Mark read as informative with its owner's ``weight``, else
    at its pooled rate (no information)."""
    table = location["states"][state]
    out = {}
    for j, v in enumerate(location["distinct"]):
        like = table["p"][j] * table["empty"][j]
        for owner, face, flag in marks:
            key = _mark_key(face, flag)
            pooled = table["pooled"].get(key)
            if pooled is None:
                continue  # a kind of Mark never seen in the fitting games: no evidence
            w = weight.get(owner, 0.0)
            like *= w * table["marks"][key][j] + (1.0 - w) * pooled
        out[v] = like
    return out


def mark_ratio(location: Mapping, state: str, face: int, flag: bool, value: int) -> float:
    """P(this Mark | value) / P(this Mark) by the fitted ``location`` table, for a Mark whose
    Safe's value is known: how far the Mark behaved as the model reads Marks (> 1) or not (< 1)."""
    table = location["states"][state]
    key = _mark_key(face, flag)
    if key not in table["pooled"] or value not in location["distinct"]:
        return 1.0
    j = location["distinct"].index(value)
    per_value = table["marks"][key][j] / max(1e-9, sum(m[j] for m in table["marks"].values()))
    pooled = table["pooled"][key] / max(1e-9, sum(table["pooled"].values()))
    return per_value / max(1e-9, pooled)


def joint_marginals(
    remaining: Mapping[int, int], likes: Sequence[Mapping[int, float]]
) -> list[dict[int, float]] | None:
    """Marginal value distributions of unseen Safes that share one location's ``remaining``
    values (value -> copies; copies left over lie among the unseen unused ones), each with its
    evidence likelihood ``likes[i]`` (value -> likelihood): the exact posterior over the ways of
    dealing the remaining copies. None when no way is possible."""
    counts = dict(remaining)
    totals = [dict.fromkeys(counts, 0.0) for _ in likes]
    picked: list[int] = []

    def deal(i: int, weight: float) -> float:
        if i == len(likes):
            for k, v in enumerate(picked):
                totals[k][v] += weight
            return weight
        mass = 0.0
        for v, c in counts.items():
            if c <= 0:
                continue
            w = weight * c * likes[i].get(v, 0.0)
            if w <= 0.0:
                continue
            counts[v] = c - 1
            picked.append(v)
            mass += deal(i + 1, w)
            picked.pop()
            counts[v] = c
        return mass

    mass = deal(0, 1.0)
    if mass <= 0.0:
        return None
    return [{v: p / mass for v, p in t.items() if p > 0.0} for t in totals]


@lru_cache(maxsize=1)
def shipped_model() -> MarkModel:
    """The Mark model of the shipped ``safecracker`` (its model card)."""
    return MarkModel.from_card(CARD)


class SafecrackerAgent(HeuristicAgent):
    """The heuristic, valuing unseen Safes by the posterior that its rivals' Marks and moves give
    (module docstring). ``model``: the :class:`MarkModel` (default: the shipped one);
    ``prior_trust``: how far a rival's Marks are read by the model before its record is known."""

    name = "safecracker"

    def __init__(
        self,
        seed: int | None = None,
        *,
        reuse: bool = True,
        model: MarkModel | None = None,
        prior_trust: float = PRIOR_TRUST,
        early_challenge_rate: float = 0.0,
        spot_check: str = "everyone",
    ) -> None:
        if not 0.0 < prior_trust < 1.0:
            raise ValueError(f"prior_trust must be in (0, 1), got {prior_trust!r}")
        super().__init__(
            seed, reuse=reuse, early_challenge_rate=early_challenge_rate, spot_check=spot_check
        )
        self.model = shipped_model() if model is None else model
        self.prior_trust = prior_trust
        self._view = None
        self._read: tuple[dict, dict[int, float]] | None = None

    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        """The heuristic's decision, with the Safe values of :meth:`location_memo`."""
        self._view, self._read = view, None
        try:
            return super().act(observation, view=view)
        finally:
            self._view, self._read = None, None

    def safe_beliefs(self, view) -> dict[int, dict[int, float]]:
        """Safe id -> {value: probability} of every board and held Safe of ``view``, as this bot
        believes them (what its decisions read)."""
        self._view, self._read = view, None
        try:
            return dict(_Ctx(self, view).beliefs())
        finally:
            self._view, self._read = None, None

    def reading(self, view) -> tuple[dict, dict[int, float]]:
        """(:func:`mark_records` of ``view``, each rival's weight): a rival's Marks are read by
        the model as far as its Marks on Safes this seat has seen behaved as the model says."""
        if self._read is None or self._view is not view:
            records = mark_records(view)
            odds = dict.fromkeys(
                range(view.num_players), math.log(self.prior_trust / (1 - self.prior_trust))
            )
            for sid, (state, marks) in records.items():
                safe = view.safes[sid]
                if safe.value is None:
                    continue
                location = self.model.table(view.num_players, view.location_values[safe.location])
                if location is None:
                    continue
                for owner, face, flag in marks:
                    ratio = mark_ratio(location, state, face, flag, safe.value)
                    odds[owner] += max(-RATIO_CLIP, min(RATIO_CLIP, math.log(max(ratio, 1e-9))))
            weights = {seat: 1.0 / (1.0 + math.exp(-o)) for seat, o in odds.items()}
            self._read = (records, weights)
        return self._read

    def location_memo(
        self,
        loc: int,
        seat: int,
        values: Sequence[int],
        here: tuple,
        unused_known: Sequence[int],
        trust: Mapping[int, float],
    ) -> _LocationMemo:
        """The posterior of the location's unseen Safes given the Marks and moves on them
        (:class:`MarkModel`, :func:`joint_marginals`); the heuristic's beliefs where the model
        has no table for the location."""
        view = self._view
        values = tuple(values)
        table = None if view is None else self.model.table(view.num_players, values)
        if table is None:
            return super().location_memo(loc, seat, values, here, unused_known, trust)
        records, weights = self.reading(view)
        unseen = [safe for safe in here if safe.value is None]
        evidence = tuple(records[safe.id] for safe in unseen)
        owners = sorted({owner for _, marks in evidence for owner, _, _ in marks})
        key = (
            "marks",
            view.num_players,
            seat,
            values,
            here,
            tuple(unused_known),
            evidence,
            tuple(round(weights[o], 6) for o in owners),
        )
        memo = self._locations.get(loc)
        if self.reuse and memo is not None and memo.key == key:
            return memo
        remaining = Counter(values)
        remaining.subtract(safe.value for safe in here if safe.value is not None)
        remaining.subtract(unused_known)
        likes = [likelihood(table, state, marks, weights) for state, marks in evidence]
        marginals = None
        if all(c >= 0 for c in remaining.values()):
            marginals = joint_marginals({v: c for v, c in remaining.items() if c > 0}, likes)
        if marginals is None:  # records the model cannot explain: the heuristic's beliefs
            return super().location_memo(loc, seat, values, here, unused_known, trust)
        beliefs = {safe.id: {safe.value: 1.0} for safe in here if safe.value is not None}
        beliefs.update((safe.id, dist) for safe, dist in zip(unseen, marginals))
        memo = _LocationMemo(key, beliefs, here)
        if self.reuse:
            self._locations[loc] = memo
        return memo
