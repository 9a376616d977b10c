"""What the four retrieval baselines share: the ingest window, clocks, model calls, the last
retrieved block, fork and state (their parameters are in ``params``).

A subclass implements ``_write`` (what happens to newly ingested messages), ``_search`` (the
entries for a query), ``_format`` (the block its Appendix F.2 prompt shows),
``_save_own_state`` / ``_load_own_state`` (its own part of ``save_state`` / ``load_state``) and
``private_text``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any, ClassVar, Self, TypeVar

from autogen_core.models import LLMMessage
from pydantic import BaseModel

from cogarch.core.cow import fork_fields
from cogarch.core.memory import MemoryContext, MemoryItem, MemoryModule, TurnRecord
from cogarch.core.model import ChatModel
from cogarch.core.state import StateError, state_items, state_part, state_value
from cogarch.models.structured import structured

from ..budget import truncate_to_budget
from .chroma_store import ChromaVectorStore
from .embeddings import Embedder, embed_off_loop, get_embedder
from .messages import TURN_CLOCK_START, Clock, LoggedMessage, saved_item
from .params import RetrievalParams, Role
from .staging import Staging
from .store_base import BaseStore
from .vector_store import VectorStore

T = TypeVar("T", bound=BaseModel)
Store = BaseStore
"""A module's vector store: in chromadb (the default), or in process (``store: memory``)."""

EMPTY_BLOCK = "(none)"


class RetrievalModule(MemoryModule):
    """Base of Mem0, A-Mem, LightMem and MemoryOS.

    ``provider`` is the fallback for the module's own model calls when ``params.provider`` is
    not set; ``embedder`` and ``clock`` may be injected (tests), otherwise the embedder comes
    from ``params.embedder`` and timestamps from ``params.clock``.
    """

    kind: ClassVar[str] = "retrieval"
    prompt_key: ClassVar[str] = "memories"
    """The placeholder of the module's Appendix F.2 prompt that shows the retrieved block."""
    Params: ClassVar[type[RetrievalParams]] = RetrievalParams
    params: RetrievalParams

    def __init__(
        self,
        params: RetrievalParams | None = None,
        *,
        provider: str | None = None,
        embedder: Embedder | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.params = params or self.Params()
        self.provider = provider
        self.messages: tuple[LoggedMessage, ...] = ()
        """The last ``window`` ingested messages (replaced, never changed in place)."""
        self.last_turn: int | None = None
        """Index of the last ingested turn."""
        self.last_time: str | None = None
        """Time of the latest dated turn (ISO 8601); None while no turn carried one."""
        self.last_retrieved: tuple[MemoryItem, ...] = ()
        self.last_query: str | None = None
        """The query of the latest ``retrieve`` (what ``rank_all`` ranks for)."""
        self.stats: dict[str, int] = {}
        self._embedder = embedder or get_embedder(self.params.embedder)
        self._clock = clock
        self._sizes: dict[Hashable, int] = {}
        """``size_tokens`` by ``_private_key``: a cache the forks share (its keys name content
        no write ever changes, so no fork can find another's count under its own key)."""
        self._setup()

    # ------------------------------------------------------------------ wiring

    @property
    def caller(self) -> str:
        """The name this module's model calls are metered under."""
        return f"memory:{self.kind}"

    @property
    def embedder(self) -> Embedder:
        return self._embedder

    def use_provider(self, provider: str | None) -> None:
        """Set the fallback provider for model calls, unless one is already set."""
        if self.provider is None and provider is not None:
            self.provider = provider

    def retrieved(self) -> list[MemoryItem] | None:
        return list(self.last_retrieved)

    def model(self, ctx: MemoryContext) -> ChatModel:
        name = self.params.provider_or(
            self.provider,
            missing=f"memory module '{self.kind}' has no provider for its own model calls; set "
            "'provider' in its params, or give the retrieval specialist (or the agent) one",
        )
        return ctx.model(name)

    async def ask(self, ctx: MemoryContext, messages: Sequence[LLMMessage], output: type[T]) -> T:
        """One structured model call (validated, repaired, retried) metered as ``caller``."""
        result = await structured(
            self.model(ctx), messages, output, caller=self.caller, seed=ctx.seed
        )
        return result.value

    def new_store(self, name: str) -> Store:
        return self._store_maker(self.params, self._embedder)(name)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed ``texts`` in one batch, off the event loop (see ``embed_off_loop``)."""
        return await embed_off_loop(self._embedder, list(texts))

    def count(self, stat: str, n: int = 1) -> None:
        self.stats[stat] = self.stats.get(stat, 0) + n

    # ------------------------------------------------------------------ time

    def now(self) -> datetime:
        """The current time: the injected clock, the wall clock, the time of the latest
        dated turn (a benchmark's session date), or the turn clock."""
        if self._clock is not None:
            return self._clock()
        if self.params.clock == "wall":
            return datetime.now().astimezone()
        if self.last_time is not None:
            return datetime.fromisoformat(self.last_time)
        return TURN_CLOCK_START + timedelta(minutes=self.last_turn or 0)

    def message_time(self, turn: TurnRecord, role: Role) -> datetime:
        """A dated turn's own time; otherwise the module's clock."""
        if turn.time is not None:
            return datetime.fromisoformat(turn.time)
        if self._clock is not None or self.params.clock == "wall" or self.last_time is not None:
            return self.now()
        offset = 0 if role == "user" else 30
        return TURN_CLOCK_START + timedelta(minutes=turn.index, seconds=offset)

    # ------------------------------------------------------------------ protocol

    async def ingest(self, turn: TurnRecord, ctx: MemoryContext) -> None:
        """Log the turn's messages of the ingested roles, then let the algorithm write.

        Turns are taken in order and once: a turn whose index is not above the last ingested
        one is skipped (counted in ``stats["turns_skipped"]``), so a retried step cannot
        store a turn twice.
        """
        new = self.log_turn(turn)
        if new is not None:
            await self._write(turn, new, ctx)

    def log_turn(self, turn: TurnRecord) -> list[LoggedMessage] | None:
        """Log ``turn``'s messages of the ingested roles into the window and return them; None
        for a turn already taken in (skipped and counted). The first half of ``ingest``."""
        if self.last_turn is not None and turn.index <= self.last_turn:
            self.count("turns_skipped")
            return None
        self.last_turn = turn.index
        if turn.time is not None:
            self.last_time = turn.time
        new: list[LoggedMessage] = []
        parts: tuple[tuple[Role, str], ...] = (("user", turn.user), ("assistant", turn.assistant))
        for role, text in parts:
            if role in self.params.ingest_roles and text.strip():
                when = self.message_time(turn, role).isoformat()
                new.append(
                    LoggedMessage(
                        role=role,
                        text=text,
                        turn=turn.index,
                        time=when,
                        source_ids=list(turn.source_ids),
                    )
                )
        self.messages = (*self.messages, *new)[-self.params.window :]
        return new

    async def retrieve(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        """The entries for ``query``; ``render`` shows them until the next retrieval."""
        self.last_query = query
        self.last_retrieved = tuple(await self._search(query, ctx))
        return list(self.last_retrieved)

    async def ranked_store(self, store: Store, held: Sequence[str]) -> list[str] | None:
        """Every id of ``held`` (what the module holds, in the order taken in), ranked for the
        latest query by ``store``'s own search asked for all of its entries; the ids the
        search does not return (a lexical search returns only records sharing a word with the
        query, an empty query nothing) follow in the order taken in, as score-0 ties do.
        None before any retrieval."""
        if self.last_query is None:
            return None
        hits: list[str] = []
        if self.last_query.strip() and len(store):
            hits = [h.id for h in await store.aquery(self.last_query, len(store))]
        known = set(held)
        return list(dict.fromkeys([*(h for h in hits if h in known), *held]))

    def render(self, budget_tokens: int | None = None) -> str:
        return truncate_to_budget(
            self._format(list(self.last_retrieved)) or EMPTY_BLOCK, budget_tokens
        )

    def size_tokens(self) -> int:
        """``private_text``'s tokens, counted once per content: kept under ``_private_key``
        (when the module gives one) in a cache the forks share."""
        key = self._private_key()
        if key is None:
            return super().size_tokens()
        if key not in self._sizes:
            if len(self._sizes) >= 16:
                self._sizes.clear()
            self._sizes[key] = super().size_tokens()
        return self._sizes[key]

    def _private_key(self) -> Hashable | None:
        """A key that changes whenever ``private_text`` would (store revisions are unique to
        their content); None: no caching."""
        return None

    def window_text(self, messages: Sequence[LoggedMessage] | None = None) -> str:
        """``role: text`` lines of the window (or of ``messages``)."""
        chosen = self.messages if messages is None else messages
        return "\n".join(f"{m.role}: {m.text}" for m in chosen) or "(none)"

    def fork(self) -> Self:
        """An independent copy in O(1): stores and copy-on-write containers fork themselves;
        the parameters, embedder and clock are shared (they never change)."""
        return fork_fields(self, share=self.fork_shares)

    fork_shares: ClassVar[tuple[str, ...]] = (
        "params",
        "_embedder",
        "_clock",
        "messages",
        "last_retrieved",
        "last_query",
        "_sizes",
    )
    """Attributes a fork passes on as they are: configuration, and values only ever replaced."""

    def save_state(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "params": self.params.model_dump(mode="json"),
            "provider": self.provider,
            "messages": [m.model_dump() for m in self.messages],
            "last_turn": self.last_turn,
            "last_time": self.last_time,
            "last_retrieved": [asdict(item) for item in self.last_retrieved],
            "stats": dict(self.stats),
            "data": self._save_own_state(),
        }

    def load_state(self, state: Mapping[str, Any]) -> None:
        """Go on from a saved state, read whole into new values (new stores included) before
        any of them replaces the module's own: a malformed part raises ``StateError`` naming
        it, and the module is left as it was."""
        state = self.check_state_kind(state)
        owner = f"'{self.kind}' memory"
        with state_part(owner, "params"):
            params = self.Params.model_validate(state_value(state, "params", dict, owner))
        provider = state.get("provider")
        if provider is not None:
            state_value(state, "provider", str, owner)
        messages = tuple(state_items(state, "messages", LoggedMessage, owner, optional=True))
        last = state.get("last_turn")
        last_turn = None if last is None else int(state_value(state, "last_turn", int, owner))
        last_time = state.get("last_time")
        if last_time is not None:
            with state_part(owner, "last_time"):
                datetime.fromisoformat(state_value(state, "last_time", str, owner))
        with state_part(owner, "last_retrieved"):
            retrieved = tuple(
                saved_item(item)
                for item in state_value(
                    {"last_retrieved": state.get("last_retrieved", [])},
                    "last_retrieved",
                    list,
                    owner,
                )
            )
        stats = state_value({"stats": state.get("stats", {})}, "stats", dict, owner)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in stats.values()):
            raise StateError(f"the {owner} state's 'stats' holds values that are not counts")
        embedder = (
            self._embedder
            if params.embedder == self.params.embedder
            else get_embedder(params.embedder)
        )
        staging = Staging(
            owner, state_value(state, "data", dict, owner), self._store_maker(params, embedder)
        )
        try:
            with state_part(owner, "data"):
                own = self._load_own_state(staging)
        except BaseException:
            staging.drop()
            raise
        for name, value in own.items():  # the state is good: swap it in
            replaced = getattr(self, name, None)
            if isinstance(replaced, BaseStore) and replaced is not value:
                replaced.drop()
            setattr(self, name, value)
        self.params, self._embedder, self.provider = params, embedder, provider
        self.messages = messages[-params.window :]  # the module's own window
        self.last_turn, self.last_time = last_turn, last_time
        self.last_retrieved, self.stats = retrieved, dict(stats)

    def _store_maker(self, params: RetrievalParams, embedder: Embedder) -> Callable[[str], Store]:
        def make(name: str) -> Store:
            prefix = f"{self.kind}-{name}"
            if params.store == "chroma":
                return ChromaVectorStore(
                    embedder, path=params.persist_dir, prefix=prefix, search=params.search
                )
            return VectorStore(embedder, prefix=prefix, search=params.search)

        return make

    # ------------------------------------------------------------------ algorithm

    @abstractmethod
    def _setup(self) -> None:
        """Create the module's own stores and structures (called at the end of __init__)."""

    @abstractmethod
    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        """Take the newly logged messages of ``turn`` (maybe none) into memory."""

    @abstractmethod
    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]: ...

    @abstractmethod
    def _format(self, items: list[MemoryItem]) -> str: ...

    @abstractmethod
    def _save_own_state(self) -> dict[str, Any]: ...

    @abstractmethod
    def _load_own_state(self, staging: Staging) -> dict[str, Any]:
        """The module's own attributes read from its part of a state (``staging.data``),
        by name: new values only (stores from ``staging.store``), nothing of ``self``
        changed; ``load_state`` sets them once the whole state has been read."""
