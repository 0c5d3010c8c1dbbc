"""A bot that plays through a language model behind any OpenAI-compatible chat endpoint.

    bot = agents.make("llm", url="http://127.0.0.1:8000/v1", model="qwen2.5-7b-instruct")
    python -m granujas_env.play --agents llm,heuristic,heuristic   # url/model from GRANUJAS_LLM_*

At each decision the agent sends ``POST {url}/chat/completions`` with a system message (the
game, the answer format) and a user message: the seat's text observation
(:func:`granujas_env.text.text_observation`: the public events since the agent's last decision,
the table as the seat sees it, the decision and the menu of legal actions). The reply is read by
:func:`granujas_env.text.parse_action` (an id, ``Action: 12``, ``{"action": 12}``, an action name
or a phrase from one menu line).

Retry budget: an answer that is not a legal action is sent back with the parser's message and the
question asked again; a failed request (HTTP error, timeout, a reply without a message) is retried
after ``retry_wait`` seconds. Each decision gets at most ``1 + retries`` requests; when none gave
a legal action, the agent plays the **default action: the lowest legal id**, which is ``pass``
(decline, do not challenge, end the step) whenever passing is legal.

Counters (kept over the agent's life; :meth:`reset` does not clear them, so a tournament can read
totals): ``decisions`` (``act`` calls), ``calls`` (requests sent), ``invalid_answers`` (replies
that were not a legal action), ``errors`` (failed requests), ``fallbacks`` (decisions settled by
the default action). The invalid-answer rate is ``invalid_answers / calls``.

Only the standard library is used (``urllib``); no request leaves the machine unless ``url``
says so. ``url``, ``model`` and ``api_key`` default to the environment variables
``GRANUJAS_LLM_URL``, ``GRANUJAS_LLM_MODEL`` and ``GRANUJAS_LLM_API_KEY``.
"""

from __future__ import annotations

import http.client
import json
import os
import time
import urllib.request
from collections.abc import Mapping
from typing import Any

import numpy as np

from agents.base import Agent, legal_actions
from granujas_env.text import RULES_SUMMARY, legal_action_menu, parse_action, text_observation
from granujas_env.view import SeatView

__all__ = ["LLMAgent", "SYSTEM_PROMPT", "LLMRequestError"]

SYSTEM_PROMPT = RULES_SUMMARY + " Answer with exactly one line: Action: <id>"


class LLMRequestError(RuntimeError):
    """A chat request failed (HTTP error, timeout, malformed reply)."""


class LLMAgent(Agent):
    """Plays each decision by asking a chat model; see the module docstring.

    Args:
        url: base URL of the OpenAI-compatible API (``.../v1``); ``/chat/completions`` is added.
        model: the model name sent with each request.
        api_key: sent as ``Authorization: Bearer``; None sends no key.
        retries: extra requests per decision after an invalid answer or a failed request.
        retry_wait: seconds to wait before retrying a failed request.
        timeout: seconds to wait for one reply.
        temperature, max_tokens: sent with each request (``max_tokens`` only if given).
        system_prompt: replaces :data:`SYSTEM_PROMPT`.
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
        temperature: float = 0.0,
        max_tokens: int | None = None,
        system_prompt: str = SYSTEM_PROMPT,
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
        self.endpoint = url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key if api_key is not None else os.environ.get("GRANUJAS_LLM_API_KEY")
        self.retries = retries
        self.retry_wait = retry_wait
        self.timeout = timeout
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.system_prompt = system_prompt
        self.seed = seed
        self.seen = 0  # public events of the view's history already sent
        self.decisions = self.calls = self.invalid_answers = self.errors = self.fallbacks = 0

    def reset(self, seed: int | None = None) -> None:
        """A new game: events are narrated from its start again. The counters keep counting."""
        self.seen = 0
        if seed is not None:
            self.seed = seed

    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        """Ask the model until it names a legal action or the retry budget is spent."""
        if not isinstance(view, SeatView):
            raise ValueError("LLMAgent needs the seat's view: act(observation, "
                             "view=env.seat_view(agent))")
        legal = [int(a) for a in legal_actions(observation)]
        menu = legal_action_menu(view)
        names = {item.id: (item.name, item.meaning) for item in menu}
        self.decisions += 1
        messages = [
            {"role": "system", "content": self.system_prompt},
            # a new game without reset(): narrate it from its start
            {"role": "user", "content": text_observation(
                view, since=self.seen if self.seen <= len(view.history) else 0)},
        ]
        self.seen = len(view.history)
        for _ in range(1 + self.retries):
            try:
                answer = self._ask(messages)
            except LLMRequestError:
                self.errors += 1
                if self.retry_wait > 0:
                    time.sleep(self.retry_wait)
                continue
            try:
                return parse_action(answer, legal, names)
            except ValueError as exc:
                self.invalid_answers += 1
                messages += [
                    {"role": "assistant", "content": answer},
                    {"role": "user", "content": f"That is not a legal action: {exc}. "
                                                "Answer with one line: Action: <id>"},
                ]
        self.fallbacks += 1
        return min(legal)

    def _ask(self, messages: list[dict[str, str]]) -> str:
        """One chat request; the reply's text. Raises :class:`LLMRequestError`."""
        body: dict[str, Any] = {"model": self.model, "messages": messages,
                                "temperature": self.temperature}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if self.seed is not None:
            body["seed"] = self.seed
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(
            self.endpoint, data=json.dumps(body).encode(), headers=headers, method="POST"
        )
        self.calls += 1
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                reply = json.loads(response.read().decode("utf-8"))
        except (OSError, ValueError, http.client.HTTPException) as exc:  # OSError: URLError, timeouts
            raise LLMRequestError(f"{self.endpoint}: {exc}") from exc
        try:
            content = reply["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise LLMRequestError(f"{self.endpoint}: no choices[0].message.content in the "
                                  f"reply") from exc
        if not isinstance(content, str):
            raise LLMRequestError(f"{self.endpoint}: the message content is not text")
        return content

    def __repr__(self) -> str:
        return f"LLMAgent({self.endpoint!r}, model={self.model!r})"
