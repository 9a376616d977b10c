"""LightMem: sensory compression, topic segmentation, a short-term buffer, extracted facts.

Writing, for each ingested message:

1. *Sensory compression* (``compress``): an offline stand-in for LLMLingua-2 that drops the
   most frequent function words (Zipf frequency >= ``compress_zipf``; "the" is 7.7, "guess"
   5.2) and keeps content words, negations, numbers and anything quoted or punctuated inside.
2. *Topic segmentation*: a new segment starts where the embedding similarity of a message and
   the one before it falls below ``segment_threshold``; the closing segment's buffer is
   flushed.
3. *Short-term buffer*: messages wait in a buffer that is flushed when a segment closes, when
   it holds ``window`` messages or more than ``buffer_tokens`` tokens, and (by default, as the
   reference baseline forces extraction every turn) at the end of each turn.
4. A flush asks a model for facts with the message each comes from; each fact is stored with
   that message's timestamp and weekday.
5. *Offline update* (optional): an older entry is compared with newer, similar entries and a
   model decides to update it, delete it or leave it.

Reading: vector top-k, rendered as ``timestamp weekday fact`` lines for ``{memories}``.

Ingests: the user's and the assistant's messages (``ingest_roles``), as the Hangman paper's
LightMem agent does (it adds its last m public messages of both roles after each reply).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cogarch.core.cow import CowList
from cogarch.core.memory import MemoryContext, MemoryItem, TurnRecord
from cogarch.models.messages import user
from cogarch.tokens import count_tokens

from .base import RetrievalModule
from .embeddings import cosine
from .messages import LoggedMessage
from .params import RetrievalParams, Role
from .prompts import LIGHTMEM_EXTRACT, LIGHTMEM_UPDATE, render_template
from .provenance import SOURCE_KEY, sources, union_ids
from .records import Record
from .search import hit_item
from .staging import Staging

_TRAILING: Final = ",.;:!?"
_KEEP: Final = frozenset({"no", "not", "nor", "never", "none", "nothing", "nobody", "without"})


def compress_text(text: str, zipf_threshold: float = 6.0) -> str:
    """``text`` without its most frequent plain words (an all-dropped text is kept whole)."""
    from wordfreq import zipf_frequency

    kept = []
    for token in text.split():
        core = token.rstrip(_TRAILING).lower()
        if core.isalpha() and core not in _KEEP and zipf_frequency(core, "en") >= zipf_threshold:
            continue
        kept.append(token)
    return " ".join(kept) if kept else text


class ExtractedFact(BaseModel):
    source: int = 0
    fact: str

    @field_validator("source", mode="before")
    @classmethod
    def _number(cls, value: Any) -> Any:
        if isinstance(value, str):
            digits = "".join(ch for ch in value if ch.isdigit())
            return int(digits) if digits else -1
        return value


class FactBatch(BaseModel):
    """The extraction call's answer."""

    facts: list[ExtractedFact] = Field(default_factory=list)


class UpdateDecision(BaseModel):
    """The offline update call's answer for one older entry."""

    action: Literal["update", "delete", "ignore"]
    new_text: str = ""

    @field_validator("action", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value


class BufferedMessage(BaseModel):
    """A message waiting in the short-term buffer (``text`` is the compressed form)."""

    model_config = ConfigDict(extra="forbid")

    role: Role
    text: str
    original: str
    time: str
    turn: int
    segment: int
    source_ids: list[str] = Field(default_factory=list)


class LightMemParams(RetrievalParams):
    window: int = Field(default=10, ge=1)
    top_k: int = Field(default=10, ge=1)
    ingest_roles: tuple[Role, ...] = Field(
        default=("user", "assistant"),
        description="The reference LightMem agent adds its window of user and assistant "
        "messages, so both sides by default.",
    )
    compress: bool = Field(default=True, description="Drop frequent function words first.")
    compress_zipf: float = Field(default=6.0, gt=0, description="Zipf frequency dropped from.")
    segment_threshold: float = Field(
        default=0.2, ge=-1.0, le=1.0, description="A segment ends below this similarity."
    )
    buffer_tokens: int = Field(default=2000, ge=1, description="Buffer flush size in tokens.")
    extract_each_turn: bool = Field(
        default=True, description="Flush the buffer at the end of every turn."
    )
    update: Literal["off", "after_flush"] = Field(
        default="off", description="Run the offline update after each flush."
    )
    update_threshold: float = Field(default=0.8, ge=-1.0, le=1.0)
    update_k: int = Field(default=5, ge=1)


class LightMemMemory(RetrievalModule):
    """Compressed, segmented, buffered fact extraction (LightMem)."""

    kind: ClassVar[str] = "lightmem"
    prompt_key: ClassVar[str] = "memories"
    Params: ClassVar[type[RetrievalParams]] = LightMemParams
    params: LightMemParams
    fork_shares: ClassVar[tuple[str, ...]] = (*RetrievalModule.fork_shares, "last_vector")

    def _setup(self) -> None:
        self.store = self.new_store("facts")
        self.next_id = 1
        self.buffer: list[BufferedMessage] = []
        self.segment = 0
        self.boundaries: CowList[int] = CowList()
        """Turn numbers at which a new topic segment started."""
        self.last_vector: list[float] | None = None
        """The last message's embedding (replaced, never changed in place)."""
        self._embedded: dict[str, list[float]] = {}
        """Embeddings computed ahead for the turns ``ingest_many`` is taking in."""

    # ------------------------------------------------------------------ writing

    async def ingest_many(self, turns: Sequence[TurnRecord], ctx: MemoryContext) -> dict[int, str]:
        """As one turn at a time, with every message's embedding computed in one batch."""
        roles = self.params.ingest_roles
        said = [
            text
            for t in turns
            for role, text in (("user", t.user), ("assistant", t.assistant))
            if role in roles and text.strip()
        ]
        texts = list(dict.fromkeys(self._compressed(text) for text in said))
        self._embedded = dict(zip(texts, await self.embed(texts), strict=True))
        try:
            return await super().ingest_many(turns, ctx)
        finally:
            self._embedded = {}

    def _compressed(self, text: str) -> str:
        p = self.params
        return compress_text(text, p.compress_zipf) if p.compress else text

    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        p = self.params
        texts = [self._compressed(m.text) for m in new]
        missing = [t for t in texts if t not in self._embedded]
        found = dict(zip(missing, await self.embed(missing), strict=True))
        vectors = [self._embedded.get(t) or found[t] for t in texts]
        for message, text, vector in zip(new, texts, vectors, strict=True):
            if (
                self.last_vector is not None
                and cosine(vector, self.last_vector) < p.segment_threshold
            ):
                self.segment += 1
                self.boundaries.append(message.turn)
                self.count("segments")
                if self.buffer:
                    await self.flush(ctx)
            self.last_vector = vector
            self.buffer.append(
                BufferedMessage(
                    role=message.role,
                    text=text,
                    original=message.text,
                    time=message.time,
                    turn=message.turn,
                    segment=self.segment,
                    source_ids=list(message.source_ids),
                )
            )
            if len(self.buffer) >= p.window or self.buffer_tokens() > p.buffer_tokens:
                await self.flush(ctx)
        if p.extract_each_turn and self.buffer:
            await self.flush(ctx)

    def buffer_tokens(self) -> int:
        return sum(count_tokens(m.text) for m in self.buffer)

    async def flush(self, ctx: MemoryContext) -> list[str]:
        """Extract facts from the buffer into the store; returns the new entry ids."""
        messages, self.buffer = self.buffer, []
        if not messages:
            return []
        self.count("flushes")
        prompt = render_template(LIGHTMEM_EXTRACT, segments=_segments_text(messages))
        batch = await self.ask(ctx, [user(prompt)], FactBatch)
        ids, texts, metas = [], [], []
        for fact in batch.facts:
            text = fact.fact.strip()
            if not text:
                continue
            if not 0 <= fact.source < len(messages):
                self.count("unknown_sources")
            source = messages[fact.source if 0 <= fact.source < len(messages) else -1]
            when = datetime.fromisoformat(source.time)
            ids.append(f"f{self.next_id}")
            self.next_id += 1
            texts.append(text)
            metas.append(
                {
                    "timestamp": source.time,
                    "weekday": when.strftime("%a"),
                    "turn": source.turn,
                    "source": source.original,
                    SOURCE_KEY: list(source.source_ids),
                }
            )
        await self.store.aadd(ids, texts, metas)
        self.count("facts", len(ids))
        if ids and self.params.update == "after_flush":
            await self.offline_update(ctx, ids)
        return ids

    async def offline_update(
        self, ctx: MemoryContext, newer_ids: Sequence[str] | None = None
    ) -> None:
        """Let a model update, delete or keep each older entry that newer ones resemble.

        The newer entries are ``newer_ids`` (default: every entry, a full pass); an older entry
        is a target when a newer one is at least ``update_threshold`` similar to it.
        """
        records = self.store.all()
        age = {r.id: n for n, r in enumerate(records)}
        wanted = None if newer_ids is None else set(newer_ids)
        newer = [r for r in records if wanted is None or r.id in wanted]
        queue: dict[str, list[Record]] = {}
        vectors = await self.store.aembed([r.text for r in newer])
        for record, vector in zip(newer, vectors, strict=True):
            for hit in await self.store.aquery_vector(vector, self.params.update_k + 1):
                older = age.get(hit.id, len(records)) < age[record.id]
                if older and hit.similarity >= self.params.update_threshold:
                    queue.setdefault(hit.id, []).append(record)
        for target_id in sorted(queue, key=lambda i: age[i]):
            found = self.store.get([target_id])
            if not found:
                continue
            target = found[0]
            prompt = render_template(
                LIGHTMEM_UPDATE,
                target=target.text,
                candidates="\n".join(f"- {r.text}" for r in queue[target_id]),
            )
            decision = await self.ask(ctx, [user(prompt)], UpdateDecision)
            self.count(f"update_{decision.action}")
            if decision.action == "delete":
                self.store.delete([target_id])
            elif decision.action == "update" and decision.new_text.strip():
                newer_sources = (sources(r.metadata) for r in queue[target_id])
                merged = union_ids(sources(target.metadata), *newer_sources)
                stamp = self.now().isoformat()
                meta = {**target.metadata, "updated_at": stamp, SOURCE_KEY: merged}
                await self.store.aupdate([target_id], [decision.new_text.strip()], [meta])

    # ------------------------------------------------------------------ reading

    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        return [hit_item(h) for h in await self.store.aquery(query, self.params.top_k)]

    def _format(self, items: list[MemoryItem]) -> str:
        return "\n".join(_line(item.text, item.fields) for item in items)

    def entries(self) -> list[MemoryItem]:
        """Every stored fact, oldest first."""
        return [MemoryItem(r.id, r.text, 0.0, dict(r.metadata)) for r in self.store.all()]

    def private_text(self) -> str:
        text = self._format(self.entries())
        if self.buffer:
            waiting = "\n".join(f"{m.role}: {m.text}" for m in self.buffer)
            text = f"{text}\n[buffer]\n{waiting}".strip()
        return text

    def _private_key(self) -> Hashable:
        return (self.store.revision, tuple((m.role, m.text) for m in self.buffer))

    # ------------------------------------------------------------------ state

    def _save_own_state(self) -> dict[str, Any]:
        return {
            "store": self.store.save_state(),
            "next_id": self.next_id,
            "buffer": [m.model_dump() for m in self.buffer],
            "segment": self.segment,
            "boundaries": list(self.boundaries),
            "last_vector": self.last_vector,
        }

    def _load_own_state(self, staging: Staging) -> dict[str, Any]:
        return {
            "store": staging.store("store", "facts"),
            "next_id": staging.integer("next_id", 1),
            "buffer": staging.items("buffer", BufferedMessage),
            "segment": staging.integer("segment", 0),
            "boundaries": CowList(staging.integers("boundaries")),
            "last_vector": staging.floats("last_vector"),
        }


def _segments_text(messages: list[BufferedMessage]) -> str:
    lines: list[str] = []
    current, number = None, 0
    for n, m in enumerate(messages):
        if m.segment != current:
            current, number = m.segment, number + 1
            lines.append(f"Segment {number}:")
        when = datetime.fromisoformat(m.time)
        lines.append(f"[{n}] {_stamp(when)} {when.strftime('%a')} {m.role}: {m.text}")
    return "\n".join(lines)


def _stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}"


def _line(text: str, fields: Mapping[str, Any]) -> str:
    stamp = fields.get("timestamp")
    if not stamp:
        return text
    when = datetime.fromisoformat(str(stamp))
    return f"{_stamp(when)} {fields.get('weekday') or when.strftime('%a')} {text}"
