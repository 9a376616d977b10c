"""An OpenAI-compatible endpoint on 127.0.0.1 that answers through cogarch's model layer.

A third-party library that makes its own model calls with its own OpenAI client (Mem0,
MemoryOS, A-Mem) is pointed at this endpoint instead of a model server. Each request is
answered by ``ChatModel.complete`` of the provider its *session* is bound to, so the call is
metered (usage tables, traces), seeded and cached like any call cogarch makes itself.

- One server per process, started on first use (a daemon thread, ``127.0.0.1``, a free port);
  nothing else can reach it.
- A :class:`ProxySession` per library instance: the library's API key is the session's token,
  which is how a request finds its session. Before each library operation the session is
  bound (:meth:`ProxySession.bind`) to the model, the caller name, the seed, the event loop
  and the context (the trial's meters and tracer) of the operation.
- The library must run its blocking call in a worker thread (``asyncio.to_thread``) while the
  event loop stays free: each request is answered by a task on the bound loop, created in the
  bound context, even when the library makes the request from a thread pool of its own.
- The request's temperature and ``max_tokens`` are kept, the latter capped by the provider's
  own ``max_tokens``; the seed is the bound one (the trial's).
- ``response_format`` ``json_object`` asks for a JSON object, ``json_schema`` for its schema;
  tools and streaming are refused. A failed call answers HTTP 400 (which OpenAI clients do not
  retry) and is kept in the session's ``errors``.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import secrets
import threading
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from autogen_core.models import LLMMessage
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from cogarch.core.model import ChatModel, Completion
from cogarch.errors import CogarchError, ConfigError
from cogarch.io import loads_json
from cogarch.models.messages import assistant, system, user

REQUEST_TIMEOUT_S = 3600.0
"""The longest a request waits for its answer."""
MAX_BODY_BYTES = 8 * 2**20
"""The largest request body read (a library's prompt is a few hundred kB at most)."""
MAX_BODY_DEPTH = 64
"""The deepest nesting of a request body's JSON."""
BACKLOG = 256
"""Connections the server's socket queues: the libraries' own thread pools send bursts."""
READ_TIMEOUT_S = 60.0
"""The longest the server waits for the rest of a request the client is sending."""


class _Request(BaseModel):
    """The fields of a chat completion request the proxy reads, each checked (a request that
    fails is answered 400, naming the field)."""

    model_config = ConfigDict(extra="allow")

    messages: list[Any] = Field(min_length=1)
    temperature: float | None = Field(default=None, ge=0.0, le=2.0, allow_inf_nan=False)
    max_tokens: StrictInt | None = Field(default=None, ge=1, le=10_000_000)
    max_completion_tokens: StrictInt | None = Field(default=None, ge=1, le=10_000_000)
    stream: bool | None = None
    response_format: dict[str, Any] | None = None
    model: str | None = None


def checked_body(raw: bytes) -> dict[str, Any]:
    """A request body as the JSON object it must be, its fields checked (``ValueError``
    naming what is wrong otherwise: bad JSON, nesting past ``MAX_BODY_DEPTH``, a number out of
    range, a list where a number belongs, a response schema that is not an object)."""
    body = loads_json(raw, max_depth=MAX_BODY_DEPTH)
    if not isinstance(body, dict):
        raise ValueError("the body must be a JSON object")
    try:
        _Request.model_validate(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the body"
        raise ValueError(f"{where}: {first['msg']}") from None
    response_schema_of(body)
    return body


@dataclass
class Binding:
    """What a session's requests are answered with, for the operation under way."""

    model: ChatModel
    caller: str
    role: str | None
    seed: int | None
    loop: asyncio.AbstractEventLoop
    context: contextvars.Context


@dataclass
class ProxySession:
    """One library instance's way into the proxy (see the module docstring)."""

    token: str
    base_url: str
    binding: Binding | None = None
    requests: int = 0
    errors: list[str] = field(default_factory=list)

    def bind(
        self, model: ChatModel, *, caller: str, role: str | None = None, seed: int | None = None
    ) -> None:
        """Answer this session's requests with ``model`` from now on, metered as ``caller``,
        in the current event loop and context (call it from the operation's coroutine)."""
        self.binding = Binding(
            model=model,
            caller=caller,
            role=role,
            seed=seed,
            loop=asyncio.get_running_loop(),
            context=contextvars.copy_context(),
        )

    def unbind(self) -> None:
        self.binding = None

    def take_errors(self) -> list[str]:
        """The errors since the last call, cleared."""
        taken, self.errors = self.errors, []
        return taken


class ModelProxy:
    """The process's proxy server; get it with :func:`get_proxy`."""

    def __init__(self) -> None:
        self._sessions: weakref.WeakValueDictionary[str, ProxySession] = (
            weakref.WeakValueDictionary()
        )
        self._lock = threading.Lock()
        handler = type("_BoundProxyHandler", (_Handler,), {"proxy": self})
        self._httpd = _QuietServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.1},
            daemon=True,
            name="cogarch-model-proxy",
        )
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def session(self) -> ProxySession:
        """A new session (keep a reference: an unreferenced session is forgotten)."""
        session = ProxySession(token=f"cogarch-{secrets.token_hex(12)}", base_url=self.base_url)
        with self._lock:
            self._sessions[session.token] = session
        return session

    def find(self, token: str) -> ProxySession | None:
        with self._lock:
            return self._sessions.get(token)


_PROXY: ModelProxy | None = None
_PROXY_LOCK = threading.Lock()


def get_proxy() -> ModelProxy:
    """The process's proxy, started on first use."""
    global _PROXY
    with _PROXY_LOCK:
        if _PROXY is None:
            _PROXY = ModelProxy()
        return _PROXY


def to_messages(raw: Any) -> list[LLMMessage]:
    """OpenAI chat messages as cogarch's (AutoGen) messages; text content only."""
    if not isinstance(raw, list) or not raw:
        raise ValueError("'messages' must be a non-empty list")
    out: list[LLMMessage] = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise ValueError("each message must be an object")
        role, content = item.get("role"), item.get("content")
        if isinstance(content, list):
            content = "".join(
                str(part.get("text", "")) for part in content if isinstance(part, Mapping)
            )
        text = "" if content is None else str(content)
        if role in ("system", "developer"):
            out.append(system(text))
        elif role == "user":
            out.append(user(text))
        elif role == "assistant":
            out.append(assistant(text))
        else:
            raise ValueError(f"unsupported message role {role!r}")
    return out


def response_schema_of(body: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The JSON schema a request's ``response_format`` asks for (None: free text)."""
    fmt = body.get("response_format")
    if not isinstance(fmt, Mapping) or fmt.get("type") in (None, "text"):
        return None
    if fmt.get("type") == "json_object":
        return {"title": "json_object", "type": "object"}
    if fmt.get("type") == "json_schema":
        spec = fmt.get("json_schema") or {}
        found = spec.get("schema") if isinstance(spec, Mapping) else None
        if not isinstance(spec, Mapping) or not isinstance(found, Mapping | None):
            raise ValueError("response_format.json_schema must be an object whose schema is one")
        schema = dict(found or {"type": "object"})
        schema.setdefault("title", str(spec.get("name", "response")))
        return schema
    raise ValueError(f"unsupported response_format type {fmt.get('type')!r}")


async def answer(binding: Binding, body: Mapping[str, Any]) -> Completion:
    """The bound model's answer to a chat completion request."""
    if body.get("stream"):
        raise ValueError("streaming is not supported by the proxy")
    if body.get("tools") or body.get("functions"):
        raise ValueError("tool calls are not supported by the proxy")
    messages = to_messages(body.get("messages"))
    schema = response_schema_of(body)
    temperature = body.get("temperature")
    limit = body.get("max_completion_tokens") or body.get("max_tokens")
    cap = getattr(binding.model, "max_tokens", None)
    if isinstance(cap, int) and (limit is None or int(limit) > cap):
        limit = cap  # the provider's limit bounds the library's, as it bounds cogarch's calls
    return await binding.model.complete(
        messages,
        caller=binding.caller,
        role=binding.role,
        seed=binding.seed,
        response_schema=schema,
        temperature=None if temperature is None else float(temperature),
        max_tokens=None if limit is None else int(limit),
    )


def completion_body(completion: Completion, model: str) -> dict[str, Any]:
    usage = completion.usage
    return {
        "id": f"chatcmpl-cogarch-{secrets.token_hex(6)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": completion.content},
                "finish_reason": "stop" if completion.finish_reason != "length" else "length",
            }
        ],
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "total_tokens": usage.prompt_tokens + usage.completion_tokens,
        },
    }


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = BACKLOG

    def handle_error(self, request: Any, client_address: Any) -> None:
        return None


class _Handler(BaseHTTPRequestHandler):
    proxy: ModelProxy
    protocol_version = "HTTP/1.1"
    timeout = READ_TIMEOUT_S

    def log_message(self, format: str, *args: Any) -> None:
        return None

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/v1/models":
            data = [{"id": "cogarch-proxy", "object": "model", "created": 0, "owned_by": "cogarch"}]
            self._send(200, {"object": "list", "data": data})
        else:
            self._error(404, f"no route for GET {self.path}")

    def do_POST(self) -> None:
        """Route and token are checked before a byte of the body is read (a refused request's
        body is never read: its connection is closed); then the declared length is checked
        and the body read, bounded; every malformed request is answered 400."""
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._refuse(404, f"no route for POST {self.path}")
            return
        token = (self.headers.get("Authorization") or "").removeprefix("Bearer ").strip()
        session = self.proxy.find(token)
        if session is None:
            self._refuse(401, "unknown session: the API key must be a proxy session's token")
            return
        binding = session.binding
        if binding is None:
            self._refuse(409, "the session is not bound to a model (no operation under way)")
            return
        length = self._length()
        if length is None:
            return
        raw = self.rfile.read(length)
        if len(raw) != length:
            self._refuse(400, "the body ended before its Content-Length")
            return
        session.requests += 1
        try:
            body = checked_body(raw)
            completion = self._run(binding, body)
        except (ValueError, CogarchError, TimeoutError) as exc:
            message = f"{type(exc).__name__}: {exc}"
            session.errors.append(message)
            self._error(400, message)
            return
        except Exception as exc:  # a request no check foresaw still gets its answer
            message = f"the request could not be answered ({type(exc).__name__}: {exc})"
            session.errors.append(message)
            self._error(400, message)
            return
        self._send(200, completion_body(completion, str(body.get("model") or "")))

    def _length(self) -> int | None:
        """The request's declared body length, when it is one the proxy reads (else the
        request is refused and None returned)."""
        declared = self.headers.get_all("Content-Length") or []
        if len(declared) != 1 or not declared[0].strip().isdigit():
            self._refuse(400, "a request needs one Content-Length, a whole number of bytes")
            return None
        length = int(declared[0])
        if length > MAX_BODY_BYTES:
            self._refuse(413, f"the body is larger than the {MAX_BODY_BYTES} bytes read")
            return None
        return length

    def _refuse(self, status: int, message: str) -> None:
        """Answer ``status`` without reading the body, and close the connection (what is
        left of the request is never read as another one)."""
        self.close_connection = True
        self._error(status, message)

    def _run(self, binding: Binding, body: Mapping[str, Any]) -> Completion:
        async def in_context() -> Completion:
            task = asyncio.get_running_loop().create_task(
                answer(binding, body), context=binding.context.copy()
            )
            return await task

        if binding.loop.is_closed():
            raise ConfigError("the event loop of the session's operation has closed")
        future = asyncio.run_coroutine_threadsafe(in_context(), binding.loop)
        return future.result(timeout=REQUEST_TIMEOUT_S)

    def _error(self, status: int, message: str) -> None:
        kind = "invalid_request_error" if status < 500 else "server_error"
        self._send(status, {"error": {"message": message, "type": kind, "code": str(status)}})

    def _send(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()
