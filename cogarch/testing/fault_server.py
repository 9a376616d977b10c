"""A fault-injecting OpenAI-compatible server on 127.0.0.1, for testing the model layer.

Each ``POST /v1/chat/completions`` takes the next behaviour from a script; when the script is
used up, the ``default`` behaviour answers. ``GET /v1/models`` lists the served model and does
not consume the script. Every chat request body and its headers are recorded, so a test can
check what reached the wire (seed, temperature, ``response_format``, messages, API key), and
the requests open at once are counted (``in_flight``, ``peak_in_flight``).

Behaviours (a string, or a :class:`Step` to set content, reasoning or usage per answer):

``ok``
    a normal ``chat.completion`` with usage; optionally with ``reasoning_content``.
``<status>`` (``429``, ``500``, ``503``, ``400``, any 4xx/5xx)
    an OpenAI-style error body with that status.
``delay:<seconds>``
    wait that long (longer than the client's timeout, typically), then answer ``ok``.
``drop``
    read the request, then close the connection without a response.
``malformed``
    a complete 200 response whose body is not JSON.
``truncated``
    a 200 response that declares the full ``Content-Length`` but stops in the middle of the
    JSON body and closes the connection (what a crashed server or a cut network produces).
``empty``
    a normal completion whose content is ``""``.
``no_tool_call``
    plain text content where a tool call was expected.
``tool_call``
    a proper ``tool_calls`` answer (the first requested tool, unless the step names one).

Answers can report a prompt cache, as caching servers do: ``cached_tokens`` (per server: a
number, or a function of the request body; per step: a number) says how many prompt tokens
were served from the cache, and ``cache_report`` where the answer says so: ``details``
(``usage.prompt_tokens_details.cached_tokens``, as OpenAI, vLLM and SGLang), ``timings``
(llama.cpp's top-level ``timings`` with ``cache_n`` and ``prompt_n``) or ``both``. Without
``cached_tokens`` an answer reports no cache at all.

Only the standard library is used, so the server runs wherever the tests run::

    with FaultServer(["429", "500", "ok"]) as server:
        client = make_client(base_url=server.base_url)
        ...
        assert server.hits == 3
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Final, Self

from cogarch.models.guard import allow_model_requests, model_requests_allowed
from cogarch.testing.fault_steps import CACHE_REPORTS, STATUS_PATTERN, CacheReport, Step

_ERROR_TYPES: Final = {
    400: "invalid_request_error",
    401: "authentication_error",
    404: "not_found_error",
    429: "rate_limit_error",
}


@dataclass(frozen=True)
class RecordedRequest:
    """A chat completion request as the server received it."""

    body: Any
    """The parsed JSON body (the raw text if it was not JSON)."""
    headers: dict[str, str]
    """Header names in lower case."""
    step: Step
    """The behaviour that answered it."""


class FaultServer:
    """An OpenAI-compatible endpoint that misbehaves on cue; see the module docstring.

    Args:
        script: The behaviours of the first requests, in order: names (``"ok"``, ``"429"``,
            ``"delay:1.5"``...) or :class:`Step` objects.
        default: The behaviour once the script is used up.
        content: The answer text of a step that gives none.
        prompt_tokens: The prompt tokens each answer reports, unless its step says.
        completion_tokens: The completion tokens each answer reports, unless its step says.
        model: The model name in answers (None: the request's model).
        cached_tokens: Prompt tokens each answer says were served from the cache: a number, a
            function of the request body (None: no report for that answer), or None (no
            reports).
        cache_report: Where answers report them: ``details``, ``timings`` or ``both``.
        keep_alive: Keep a connection open after an answer, as a production server does
            (default: every answer closes its connection).

    Raises:
        ValueError: ``cache_report`` is none of the three, or a script entry names no known
            behaviour.
    """

    def __init__(
        self,
        script: Iterable[str | Step] = (),
        *,
        default: str | Step = "ok",
        content: str = "Hello from the fault server.",
        prompt_tokens: int = 11,
        completion_tokens: int = 7,
        model: str | None = None,
        cached_tokens: int | Callable[[Any], int | None] | None = None,
        cache_report: CacheReport = "details",
        keep_alive: bool = False,
    ) -> None:
        if cache_report not in CACHE_REPORTS:
            raise ValueError(f"unknown cache report '{cache_report}'; use one of {CACHE_REPORTS}")
        self._script: deque[Step] = deque(Step.parse(s) for s in script)
        self.default = Step.parse(default)
        self.content = content
        self.prompt_tokens = prompt_tokens
        self.completion_tokens = completion_tokens
        self.model = model
        """The model name in answers; ``None`` echoes the request's model."""
        self.cached_tokens = cached_tokens
        """Prompt tokens each answer says were served from the cache: a number, a function of
        the request body (None: no report for that answer), or None (no reports)."""
        self.cache_report: CacheReport = cache_report
        self.keep_alive = keep_alive
        """Keep a connection open after an answer, as a production server does (by default
        every answer closes its connection, so each request opens a new one)."""
        self.requests: list[RecordedRequest] = []
        self.model_list_hits = 0
        self.in_flight = 0
        """Chat completion requests read and not yet answered."""
        self.peak_in_flight = 0
        """The most chat completion requests ever open at once."""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> Self:
        if self._httpd is not None:
            return self
        handler = type("_BoundHandler", (_Handler,), {"fault_server": self})
        httpd = _QuietServer(("127.0.0.1", 0), handler)
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            daemon=True,
            name=f"fault-server-{self.port}",
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving; pending delays end at once and their answers are dropped."""
        if self._httpd is None:
            return
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()  # joins the handler threads
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- what tests read -------------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the fault server is not running; use it as a context manager")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """The OpenAI base URL, ``http://127.0.0.1:<port>/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def hits(self) -> int:
        """How many chat completion requests arrived (answered or not)."""
        with self._lock:
            return len(self.requests)

    @property
    def bodies(self) -> list[Any]:
        with self._lock:
            return [r.body for r in self.requests]

    @property
    def served(self) -> list[str]:
        """The behaviour given to each request, in order (``delay:<s>`` for delays)."""
        with self._lock:
            return [r.step.label for r in self.requests]

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._script)

    def push(self, *steps: str | Step) -> None:
        """Append behaviours to the script."""
        parsed = [Step.parse(s) for s in steps]
        with self._lock:
            self._script.extend(parsed)

    # -- used by the handler ---------------------------------------------------------------

    def _take(self, body: Any, headers: dict[str, str]) -> Step:
        with self._lock:
            step = self._script.popleft() if self._script else self.default
            self.requests.append(RecordedRequest(body, headers, step))
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        return step

    def _done(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _completion(self, body: Any, step: Step, *, content: str | None = None) -> dict[str, Any]:
        request = body if isinstance(body, dict) else {}
        message: dict[str, Any] = {"role": "assistant"}
        finish = "stop"
        if step.kind == "tool_call":
            name = step.tool_name or _first_tool(request) or "tool"
            message["content"] = None
            message["tool_calls"] = [
                {
                    "id": f"call_{len(self.requests)}",
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(step.tool_arguments)},
                }
            ]
            finish = "tool_calls"
        else:
            text = content if content is not None else step.content
            message["content"] = self.content if text is None else text
            if step.reasoning is not None:
                message["reasoning_content"] = step.reasoning
        prompt = self.prompt_tokens if step.prompt_tokens is None else step.prompt_tokens
        completion = (
            self.completion_tokens if step.completion_tokens is None else step.completion_tokens
        )
        answer: dict[str, Any] = {
            "id": f"chatcmpl-fault-{len(self.requests)}",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": self.model or str(request.get("model", "fault-model")),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            },
        }
        cached = self._cached_tokens(body, step)
        if cached is not None:
            where = step.cache_report or self.cache_report
            if where in ("details", "both"):
                answer["usage"]["prompt_tokens_details"] = {"cached_tokens": cached}
            if where in ("timings", "both"):
                answer["timings"] = {
                    "cache_n": cached,
                    "prompt_n": max(0, prompt - cached),
                    "prompt_ms": 1.0,
                    "predicted_n": completion,
                    "predicted_ms": 1.0,
                }
        return answer

    def _cached_tokens(self, body: Any, step: Step) -> int | None:
        if step.cached_tokens is not None:
            return step.cached_tokens
        if callable(self.cached_tokens):
            return self.cached_tokens(body)
        return self.cached_tokens


def _first_tool(request: dict[str, Any]) -> str | None:
    tools = request.get("tools")
    if isinstance(tools, list) and tools and isinstance(tools[0], dict):
        name = tools[0].get("function", {}).get("name")
        return str(name) if name else None
    return None


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # connections waiting to be accepted (the default 5 drops bursts)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that timed out or went away is expected here; nothing to report.
        return None


class _Handler(BaseHTTPRequestHandler):
    fault_server: FaultServer
    protocol_version = "HTTP/1.1"
    timeout = 10  # seconds a silent client may hold a handler thread

    def log_message(self, format: str, *args: Any) -> None:
        return None

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/v1/models":
            with self.fault_server._lock:
                self.fault_server.model_list_hits += 1
            model = self.fault_server.model or "fault-model"
            data = [{"id": model, "object": "model", "created": 0, "owned_by": "cogarch"}]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_error(404, f"no route for GET {self.path}")

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send_error(404, f"no route for POST {self.path}")
            return
        try:
            body: Any = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace")
        headers = {k.lower(): v for k, v in self.headers.items()}
        server = self.fault_server
        step = server._take(body, headers)
        try:
            self._serve(step, body)
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the client gave up first (e.g. its timeout)
        finally:
            server._done()

    def _serve(self, step: Step, body: Any) -> None:
        server = self.fault_server
        kind = step.kind
        if STATUS_PATTERN.match(kind):
            self._send_error(int(kind), f"injected fault: HTTP {kind}")
        elif kind == "delay":
            if server._stop.wait(step.delay_s):
                self.close_connection = True  # shutting down: drop the late answer
                return
            self._send_json(200, server._completion(body, step))
        elif kind == "drop":
            self.close_connection = True
        elif kind == "malformed":
            self._send_bytes(200, b'{"id": "chatcmpl-fault", "choices": [oops, not json}')
        elif kind == "truncated":
            whole = json.dumps(server._completion(body, step)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(whole)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(whole[: len(whole) // 2])
            self.wfile.flush()
            self.close_connection = True
        elif kind == "empty":
            self._send_json(200, server._completion(body, step, content=""))
        elif kind == "no_tool_call":
            text = step.content or "I would call the tool, but here is my answer in plain text."
            self._send_json(200, server._completion(body, step, content=text))
        else:  # ok, tool_call
            self._send_json(200, server._completion(body, step))

    def _send_error(self, status: int, message: str) -> None:
        error = {
            "message": message,
            "type": _ERROR_TYPES.get(status, "server_error" if status >= 500 else "api_error"),
            "param": None,
            "code": str(status),
        }
        extra = {"Retry-After": "0"} if status == 429 else {}
        self._send_bytes(status, json.dumps({"error": error}).encode(), extra)

    def _send_json(self, status: int, payload: Any) -> None:
        self._send_bytes(status, json.dumps(payload).encode())

    def _send_bytes(self, status: int, data: bytes, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if not self.fault_server.keep_alive:
            self.send_header("Connection", "close")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()


@contextmanager
def allowing_model_requests() -> Iterator[None]:
    """Let real clients call out for a block (the test suite refuses them by default).

    A ``Model`` whose client is a real OpenAI client pointed at a :class:`FaultServer` counts
    as a real model, so tests that use the server switch the guard on for their duration only
    and restore the previous state afterwards.

    Returns:
        A context manager: real requests are allowed inside its block.
    """
    previous = model_requests_allowed()
    allow_model_requests(True)
    try:
        yield
    finally:
        allow_model_requests(previous)
