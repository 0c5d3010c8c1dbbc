"""The tournament's bluff statistics count only challenge decisions (issue 27 item 4): a bluff
revealed by a henchman that a card effect or the Ayudante del sheriff's pre-emption put on it is
"revealed", not "caught", so against a bot that never challenges the caught rate is exactly 0."""

from __future__ import annotations

import http.server
import json
import re
import threading

from agents import make
from agents.driver import game_stats, play_game
from granujas_env.engine import actions as A
from granujas_env.record import replay, resume
from train.tournament import main as tournament
from train.tournament import run_tournament, summarize


def _decided_challenges(record) -> set[tuple[int, int, int, int]]:
    """``(day, challenger, card owner, slot)`` of the record's challenge decisions answered
    confirm, found by replaying it (the engine logs pre-emptions as challenges too)."""
    decided = set()
    steps = iter(record.steps)
    logged = 0
    for game in replay(record):
        step = next(steps)
        new = game.history[logged:]
        logged = len(game.history)
        if step.decision == "challenge" and step.action == A.CONFIRM:
            decided |= {e[1:] for e in new if e[0] == "challenge"}
    return decided


def _bluff_reveals(game, seat: int) -> list[tuple]:
    return [e for e in game.history if e[0] == "reveal" and e[5] and e[2] == seat]


def test_a_never_challenging_opponent_catches_nothing() -> None:
    records = run_tournament(["heuristic", "style_never_challenge"], 24, seed=3)
    heuristic, never = summarize(["heuristic", "style_never_challenge"], records)["entries"]
    assert heuristic["caught_rate"] == 0.0
    # its bluffs were revealed all the same (pre-emptions, card effects): the figure the caught
    # rate used to show (4-8% in the shipped gauntlets)
    assert heuristic["totals"]["bluffs_revealed"] > 0 and heuristic["revealed_rate"] > 0
    assert never["totals"]["challenges_made"] == 0 and never["challenge_precision"] is None
    assert never["challenge_recall"] == 0.0
    # the heuristic challenges: its rival is caught
    assert never["caught_rate"] > 0 and heuristic["totals"]["challenges_made"] > 0


def test_a_pre_emption_reveals_but_does_not_catch() -> None:
    bots = [make("heuristic"), make("style_never_challenge")]
    result = play_game({"num_players": 2}, bots, seed=1, bot_seeds=[1, 1], record=True)
    game = resume(result["record"])
    preempted = {e[1:] for e in game.history if e[0] == "challenge" and e[2] == 1}
    assert preempted and not _decided_challenges(result["record"]) & preempted
    reveals = _bluff_reveals(game, 0)
    assert len(reveals) == 1 and reveals[0][6] == (1,)
    heuristic, never = result["stats"]
    assert (heuristic["bluffs_revealed"], heuristic["bluffs_caught"]) == (1, 0)
    assert (never["challenges_made"], never["challenges_correct"]) == (0, 0)
    # from the engine's log alone a pre-emption cannot be told from a challenge
    assert game_stats(game)[0]["bluffs_caught"] == 1


def test_caught_counts_exactly_the_challenge_decisions() -> None:
    """4 players, the honest bot (never challenges) beside three heuristics: on this deal a
    henchman placed by a card effect reveals a bluff; every seat's figures match the record."""
    bots = [make("honest"), make("heuristic"), make("heuristic"), make("heuristic")]
    result = play_game({"num_players": 4}, bots, seed=5, bot_seeds=[5] * 4, record=True)
    game = resume(result["record"])
    decided = _decided_challenges(result["record"])
    placed = {(e[1], e[3], e[4], e[5]) for e in game.history if e[0] == "place_henchman"}
    by_effect = [
        e
        for e in game.history
        if e[0] == "reveal" and e[5] and all((e[1], o, e[2], e[3]) in placed for o in e[6])
    ]
    assert len(by_effect) == 1
    for seat, stats in enumerate(result["stats"]):
        reveals = _bluff_reveals(game, seat)
        caught = [e for e in reveals if any((e[1], o, seat, e[3]) in decided for o in e[6])]
        assert stats["bluffs_revealed"] == len(reveals)
        assert stats["bluffs_caught"] == len(caught)
        assert stats["challenges_made"] == sum(1 for d in decided if d[1] == seat)
    assert result["stats"][0]["challenges_made"] == 0
    victim = by_effect[0][2]
    assert result["stats"][victim]["bluffs_caught"] < result["stats"][victim]["bluffs_revealed"]


class _ChatStub(http.server.BaseHTTPRequestHandler):
    """An OpenAI-compatible chat endpoint on 127.0.0.1: request n (from 1) fails with HTTP 500
    when n % 7 == 0, else gets garbage when n % 5 == 0, else the lowest id of the last menu."""

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        tally = self.server.tally
        tally["requests"] += 1
        n = tally["requests"]
        if n % 7 == 0:
            tally["errors"] += 1
            status, payload = 500, b"overloaded"
        else:
            prompt = "".join(m["content"] for m in body["messages"])  # a retry: the last menu
            menu = prompt[prompt.rindex("Legal actions") :]
            answer = "no idea" if n % 5 == 0 else "Action: " + re.search(r"(\d+)\)", menu)[1]
            tally["garbage"] += n % 5 == 0
            status = 200
            payload = json.dumps({"choices": [{"message": {"content": answer}}]}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


def test_the_tournament_reports_a_language_model_agents_counters(monkeypatch, tmp_path) -> None:
    """agents/llm.py through the tournament: calls, real answers, invalid answers, errors and
    fallbacks in the JSON, the invalid rate over real answers (failed requests are none)."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _ChatStub)
    httpd.tally = {"requests": 0, "errors": 0, "garbage": 0}
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        monkeypatch.setenv("GRANUJAS_LLM_URL", f"http://127.0.0.1:{httpd.server_address[1]}/v1")
        monkeypatch.setenv("GRANUJAS_LLM_MODEL", "stub")
        out = tmp_path / "rows.json"
        agents = "llm:retry_wait=0,random"
        assert tournament(["--agents", agents, "--games", "2", "--json", str(out), "--quiet"]) == 0
    finally:
        httpd.shutdown()
        httpd.server_close()
    llm, rand = json.loads(out.read_text())
    counts, tally = llm["text_counters"], httpd.tally
    assert counts["calls"] == tally["requests"] > 50
    assert counts["errors"] == tally["errors"] > 0
    assert counts["invalid_answers"] == tally["garbage"] > 0
    assert counts["answers"] == tally["requests"] - tally["errors"]
    assert llm["invalid_answer_rate"] == tally["garbage"] / (tally["requests"] - tally["errors"])
    assert {"decisions", "fallbacks"} <= set(counts) and counts["decisions"] > 0
    assert rand["text_counters"] is None and rand["invalid_answer_rate"] is None
