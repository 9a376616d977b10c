"""What feeding a benchmark's dialogue to an agent cost, and the cut of its public history.

A benchmark feeds the agent through the host's ``observe_many``: each turn becomes one
completed turn of the agent, taken in without a reply. It joins the public history the
responder sees and every memory module of the agent takes it in, exactly once, as the
retrieval specialist would before answering. The turns given together (a session) reach each
module together, so a module can embed them in one batch; the cost is linear in the length of
the dialogue.
"""

from __future__ import annotations

from cogarch.core.host import DialogueTrimming
from cogarch.models.metering import Meter


def trim_history(agent: DialogueTrimming, budget_tokens: int | None) -> None:
    """Keep only the latest public messages that fit ``budget_tokens`` (the model's context)."""
    if budget_tokens is not None:
        agent.trim_dialogue(budget_tokens)


class IngestCost:
    """Model calls, tokens and seconds spent on ingestion (across interrupted runs too)."""

    def __init__(self, data: dict[str, float] | None = None) -> None:
        self.data = dict(data or {"model_calls": 0, "prompt_tokens": 0, "completion_tokens": 0})
        self.data.setdefault("seconds", 0.0)

    def add(self, meter: Meter, seconds: float) -> None:
        """Add the calls in ``meter`` and the ``seconds`` they took; a call the response cache
        served counts the latency of the original call, as its tokens do."""
        summary = meter.summary()
        for key in ("model_calls", "prompt_tokens", "completion_tokens"):
            self.data[key] += summary[key]
        replayed = sum(r.latency_s for r in meter.records if r.cached)
        self.data["seconds"] = round(self.data["seconds"] + seconds + replayed, 3)

    def merge(self, other: IngestCost) -> None:
        """Add another cost (a session's) to this one."""
        for key, value in other.data.items():
            self.data[key] = round(self.data.get(key, 0) + value, 3)
