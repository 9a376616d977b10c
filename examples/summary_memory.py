"""A memory module of your own that calls a model: a running summary.

After each completed turn the module asks a model to fold the turn into its summary, and a
prompt shows the summary under the module's name (``{summary}`` in a responder's prompt).
What it keeps privately, which the SCT snapshots at its fork, is the summary too.

It calls the model with the helpers every model-calling memory of cogarch uses:
:func:`cogarch.memory.ask_model` (a structured call, validated and retried, metered under
``memory:summary``) and :class:`cogarch.memory.ModelCallParams` (a ``provider`` parameter
that falls back on the provider the driving specialist lends the module). A malformed saved
state is refused with :class:`cogarch.core.StateError`.

``summary_memory_agent.yaml`` names the module by its file's path, and
``summary_memory.yaml`` runs that agent on the Hangman SCT with fake models: the fake that
plays the agent answers its game turns, and :func:`fake_summariser` (below) answers the
module's own calls, picked by caller (``callers: {"memory:summary": ...}``). From the
repository root:

    cogarch run examples/summary_memory.yaml
    cogarch report runs/summary_memory
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core import MemoryContext, MemoryModule, StateError, TurnRecord
from cogarch.memory import ModelCallParams, ask_model
from cogarch.models import CallInfo

PROMPT = (
    "You keep a short running summary of a conversation. Fold the new turn into the summary: "
    "keep every fact, name, number and commitment the assistant made; drop chit-chat. "
    'Answer with JSON: {"summary": "..."}.'
)


class SummaryParams(ModelCallParams):
    """The module's settings: its ``provider`` (from ``ModelCallParams``) and its limits."""

    model_config = ConfigDict(extra="forbid", frozen=True)  # frozen: forks share it

    max_chars: int = Field(default=800, ge=50, description="The longest summary kept.")
    attempts: int = Field(default=2, ge=1, le=5, description="Answers asked for per turn.")


class Summary(BaseModel):
    """What the model answers: the new summary."""

    summary: str = Field(min_length=1)


class SummaryMemory(MemoryModule):
    """A running summary, folded by a model after each completed turn."""

    kind: ClassVar[str] = "summary"
    Params: ClassVar[type[SummaryParams]] = SummaryParams

    def __init__(self, params: SummaryParams | None = None) -> None:
        self.params = params or SummaryParams()
        self.summary = ""  # a str: the default fork() shares it, and ingest replaces it
        self.lent: str | None = None

    def use_provider(self, provider: str | None) -> None:
        self.lent = provider  # the driving specialist's provider, the fallback of our own

    async def ingest(self, turn: TurnRecord, ctx: MemoryContext) -> None:
        provider = self.params.provider_or(
            self.lent,
            missing="memory module 'summary' needs a model: set 'provider' in its params, or "
            "drive it with a specialist that has one",
        )
        request = (
            f"Summary so far:\n{self.summary or '(nothing yet)'}\n\n"
            f"New turn:\nUser: {turn.user}\nAssistant: {turn.assistant}"
        )
        # a ModelCallError (no valid answer) propagates: the specialist driving the module
        # records the turn as not ingested and the dialogue goes on
        result = await ask_model(ctx, provider, PROMPT, request, Summary, **self._limits())
        self.summary = result.value.summary[: self.params.max_chars]

    def _limits(self) -> dict[str, Any]:
        return {"attempts": self.params.attempts, "max_tokens": self.params.max_chars // 2}

    def render(self, budget_tokens: int | None = None) -> str:
        return f"Summary of the conversation so far: {self.summary}" if self.summary else ""

    def private_text(self) -> str:
        return self.summary

    def save_state(self) -> dict[str, Any]:
        return {"kind": self.kind, "summary": self.summary}

    def load_state(self, state: dict[str, Any]) -> None:
        state = self.check_state_kind(state)
        summary = state.get("summary")
        if not isinstance(summary, str):
            raise StateError(
                f"the summary state's 'summary' is a {type(summary).__name__}, not a str; load "
                "what save_state exported"
            )
        self.summary = summary[: self.params.max_chars]


def fake_summariser(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
    """Plays the model of the module's own calls in a fakes run: the summary so far with the
    new turn's user message appended (``(pairs, seed, call) -> reply``, as any fake)."""
    request = pairs[-1][1]
    before, _, turn = request.partition("\n\nNew turn:\nUser: ")
    said = turn.split("\nAssistant: ")[0].strip().splitlines()[0] if turn.strip() else ""
    so_far = before.removeprefix("Summary so far:\n")
    parts = [] if so_far == "(nothing yet)" else [so_far]
    return json.dumps({"summary": " | ".join([*parts, f"user: {said[:80]}"])})
