"""The generator's knobs, validated: the seed, the size (sessions or a target length in
tokens), turns per session, the share of hard-negative turns, the number of questions and
their mix over the five abilities."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Ability = Literal["extraction", "multi_session", "update", "temporal", "abstention"]
ABILITIES: tuple[Ability, ...] = (
    "extraction",
    "multi_session",
    "update",
    "temporal",
    "abstention",
)
"""LongMemEval's five abilities, in the order tables show them."""
QUESTION_TYPE: dict[str, str] = {
    "extraction": "single-session-user",
    "multi_session": "multi-session",
    "update": "knowledge-update",
    "temporal": "temporal-reasoning",
    "abstention": "single-session-user",
}
"""The LongMemEval question type each ability is filed under (abstention questions also
carry the abstention flag, as ``_abs`` marks them there)."""
MAX_TARGET_TOKENS = 5_000_000


class GeneratorParams(BaseModel):
    """The knobs of one generated conversation and its questions."""

    model_config = ConfigDict(extra="forbid")

    seed: int = Field(
        default=0,
        ge=0,
        description="The conversation's seed: the same seed and knobs give the same "
        "conversation and questions on every machine.",
    )
    target_tokens: int | None = Field(
        default=None,
        ge=2_000,
        le=MAX_TARGET_TOKENS,
        description="The history's length to aim at, in tokens (the offline estimate of "
        "cogarch.tokens); the number of sessions follows from it. Give this or sessions "
        "(neither: 16000).",
    )
    sessions: int | None = Field(
        default=None, ge=2, le=200_000, description="The number of sessions (or target_tokens)."
    )
    turns_per_session: int = Field(
        default=8,
        ge=2,
        le=60,
        description="User turns per session, each answered by the assistant (so a session "
        "has twice as many turns).",
    )
    questions: int = Field(default=40, ge=1, le=5_000, description="Questions to generate.")
    distractor_share: float = Field(
        default=0.3,
        ge=0.0,
        le=1.0,
        description="Share of the user turns that state no asked fact which are hard "
        "negatives (the same people, pets and kinds of value as the facts); the rest are "
        "filler chat.",
    )
    mix: dict[Ability, float] = Field(
        default_factory=lambda: dict.fromkeys(ABILITIES, 1.0),
        description="Relative weight of each ability among the questions ("
        + ", ".join(ABILITIES)
        + "); an ability left out gets none.",
    )
    families: list[str] | None = Field(
        default=None,
        description="The question families to draw from, by name (for example "
        "[person_job, activity_count, days_between]); left out: the default set, every "
        "family answered in one step from its evidence (the sums, comparisons and date "
        "arithmetic are named here to ask them).",
    )
    start: date = Field(default=date(2023, 3, 6), description="The first session's date.")

    @field_validator("mix")
    @classmethod
    def _mix_ok(cls, value: dict[str, float]) -> dict[str, float]:
        if any(w < 0 for w in value.values()):
            raise ValueError("mix weights must be 0 or more")
        if not any(w > 0 for w in value.values()):
            raise ValueError("mix needs at least one ability with a weight above 0")
        return value

    @model_validator(mode="after")
    def _one_size(self) -> GeneratorParams:
        if self.target_tokens is not None and self.sessions is not None:
            raise ValueError(
                "give target_tokens or sessions, not both (the number of sessions follows "
                "from target_tokens)"
            )
        return self

    def counts(self) -> dict[str, int]:
        """Questions per ability: the mix's shares of ``questions``, largest remainders."""
        weights = {a: self.mix.get(a, 0.0) for a in ABILITIES}
        total = sum(weights.values())
        quotas = {a: self.questions * w / total for a, w in weights.items()}
        counts: dict[str, int] = {a: int(q) for a, q in quotas.items()}
        rest = self.questions - sum(counts.values())
        for a in sorted(ABILITIES, key=lambda a: (-(quotas[a] - counts[a]), ABILITIES.index(a)))[
            :rest
        ]:
            counts[a] += 1
        return counts
