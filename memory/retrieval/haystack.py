"""Chat history as LongMemEval's official reader sees it: dated sessions, or rounds.

Writing: every ingested message is kept as it was said, with its session (its source id is
a turn id, ``<session id>_<index from 1>``; the session is the part before the last
underscore; a turn without an id is a session of its own) and its date (an observed line
``[2023/05/30 (Tue) 23:40] user: text`` gives its date, role and words; another text is the
speaker's own, dated by its turn). A turn id seen again is not indexed twice. No model is
called.

Reading, by ``select``:

- ``all``: every chunk, in the order taken in (the full-history reader; ``keep_latest`` keeps
  only the latest n, as the official code keeps its latest ``topk_context``);
- ``search``: the ``top_k`` chunks best for the query (dense, BM25 or hybrid, see
  ``search``), over what the official retrieval indexes: a session's user turns joined, or
  each user turn alone.

A chunk (``granularity``) is a session, or a round: a user turn and the turn after it (the
official ``flat-turn`` reader widens a retrieved turn so). Each retrieved entry carries its
date and turns in its fields and the ids of the turns it stands for (a round: its user turn),
so retrieval metrics can be read from it. ``render`` shows the chunks as the official prompt's
history: sorted by date, ``### Session N:`` / ``Session Date:`` / ``Session Content:``, the
turns as JSON or as ``role: content`` lines (``history_format``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, ClassVar, Literal

from pydantic import Field

from cogarch.core.cow import CowList
from cogarch.core.memory import MemoryContext, MemoryItem, TurnRecord
from cogarch.core.state import StateError

from .base import RetrievalModule
from .messages import LoggedMessage
from .params import RetrievalParams, Role
from .provenance import SOURCE_KEY
from .search import hit_fields
from .staging import Staging

LINE = re.compile(r"\[(?P<date>[^\]]+)\] (?P<role>user|assistant): (?P<content>.*)", re.S)
"""An observed line: ``[date] role: words``."""
DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"

Chunk = tuple[str, list[dict[str, str]]]
"""A chunk of history: its date as written, and its turns (``role``, ``content``)."""


@dataclass(frozen=True)
class HistoryTurn:
    turn_id: str
    session_id: str
    role: str
    content: str
    date: str


def session_of(turn_id: str) -> str:
    """The session of a turn id (everything before its last underscore; the id itself when it
    has none)."""
    head, sep, _ = turn_id.rpartition("_")
    return head if sep else turn_id


def render_history(
    chunks: Sequence[tuple[str, Any]], history_format: Literal["json", "nl"] = "json"
) -> str:
    """The official prompt's history block: chunks sorted by date (stably), each as
    ``### Session N:`` with its date and content (turns as JSON, or ``role: content`` lines;
    a note of Chain-of-Note, a dict, as JSON or as its text)."""
    out = ""
    for n, (date, entry) in enumerate(sorted(chunks, key=lambda c: c[0]), start=1):
        if history_format == "json":
            body = "\n" + json.dumps(entry)
        elif isinstance(entry, list):
            body = "".join(f"\n\n{t['role']}: {t['content'].strip()}" for t in entry)
        else:
            body = "\n\n".join(str(v).strip() for v in entry.values())
        out += f"\n### Session {n}:\nSession Date: {date}\nSession Content:\n{body}\n"
    return out


class HaystackParams(RetrievalParams):
    granularity: Literal["session", "round"] = Field(
        default="session",
        description="A chunk is a whole session, or a round (a user turn and the turn after it).",
    )
    select: Literal["all", "search"] = Field(
        default="search",
        description="'all': every chunk (the full-history reader); "
        "'search': the top_k best for the query.",
    )
    keep_latest: int | None = Field(
        default=None, ge=1, description="With select 'all', keep only the latest n chunks."
    )
    history_format: Literal["json", "nl"] = Field(
        default="json", description="Turns shown as JSON, or as 'role: content' lines."
    )
    user_only: bool = Field(
        default=False, description="Show only the user's turns of each session chunk."
    )
    ingest_roles: tuple[Role, ...] = Field(
        default=("user", "assistant"), description="Both sides are kept, as the haystack has them."
    )


class HaystackMemory(RetrievalModule):
    """Dated sessions or rounds of the history; the block is the official reader's."""

    kind: ClassVar[str] = "haystack"
    prompt_key: ClassVar[str] = "history"
    Params: ClassVar[type[RetrievalParams]] = HaystackParams
    params: HaystackParams

    def _setup(self) -> None:
        self.turns: CowList[HistoryTurn] = CowList()
        self.store = self.new_store("chunks")

    # -- writing ---------------------------------------------------------------------------
    def _history_turn(self, message: LoggedMessage, position: int) -> HistoryTurn:
        turn_id = message.source_ids[0] if message.source_ids else f"t{message.turn}_{position}"
        found = LINE.fullmatch(message.text)
        if found and message.role == "user":
            role, content, date = found["role"], found["content"], found["date"]
        else:
            role, content = message.role, message.text
            date = datetime.fromisoformat(message.time).strftime(DATE_FORMAT)
        return HistoryTurn(turn_id, session_of(turn_id), role, content, date)

    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        await self._keep(new)

    async def ingest_many(self, turns: Sequence[TurnRecord], ctx: MemoryContext) -> dict[int, str]:
        await self._keep([m for t in turns for m in self.log_turn(t) or ()])
        return {}

    async def _keep(self, new: list[LoggedMessage]) -> None:
        if not new:
            return
        start = len(self.turns)
        added = [self._history_turn(m, start + i) for i, m in enumerate(new)]
        self.turns.extend(added)
        self.count("turns", len(added))
        if self.params.select != "search":
            return
        if self.params.granularity == "round":
            fresh = {t.turn_id: t for t in added if t.role == "user" and t.content.strip()}
            users = [t for i, t in fresh.items() if i not in self.store]
            if users:
                await self.store.aadd(
                    [t.turn_id for t in users],
                    [t.content for t in users],
                    [{SOURCE_KEY: [t.turn_id]} for t in users],
                )
            return
        touched = list(dict.fromkeys(t.session_id for t in added))
        present = [s for s in touched if s in self.store]
        if present:
            self.store.delete(present)
        docs = [(s, self._session_text(s)) for s in touched]
        docs = [(s, text) for s, text in docs if text.strip()]
        if docs:
            await self.store.aadd(
                [s for s, _ in docs],
                [text for _, text in docs],
                [
                    {SOURCE_KEY: [t.turn_id for t in self.turns if t.session_id == s]}
                    for s, _ in docs
                ],
            )

    def _session_text(self, session: str) -> str:
        return " ".join(
            t.content for t in self.turns if t.session_id == session and t.role == "user"
        )

    # -- reading ---------------------------------------------------------------------------
    def _sessions(self) -> dict[str, list[HistoryTurn]]:
        grouped: dict[str, list[HistoryTurn]] = {}
        for t in self.turns:
            grouped.setdefault(t.session_id, []).append(t)
        return grouped

    def _item(
        self,
        chunk_id: str,
        turns: list[HistoryTurn],
        ids: list[str],
        score: float,
        extra: dict[str, Any] | None = None,
    ) -> MemoryItem:
        shown = [t for t in turns if t.role == "user"] if self.params.user_only else turns
        fields = {
            "date": turns[0].date,
            "turns": [{"role": t.role, "content": t.content} for t in shown],
            SOURCE_KEY: ids,
            **(extra or {}),
        }
        text = "\n".join(f"{t.role}: {t.content}" for t in shown)
        return MemoryItem(chunk_id, text, score, fields)

    def _round(self, turn_id: str) -> list[HistoryTurn]:
        turns = list(self.turns)
        for i, t in enumerate(turns):
            if t.turn_id == turn_id:
                after = turns[i + 1 : i + 2]
                return [t, *(a for a in after if a.session_id == t.session_id)]
        return []

    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        if self.params.select == "all":
            return self._all()
        if not query.strip() or not len(self.store):
            return []
        sessions = self._sessions()
        items = []
        for hit in await self.store.aquery(query, self.params.top_k):
            if self.params.granularity == "round":
                turns = self._round(hit.id)
            else:
                turns = sessions.get(hit.id, [])
            if turns:
                ids = [hit.id] if self.params.granularity == "round" else [t.turn_id for t in turns]
                items.append(
                    self._item(hit.id, turns, ids, round(hit.similarity, 6), hit_fields(hit))
                )
        return items

    async def rank_all(self, ctx: MemoryContext) -> list[list[str]] | None:
        """Every chunk held (with ``select: search``) ranked for the latest query, as the
        turn ids each stands for: a round its user turn, a session all its turns; chunks the
        search does not index (no user words) follow in the order taken in. None with
        ``select: all``, which ranks nothing."""
        if self.params.select == "all":
            return None
        sessions = self._sessions()
        if self.params.granularity == "round":
            users = [t.turn_id for t in self.turns if t.role == "user"]
            order = await self.ranked_store(self.store, list(dict.fromkeys(users)))
            return None if order is None else [[i] for i in order]
        order = await self.ranked_store(self.store, list(sessions))
        if order is None:
            return None
        return [[t.turn_id for t in sessions[s]] for s in order]

    def _all(self) -> list[MemoryItem]:
        if self.params.granularity == "session":
            chunks = [
                (s, turns, [t.turn_id for t in turns]) for s, turns in self._sessions().items()
            ]
        else:
            chunks = [
                (t.turn_id, self._round(t.turn_id), [t.turn_id])
                for t in self.turns
                if t.role == "user"
            ]
        if self.params.keep_latest is not None:
            chunks = chunks[-self.params.keep_latest :]
        return [self._item(cid, turns, ids, 0.0) for cid, turns, ids in chunks]

    def retrieved(self) -> list[MemoryItem] | None:
        """What the last search ranked; None with select 'all' (the whole history is shown,
        nothing is ranked)."""
        return None if self.params.select == "all" else list(self.last_retrieved)

    def chunks(self, items: Sequence[MemoryItem] | None = None) -> list[Chunk]:
        """The (date, turns) of ``items`` (default: the last retrieved), in rank order."""
        chosen = self.last_retrieved if items is None else items
        return [(str(i.fields["date"]), list(i.fields["turns"])) for i in chosen]

    def _format(self, items: list[MemoryItem]) -> str:
        return render_history(self.chunks(items), self.params.history_format)

    def private_text(self) -> str:
        return "\n".join(f"[{t.date}] {t.role}: {t.content}" for t in self.turns)

    def _private_key(self) -> Hashable:
        return (len(self.turns), self.store.revision)

    def _save_own_state(self) -> dict[str, Any]:
        return {"turns": [asdict(t) for t in self.turns], "store": self.store.save_state()}

    def _load_own_state(self, staging: Staging) -> dict[str, Any]:
        raw = staging.data.get("turns", [])
        if not isinstance(raw, list):
            raise StateError("the 'haystack' memory state's 'turns' is not a list")
        try:
            turns = CowList(HistoryTurn(**t) for t in raw)
        except TypeError as exc:
            raise StateError(f"the 'haystack' memory state has a malformed turn: {exc}") from None
        return {"turns": turns, "store": staging.store("store", "chunks")}
