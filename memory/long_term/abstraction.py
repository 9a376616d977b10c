"""The abstraction that turns a won game into concepts: its prompt and the answer it expects.

One model call per won game is shown the goal, the outcome, the belief states the agent wrote
and the lessons it noted, and answers with at most ``n`` one-sentence concepts, each citing the
steps of the beliefs it draws on (:class:`ConceptDrafts`; a bare list, or plain strings, are
accepted too).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..model_call import listed

CONCEPT_PROMPT = """You abstract reusable knowledge from an agent's experience in a text \
environment. You are shown the belief states the agent wrote while it played a game it WON, \
and the lessons it noted along the way. Write at most {n} concepts: general rules about how \
the environment works, or strategies that would help in other games with other goals. Each \
concept is one sentence and names kinds of things (a fridge, a countertop), not this game's \
numbered objects.
Reply with ONLY JSON: {{"concepts": [{{"text": "<one sentence>", "steps": [<the step \
numbers of the beliefs it draws on>]}}]}}"""


class ConceptDraft(BaseModel):
    model_config = ConfigDict(extra="ignore")

    text: str = Field(min_length=1, max_length=600)
    steps: list[int] = Field(default_factory=list, max_length=200)


class ConceptDrafts(BaseModel):
    """The abstraction's answer; a bare list, or plain strings, are accepted too."""

    model_config = ConfigDict(extra="ignore", title="Concepts")

    concepts: list[ConceptDraft] = Field(max_length=40)

    @model_validator(mode="before")
    @classmethod
    def _common_shapes(cls, data: Any) -> Any:
        return listed(data, "concepts", lambda c: {"text": c} if isinstance(c, str) else c)
