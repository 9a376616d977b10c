"""MemoryOS itself (the ``memoryos-pro`` library) as a memory module, beside cogarch's
``memoryos``.

Configured as the Hangman paper ran it, offline: ``memoryos.Memoryos`` with its JSON files in
a folder the module owns, its OpenAI client pointed at cogarch's model proxy (every call
metered, seeded and cached by cogarch), and its hard-coded embedder name
(``all-MiniLM-L6-v2``) given the local MiniLM model through the library's model cache. The
paper's settings: a short-term capacity of m = 10 exchanges and a retrieval queue of k = 7
pages; the library's defaults otherwise (heat threshold 5, merge similarity 0.6).

Writing, after each turn: ``add_memory(user_input, agent_response, timestamp)``, one
question-answer page per exchange (the library's eviction to mid-term sessions and its
promotion of hot sessions to the profile and knowledge happen inside, with their model
calls). Reading: ``retriever.retrieve_context(query, user_id)`` (mid-term pages, user and
assistant knowledge), with the short-term pages and the profile, shown in the same sections
as cogarch's ``memoryos`` for the ``{memories}`` placeholder. Provenance: the module keeps the
source ids of every exchange it added, by its text, and gives them to the pages retrieved.

Fork: a fresh ``Memoryos`` over a copy of the folder. State: the folder's JSON files.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
import threading
import weakref
from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar, Self

from pydantic import Field

from cogarch.core.memory import MemoryContext, MemoryItem, TurnRecord
from cogarch.models.proxy import ProxySession

from ..embeddings import minilm_model
from ..messages import LoggedMessage, clip
from ..params import RetrievalParams, Role
from ..provenance import SOURCE_KEY, union_ids
from .base import LibraryModule, LibraryParams
from .memoryos_files import check_store_file
from .offline import MEMORYOS, load

EMBEDDER_NAME = "all-MiniLM-L6-v2"
"""The embedder name MemoryOS hard-codes."""
ASSISTANT_ID = "assistant"
_QUIET = ("memoryos", "utils", "short_term", "mid_term", "long_term", "updater", "retriever")
_SETUP_LOCK = threading.Lock()


class MemoryOSLibParams(LibraryParams):
    window: int = Field(default=10, ge=1)
    top_k: int = Field(default=7, ge=1, description="k: the retrieval queue's capacity (pages).")
    ingest_roles: tuple[Role, ...] = Field(
        default=("user", "assistant"),
        description="MemoryOS pages are question-answer pairs, so both sides.",
    )
    short_term_capacity: int = Field(default=10, ge=1, description="m: short-term exchanges.")
    heat_threshold: float = Field(default=5.0, gt=0.0)
    merge_threshold: float = Field(default=0.6)
    knowledge_capacity: int = Field(default=100, ge=1)
    render_chars: int | None = Field(
        default=None, ge=1, description="Cut each page's question and answer to this length."
    )


class MemoryOSLibMemory(LibraryModule):
    """``memoryos.Memoryos`` itself, its calls through cogarch's model layer."""

    kind: ClassVar[str] = "memoryos_lib"
    prompt_key: ClassVar[str] = "memories"
    library = MEMORYOS
    Params: ClassVar[type[RetrievalParams]] = MemoryOSLibParams
    params: MemoryOSLibParams

    def _setup(self) -> None:
        self.page_sources: dict[str, list[str]] = {}
        """The source ids of every exchange added, by ``_page_key``."""
        self.retrieved_context: dict[str, Any] = {}
        super()._setup()

    # ------------------------------------------------------------------ library

    def _open(self, session: ProxySession, folder: Path | None = None) -> Any:
        module = _prepare(self.kind)
        if folder is None:
            with _store_folder() as folder:
                return self._open(session, folder)
        memory = module.Memoryos(
            user_id=self.params.user_id,
            openai_api_key=session.token,
            data_storage_path=str(folder),
            openai_base_url=session.base_url,
            assistant_id=ASSISTANT_ID,
            short_term_capacity=self.params.short_term_capacity,
            long_term_knowledge_capacity=self.params.knowledge_capacity,
            retrieval_queue_capacity=self.params.top_k,
            mid_term_heat_threshold=self.params.heat_threshold,
            mid_term_similarity_threshold=self.params.merge_threshold,
            llm_model=self.model_name,
        )
        weakref.finalize(memory, shutil.rmtree, str(folder), ignore_errors=True)
        return memory

    def _copy(self, lib: Any, session: ProxySession) -> Any:
        _save_all(lib)
        with _store_folder() as folder:
            shutil.copytree(lib.data_storage_path, folder, dirs_exist_ok=True)
            return self._open(session, folder)

    def _after_fork(self, clone: Self) -> None:
        clone.page_sources = dict(self.page_sources)
        clone.retrieved_context = dict(self.retrieved_context)

    def _dump(self) -> dict[str, Any]:
        _save_all(self.lib)
        root = Path(self.lib.data_storage_path)
        files = {
            str(p.relative_to(root)): json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(root.rglob("*.json"))
        }
        return {"files": files, "page_sources": dict(self.page_sources)}

    def _restore(self, data: Mapping[str, Any], session: ProxySession) -> Any:
        files = data.get("files")
        sources = data.get("page_sources", {})
        if not isinstance(files, Mapping) or not isinstance(sources, Mapping):
            raise ValueError("'files' and 'page_sources' must be objects")
        for name in files:
            inside = PurePosixPath(str(name))
            if inside.is_absolute() or ".." in inside.parts or inside.suffix != ".json":
                raise ValueError(f"'{name}' is not a JSON file inside the store")
        checked = {str(k): check_store_file(str(k), content) for k, content in files.items()}
        with _store_folder() as folder:
            for name, content in checked.items():
                path = (folder / name).resolve()
                if folder.resolve() not in path.parents or path.suffix != ".json":
                    raise ValueError(f"'{name}' is not a JSON file inside the store")
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(content, ensure_ascii=False), encoding="utf-8")
            self._pending_sources = {str(k): [str(i) for i in v] for k, v in sources.items()}
            return self._open(session, folder)

    def _loaded(self, data: Mapping[str, Any]) -> None:
        self.page_sources = getattr(self, "_pending_sources", {})
        self.retrieved_context = {}

    # ------------------------------------------------------------------ writing and reading

    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        if not new:
            return
        said = {m.role: m.text for m in new}
        question, answer = said.get("user", ""), said.get("assistant", "")
        stamp = self.message_time(turn, "user").strftime("%Y-%m-%d %H:%M:%S")
        key = _page_key(question, answer)
        self.page_sources[key] = union_ids(self.page_sources.get(key, []), turn.source_ids)
        await self.call(ctx, self.lib.add_memory, question, answer, stamp, write=True)
        self.revision += 1

    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        found = await self.call(
            ctx, self.lib.retriever.retrieve_context, user_query=query, user_id=self.params.user_id
        )
        self.revision += 1  # a retrieval heats the sessions it visits
        items: list[MemoryItem] = []
        for rank, page in enumerate(found.get("retrieved_pages", [])):
            items.append(self._page_item(page, "mid", len(found["retrieved_pages"]) - rank))
        for kind, key in (("user", "retrieved_user_knowledge"), ("assistant", None)):
            entries = found.get(key or "retrieved_assistant_knowledge", [])
            for n, entry in enumerate(entries):
                items.append(
                    MemoryItem(
                        f"{kind}-knowledge-{n}",
                        str(entry.get("knowledge", "")),
                        0.0,
                        {"tier": "long", "kind": kind, "time": entry.get("timestamp")},
                    )
                )
        return items

    def _page_item(self, page: Mapping[str, Any], tier: str, score: float) -> MemoryItem:
        question = str(page.get("user_input", ""))
        answer = str(page.get("agent_response", ""))
        fields = {
            "tier": tier,
            "user": question,
            "assistant": answer,
            "time": page.get("timestamp"),
            SOURCE_KEY: self.page_sources.get(_page_key(question, answer), []),
        }
        text = f"Q: {question} A: {answer}"
        return MemoryItem(str(page.get("page_id", "")), text, float(score), fields)

    def short_term(self) -> list[MemoryItem]:
        return [self._page_item(qa, "short", 0.0) for qa in self.lib.short_term_memory.get_all()]

    def profile(self) -> str:
        text = self.lib.user_long_term_memory.get_raw_user_profile(self.params.user_id)
        return text if text and text.lower() != "none" else "None"

    def _format(self, items: list[MemoryItem]) -> str:
        pages = [self._line(item.fields) for item in items if item.fields.get("tier") == "mid"]
        knowledge = {
            kind: [f"- {item.text}" for item in items if item.fields.get("kind") == kind]
            for kind in ("user", "assistant")
        }
        short = [self._line(item.fields) for item in self.short_term()]
        return "\n".join(
            [
                *_section("[Short-Term Memory]", short, "(empty)"),
                *_section("[Mid-Term Memory]", pages, "(empty)"),
                "[User Profile]",
                self.profile(),
                *_section("[User Knowledge]", knowledge["user"], "(none)"),
                *_section("[Assistant Knowledge]", knowledge["assistant"], "(none)"),
            ]
        )

    def _line(self, fields: Mapping[str, Any]) -> str:
        limit = self.params.render_chars
        return (
            f"- Q: {clip(str(fields['user']), limit)} A: {clip(str(fields['assistant']), limit)}"
            f" @ {_when(fields.get('time'))}"
        )

    def memories(self) -> list[MemoryItem]:
        """Every stored page (mid-term, then short-term) and knowledge entry."""
        items: list[MemoryItem] = []
        for session in self.lib.mid_term_memory.sessions.values():
            items += [self._page_item(p, "mid", 0.0) for p in session.get("details", [])]
        items += self.short_term()
        for kind, entries in (
            ("user", self.lib.user_long_term_memory.knowledge_base),
            ("assistant", self.lib.assistant_long_term_memory.assistant_knowledge),
        ):
            items += [
                MemoryItem(
                    f"{kind}-knowledge-{n}", str(e.get("knowledge", "")), 0.0, {"kind": kind}
                )
                for n, e in enumerate(entries)
            ]
        return items

    def private_text(self) -> str:
        lines = ["[Pages]", *(f"- {m.text}" for m in self.memories())]
        return "\n".join([*lines, "[User Profile]", self.profile()])


@contextlib.contextmanager
def _store_folder() -> Iterator[Path]:
    """A new store folder, removed again when what fills and opens it fails (an opened store
    removes its own folder when it is dropped)."""
    folder = Path(tempfile.mkdtemp(prefix="cogarch-memoryos-"))
    try:
        yield folder
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


def _prepare(kind: str) -> Any:
    """The library's main module, with its embedder cache given the local model and its
    progress prints silenced (they would fill the run's output)."""
    main = load(MEMORYOS, kind, "memoryos")
    with _SETUP_LOCK:
        utils = load(MEMORYOS, kind, "utils")
        utils._model_cache.setdefault(EMBEDDER_NAME, minilm_model())
        for name in _QUIET:
            module = load(MEMORYOS, kind, name)
            module.__dict__["print"] = lambda *args, **kwargs: None
    return main


def _save_all(lib: Any) -> None:
    lib.short_term_memory.save()
    lib.mid_term_memory.save()
    lib.user_long_term_memory.save()
    lib.assistant_long_term_memory.save()


def _page_key(question: str, answer: str) -> str:
    return json.dumps([question, answer], ensure_ascii=False)


def _when(value: Any) -> str:
    try:
        return datetime.strptime(str(value), "%Y-%m-%d %H:%M:%S").strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return str(value)


def _section(title: str, lines: list[str], empty: str) -> list[str]:
    return [title, *lines] if lines else [f"{title} {empty}"]
