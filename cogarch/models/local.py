"""The embedded local model: llama.cpp's OpenAI-compatible server, run in-process.

:class:`LocalServer` loads a GGUF model with the ``xllamacpp`` engine and serves llama.cpp's
HTTP API on 127.0.0.1, so any OpenAI client can talk to it at :attr:`LocalServer.base_url`.
:func:`get_local_server` hands out one shared, lazily started server per distinct
:class:`LocalServerSettings`; concurrent requests are served by its parallel slots.

Memory: the default model needs about 2 GiB of RAM. ``n_ctx`` is the total context, split
evenly among the ``n_parallel`` slots, so size it as the longest prompt plus answer times the
number of slots (the default 8192 with 2 slots gives each request 4096 tokens).

Loading takes a few seconds and, with the current engine, holds the interpreter lock while
it runs: other Python threads (and an asyncio loop) pause until the model is loaded.
"""

from __future__ import annotations

import atexit
import errno
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
import weakref
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any, Final, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cogarch.errors import CogarchError
from cogarch.models.weights import LocalExtraMissingError, ensure_default_weights, verify_gguf

DEFAULT_MODEL_NAME: Final = "qwen2.5-coder-1.5b-instruct"

_QUIET_VERBOSITY: Final = 1  # llama.cpp log threshold: errors only
_VERBOSE_VERBOSITY: Final = 3  # informational messages, as llama-server prints by default
_HEALTH_POLL_S: Final = 0.1
_MIN_SLOT_CTX: Final = 256

Speculative = Literal["none", "ngram_simple", "ngram_map_k", "ngram_map_k4v", "ngram_mod"]
"""llama.cpp's draftless speculative decoding: the next tokens are guessed from n-grams of the
prompt and the answer so far and checked in one batch (no draft model)."""


class LocalServerError(CogarchError, RuntimeError):
    """The embedded model server could not be started or did not become ready."""


def _default_threads() -> int:
    return os.cpu_count() or 1


class LocalServerSettings(BaseModel):
    """How to run the embedded server. Immutable and hashable, so it can key shared servers."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    gguf_path: Path | None = Field(
        default=None,
        description="A GGUF model file; None uses the bundled default weights.",
    )
    gguf_sha256: str | None = Field(
        default=None,
        pattern=r"^[0-9a-fA-F]{64}$",
        description="Expected SHA-256 of gguf_path, checked before loading (optional).",
    )
    model_alias: str | None = Field(
        default=None,
        min_length=1,
        description="The model name the server reports; default: the weights' name.",
    )
    n_ctx: int = Field(default=8192, ge=_MIN_SLOT_CTX, description="Total context tokens.")
    n_parallel: int = Field(default=2, ge=1, le=64, description="Parallel request slots.")
    n_threads: int = Field(default_factory=_default_threads, ge=1, description="CPU threads.")
    n_predict: int = Field(
        default=-1,
        ge=-1,
        description="The most tokens the server generates for any one reply: requests that "
        "set no max_tokens stop there, and a larger max_tokens is cut to it (-1: no cap, "
        "until the slot context is full).",
    )
    speculative: Speculative = Field(
        default="none",
        description="Draftless n-gram speculative decoding (see ``Speculative``); 'none': off.",
    )
    prompt_cache_mib: int = Field(
        default=512,
        ge=0,
        description="RAM for llama.cpp's cross-request prompt cache in MiB (0 disables it).",
    )
    host: str = Field(default="127.0.0.1", min_length=1)
    port: int | None = Field(default=None, ge=1, le=65535, description="None: any free port.")
    startup_timeout_s: float = Field(default=120.0, gt=0)
    verbose: bool = Field(default=False, description="Let llama.cpp log to stderr.")

    @model_validator(mode="after")
    def _check_slot_context(self) -> Self:
        per_slot = self.n_ctx // self.n_parallel
        if per_slot < _MIN_SLOT_CTX:
            raise ValueError(
                f"n_ctx={self.n_ctx} split among n_parallel={self.n_parallel} slots leaves "
                f"{per_slot} tokens per request; raise n_ctx to at least "
                f"{_MIN_SLOT_CTX * self.n_parallel} or lower n_parallel"
            )
        return self


class LocalServer:
    """One in-process llama.cpp server. Start it with :meth:`start` or ``with``.

    The server listens on ``settings.host`` only (127.0.0.1 by default) without an API key;
    OpenAI clients may pass any key, e.g. ``"local"``.
    """

    def __init__(self, settings: LocalServerSettings | None = None) -> None:
        self._settings = settings if settings is not None else LocalServerSettings()
        self._lock = threading.RLock()
        self._engine_server: Any = None
        self._address: str | None = None
        self._model_path: Path | None = None
        self.load_seconds: float | None = None
        """Seconds the last :meth:`start` spent loading the model (None before a start)."""

    @property
    def settings(self) -> LocalServerSettings:
        return self._settings

    @property
    def model_name(self) -> str:
        """The model name to send in requests (the server also reports it at /v1/models)."""
        if self._settings.model_alias is not None:
            return self._settings.model_alias
        if self._settings.gguf_path is None:
            return DEFAULT_MODEL_NAME
        return self._settings.gguf_path.name.removesuffix(".gguf")

    @property
    def model_path(self) -> Path:
        """The verified GGUF file being served (only known once started)."""
        if self._model_path is None:
            raise self._not_running()
        return self._model_path

    @property
    def address(self) -> str:
        """The server root, e.g. ``http://127.0.0.1:40123`` (``/health`` lives here)."""
        if self._address is None:
            raise self._not_running()
        return self._address

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible API root, e.g. ``http://127.0.0.1:40123/v1``."""
        return f"{self.address}/v1"

    def start(self) -> Self:
        """Verify the weights, load the model and wait until the server answers ``/health``.

        Does nothing if already running. Raises :class:`ModelFileError` for a missing or
        damaged weight file, :class:`LocalExtraMissingError` without the ``local`` extra and
        :class:`LocalServerError` when the engine fails or is not ready in time.
        """
        with self._lock:
            if self._engine_server is not None:
                return self
            settings = self._settings
            deadline = time.monotonic() + settings.startup_timeout_s
            engine = _import_engine()
            model_path = self._resolve_weights()
            _check_port_free(settings.host, settings.port)
            params = _build_params(engine, settings, model_path, self.model_name)
            began = time.perf_counter()
            try:
                engine_server = engine.Server(params)
            except Exception as exc:
                raise LocalServerError(
                    f"llama.cpp could not load {model_path} ({exc}). Check that the file is a "
                    f"complete GGUF model, that there is RAM for it plus n_ctx={settings.n_ctx} "
                    "tokens of context (lower n_ctx if not), and that the port is free; "
                    "set verbose=True in LocalServerSettings to see llama.cpp's log."
                ) from exc
            self.load_seconds = time.perf_counter() - began
            address = str(engine_server.listening_address).rstrip("/")
            try:
                _wait_until_healthy(address, deadline, settings.startup_timeout_s)
            except BaseException:
                del engine_server  # stops the engine's threads
                raise
            self._engine_server = engine_server
            self._address = address
            self._model_path = model_path
            _track(self)
            return self

    def stop(self) -> None:
        """Stop the server and free the model's memory. Safe to call more than once."""
        with self._lock:
            engine_server, self._engine_server = self._engine_server, None
            self._address = None
            self._model_path = None
            # Dropping the last reference terminates the engine loop and joins its threads.
            del engine_server

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        where = self._address if self._address is not None else "stopped"
        return f"LocalServer({self.model_name!r}, {where})"

    def _resolve_weights(self) -> Path:
        settings = self._settings
        if settings.gguf_path is None:
            return ensure_default_weights()
        return verify_gguf(settings.gguf_path, expected_sha256=settings.gguf_sha256)

    def _not_running(self) -> LocalServerError:
        return LocalServerError(
            f"{self!r} is not running; call start() (or use get_local_server()) first"
        )


_shared_lock = threading.Lock()
_shared: dict[LocalServerSettings, LocalServer] = {}
_running: weakref.WeakSet[LocalServer] = weakref.WeakSet()
_atexit_registered = False


def get_local_server(settings: LocalServerSettings | None = None) -> LocalServer:
    """Return the process-wide server for ``settings``, starting it on first use.

    Thread-safe: concurrent first callers wait for one start and share the result. Servers
    are stopped at interpreter exit (or with :func:`stop_local_servers`). From async code,
    prefer ``await asyncio.to_thread(get_local_server, settings)``.
    """
    key = settings if settings is not None else LocalServerSettings()
    with _shared_lock:
        server = _shared.get(key)
        if server is None:
            server = LocalServer(key)
            _shared[key] = server
        return server.start()


def stop_local_servers() -> None:
    """Stop every started server of this process, shared or not."""
    with _shared_lock:
        _shared.clear()
    for server in list(_running):
        server.stop()


def _track(server: LocalServer) -> None:
    global _atexit_registered
    _running.add(server)
    if not _atexit_registered:
        atexit.register(stop_local_servers)
        _atexit_registered = True


def _import_engine() -> ModuleType:
    try:
        import xllamacpp
    except ImportError as exc:
        raise LocalExtraMissingError(
            "The embedded model engine (xllamacpp) is not installed. Install the local "
            "extra with: pip install 'cogarch[local]'"
        ) from exc
    engine: ModuleType = xllamacpp
    return engine


def _build_params(
    engine: ModuleType, settings: LocalServerSettings, model_path: Path, alias: str
) -> Any:
    params = engine.CommonParams()
    params.model.path = str(model_path)
    params.model_alias = {alias}
    params.n_ctx = settings.n_ctx
    params.n_parallel = settings.n_parallel
    params.n_predict = settings.n_predict
    params.cpuparams.n_threads = settings.n_threads
    params.cpuparams_batch.n_threads = settings.n_threads
    params.cache_ram_mib = settings.prompt_cache_mib
    params.port = settings.port or 0  # 0: the server binds any free port and reports it
    if hasattr(params, "hostnames"):
        params.hostnames = [settings.host]
    else:  # engine builds before multi-address listening
        params.hostname = settings.host
    params.verbosity = _VERBOSE_VERBOSITY if settings.verbose else _QUIET_VERBOSITY
    params.ui = False
    params.endpoint_metrics = True
    if settings.speculative != "none":
        kind = f"COMMON_SPECULATIVE_TYPE_{settings.speculative.upper()}"
        params.speculative.types = [getattr(engine.common_speculative_type, kind)]
    return params


def _check_port_free(host: str, port: int | None) -> None:
    if port is None:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise LocalServerError(f"cannot listen on {host}:{port}: {exc}") from exc
            raise LocalServerError(
                f"port {port} on {host} is already in use; choose another port or set "
                "port=None to let the server pick a free one"
            ) from exc


def _wait_until_healthy(address: str, deadline: float, timeout_s: float) -> None:
    """Poll ``/health`` until it reports ``ok``; the local server is never reached via proxy."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    last_problem = "no answer yet"
    while True:
        try:
            with opener.open(f"{address}/health", timeout=2.0) as response:
                body = json.loads(response.read() or b"{}")
            if body.get("status") == "ok":
                return
            last_problem = f"status {body.get('status')!r}"
        except urllib.error.HTTPError as exc:  # 503 while the model is still loading
            last_problem = f"HTTP {exc.code}"
        except (OSError, ValueError) as exc:
            last_problem = str(exc)
        if time.monotonic() >= deadline:
            raise LocalServerError(
                f"the local model server at {address} was not ready within {timeout_s:g} s "
                f"(last health check: {last_problem}); raise startup_timeout_s in "
                "LocalServerSettings, or set verbose=True to see llama.cpp's log"
            )
        time.sleep(_HEALTH_POLL_S)
