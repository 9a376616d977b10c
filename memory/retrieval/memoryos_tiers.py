"""What MemoryOS's tiers hold (short-term pages, mid-term sessions) and the model answers that
fill them (a page's summary, the profile, the knowledge entries)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class PageSummary(BaseModel):
    summary: str
    keywords: list[str] = Field(default_factory=list)


class ProfileUpdate(BaseModel):
    profile: str


class Knowledge(BaseModel):
    user_knowledge: list[str] = Field(default_factory=list)
    assistant_knowledge: list[str] = Field(default_factory=list)


class MemoryPage(BaseModel):
    """One exchange. ``session`` is set once the page reaches the mid-term tier."""

    model_config = ConfigDict(extra="forbid")

    id: str
    user: str
    assistant: str
    time: str
    turn: int
    keywords: list[str] = Field(default_factory=list)
    session: str | None = None
    analyzed: bool = False
    source_ids: list[str] = Field(default_factory=list)


class Session(BaseModel):
    """A mid-term topic: a summary, keywords, its pages and what its heat is made of."""

    model_config = ConfigDict(extra="forbid")

    id: str
    summary: str
    keywords: list[str]
    pages: list[str]
    visits: int = 0
    interaction: int = 0
    """Pages added since the last promotion (the heat's L_interaction)."""
    last_visit: str
    created: str
