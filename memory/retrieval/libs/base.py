"""What the modules over the real memory libraries share: the proxy session their library's
own client talks to, blocking library calls run off the event loop, fork by copying the
library's store, and state that is validated in full before it replaces anything.

A subclass implements ``_open`` (a library instance with an empty store, its client pointed at
the session), ``_copy`` (a library instance holding a copy of another's store), ``_dump`` /
``_restore`` (the store as JSON values, and back into a fresh instance), ``_write``,
``_search``, ``_format`` and ``private_text``.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
from abc import abstractmethod
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar, Self, TypeVar

from pydantic import Field, ValidationError

from cogarch.core.memory import MemoryContext, MemoryItem
from cogarch.core.state import StateError
from cogarch.errors import ConfigError, ModelCallError
from cogarch.models.proxy import ProxySession, get_proxy

from ..base import RetrievalModule
from ..embeddings import get_embedder
from ..messages import LoggedMessage
from ..params import RetrievalParams
from ..staging import Staging
from .offline import Library

R = TypeVar("R")


_THREADS: ThreadPoolExecutor | None = None
_THREADS_LOCK = threading.Lock()


def _library_threads() -> ThreadPoolExecutor:
    """The threads blocking library calls run in: a pool of their own, so that a library call
    waiting for its model answer can never hold the default executor's threads, which the
    answer itself may need (the response cache writes through them)."""
    global _THREADS
    with _THREADS_LOCK:
        if _THREADS is None:
            _THREADS = ThreadPoolExecutor(max_workers=32, thread_name_prefix="cogarch-memory-lib")
        return _THREADS


class LibraryParams(RetrievalParams):
    """Settings of a module over a real library (its store is the library's own)."""

    user_id: str = Field(default="user", description="The user id the library files under.")


class LibraryModule(RetrievalModule):
    """Base of the modules over Mem0, MemoryOS and A-Mem themselves."""

    library: ClassVar[Library]
    Params: ClassVar[type[RetrievalParams]] = LibraryParams
    params: LibraryParams

    # ------------------------------------------------------------------ wiring

    @classmethod
    def check_params(cls, params: Any) -> None:
        cls.require()

    @classmethod
    def require(cls) -> Any:
        """The library's module, imported offline (a clear error naming the install command
        when it is missing)."""
        from .offline import load

        return load(cls.library, cls.kind)

    def _setup(self) -> None:
        if self.params.embedder != "minilm":
            raise ConfigError(
                f"the '{self.kind}' memory module embeds with the library's own embedder on the "
                f"local MiniLM model; set embedder: minilm (got '{self.params.embedder}')"
            )
        self.require()
        self.session: ProxySession = get_proxy().session()
        self.revision = 0
        """Counts the library's writes (a key for the cached size of ``private_text``)."""
        self.lib: Any = self._open(self.session)

    async def call(
        self, ctx: MemoryContext, fn: Callable[..., R], *args: Any, write: bool = False, **kw: Any
    ) -> R:
        """Run a blocking library call in a worker thread (of the library pool, in the current
        context), its model calls answered through the proxy by this module's provider
        (metered as ``caller``, with the call seed).

        A model call the library could not get raises ``ModelCallError`` when the library
        let the failure through; one it swallowed is counted in ``stats["model_errors"]``. A
        ``write`` that fails inside the library (on a model answer of a shape it did not
        expect, say) raises ``ModelCallError`` too, counted in ``stats["library_errors"]``:
        the turn is left out, as a failed extraction leaves it out of the library itself.
        """
        self.session.bind(self.model(ctx), caller=self.caller, role=self.kind, seed=ctx.seed)
        self.session.take_errors()
        call = functools.partial(contextvars.copy_context().run, fn, *args, **kw)
        try:
            result = await asyncio.get_running_loop().run_in_executor(_library_threads(), call)
        except Exception as exc:
            errors = self.session.take_errors()
            if errors:
                raise ModelCallError(f"{self.kind}: a model call failed: {errors[-1]}") from exc
            if write:
                self.count("library_errors")
                raise ModelCallError(
                    f"{self.kind}: the library failed while writing: {type(exc).__name__}: {exc}"
                ) from exc
            raise
        finally:
            self.session.unbind()
        errors = self.session.take_errors()
        if errors:
            self.count("model_errors", len(errors))
        return result

    @property
    def model_name(self) -> str:
        """The model name the library sends (the proxy answers with the bound provider)."""
        return "cogarch-proxy"

    # ------------------------------------------------------------------ fork and state

    def fork(self) -> Self:
        """A copy whose library store is a copy of this one's, behind a session of its own."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.stats = dict(self.stats)
        clone.session = get_proxy().session()
        clone.lib = self._copy(self.lib, clone.session)
        self._after_fork(clone)
        return clone

    def _after_fork(self, clone: Self) -> None:
        """Give ``clone`` its own copies of any mutable bookkeeping (the default has none)."""

    def _private_key(self) -> Hashable:
        # a session is made with each library instance (build, fork, load), never reused
        return (self.session.token, self.revision)

    def save_state(self) -> dict[str, Any]:
        state = super().save_state()
        state["data"] = {
            "library": self.library.distribution,
            "version": self.library.version(),
            **self._dump(),
        }
        return state

    def _save_own_state(self) -> dict[str, Any]:
        return {}

    def _load_own_state(self, staging: Staging) -> dict[str, Any]:
        raise NotImplementedError("a library module's state is read by its own load_state")

    def load_state(self, state: Mapping[str, Any]) -> None:
        """Validate the whole state and build the library instance holding it, then swap it
        in; a bad state raises ``StateError`` and leaves the module as it was."""
        state = self.check_state_kind(state)
        try:
            params = self.Params.model_validate(state["params"])
            messages = tuple(LoggedMessage.model_validate(m) for m in state.get("messages", []))
            retrieved = tuple(MemoryItem(**item) for item in state.get("last_retrieved", []))
            last = state.get("last_turn")
            last_turn = None if last is None else int(last)
            stats = {str(k): int(v) for k, v in dict(state.get("stats", {})).items()}
        except (KeyError, TypeError, ValueError, ValidationError) as exc:
            raise StateError(f"cannot load this '{self.kind}' state: {exc}") from exc
        data = state.get("data")
        if not isinstance(data, Mapping) or data.get("library") != self.library.distribution:
            found = data.get("library") if isinstance(data, Mapping) else None
            raise StateError(
                f"cannot load this '{self.kind}' state: it holds no {self.library.distribution} "
                f"store (found {found!r}); load a state a '{self.kind}' module saved"
            )
        session = get_proxy().session()
        try:
            lib = self._restore(data, session)
        except (KeyError, TypeError, ValueError, ValidationError) as exc:
            raise StateError(f"cannot load this '{self.kind}' state: {exc}") from exc
        except Exception as exc:  # the library's own error (its database, its vector store)
            raise StateError(
                f"cannot load this '{self.kind}' state: the {self.library.distribution} library "
                f"refused its store ({type(exc).__name__}: {str(exc)[:200]}); load a state a "
                f"'{self.kind}' module saved, or start from an empty memory"
            ) from exc
        if params.embedder != self.params.embedder:
            self._embedder = get_embedder(params.embedder)
        self.params = params  # type: ignore[assignment]
        self.provider = state.get("provider")
        self.messages = messages
        self.last_turn = last_turn
        self.last_time = state.get("last_time")
        self.last_retrieved = retrieved
        self.stats = stats
        self.session = session
        self.lib = lib
        self.revision += 1
        self._loaded(data)

    def _loaded(self, data: Mapping[str, Any]) -> None:
        """Take the module's own bookkeeping from a validated state (the default has none)."""

    # ------------------------------------------------------------------ library

    @abstractmethod
    def _open(self, session: ProxySession) -> Any:
        """A library instance with an empty store whose model client talks to ``session``."""

    @abstractmethod
    def _copy(self, lib: Any, session: ProxySession) -> Any:
        """A library instance holding a copy of ``lib``'s store, talking to ``session``."""

    @abstractmethod
    def _dump(self) -> dict[str, Any]:
        """The library's store as JSON values."""

    @abstractmethod
    def _restore(self, data: Mapping[str, Any], session: ProxySession) -> Any:
        """A new library instance holding what ``_dump`` gave (raises on a malformed one)."""
