"""What the TRIM step of the Task Memory Engine produces: the intents a model finds in one user
input (``new``, ``update`` or ``check``), the prompt that asks for them, and the report of
what one input did to the task graph."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..model_call import listed
from .nodes import CheckResult

IntentKind = Literal["new", "update", "check"]
INTENTS: tuple[IntentKind, ...] = get_args(IntentKind)


class Intent(BaseModel):
    """One classified intent. Unknown keys a model adds are ignored (``extra="ignore"``)."""

    model_config = ConfigDict(extra="ignore")

    intent: IntentKind
    slot: str = Field(min_length=1, max_length=60, description="snake_case slot, or 'all'.")
    value: str | None = Field(default=None, max_length=200)
    action: Literal["set", "rollback", "remove", "restore"] = "set"
    parent: str | None = Field(default=None, max_length=60)
    depends_on: list[str] = Field(default_factory=list, max_length=6)
    replaces: str | None = Field(default=None, max_length=200)


class Trim(BaseModel):
    """The classifier's answer: the intents of one input, in order."""

    model_config = ConfigDict(extra="ignore", title="TaskIntents")

    intents: list[Intent] = Field(max_length=8)

    @model_validator(mode="before")
    @classmethod
    def _accept_common_shapes(cls, data: Any) -> Any:
        return listed(data, "intents", _renamed, single="intent")


def _renamed(item: Any) -> Any:
    if isinstance(item, dict) and "intent" not in item and "intent_type" in item:
        return {**item, "intent": item["intent_type"]}
    return item


class Applied(BaseModel):
    model_config = ConfigDict(extra="forbid")

    intent: Intent
    op: Literal["add", "update", "rollback", "inactivate", "activate", "check", "skip"]
    slots: list[str] = Field(default_factory=list)
    stale: list[str] = Field(default_factory=list)
    note: str = ""


class TurnReport(BaseModel):
    """What one input did to the graph and what the prompt was shown."""

    model_config = ConfigDict(extra="forbid")

    turn: int
    text: str
    intents: list[Intent] = Field(default_factory=list)
    applied: list[Applied] = Field(default_factory=list)
    checks: list[CheckResult] = Field(default_factory=list)
    focus: list[str] = Field(default_factory=list)
    context_tokens: int = 0
    error: str | None = None


TRIM_PROMPT = """You classify a user's message for a task-state tracker. Split the message into \
intents and reply with ONLY JSON: {"intents": [ ... ]}. Each intent has:
- "intent": "new" (a new subtask or detail), "update" (changes something already recorded) or \
"check" (asks about or questions the state; a check never changes anything);
- "slot": a short snake_case name for the detail (reuse an existing slot name when it is the \
same detail), or "all" when the user asks for everything;
- "value": the new value (new/update), or the value the user claims or asks about (check);
- "action" (update only): "set", "rollback" (go back to the previous value), "remove" \
(drop the item) or "restore" (bring a removed item back);
- "parent": the slot of the task this belongs to, if any; "depends_on": slots it depends on;
- "replaces": for a substitution, the old value being replaced.

Examples (slots invented for illustration):
Message: "The venue is the river hall." -> {"intents": [{"intent": "new", "slot": "venue", \
"value": "river hall", "parent": "event"}]}
Message: "No beef left, use lentils in both dishes." -> {"intents": [{"intent": "update", \
"slot": "protein", "value": "lentils", "replaces": "beef"}]}
Message: "Hmm, didn't I choose the garden room?" -> {"intents": [{"intent": "check", \
"slot": "venue", "value": "garden room"}]}
Message: "Go back to the earlier venue, and drop the projector." -> {"intents": [{"intent": \
"update", "slot": "venue", "action": "rollback"}, {"intent": "update", "slot": "projector", \
"action": "remove"}]}"""
