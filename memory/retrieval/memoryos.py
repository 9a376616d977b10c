"""MemoryOS: short-term pages, mid-term sessions scored by heat, long-term profile and knowledge.

- *Short-term*: a FIFO of pages (one question-answer pair per turn), ``short_term_capacity``
  of them. MemoryOS keeps both sides of the exchange, so both roles are ingested by default
  (the Hangman paper's MemoryOS agent adds each user input with the agent's response).
- *Mid-term*: an evicted page gets a summary and keywords from a model and joins the session
  whose ``similarity(summary, session summary) + keyword_weight * Jaccard(keywords)`` is
  highest, when that score reaches ``merge_threshold`` (0.6); otherwise it opens a session with
  its own summary and keywords. Session heat is ``visits + pages added since the last promotion
  + exp(-hours since the last visit / recency_tau_hours)``.
- *Long-term*: after each ingest, when the hottest session's heat reaches ``heat_threshold``
  (5), its new pages are summarised by a model into the user profile and into user and
  assistant knowledge entries, and its visits and page count are reset. A promotion whose
  call fails writes nothing and still cools the session: its pages join the next promotion.

Reading: the ``top_sessions`` sessions most similar to the query, the ``top_k`` most similar
pages inside them (each visit raises a session's heat), the ``knowledge_k`` nearest user and
assistant knowledge entries, and the profile. The block shows every short-term page too.

Ingests: the user's and the assistant's messages (``ingest_roles``), one page per exchange.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from datetime import datetime
from typing import Any, ClassVar

from pydantic import Field

from cogarch.core.cow import CowDict
from cogarch.core.memory import MemoryContext, MemoryItem, TurnRecord
from cogarch.models.messages import user

from .base import RetrievalModule
from .memoryos_tiers import Knowledge, MemoryPage, PageSummary, ProfileUpdate, Session
from .messages import LoggedMessage, clip
from .params import RetrievalParams, Role
from .prompts import (
    MEMORYOS_KNOWLEDGE,
    MEMORYOS_PAGE,
    MEMORYOS_PROFILE,
    render_template,
)
from .provenance import SOURCE_KEY, ids_of
from .search import DETAIL_KEY, hit_fields, passes
from .staging import Staging
from .vector_store import Hit


class MemoryOSParams(RetrievalParams):
    window: int = Field(default=10, ge=1)
    top_k: int = Field(default=7, ge=1, description="Mid-term pages retrieved per query.")
    ingest_roles: tuple[Role, ...] = Field(
        default=("user", "assistant"),
        description="MemoryOS pages are question-answer pairs, so both sides by default.",
    )
    short_term_capacity: int = Field(default=10, ge=1)
    merge_threshold: float = Field(default=0.6)
    keyword_weight: float = Field(default=1.0, ge=0.0)
    heat_threshold: float = Field(default=5.0, gt=0.0)
    recency_tau_hours: float = Field(default=24.0, gt=0.0)
    top_sessions: int = Field(default=5, ge=1)
    session_threshold: float = Field(default=0.1)
    page_threshold: float = Field(default=0.1)
    knowledge_k: int = Field(default=5, ge=0, description="Knowledge entries per kind.")
    mid_term_capacity: int = Field(default=2000, ge=1)
    render_chars: int | None = Field(
        default=100, ge=10, description="Questions and answers are cut to this many characters."
    )


class MemoryOSMemory(RetrievalModule):
    """Three-tier memory with heat-driven promotion (MemoryOS)."""

    kind: ClassVar[str] = "memoryos"
    prompt_key: ClassVar[str] = "memories"
    Params: ClassVar[type[RetrievalParams]] = MemoryOSParams
    params: MemoryOSParams

    def _setup(self) -> None:
        self.short_term: list[MemoryPage] = []
        self.pages: CowDict[str, MemoryPage] = CowDict()
        self.sessions: CowDict[str, Session] = CowDict()
        """Sessions and pages by id; one is edited in place only through ``mutable(id)``."""
        self.last_filed: str | None = None
        """The page filed last (the latest turn in the mid-term tier)."""
        self.profile = "None"
        self.counters = {"page": 0, "session": 0, "knowledge": 0}
        self.last_merge_score: float | None = None
        self.page_store = self.new_store("pages")
        self.session_store = self.new_store("sessions")
        self.knowledge_store = self.new_store("knowledge")

    def _next(self, what: str) -> str:
        self.counters[what] += 1
        return f"{what[0]}{self.counters[what]}"

    # ------------------------------------------------------------------ writing

    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        if new:
            page = MemoryPage(
                id=self._next("page"),
                user="\n".join(m.text for m in new if m.role == "user"),
                assistant="\n".join(m.text for m in new if m.role == "assistant"),
                time=new[0].time,
                turn=turn.index,
                source_ids=ids_of(new),
            )
            self.short_term.append(page)
            while len(self.short_term) > self.params.short_term_capacity:
                # Leaves the short-term tier only once it is filed (a failed call keeps it).
                await self.to_mid_term(self.short_term[0], ctx)
                self.short_term.pop(0)
        await self.promote_if_hot(ctx)

    async def to_mid_term(self, page: MemoryPage, ctx: MemoryContext) -> Session:
        """File an evicted page into the best session, or a new one."""
        previous = self.pages.get(self.last_filed) if self.last_filed else None
        if previous is None and self.pages:  # the last one filed went with an evicted session
            previous = max(self.pages.values(), key=lambda p: p.turn)
        prompt = render_template(
            MEMORYOS_PAGE,
            conversation=_exchange(previous) if previous else "(none)",
            user=page.user or "(none)",
            assistant=page.assistant or "(none)",
        )
        answer = await self.ask(ctx, [user(prompt)], PageSummary)
        page.keywords = _clean(answer.keywords)
        summary = answer.summary.strip() or clip(page.user or page.assistant, 200)
        best, best_score = None, -math.inf
        if self.sessions:
            [vector] = await self.session_store.aembed([summary])
            for hit in await self.session_store.aquery_vector(vector, len(self.sessions)):
                candidate = self.sessions[hit.id]
                overlap = jaccard(candidate.keywords, page.keywords)
                score = hit.similarity + self.params.keyword_weight * overlap
                if score > best_score:
                    best, best_score = candidate, score
        self.last_merge_score = None if best is None else best_score
        stamp = self.now().isoformat()
        if best is not None and best_score >= self.params.merge_threshold:
            session = self.sessions.mutable(best.id)
            session.pages.append(page.id)
            session.interaction += 1
            session.last_visit = stamp
            self.count("pages_merged")
        else:
            session = Session(
                id=self._next("session"),
                summary=summary,
                keywords=page.keywords,
                pages=[page.id],
                interaction=1,
                last_visit=stamp,
                created=stamp,
            )
            self.sessions[session.id] = session
            await self.session_store.aadd([session.id], [summary], [{"created": stamp}])
            self.count("sessions_opened")
        page = page.model_copy(update={"session": session.id})
        self.pages[page.id] = page
        self.last_filed = page.id
        meta = {"session": session.id, SOURCE_KEY: list(page.source_ids)}
        await self.page_store.aadd([page.id], [_exchange(page)], [meta])
        self._evict_sessions()
        return session

    def _evict_sessions(self) -> None:
        while len(self.sessions) > self.params.mid_term_capacity:
            coldest = min(self.sessions.values(), key=lambda s: (s.visits, s.created))
            del self.sessions[coldest.id]
            self.session_store.delete([coldest.id])
            self.page_store.delete(coldest.pages)
            for page_id in coldest.pages:
                self.pages.pop(page_id, None)
            self.count("sessions_evicted")

    def heat(self, session: Session, now: datetime | None = None) -> float:
        """``visits + interaction + exp(-hours since last visit / tau)``."""
        now = now or self.now()
        hours = max(0.0, (now - datetime.fromisoformat(session.last_visit)).total_seconds() / 3600)
        recency = math.exp(-hours / self.params.recency_tau_hours)
        return session.visits + session.interaction + recency

    async def promote_if_hot(self, ctx: MemoryContext) -> Session | None:
        """Promote the hottest session when its heat reaches the threshold; returns it."""
        if not self.sessions:
            return None
        now = self.now()
        hottest = max(self.sessions.values(), key=lambda s: self.heat(s, now))
        if self.heat(hottest, now) < self.params.heat_threshold:
            return None
        fresh = [self.pages[p] for p in hottest.pages if p in self.pages]
        fresh = [p for p in fresh if not p.analyzed]
        # Cooled even when a call fails: a failed promotion waits for the session to heat
        # again instead of repeating the same calls on every ingest.
        hottest = self.sessions.mutable(hottest.id)
        hottest.visits = 0
        hottest.interaction = 0
        if fresh:
            # Both answers first, then the writes, so a failure leaves no half promotion
            # (the pages stay unanalysed and join the session's next one).
            exchanges = "\n\n".join(_exchange(p) for p in fresh)
            prompt = render_template(MEMORYOS_PROFILE, profile=self.profile, pages=exchanges)
            update = await self.ask(ctx, [user(prompt)], ProfileUpdate)
            prompt = render_template(MEMORYOS_KNOWLEDGE, pages=exchanges)
            knowledge = await self.ask(ctx, [user(prompt)], Knowledge)
            self.profile = update.profile.strip() or self.profile
            origin = ids_of(fresh)  # knowledge keeps the source ids of its pages
            await self._add_knowledge("user", knowledge.user_knowledge, hottest.id, origin)
            await self._add_knowledge(
                "assistant", knowledge.assistant_knowledge, hottest.id, origin
            )
            for page in fresh:
                self.pages.mutable(page.id).analyzed = True
        self.count("promotions")
        return hottest

    async def _add_knowledge(
        self, kind: str, entries: list[str], session: str, src: list[str]
    ) -> None:
        texts = _clean(entries)
        stamp = self.now().isoformat()
        keys = [self._next("knowledge") for _ in texts]
        meta = {"kind": kind, "time": stamp, "session": session, SOURCE_KEY: src}
        await self.knowledge_store.aadd(keys, texts, [dict(meta) for _ in texts])
        self.count(f"{kind}_knowledge", len(texts))

    # ------------------------------------------------------------------ reading

    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        [vector] = await self.page_store.aembed([query])
        items: list[MemoryItem] = []
        sessions = [
            hit.id
            for hit in await self.session_store.aquery(
                query, self.params.top_sessions, vector=vector
            )
            if passes(hit, self.params.session_threshold)
        ]
        if sessions:
            where = {"session": {"$in": sessions}}
            hits = await self.page_store.aquery(
                query, self.params.top_k, where=where, vector=vector
            )
            stamp = self.now().isoformat()
            for hit in hits:
                if not passes(hit, self.params.page_threshold) or hit.id not in self.pages:
                    continue
                page = self.pages[hit.id]
                items.append(
                    MemoryItem(page.id, hit.text, round(hit.similarity, 6), _page_fields(page, hit))
                )
            for session_id in dict.fromkeys(str(item.fields["session"]) for item in items):
                visited = self.sessions.mutable(session_id)
                visited.visits += 1
                visited.last_visit = stamp
        for kind in ("user", "assistant"):
            found = await self.knowledge_store.aquery(
                query, self.params.knowledge_k, where={"kind": kind}, vector=vector
            )
            for hit in found:
                fields = {**hit_fields(hit), "tier": "knowledge"}
                items.append(MemoryItem(hit.id, hit.text, round(hit.similarity, 6), fields))
        return items

    def _format(self, items: list[MemoryItem]) -> str:
        pages = [self._page_line(item.fields) for item in items if item.fields.get("tier") == "mid"]
        knowledge = {
            kind: [f"- {item.text}" for item in items if item.fields.get("kind") == kind]
            for kind in ("user", "assistant")
        }
        short = [self._page_line(_page_fields(p)) for p in self.short_term]
        return "\n".join(
            [
                *_section("[Short-Term Memory]", short, "(empty)"),
                *_section("[Mid-Term Memory]", pages, "(empty)"),
                "[User Profile]",
                self.profile or "None",
                *_section("[User Knowledge]", knowledge["user"], "(none)"),
                *_section("[Assistant Knowledge]", knowledge["assistant"], "(none)"),
            ]
        )

    def _page_line(self, fields: Mapping[str, Any]) -> str:
        limit = self.params.render_chars
        when = datetime.fromisoformat(str(fields["time"])).strftime("%Y-%m-%d %H:%M:%S")
        return (
            f"- Q: {clip(str(fields['user']), limit)} A: {clip(str(fields['assistant']), limit)}"
            f" @ {when}"
        )

    def private_text(self) -> str:
        lines = _section(
            "[Short-Term Memory]",
            [self._page_line(_page_fields(p)) for p in self.short_term],
            "(empty)",
        )
        lines.append("[Mid-Term Memory]" + ("" if self.sessions else " (empty)"))
        for session in self.sessions.values():
            lines.append(f"Session {session.id}: {session.summary}")
            for page_id in session.pages:
                if page_id in self.pages:
                    lines.append(self._page_line(_page_fields(self.pages[page_id])))
        lines += ["[User Profile]", self.profile or "None"]
        records = self.knowledge_store.all()
        for kind, title in (("user", "[User Knowledge]"), ("assistant", "[Assistant Knowledge]")):
            found = [f"- {r.text}" for r in records if r.metadata.get("kind") == kind]
            lines += _section(title, found, "(none)")
        return "\n".join(lines)

    def _private_key(self) -> Hashable:
        stores = (self.page_store, self.session_store, self.knowledge_store)
        short = tuple((p.id, p.user, p.assistant) for p in self.short_term)
        return (*(s.revision for s in stores), self.profile, short)

    # ------------------------------------------------------------------ state

    def _save_own_state(self) -> dict[str, Any]:
        return {
            "short_term": [p.model_dump() for p in self.short_term],
            "pages": [p.model_dump() for p in self.pages.values()],
            "sessions": [s.model_dump() for s in self.sessions.values()],
            "profile": self.profile,
            "counters": dict(self.counters),
            "last_filed": self.last_filed,
            "page_store": self.page_store.save_state(),
            "session_store": self.session_store.save_state(),
            "knowledge_store": self.knowledge_store.save_state(),
        }

    def _load_own_state(self, staging: Staging) -> dict[str, Any]:
        pages = staging.items("pages", MemoryPage)
        sessions = staging.items("sessions", Session)
        return {
            "short_term": staging.items("short_term", MemoryPage),
            "pages": CowDict((p.id, p) for p in pages),
            "sessions": CowDict((s.id, s) for s in sessions),
            "last_filed": staging.text("last_filed", None),
            "profile": staging.text("profile", "None"),
            "counters": staging.counters("counters", {"page": 0, "session": 0, "knowledge": 0}),
            "page_store": staging.store("page_store", "pages"),
            "session_store": staging.store("session_store", "sessions"),
            "knowledge_store": staging.store("knowledge_store", "knowledge"),
        }


def jaccard(a: list[str], b: list[str]) -> float:
    """Jaccard index of two keyword lists (case-insensitive); 0 when either is empty."""
    left, right = {x.lower() for x in a}, {x.lower() for x in b}
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def _clean(values: list[str]) -> list[str]:
    return list(dict.fromkeys(v.strip() for v in values if v and v.strip()))


def _exchange(page: MemoryPage) -> str:
    return f"User: {page.user}\nAssistant: {page.assistant}"


def _page_fields(page: MemoryPage, hit: Hit | None = None) -> dict[str, Any]:
    search = {} if hit is None or hit.detail is None else {DETAIL_KEY: hit.detail.as_fields()}
    return {
        **search,
        "tier": "mid" if page.session else "short",
        "user": page.user,
        "assistant": page.assistant,
        "time": page.time,
        "turn": page.turn,
        "session": page.session,
        SOURCE_KEY: list(page.source_ids),
    }


def _section(title: str, lines: list[str], empty: str) -> list[str]:
    return [title, *lines] if lines else [f"{title} {empty}"]


__all__ = [
    "Knowledge",
    "MemoryOSMemory",
    "MemoryOSParams",
    "MemoryPage",
    "PageSummary",
    "ProfileUpdate",
    "Session",
    "jaccard",
]
