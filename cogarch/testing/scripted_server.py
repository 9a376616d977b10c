"""A scripted OpenAI-compatible server on 127.0.0.1 whose answers are a function of the request.

Where :class:`~cogarch.testing.fault_server.FaultServer` replays behaviours, this one answers
each ``POST /v1/chat/completions`` with ``answer(body)``: the text content, computed from the
request body (its messages, response format...). Requests are recorded as the fault server
records them::

    with ScriptedServer(lambda body: '{"facts": []}') as server:
        ...  # a provider with base_url=server.base_url
        assert server.hits == 2
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogarch.testing.fault_server import FaultServer
from cogarch.testing.fault_steps import Step

Answer = Callable[[dict[str, Any]], str]


class ScriptedServer(FaultServer):
    """An OpenAI-compatible endpoint whose every answer is ``answer(request body)``.

    Args:
        answer: Gives the reply text of a chat request from its JSON body.
        **options: The :class:`FaultServer` settings (a script of failures, token counts,
            cache reports...).
    """

    def __init__(self, answer: Answer, **options: Any) -> None:
        super().__init__(**options)
        self.answer = answer

    def _completion(self, body: Any, step: Step, *, content: str | None = None) -> dict[str, Any]:
        if content is None and step.kind == "ok":
            content = self.answer(body if isinstance(body, dict) else {})
        return super()._completion(body, step, content=content)
