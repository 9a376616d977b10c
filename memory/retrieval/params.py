"""The parameters every retrieval baseline takes (the paper's m and k, and where it runs)."""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import ConfigDict, Field, field_validator, model_validator

from ..provider_param import ModelCallParams
from .embeddings import EmbedderName
from .search import DENSE, SearchParams

Role = Literal["user", "assistant"]


class RetrievalParams(ModelCallParams):
    """Settings every retrieval baseline takes (the paper's m and k, and where it runs). No
    float of a baseline's (a threshold, a weight) may be infinite or not a number."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    window: int = Field(
        default=10,
        ge=1,
        description="m: how many recent messages (of the ingested roles) the module keeps in "
        "view and shows its own model when it writes memory.",
    )
    top_k: int = Field(default=10, ge=1, description="k: entries retrieved per query.")
    ingest_roles: tuple[Role, ...] = Field(
        default=("user",),
        description="Which messages of a turn go into memory. Each baseline's default follows "
        "its reference agent (see the module's docstring); a baseline that ingests only the "
        "user's messages cannot keep a secret of the agent's.",
    )
    embedder: EmbedderName = Field(
        default="minilm",
        description="'minilm' (all-MiniLM-L6-v2, offline), 'static' (word-piece vectors "
        "distilled from it: tens of times faster; what the ready-made agents use) or 'hash' "
        "(tests). The default stays 'minilm' so that a spec which names none keeps the "
        "meaning of the runs made with it.",
    )
    store: Literal["chroma", "memory"] = Field(
        default="chroma",
        description="Where the vectors live: 'chroma' (chromadb collections, in memory or "
        "under persist_dir) or 'memory' (an in-process store with exact cosine search, faster "
        "on large memories; ties in insertion order).",
    )
    persist_dir: str | None = Field(
        default=None,
        description="Keep the chromadb collections on disk under this directory (default: in "
        "memory); needs store 'chroma'.",
    )
    search: SearchParams = Field(
        default=DENSE,
        exclude_if=lambda value: value == DENSE,
        description="How a query finds records: 'dense' (embedding similarity, the default), "
        "'lexical' (BM25) or 'hybrid' (both fused), or a mapping with 'mode' and the fusion "
        "settings (see docs/guides/retrieval.md). Searches a module makes while it writes "
        "(finding a new fact's neighbours) stay dense.",
    )
    clock: Literal["turn", "wall"] = Field(
        default="turn",
        description="Timestamps of undated turns: 'turn' derives them from turn numbers "
        "(reproducible, so model calls stay cacheable), 'wall' uses the current local time as "
        "the reference code did. A dated turn (a benchmark's session date) keeps its own time.",
    )

    @field_validator("search", mode="before")
    @classmethod
    def _search_by_name(cls, value: Any) -> Any:
        return {"mode": value} if isinstance(value, str) else value

    @field_validator("ingest_roles")
    @classmethod
    def _roles(cls, value: tuple[Role, ...]) -> tuple[Role, ...]:
        if not value:
            raise ValueError("give at least one role ('user' and/or 'assistant')")
        return tuple(dict.fromkeys(value))

    @model_validator(mode="after")
    def _persisted_in_chroma(self) -> Self:
        if self.persist_dir is not None and self.store != "chroma":
            raise ValueError(
                "persist_dir keeps chromadb collections on disk, but store is 'memory'; set "
                "store: chroma, or drop persist_dir"
            )
        return self
