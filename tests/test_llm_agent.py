"""Language-model agents: agents.make("llm") against a local stub of an OpenAI-compatible chat
server (127.0.0.1, started by the test: no network), and the TextArena wrapper driven by a
scripted TextArena-style agent over whole games."""

from __future__ import annotations

import http.server
import json
import random
import re
import threading
import time
from collections.abc import Callable, Iterator

import pytest

import agents
from agents.driver import play_game, text_counters
from agents.llm import ANSWER_FORMAT, SYSTEM_PROMPT, LLMAgent, LLMRequestError
from granujas_env import play, text
from granujas_env.bang_dice.engine.data import CHARACTERS
from granujas_env.bang_dice.engine.game import BangGame
from granujas_env.bang_dice.prompts import RULES_SUMMARY as BANG_RULES
from granujas_env.engine import Game
from granujas_env.engine.snapshot import digest
from granujas_env.env import raw_env
from granujas_env.play import main as play_main
from train import roles

MENU_LINE = re.compile(r"^ *(\d+)\) (\S+) +(.*)$", re.M)


def menu_of(prompt: str) -> list[tuple[str, str, str]]:
    """(id, name, meaning) of the last menu shown in ``prompt``."""
    return MENU_LINE.findall(prompt[prompt.rindex("Legal actions (id, name, meaning):"):])


class Stub(http.server.BaseHTTPRequestHandler):
    """Answers POST /v1/chat/completions with ``server.answer(body) -> (status, reply)``: a str
    reply is the model's message, a dict is sent as the whole JSON body, bytes as they are."""

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, dict(self.headers), body))
        status, reply = self.server.answer(body)
        if isinstance(reply, str):
            reply = {"choices": [{"message": {"role": "assistant", "content": reply}}]}
        payload = json.dumps(reply).encode() if isinstance(reply, dict) else reply
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[Callable[[Callable], str]]:
    """Start a stub on 127.0.0.1 with the given answer function; yields its /v1 URL."""
    servers = []

    def start(answer: Callable) -> str:
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
        httpd.answer, httpd.requests = answer, []
        threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        servers.append(httpd)
        start.httpd = httpd
        return f"http://127.0.0.1:{httpd.server_address[1]}/v1"

    yield start
    for httpd in servers:
        httpd.shutdown()
        httpd.server_close()


STYLES = ("id", "label", "json", "name", "meaning", "garbage", "error")


class Scripted:
    """Answers each decision in the next style of STYLES; a garbage answer or an HTTP error is
    followed by a legal id on the retry. Records what it meant to choose."""

    def __init__(self) -> None:
        self.decision = 0
        self.intended: list[int] = []
        self.served = {style: 0 for style in STYLES}
        self.pending: int | None = None  # the choice of a decision being retried

    def __call__(self, body: dict) -> tuple[int, str | bytes]:
        if self.pending is not None:  # the retry after garbage or an error: a bare id
            action, self.pending = self.pending, None
            return 200, str(action)
        menu = menu_of(body["messages"][1]["content"])
        action, name, meaning = menu[self.decision % len(menu)]
        style = STYLES[self.decision % len(STYLES)]
        self.decision += 1
        self.intended.append(int(action))
        self.served[style] += 1
        if style in ("garbage", "error"):
            self.pending = int(action)
            return (500, b"overloaded") if style == "error" else (200, "I am not sure, sorry!")
        return 200, {"id": action, "label": f"Let me think.\nAction: {action}",
                     "json": json.dumps({"action": int(action)}), "name": name,
                     "meaning": meaning}[style]


class Recording(LLMAgent):
    def act(self, observation, view=None) -> int:
        action = super().act(observation, view)
        self.returned.append(action)
        return action


def test_llm_agent_plays_a_whole_game_through_the_stub(server) -> None:
    script = Scripted()
    url = server(script)
    bot = Recording(url=url, model="stub-model", retry_wait=0)
    bot.returned = []
    result = play_game({"num_players": 3}, [agents.make("random"), bot, agents.make("random")],
                       seed=7, bot_seeds=[0, 1, 2])
    assert result["winner"] is not None
    assert bot.returned == script.intended  # every answer style was read as meant
    assert bot.decisions == len(script.intended) > 2 * len(STYLES)
    assert bot.invalid_answers == script.served["garbage"] > 0
    assert bot.errors == script.served["error"] > 0
    assert bot.calls == len(server.httpd.requests) == (
        bot.decisions + script.served["garbage"] + script.served["error"])
    assert bot.fallbacks == 0
    path, headers, body = server.httpd.requests[0]
    assert path == "/v1/chat/completions"
    assert body["model"] == "stub-model" and body["temperature"] == 0.0
    assert "Authorization" not in headers
    assert body["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}


def test_the_prompt_is_the_seats_text_observation_and_retries_carry_the_reason(server) -> None:
    url = server(lambda body: (200, "banana"))
    bot = agents.make("llm", url=url, model="m", retries=2, retry_wait=0, api_key="sk-test",
                      max_tokens=20, seed=3)
    env = raw_env(num_players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    view = env.seat_view(agent)
    action = bot.act(env.observe(agent), view)
    legal = list(view.legal_actions)
    assert action == min(legal)  # the documented default: the lowest legal id
    assert (bot.decisions, bot.calls, bot.invalid_answers, bot.errors, bot.fallbacks) == (
        1, 3, 3, 0, 1)
    requests = server.httpd.requests
    first, last = requests[0][2], requests[-1][2]
    assert first["messages"][1] == {"role": "user",
                                    "content": text.text_observation(view, since=0)}
    assert (first["max_tokens"], first["seed"]) == (20, 3)
    assert requests[0][1]["Authorization"] == "Bearer sk-test"
    assert last["messages"][2] == {"role": "assistant", "content": "banana"}
    assert last["messages"][3]["content"].startswith(
        "That is not a legal action: 'banana' is not a legal action; legal options: ")
    assert len(last["messages"]) == 6  # system, question, then two answers and two corrections


@pytest.mark.parametrize(
    "reply",
    [(200, b"not json"), (404, b"no such model"), (200, {"choices": []}),
     (200, {"choices": [{"message": {"content": 12}}]})],
)
def test_failed_requests_are_errors_then_the_default(server, reply) -> None:
    url = server(lambda body: reply)
    bot = LLMAgent(url=url, model="m", retries=1, retry_wait=0)
    env = raw_env(num_players=2)
    env.reset(seed=1)
    agent = env.agent_selection
    action = bot.act(env.observe(agent), env.seat_view(agent))
    assert action == min(env.seat_view(agent).legal_actions)
    assert (bot.calls, bot.errors, bot.invalid_answers, bot.fallbacks) == (2, 2, 0, 1)


def test_an_unreachable_endpoint_is_an_error_not_a_crash() -> None:
    bot = LLMAgent(url="http://127.0.0.1:9/v1", model="m", retries=0, retry_wait=0, timeout=2)
    env = raw_env(num_players=2)
    env.reset(seed=2)
    agent = env.agent_selection
    assert bot.act(env.observe(agent), env.seat_view(agent)) == min(
        env.seat_view(agent).legal_actions)
    assert (bot.calls, bot.errors, bot.fallbacks) == (1, 1, 1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "the llm agent needs url= and model="),
        ({"url": "ftp://x", "model": "m"}, "url must start with http:// or https://"),
        ({"url": "http://x", "model": "m", "retries": -1}, "retries must be an int >= 0"),
    ],
)
def test_bad_settings_are_clear_errors(kwargs: dict, message: str, monkeypatch) -> None:
    monkeypatch.delenv("GRANUJAS_LLM_URL", raising=False)
    monkeypatch.delenv("GRANUJAS_LLM_MODEL", raising=False)
    with pytest.raises(ValueError, match=message):
        agents.make("llm", **kwargs)


def test_settings_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("GRANUJAS_LLM_URL", "http://127.0.0.1:8000/v1/")
    monkeypatch.setenv("GRANUJAS_LLM_MODEL", "local")
    bot = agents.make("llm")
    assert (bot.endpoint, bot.model) == ("http://127.0.0.1:8000/v1/chat/completions", "local")
    with pytest.raises(ValueError, match="needs the seat's view"):
        bot.act({"action_mask": [1]}, None)


# ------------------------------------------------------------------------------------ TextArena
def scripted_textarena_agent(seed: int) -> Callable[[str], str]:
    """A TextArena-style agent (observation string -> action string): reads the menu in the
    observation and answers by id, name or ``Action:``; every 40th answer is garbage."""
    rng = random.Random(seed)
    count = [0]

    def agent(observation: str) -> str:
        count[0] += 1
        if count[0] % 40 == 0:
            return "hmm"
        action, name, _ = rng.choice(menu_of(observation))
        return rng.choice([action, f"[{name}]", f"Action: {action}"])

    return agent


def test_textarena_agents_play_a_whole_game() -> None:
    ta = pytest.importorskip("textarena")
    from granujas_env.textarena_env import ENV_ID

    env = ta.make(ENV_ID)
    env.reset(num_players=3, seed=11)
    players = {pid: scripted_textarena_agent(pid) for pid in range(3)}
    done, steps, garbage = False, 0, {0: 0, 1: 0, 2: 0}
    while not done:
        player_id, observation = env.get_observation()
        assert f"You are p{player_id} in a 3-player game" in observation
        action = players[player_id](observation)
        garbage[player_id] += action == "hmm"
        done, _ = env.step(action=action)
        steps += 1
    rewards, game_info = env.close()
    game = env.game  # TextArena's wrappers pass attributes through
    assert game.game_over and rewards == dict(enumerate(game.returns()))
    assert sorted(rewards.values()) == [-0.5, -0.5, 1.0]
    for pid in range(3):
        assert game_info[pid]["invalid_answers"] == garbage[pid]
        assert game_info[pid]["default_actions"] == 0
    assert sum(garbage.values()) > 0
    assert sum(info["turn_count"] for info in game_info.values()) == steps - sum(garbage.values())


def test_textarena_answers_stay_private_and_repeated_errors_play_the_default() -> None:
    ta = pytest.importorskip("textarena")
    from granujas_env.textarena_env import ENV_ID

    env = ta.make(f"{ENV_ID}-raw", error_allowance=1)
    env.reset(num_players=2, seed=3)
    game = env.game
    first = game.current_player
    expected = Game(game.config, seed=3)
    expected.apply(min(expected.legal_actions()))  # the default action
    assert env.step("nonsense") == (False, {})
    admin = [m for m in env.state.observations[first] if m[2] == ta.ObservationType.GAME_ADMIN]
    assert f"p{first} attempted an invalid move: 'nonsense' is not a legal action" in admin[-1][1]
    assert digest(game) == digest(Game(game.config, seed=3))  # nothing applied yet
    assert env.step("still nonsense") == (False, {})  # the second wrong answer: the default
    assert digest(game) == digest(expected)
    info = env.state.game_info[first]
    assert (info["invalid_answers"], info["default_actions"], info["invalid_move"]) == (2, 1, True)
    echoed = [(pid, sender) for pid, messages in env.state.observations.items()
              for sender, _, kind in messages if kind == ta.ObservationType.PLAYER_ACTION]
    assert echoed == [(first, first), (first, first)]  # answers go to their author only


def test_textarena_env_rejects_bad_options_and_steps() -> None:
    pytest.importorskip("textarena")
    from granujas_env.textarena_env import GranujasTextArenaEnv

    with pytest.raises(ValueError, match="game_length must be one of"):
        GranujasTextArenaEnv(game_length="medium")
    with pytest.raises(ValueError, match="error_allowance must be an int >= 0"):
        GranujasTextArenaEnv(error_allowance=-1)
    with pytest.raises(RuntimeError, match=r"call reset\(num_players=...\) before step"):
        GranujasTextArenaEnv().step("0")


# ------------------------------------------------------------------------------------ limits
class SlowStub(http.server.BaseHTTPRequestHandler):
    """Replies in the way ``server.mode`` says, bounded in time and bytes and stopping by
    itself: "trickle" sends a valid reply one byte every 0.1 s (for at most 8 s);
    "huge" sends 2 MB with its Content-Length; "huge-unannounced" sends 2 MB without one."""

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers["Content-Length"]))
        self.server.requests += 1
        reply = json.dumps({"choices": [{"message": {"content": "Action: 0"}}]}).encode()
        mode = self.server.mode
        if mode.startswith("huge"):
            reply = b"x" * 2_000_000
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if mode != "huge-unannounced":
            self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        try:
            if mode == "trickle":
                stop = time.monotonic() + 8
                for byte in reply:
                    if time.monotonic() > stop:
                        break
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.1)
            else:
                self.wfile.write(reply)
        except OSError:
            pass  # the agent hung up: what the test wants
        self.close_connection = True

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def slow_server() -> Iterator[Callable[[str], str]]:
    servers = []

    def start(mode: str) -> str:
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SlowStub)
        httpd.mode, httpd.requests, httpd.daemon_threads = mode, 0, True
        threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        servers.append(httpd)
        start.httpd = httpd
        return f"http://127.0.0.1:{httpd.server_address[1]}/v1"

    yield start
    for httpd in servers:
        httpd.shutdown()
        httpd.server_close()


def _first_decision(seed: int = 0):
    env = raw_env(num_players=2)
    env.reset(seed=seed)
    agent = env.agent_selection
    return env.observe(agent), env.seat_view(agent)


def test_a_trickling_server_cannot_hold_a_decision_past_its_deadline(slow_server) -> None:
    url = slow_server("trickle")  # a whole reply would take about 6 s
    bot = LLMAgent(url=url, model="m", retries=5, retry_wait=0, timeout=0.6, deadline=1.5)
    observation, view = _first_decision()
    started = time.monotonic()
    action = bot.act(observation, view)
    elapsed = time.monotonic() - started
    assert action == min(view.legal_actions)  # the default action
    assert 1.4 < elapsed < 2.5  # the decision's deadline, not the number of reads
    assert bot.counters() == {"decisions": 1, "calls": 3, "answers": 0, "invalid_answers": 0,
                              "errors": 3, "fallbacks": 1}
    assert bot.invalid_rate() is None


def test_one_request_ends_at_its_timeout_however_slowly_it_arrives(slow_server) -> None:
    url = slow_server("trickle")
    bot = LLMAgent(url=url, model="m", retries=0, timeout=0.5)  # deadline: 0.5 s
    observation, view = _first_decision()
    started = time.monotonic()
    bot.act(observation, view)
    assert time.monotonic() - started < 0.9
    assert (bot.calls, bot.errors, bot.fallbacks) == (1, 1, 1)


@pytest.mark.parametrize("mode", ["huge", "huge-unannounced"])
def test_a_reply_over_the_size_cap_is_a_failed_request(slow_server, mode: str) -> None:
    url = slow_server(mode)
    bot = LLMAgent(url=url, model="m", retries=1, retry_wait=0, timeout=5,
                   max_reply_bytes=10_000)
    observation, view = _first_decision()
    assert bot.act(observation, view) == min(view.legal_actions)
    assert (bot.calls, bot.answers, bot.errors, bot.fallbacks) == (2, 0, 2, 1)
    with pytest.raises(LLMRequestError, match="over the 10000-byte cap"):
        bot._ask([{"role": "user", "content": "hi"}], 5)


def test_contradictory_answers_are_invalid_and_the_rate_is_over_real_answers(server) -> None:
    observation, view = _first_decision()
    a, b = view.legal_actions[:2]
    replies = iter([(500, b"down"), (200, f"Action: {b}\nAction: {a}"), (200, f"Action: {a}")])
    url = server(lambda body: next(replies))
    bot = LLMAgent(url=url, model="m", retries=2, retry_wait=0)
    assert bot.act(observation, view) == a
    assert bot.counters() == {"decisions": 1, "calls": 3, "answers": 2, "invalid_answers": 1,
                              "errors": 1, "fallbacks": 0}
    assert bot.invalid_rate() == 0.5
    correction = server.httpd.requests[-1][2]["messages"][-1]["content"]
    assert f"gives several answers ({b}, {a})" in correction


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"timeout": 0}, "timeout must be a number of seconds > 0"),
        ({"deadline": -1}, "deadline must be a number of seconds > 0"),
        ({"max_reply_bytes": 0}, "max_reply_bytes must be an int >= 1"),
        ({"history": "everything"}, "history must be one of recent, full, conversation"),
    ],
)
def test_bad_limits_and_modes_are_clear_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LLMAgent(url="http://127.0.0.1:1/v1", model="m", **kwargs)


# ------------------------------------------------------------------------------------ history
def _answer_last_menu(body: dict) -> tuple[int, str]:
    """A stub model: the first item of the menu in the last user message."""
    last = [m for m in body["messages"] if m["role"] == "user"][-1]["content"]
    return 200, f"Action: {menu_of(last)[0][0]}"


def _play_llm(server, history: str) -> tuple[LLMAgent, list[dict]]:
    url = server(_answer_last_menu)
    bot = LLMAgent(url=url, model="m", retry_wait=0, history=history)
    play_game({"num_players": 2}, [bot, agents.make("random")], seed=5, bot_seeds=[0, 1])
    return bot, [body for _, _, body in server.httpd.requests]


def test_recent_history_sends_the_events_since_the_last_decision(server) -> None:
    bot, bodies = _play_llm(server, "recent")
    assert bot.fallbacks == 0 and len(bodies) == bot.decisions > 20
    assert all(len(b["messages"]) == 2 for b in bodies)
    late = bodies[-1]["messages"][1]["content"]
    assert "--- day 2 begins" not in late  # the start of day 2 was sent before


def test_full_history_sends_every_event_since_the_game_began(server) -> None:
    bot, bodies = _play_llm(server, "full")
    assert all(len(b["messages"]) == 2 for b in bodies)
    late = bodies[-1]["messages"][1]["content"]
    assert "--- day 2 begins" in late and late.index("end of day:") < late.index("--- day 2")
    events = [b["messages"][1]["content"].split("\n\n=== 3000 Granujas")[0] for b in bodies]
    assert all(later.startswith(earlier) for earlier, later in zip(events, events[1:]))


def test_a_conversation_keeps_every_question_and_answer(server) -> None:
    bot, bodies = _play_llm(server, "conversation")
    last = bodies[-1]["messages"]
    assert [m["role"] for m in last] == ["system"] + ["user", "assistant"] * (bot.decisions - 1) \
        + ["user"]
    assert len(bodies[-1]["messages"]) == 2 * bot.decisions
    # each request is the previous one, its answer and the new question
    for earlier, later in zip(bodies, bodies[1:]):
        assert later["messages"][:len(earlier["messages"])] == earlier["messages"]
    bot.reset()
    assert bot.messages == [] and bot.log == []


# ------------------------------------------------------------------------------------ TextArena flags
@pytest.mark.parametrize("allowance", [0, 1])
def test_textarena_flags_only_the_player_whose_move_was_invalid(allowance: int) -> None:
    ta = pytest.importorskip("textarena")
    from granujas_env.textarena_env import ENV_ID

    env = ta.make(ENV_ID, error_allowance=allowance)
    env.reset(num_players=3, seed=3)
    done, culprit, other, culprit_wrong, other_wrong = False, None, None, 0, 0
    while not done:
        player_id, observation = env.get_observation()
        culprit = player_id if culprit is None else culprit
        if player_id == culprit and culprit_wrong <= allowance:  # wrong until the default
            culprit_wrong += 1
            answer = "nonsense"
        elif player_id != culprit and allowance and other_wrong == 0:  # one wrong, then right
            other, other_wrong = player_id, 1
            answer = "nonsense"
        else:
            answer = menu_of(observation)[0][0]
        done, _ = env.step(action=answer)
    _, game_info = env.close()
    assert game_info[culprit]["invalid_move"] is True
    assert (game_info[culprit]["invalid_answers"], game_info[culprit]["default_actions"]) == (
        allowance + 1, 1)
    for pid in set(range(3)) - {culprit}:
        assert game_info[pid]["invalid_move"] is False
        assert game_info[pid]["default_actions"] == 0
        assert game_info[pid]["invalid_answers"] == (pid == other)


def test_the_play_command_seats_a_language_model_and_narrates_every_action(
        server, monkeypatch, capsys) -> None:
    url = server(_answer_last_menu)
    monkeypatch.setenv("GRANUJAS_LLM_URL", url)
    monkeypatch.setenv("GRANUJAS_LLM_MODEL", "stub")
    assert play_main(["--agents", "llm,random", "--seed", "2"]) == 0
    assert "<- winner" in capsys.readouterr().out
    prompts = [body["messages"][1]["content"] for _, _, body in server.httpd.requests]
    assert len(prompts) > 20
    assert not any("since the last update" in p for p in prompts)  # fed after every action
    assert any("end of day: p" in p for p in prompts)


# ------------------------------------------------------------------------------------ Bang!
def _rows(prompt: str) -> dict[int, str]:
    """Seat -> its row of the last table shown in ``prompt``."""
    table = prompt[prompt.rindex("=== Bang! The Dice Game:"):]
    return {int(m.group(1)): m.group(0) for m in re.finditer(r"^[ >] p(\d) \(.*$", table, re.M)}


def test_a_language_model_plays_bang_and_no_prompt_holds_a_hidden_role(
        server, monkeypatch, capsys) -> None:
    """agents.make("llm") plays Bang! The Dice Game through the play command (its text is found
    from the seat view); the stub records every prompt: in each, the role of every seat still
    in play other than the model's own and the Sheriff's reads "role hidden"."""
    script = Scripted()
    url = server(script)
    monkeypatch.setenv("GRANUJAS_LLM_URL", url)
    monkeypatch.setenv("GRANUJAS_LLM_MODEL", "stub")
    made = []

    def spy(game: str, name: str, seed: int) -> object:
        bot = real(game, name, seed)
        made.append(bot)
        return bot

    real = play.make_seat_bot
    monkeypatch.setattr(play, "make_seat_bot", spy)
    assert play_main(["--game", "bang-dice", "--agents", "llm,heuristic,heuristic,heuristic,"
                      "heuristic", "--seed", "5"]) == 0
    assert "Winners: " in capsys.readouterr().out
    model = made[0]
    assert isinstance(model, LLMAgent)
    bodies = [body for _, _, body in server.httpd.requests]
    systems = {body["messages"][0]["content"] for body in bodies}
    assert systems == {BANG_RULES + ANSWER_FORMAT}
    assert BANG_RULES.startswith("You are playing Bang! The Dice Game")
    prompts = [m["content"] for body in bodies for m in body["messages"][1:] if m["role"] == "user"]
    game = BangGame(None, 5)  # the same deal
    sheriff = game.sheriff
    hidden_rows = 0
    for prompt in prompts:
        if "=== Bang! The Dice Game:" not in prompt:  # a retry's reason
            continue
        assert prompt.startswith(f"You are p0 ({CHARACTERS[game.characters[0]].name}) in a "
                                 f"5-player game of Bang! The Dice Game. Your role: "
                                 f"{game.roles[0].capitalize()}")
        for seat, row in _rows(prompt).items():
            if seat not in (0, sheriff) and "eliminated" not in row:
                assert "role hidden" in row and game.roles[seat].capitalize() not in row, row
                hidden_rows += 1
    assert hidden_rows > 20
    counters = model.counters()
    assert counters["decisions"] == script.decision
    assert counters["invalid_answers"] == script.served["garbage"] > 0
    assert counters["errors"] == script.served["error"] > 0
    assert counters["fallbacks"] == 0


def test_the_role_ratings_seat_a_language_model_whose_counters_give_its_invalid_rate(
        server) -> None:
    """train.roles (the Bang! ratings by role) plays a language model through its ``make`` hook,
    asking it without observe(); its counters, read as the tournament reads them, give its
    invalid-answer rate over real answers."""
    script = Scripted()
    url = server(script)
    built = []

    def make(name: str, seed: int | None = None) -> object:
        bot = (LLMAgent(url=url, model="stub", retry_wait=0, seed=seed) if name == "llm"
               else agents.make(name, game="bang-dice", seed=seed))
        built.append(bot)
        return bot

    record = roles.play_game("bang-dice", ["llm", "heuristic", "heuristic", "random"], 4, make)
    assert record["agents"] == ["llm", "heuristic", "heuristic", "random"]
    assert len(record["won"]) == 4 and any(record["won"])
    counts = text_counters(built[0])
    assert counts["decisions"] == script.decision > 0
    assert counts["invalid_answers"] == script.served["garbage"]
    assert counts["answers"] == script.decision + script.served["garbage"]
    assert all(text_counters(bot) is None for bot in built[1:])
