"""A specialist of your own, written outside the framework: a guard that keeps secrets.

An agent may keep in its private memory what it must not say yet: the workflow agent's
updater writes ``<secret>word</secret>`` into its working memory when it hosts Hangman. This
specialist runs after the updater each turn. It reads the values tagged ``tag`` in the memory
module ``memory`` and, unless the user's message asks for them (holds one of the phrases in
``unless_asked``), replaces each in the public reply by ``redaction``. It says what it did
this turn under its own name in the workspace's broadcasts, and counts the replies it
redacted, across turns, in the workspace's private scratch space under its own name.

A specialist keeps no per-dialogue state of its own (everything lives in the workspace and
the memory modules), which is what lets the agent fork. Nothing in the framework is edited
for it: ``custom_specialist_agent.yaml`` names it by its file's path and
``custom_specialist.yaml`` runs that agent on the Hangman SCT with fake models, beside the
unguarded workflow agent. From the repository root:

    cogarch run examples/custom_specialist.yaml
    cogarch report runs/custom_specialist
    cogarch view runs/custom_specialist --export runs/custom_specialist/site
"""

from __future__ import annotations

import re
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch.workspace import BaseSpecialist, StepContext, Workspace


class GuardParams(BaseModel):
    """The guard's settings, read from its entry under the agent spec's ``specialists:``."""

    model_config = ConfigDict(extra="forbid")

    memory: str = Field(description="The agent's memory module whose tagged values are kept.")
    tag: str = Field(
        default="secret", pattern=r"^[A-Za-z][\w-]*$", description="The tag marking a value."
    )
    redaction: str = Field(default="[hidden]", description="What replaces a value in a reply.")
    unless_asked: list[str] = Field(
        default=["reveal the secret"],
        description="Phrases of the user's message that let the values through (any case).",
    )


class SecretGuard(BaseSpecialist):
    """Keeps the values a memory module tags out of the public reply until they are asked for."""

    kind: ClassVar[str] = "secret_guard"
    reads = ("current_input", "reply", "memory")
    writes = ("reply", "broadcasts.<name>", "private.<name>")
    Params = GuardParams
    params: GuardParams

    def kept(self, ctx: StepContext) -> list[str]:
        """The values the memory module tags, as its private text holds them."""
        text = ctx.memory_module(self.params.memory).private_text()
        tag = re.escape(self.params.tag)
        found = re.findall(rf"<{tag}>\s*(.*?)\s*</{tag}>", text, re.IGNORECASE | re.DOTALL)
        return [value for value in dict.fromkeys(found) if value]

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        asked = ws.current_input.casefold()
        if ws.reply is None or any(p.casefold() in asked for p in self.params.unless_asked):
            ws.broadcasts[self.name] = "let through"
            return
        reply = ws.reply
        for value in self.kept(ctx):
            pattern = rf"(?<!\w){re.escape(value)}(?!\w)"
            reply = re.sub(pattern, self.params.redaction, reply, flags=re.IGNORECASE)
        redacted = reply != ws.reply
        ws.reply = reply
        ws.broadcasts[self.name] = "redacted" if redacted else "nothing to redact"
        # private holds small JSON values only: a fork copies it whole
        ws.private[self.name] = ws.private.get(self.name, 0) + redacted
