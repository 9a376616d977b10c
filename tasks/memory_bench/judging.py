"""The run's judge: the helper provider's model, for a task whose answers an LLM judges."""

from __future__ import annotations

from cogarch.core.task import Task, TrialContext
from cogarch.models.model import Model


def judge_model(task: Task, ctx: TrialContext, wanted: bool) -> Model | None:
    """The judge's model when ``wanted`` (the run's helper provider, which a task that judges
    requires: see ``Task.judge_provider``), else None."""
    if not wanted:
        return None
    model: Model = ctx.models(task.judge_provider(ctx))
    return model


def verdict_is_yes(reply: str) -> bool:
    """A judge's yes/no reply read as LongMemEval's official script reads it: yes when "yes"
    appears anywhere in the lower-cased reply ("Yes.", "**yes**", but also "eyes")."""
    return "yes" in reply.strip().lower()
