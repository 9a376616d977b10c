"""The judge audit's settings: the ``audit_judge`` key of a run config."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator


class JudgeAuditConfig(BaseModel):
    """How the judge audit samples its questions and who judges a second time."""

    model_config = ConfigDict(extra="forbid")

    questions: StrictInt | None = Field(
        default=50,
        ge=1,
        description="How many of the run's judged questions to audit, drawn by seed (null: "
        "every one).",
    )
    seed: StrictInt = Field(
        default=0, ge=0, description="The seed of the question sample and of the judges' calls."
    )
    second_judge: str | None = Field(
        default=None,
        description="A provider (any kind) that judges every audit item again, for Cohen's "
        "kappa and the list of items the two judges disagree on.",
    )
    concurrency: StrictInt = Field(
        default=8, ge=1, le=512, description="Judge calls in flight at once."
    )

    @field_validator("second_judge")
    @classmethod
    def _named(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("second_judge is empty; name a provider or leave it out")
        return value


def audit_setting(value: Any) -> Any:
    """``audit_judge: true`` as the default settings, ``false`` as none (before validation)."""
    if value is True:
        return JudgeAuditConfig()
    if value is False:
        return None
    return value
