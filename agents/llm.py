"""A bot that plays through a language model behind any OpenAI-compatible chat endpoint.

    bot = agents.make("llm", url="http://127.0.0.1:8000/v1", model="qwen2.5-7b-instruct")
    python -m granujas_env.play --agents llm,heuristic,heuristic   # url/model from GRANUJAS_LLM_*
    python -m granujas_env.play --game bang-dice --agents llm,heuristic,heuristic,heuristic,random

One agent plays every game: the game's words come from its text interface
(:func:`granujas_env.core.textio.text_for`, found from the seat view the agent is handed:
3000 Granujas in :mod:`granujas_env.text`, Bang! The Dice Game in
:mod:`granujas_env.bang_dice.prompts`). At each decision the agent sends
``POST {url}/chat/completions`` with a system message (the game's rules summary and the answer
format, :func:`system_prompt`) and the seat's text observation (the narrated public events, the
table as the seat sees it, the decision in plain words and the menu of legal actions).
``history`` says which events each request carries:

* ``"recent"`` (default): the events since the agent's last decision, in a fresh two-message chat;
* ``"full"``: every event since the game began, in a fresh two-message chat;
* ``"conversation"``: one chat per game that grows: each decision adds a user message (the new
  events, the table, the menu) and the model's answers stay in it.

Events are narrated by the game's narrator (granujas: with the cause of every change,
:class:`granujas_env.text.Narrator`); a driver that calls :meth:`LLMAgent.observe` after every
action (``python -m granujas_env.play`` does) gets each change tied to the action that made it.

The reply is read by :func:`granujas_env.core.textio.parse_action` (an id, ``Action: 12``,
``{"action": 12}``, an action name or words that begin one menu line). A reply that gives two
different answers (``Action: 12`` then ``Action: 13``, or two JSON objects) is an invalid answer,
whichever comes first.

Time and size limits: ``deadline`` seconds for a whole decision (every request, retry and wait
together) and ``timeout`` seconds for one request, each counted from its start to the reply's
last byte (a server that trickles its reply is cut off, not waited for read by read); a reply
body over ``max_reply_bytes`` is refused. Both end as failed requests.

Retry budget: an answer that is not a legal action is sent back with the parser's message and the
question asked again; a failed request (HTTP error, timeout, oversized or malformed reply) is
retried after ``retry_wait`` seconds. Each decision gets at most ``1 + retries`` requests within
its deadline; when none gave a legal action, the agent plays the **default action: the lowest
legal id**, which is ``pass`` (decline, do not challenge, end the step) whenever passing is legal
in granujas, and "keep all and resolve" at a Bang! reroll.

Counters (kept over the agent's life; :meth:`reset` does not clear them, so a tournament can read
totals; :meth:`counters` returns them as a dict): ``decisions`` (``act`` calls), ``calls``
(requests sent), ``answers`` (replies that arrived and held a message: the real answers),
``invalid_answers`` (real answers that were not one legal action), ``errors`` (failed requests:
``calls == answers + errors``), ``fallbacks`` (decisions settled by the default action). The
invalid-answer rate is ``invalid_answers / answers`` (:meth:`invalid_rate`).

Only the standard library is used (``http.client``); no request leaves the machine unless
``url`` says so (no proxy is consulted). ``url``, ``model`` and ``api_key`` default to the
environment variables ``GRANUJAS_LLM_URL``, ``GRANUJAS_LLM_MODEL`` and ``GRANUJAS_LLM_API_KEY``.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import threading
import time
import urllib.parse
from collections.abc import Mapping
from typing import Any

import numpy as np

from agents.base import Agent, legal_actions
from granujas_env.core.textio import menu_names, parse_action, text_for
from granujas_env.text import RULES_SUMMARY

__all__ = ["ANSWER_FORMAT", "HISTORY_MODES", "LLMAgent", "SYSTEM_PROMPT", "LLMRequestError",
           "system_prompt"]

ANSWER_FORMAT = " Answer with exactly one line: Action: <id>"
#: the system message of a granujas game (:func:`system_prompt` gives every game's)
SYSTEM_PROMPT = RULES_SUMMARY + ANSWER_FORMAT
HISTORY_MODES = ("recent", "full", "conversation")
COUNTERS = ("decisions", "calls", "answers", "invalid_answers", "errors", "fallbacks")


def system_prompt(view: object) -> str:
    """The system message for the game whose seat view ``view`` is: its rules summary and the
    answer format."""
    return text_for(view).rules_summary + ANSWER_FORMAT


class LLMRequestError(RuntimeError):
    """A chat request failed (HTTP error, timeout, oversized or malformed reply)."""


class LLMAgent(Agent):
    """Plays each decision by asking a chat model; see the module docstring.

    Args:
        url: base URL of the OpenAI-compatible API (``.../v1``); ``/chat/completions`` is added.
        model: the model name sent with each request.
        api_key: sent as ``Authorization: Bearer``; None sends no key.
        retries: extra requests per decision after an invalid answer or a failed request.
        retry_wait: seconds to wait before retrying a failed request.
        timeout: seconds for one request, from its start to the reply's last byte.
        deadline: seconds for one decision, all its requests and waits together (default:
            ``timeout * (1 + retries)``).
        max_reply_bytes: the largest reply body read; a longer one is a failed request.
        history: ``"recent"``, ``"full"`` or ``"conversation"`` (see the module docstring).
        temperature, max_tokens: sent with each request (``max_tokens`` only if given).
        system_prompt: replaces the game's system message (:func:`system_prompt`).
        seed: sent with each request (some servers sample with it); ``reset(seed)`` changes it.
    """

    name = "llm"
    wants_view = True

    def __init__(
        self,
        url: str | None = None,
        model: str | None = None,
        *,
        api_key: str | None = None,
        retries: int = 2,
        retry_wait: float = 1.0,
        timeout: float = 60.0,
        deadline: float | None = None,
        max_reply_bytes: int = 1 << 20,
        history: str = "recent",
        temperature: float = 0.0,
        max_tokens: int | None = None,
        system_prompt: str | None = None,
        seed: int | None = None,
    ) -> None:
        url = url or os.environ.get("GRANUJAS_LLM_URL")
        model = model or os.environ.get("GRANUJAS_LLM_MODEL")
        if not url or not model:
            raise ValueError(
                "the llm agent needs url= and model= (or the environment variables "
                "GRANUJAS_LLM_URL and GRANUJAS_LLM_MODEL), e.g. "
                "agents.make('llm', url='http://127.0.0.1:8000/v1', model='my-model')"
            )
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"url must start with http:// or https://, got {url!r}")
        if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
            raise ValueError(f"retries must be an int >= 0, got {retries!r}")
        for label, value in (("timeout", timeout), ("deadline", deadline)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                                      or not value > 0):
                raise ValueError(f"{label} must be a number of seconds > 0, got {value!r}")
        if isinstance(max_reply_bytes, bool) or not isinstance(max_reply_bytes, int) \
                or max_reply_bytes < 1:
            raise ValueError(f"max_reply_bytes must be an int >= 1, got {max_reply_bytes!r}")
        if history not in HISTORY_MODES:
            raise ValueError(f"history must be one of {', '.join(HISTORY_MODES)}, got {history!r}")
        self.endpoint = url.rstrip("/") + "/chat/completions"
        self._target = urllib.parse.urlsplit(self.endpoint)
        self.model = model
        self.api_key = api_key if api_key is not None else os.environ.get("GRANUJAS_LLM_API_KEY")
        self.retries = retries
        self.retry_wait = retry_wait
        self.timeout = float(timeout)
        self.deadline = float(deadline) if deadline is not None else self.timeout * (1 + retries)
        self.max_reply_bytes = max_reply_bytes
        self.history = history
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.system_prompt = system_prompt
        self.seed = seed
        self.decisions = self.calls = self.answers = 0
        self.invalid_answers = self.errors = self.fallbacks = 0
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        """A new game: events are narrated from its start again, the conversation starts anew.
        The counters keep counting."""
        self.narrator: Any = None
        self.log: list[str] = []  # every narrated line of this game
        self.sent = 0  # lines of the log already sent
        self.messages: list[dict[str, str]] = []  # the conversation (history="conversation")
        if seed is not None:
            self.seed = seed

    def counters(self) -> dict[str, int]:
        """The counters (see the module docstring) as a dict."""
        return {name: getattr(self, name) for name in COUNTERS}

    def invalid_rate(self) -> float | None:
        """Invalid answers over real answers (None before the first answer)."""
        return self.invalid_answers / self.answers if self.answers else None

    def observe(self, view: object, *, every_action: bool = True) -> None:
        """Narrate what happened since the last call; call it after every action of the game
        for the finest causes (public events only)."""
        text = text_for(view)
        if self.narrator is None or len(text.history(view)) < self.narrator.seen:
            self.reset(self.seed)  # a new game without reset(): narrate it from its start
            self.narrator = text.narrator(view, every_action=every_action)
        self.log += self.narrator.update(view)

    def _events(self, view: object) -> str:
        # not observed after every action: the changes in between are summed
        self.observe(view, every_action=False)
        lines = self.log if self.history == "full" else self.log[self.sent:]
        self.sent = len(self.log)
        return "\n".join(lines)

    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        """Ask the model until it names a legal action, the retry budget is spent or the
        decision's deadline passes."""
        try:
            text = text_for(view)
        except TypeError as exc:
            raise ValueError(f"LLMAgent needs the seat's view: act(observation, "
                             f"view=env.seat_view(agent)) ({exc})") from None
        end = time.monotonic() + self.deadline
        legal = [int(a) for a in legal_actions(observation)]
        names = menu_names(text.menu(view))
        self.decisions += 1
        prompt = {"role": "user", "content": text.observation(view, events=self._events(view))}
        system = self.system_prompt if self.system_prompt is not None else system_prompt(view)
        if self.history == "conversation":
            if not self.messages:
                self.messages.append({"role": "system", "content": system})
            self.messages.append(prompt)
            messages = self.messages
        else:
            messages = [{"role": "system", "content": system}, prompt]
        for attempt in range(1 + self.retries):
            left = end - time.monotonic()
            if left <= 0:
                break
            try:
                answer = self._ask(messages, min(self.timeout, left))
            except LLMRequestError:
                self.errors += 1
                wait = min(self.retry_wait, end - time.monotonic())
                if wait > 0 and attempt < self.retries:
                    time.sleep(wait)
                continue
            self.answers += 1
            try:
                action = parse_action(answer, legal, names, yes_no=text.yes_no)
            except ValueError as exc:
                self.invalid_answers += 1
                messages += [
                    {"role": "assistant", "content": answer},
                    {"role": "user", "content": f"That is not a legal action: {exc}. "
                                                "Answer with one line: Action: <id>"},
                ]
                continue
            if self.history == "conversation":
                messages.append({"role": "assistant", "content": answer})
            return action
        self.fallbacks += 1
        if self.history == "conversation":  # keep the turns alternating for the next decision
            messages.append({"role": "assistant", "content": f"(no usable answer: the default "
                                                             f"action {min(legal)} was played)"})
        return min(legal)

    def _ask(self, messages: list[dict[str, str]], limit: float) -> str:
        """One chat request that must end within ``limit`` seconds; the reply's text. Raises
        :class:`LLMRequestError`."""
        body: dict[str, Any] = {"model": self.model, "messages": messages,
                                "temperature": self.temperature}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if self.seed is not None:
            body["seed"] = self.seed
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        self.calls += 1
        raw = self._post(json.dumps(body).encode(), headers, limit)
        try:
            reply = json.loads(raw.decode("utf-8"))
            content = reply["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise LLMRequestError(f"{self.endpoint}: no choices[0].message.content in the "
                                  f"reply") from exc
        if not isinstance(content, str):
            raise LLMRequestError(f"{self.endpoint}: the message content is not text")
        return content

    def _post(self, data: bytes, headers: dict[str, str], limit: float) -> bytes:
        """POST ``data``; the reply body. The exchange runs in a worker thread so that the whole
        of it, however slowly the server sends, ends within ``limit`` seconds: past it the
        connection is shut, which ends the worker's read."""
        target = self._target
        kind = http.client.HTTPSConnection if target.scheme == "https" else \
            http.client.HTTPConnection
        connection = kind(target.hostname or "", target.port, timeout=limit)
        path = target.path + (f"?{target.query}" if target.query else "")
        outcome: dict[str, Any] = {}

        def exchange() -> None:
            try:
                connection.request("POST", path, body=data, headers=headers)
                response = connection.getresponse()
                length = response.getheader("Content-Length", "")
                if length.isdigit() and int(length) > self.max_reply_bytes:
                    raise LLMRequestError(f"the reply announces {length} bytes, over the "
                                          f"{self.max_reply_bytes}-byte cap")
                payload = response.read(self.max_reply_bytes + 1)
                if len(payload) > self.max_reply_bytes:
                    raise LLMRequestError(f"the reply is over the {self.max_reply_bytes}-byte cap")
                if not 200 <= response.status < 300:
                    raise LLMRequestError(f"HTTP {response.status}: "
                                          f"{payload[:200].decode('utf-8', 'replace')}")
                outcome["payload"] = payload
            except (OSError, http.client.HTTPException, LLMRequestError) as exc:
                outcome["error"] = exc
            finally:
                connection.close()

        worker = threading.Thread(target=exchange, name="llm-request", daemon=True)
        worker.start()
        worker.join(limit)
        if worker.is_alive():
            sock = connection.sock
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)  # wakes the worker's blocked read
                except OSError:
                    pass  # already closed by the worker
            raise LLMRequestError(f"{self.endpoint}: no complete reply within {limit:.1f} s")
        if "error" in outcome:
            raise LLMRequestError(f"{self.endpoint}: {outcome['error']}") from outcome["error"]
        return outcome["payload"]

    def __repr__(self) -> str:
        return f"LLMAgent({self.endpoint!r}, model={self.model!r}, history={self.history!r})"
