"""The joint verdict's schema: exactly one verdict per reply shown, each labelled with one of
the letters shown, so neither a schema-constrained decoder nor validation lets a label that
names no reply through."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from autogen_core.models import LLMMessage
from pydantic import ValidationError

from cogarch.models import FunctionModel, Model
from cogarch.models.fakes import CallInfo
from cogarch.tasks.constraints.joint import joint_verdict_for, judge_together
from cogarch.tasks.constraints.scenarios import CanonicalMemory

AUDIT: dict[str, Any] = {
    "claims": [],
    "violated": [],
    "omitted": [],
    "relevance": 7,
    "answer_quality": 7,
    "instruction_following": 7,
    "coherence": 7,
}
MEMORY = CanonicalMemory(turn=4, constraints=[], facts=[], unverified=[], required=[])


def verdicts(*labels: str, **scores: int) -> dict[str, Any]:
    return {"verdicts": [{"reply": label, **AUDIT, **scores} for label in labels]}


def test_the_schema_names_exactly_the_letters_shown_and_one_verdict_each() -> None:
    schema = joint_verdict_for(3).model_json_schema()
    labelled = schema["$defs"]["LabelledVerdict"]
    assert labelled["properties"]["reply"]["enum"] == ["A", "B", "C"]
    assert next(iter(labelled["properties"])) == "reply"  # named before it is audited
    assert (
        schema["properties"]["verdicts"]["minItems"],
        schema["properties"]["verdicts"]["maxItems"],
    ) == (3, 3)
    assert joint_verdict_for(3) is joint_verdict_for(3)
    with pytest.raises(ValueError, match="1 to 26 replies"):
        joint_verdict_for(27)


@pytest.mark.parametrize(
    ("labels", "problem"),
    [
        (("A", "I'm", "C"), "Input should be 'A', 'B' or 'C'"),
        (("A", "D", "C"), "Input should be 'A', 'B' or 'C'"),
        (("A", "A", "B"), "repeated: A"),
        (("A", "B"), "at least 3 items"),
    ],
)
def test_a_label_that_names_no_reply_or_repeats_one_is_rejected(
    labels: tuple[str, ...], problem: str
) -> None:
    with pytest.raises(ValidationError, match=problem):
        joint_verdict_for(3).model_validate(verdicts(*labels))


def test_a_bracketed_or_lower_case_letter_is_read_as_the_letter() -> None:
    parsed = joint_verdict_for(3).model_validate(verdicts("(a)", " B ", "[c]"))
    assert [v.reply for v in parsed.verdicts] == ["A", "B", "C"]


def judge_of(answers: Sequence[dict[str, Any]]) -> tuple[Model, list[CallInfo]]:
    seen: list[CallInfo] = []

    def reply(messages: Sequence[LLMMessage], call: CallInfo) -> str:
        seen.append(call)
        return json.dumps(answers[min(call.index, len(answers) - 1)])

    return Model(FunctionModel(reply), provider="judge", model="fake", fake=True), seen


async def test_a_judge_that_mislabels_is_sent_back_and_its_corrected_verdicts_are_scored() -> None:
    judge, seen = judge_of([verdicts("I'm", "I'm"), verdicts("B", "A", relevance=3)])
    out = await judge_together(judge, MEMORY, "Plan the batch.", ["one", "two"], seed=5)
    assert len(seen) == 2
    sent = seen[0].response_format
    assert sent is not None
    assert sent["json_schema"]["schema"]["$defs"]["LabelledVerdict"]["properties"]["reply"][
        "enum"
    ] == ["A", "B"]
    assert all(not isinstance(j, str) and j.scores["relevance"] == 3 for j in out)


async def test_a_judge_that_never_labels_a_reply_leaves_every_reply_unjudged() -> None:
    judge, seen = judge_of([verdicts("I'm", "I'm")])
    out = await judge_together(judge, MEMORY, "Plan the batch.", ["one", "two"], seed=5)
    assert len(seen) == 3
    assert all(isinstance(j, str) and "'A' or 'B'" in j for j in out)
