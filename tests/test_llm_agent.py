"""Language-model agents: agents.make("llm") against a local stub of an OpenAI-compatible chat
server (127.0.0.1, started by the test: no network), and the TextArena wrapper driven by a
scripted TextArena-style agent over whole games."""

from __future__ import annotations

import http.server
import json
import random
import re
import threading
from collections.abc import Callable, Iterator

import pytest

import agents
from agents.driver import play_game
from agents.llm import SYSTEM_PROMPT, LLMAgent
from granujas_env import text
from granujas_env.engine import Game
from granujas_env.engine.snapshot import digest
from granujas_env.env import raw_env

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
