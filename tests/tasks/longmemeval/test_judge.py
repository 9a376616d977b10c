"""The official judge: the prompt of each type, its settings, and the verdict rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from cogarch.models.fakes import CallInfo, pairs_model
from cogarch.models.model import Model
from cogarch.tasks.longmemeval.data import QUESTION_TYPES, Question
from cogarch.tasks.longmemeval.judge import (
    ABSTENTION_PROMPT,
    FACT_PROMPT,
    PREFERENCE_PROMPT,
    TEMPORAL_PROMPT,
    UPDATE_PROMPT,
    judge,
    judge_prompt,
)
from cogarch.tasks.memory_bench.judging import verdict_is_yes


def asked(qtype: str, qid: str = "q") -> Question:
    return Question(qid, qtype, "How many days?", 18, "2023/05/30 (Tue) 23:40", (), ())


EXPECTED = {
    "single-session-user": FACT_PROMPT,
    "single-session-assistant": FACT_PROMPT,
    "multi-session": FACT_PROMPT,
    "temporal-reasoning": TEMPORAL_PROMPT,
    "knowledge-update": UPDATE_PROMPT,
    "single-session-preference": PREFERENCE_PROMPT,
}


@pytest.mark.parametrize("qtype", QUESTION_TYPES)
def test_each_type_gets_its_prompt_and_abstention_the_unanswerable_one(qtype: str) -> None:
    prompt = judge_prompt(asked(qtype), "19 days")
    assert prompt == EXPECTED[qtype].format(
        question="How many days?", answer="18", response="19 days"
    )
    abstained = judge_prompt(asked(qtype, "q_abs"), "I don't know")
    assert abstained == ABSTENTION_PROMPT.format(
        question="How many days?", answer="18", response="I don't know"
    )


def test_the_prompts_say_what_each_type_forgives() -> None:
    assert "off-by-one" in TEMPORAL_PROMPT and "off-by-one" not in FACT_PROMPT
    assert "previous information along with an updated answer" in UPDATE_PROMPT
    assert "Rubric: {answer}" in PREFERENCE_PROMPT
    assert "unanswerable" in ABSTENTION_PROMPT
    assert len({FACT_PROMPT, TEMPORAL_PROMPT, UPDATE_PROMPT, PREFERENCE_PROMPT}) == 4


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Yes.", True),
        ("**yes**", True),
        ("YES", True),
        ("No.", False),
        ("no", False),
        ("Eyes closed", True),
        ("", False),
    ],
)
def test_the_verdict_is_yes_in_the_lowercased_reply(reply: str, verdict: bool) -> None:
    assert verdict_is_yes(reply) is verdict


async def test_the_judge_asks_once_at_temperature_0_with_10_tokens() -> None:
    seen: list[CallInfo] = []

    def fake(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
        seen.append(call)
        return " Yes, it is. "

    model = Model(pairs_model(fake), provider="judge", model="fake-judge", fake=True)
    verdict, reply = await judge(model, asked("temporal-reasoning"), "19 days", seed=3)
    assert verdict is True and reply == "Yes, it is."
    [call] = seen
    args: dict[str, Any] = dict(call.args)
    assert args["temperature"] == 0.0 and args["max_tokens"] == 10
    assert call.caller == "judge"
