"""The settings a trial's score depends on, recorded beside it: who read, who judged, how
much memory the reader could be shown.

Two scores compare like for like only when their reader, judge and retrieval budget agree;
a trial records them (``TrialMetadata.settings``) so a leaderboard can say where they do not.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RetrievalBudget(BaseModel):
    """What an agent's memory may show the reader: each memory module's ``top_k`` and each
    memory-reading specialist's token bound (None: unbounded; ``official``: the reader's
    window, as the official LongMemEval code cuts it)."""

    model_config = ConfigDict(extra="forbid")

    top_k: dict[str, int] = Field(default_factory=dict, description="By memory module.")
    context_tokens: dict[str, int | str | None] = Field(
        default_factory=dict, description="By specialist that puts memory into a prompt."
    )


class TrialSettings(BaseModel):
    """The reader's and the judge's model and temperature, and the retrieval budget."""

    model_config = ConfigDict(extra="forbid")

    reader_provider: str | None = None
    reader_model: str | None = None
    reader_temperature: float | None = None
    judge_provider: str | None = None
    """The run's helper provider, which judges for a task that judges (None: none named)."""
    judge_model: str | None = None
    judge_temperature: float | None = None
    budget: RetrievalBudget | None = None
    """None for an agent without a memory module."""
