"""The Bang! advantage probe (train/bang_q.py): candidates, leak-free features, records, report."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from agents.bang_dice.heuristic import BangHeuristic
from agents.bang_dice.search import decision_candidates
from granujas_env.bang_dice.codecs import LAYOUT
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.view import seat_view
from train import bang_q
from train.bang_q import FEATURES, features


def _decisions(seed: int, players: int = 5):
    """(game, view, observation, heuristic, its action) at every decision with a choice of
    heuristic games dealt from ``seed`` on."""
    for deal in itertools.count(seed):
        for decision in bang_q.heuristic_decisions(deal, players):
            if len(decision[0].legal_actions()) > 1:
                yield decision


def test_candidates_hold_the_heuristic_action_and_are_legal():
    seen = set()
    for game, view, _obs, _bot, base in itertools.islice(_decisions(3), 200):
        legal = game.legal_actions()
        cands = decision_candidates(view, legal, base)
        assert base in cands and set(cands) <= set(legal)
        if view.decision == "reroll":
            assert A.STOP in cands and max(legal) in cands and len(cands) <= 3 + A.NUM_DICE
        else:
            assert cands == legal
        seen.add(view.decision)
    assert {"reroll", "shoot"} <= seen


def test_features_read_only_what_the_seat_may_know():
    """Swapping two hidden roles (neither the decider's nor public) leaves the features alone."""
    checked = 0
    for game, view, obs, bot, _base in itertools.islice(_decisions(5), 60):
        x = features(obs["observation"], view, bot)
        assert x.shape == (FEATURES,) and np.all(np.isfinite(x))
        hidden = [s for s in range(game.num_players)
                  if s != view.seat and s != game.sheriff and not game.role_revealed[s]]
        pair = [s for s in hidden if game.roles[s] != game.roles[hidden[0]]][:1] if hidden else []
        if not pair:
            continue
        a, b = hidden[0], pair[0]
        roles = list(game.roles)
        roles[a], roles[b] = roles[b], roles[a]
        other = game.with_roles(roles)
        twin = BangHeuristic(seed=0)
        x2 = features(LAYOUT.encode(other, view.seat), seat_view(other, view.seat), twin)
        assert np.array_equal(x, x2)
        checked += 1
    assert checked > 10


def test_collect_records_advantages_against_the_heuristic_action(tmp_path):
    out = tmp_path / "q.npz"
    data = bang_q.collect(100, 2, branch=0.3, playouts=2, out=out)
    assert out.exists()
    assert len(data["x"]) > 0 and data["x"].shape[1] == FEATURES
    assert np.all(data["advantage"][data["is_base"] == 1] == 0.0)
    assert np.all(np.abs(data["advantage"]) <= 1.0)
    assert set(np.unique(data["point"])) == set(range(len(data["x"])))
    again = bang_q.collect(100, 2, branch=0.3, playouts=2)
    for key in data:
        assert np.array_equal(data[key], again[key]), key


def _planted(seed: int, decisions: int) -> dict[str, np.ndarray]:
    """Records where rerolling every rerollable die wins half a game more than the heuristic's
    mask and any other candidate loses half a game."""
    points, rows = [], []
    for game, view, obs, bot, base in itertools.islice(_decisions(seed), decisions):
        if view.decision != "reroll":
            continue
        legal = game.legal_actions()
        point = len(points)
        points.append(features(obs["observation"], view, bot))
        for a in decision_candidates(view, legal, base):
            value = 0.0 if a == base else (0.5 if a == max(legal) else -0.5)
            rows.append((point, a, value, a == base, 0))
    columns = list(zip(*rows))
    return {
        "x": np.array(points, dtype=np.float16),
        "point": np.array(columns[0], dtype=np.int64),
        "action": np.array(columns[1], dtype=np.int8),
        "advantage": np.array(columns[2], dtype=np.float32),
        "is_base": np.array(columns[3], dtype=np.int8),
        "kind": np.array(columns[4], dtype=np.int8),
    }


def test_report_finds_a_planted_advantage(tmp_path):
    data = _planted(7, 1500)
    result = bang_q.report(data, epochs=30)
    stop = result["reroll_changes"]["stop"]
    assert stop["n"] > 0 and stop["mean"] == -0.5
    by_role = [v for k, v in result["by_kind_and_role"].items() if k.startswith("reroll")]
    assert sum(v["n"] for v in by_role) == int((data["is_base"] == 0).sum())
    first = result["held_out_deviations"][0]
    assert first["margin"] == 0.0 and first["decisions"] > 10
    # the network found the planted deviation: most held-out decisions deviate, and gain
    assert first["deviations"] / first["decisions"] > 0.7
    assert first["advantage_per_deviation"]["mean"] > 0.3
    np.savez(tmp_path / "planted.npz", **data)
    assert bang_q.main(["report", str(tmp_path / "planted.npz"), "--epochs", "2", "--json",
                        str(tmp_path / "out.json")]) == 0
    assert json.loads((tmp_path / "out.json").read_text())["kind"] == "advantage_probe"


def test_bad_records_and_arguments_are_refused(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not records")
    with pytest.raises(ValueError, match="bad.npz"):
        bang_q.load([bad])
    np.savez(tmp_path / "short.npz", x=np.zeros((2, 3)), point=np.zeros(2), action=np.zeros(2),
             advantage=np.zeros(2), is_base=np.zeros(2), kind=np.zeros(2))
    with pytest.raises(ValueError, match="short.npz"):
        bang_q.load([tmp_path / "short.npz"])
    with pytest.raises(ValueError, match="no advantage records"):
        bang_q.load([])
    for kwargs, word in (({"games": 0}, "games"), ({"games": 1, "playouts": 0}, "playouts"),
                         ({"games": 1, "branch": 0.0}, "branch")):
        with pytest.raises(ValueError, match=word):
            bang_q.collect(1, **kwargs)
