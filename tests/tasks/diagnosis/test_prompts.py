"""The Appendix F.1 prompts and their helpers."""

from __future__ import annotations

import pytest

from cogarch.tasks.diagnosis.prompts import (
    OPENER,
    REVEAL_REQUEST,
    candidate_generation_prompt,
    parse_proposals,
    question_prompt,
    verification_prompt,
)


def test_opener_is_the_papers_text() -> None:
    lines = OPENER.splitlines()
    assert lines[0] == "You are the attending physician hosting a diagnostic session."
    assert lines[1] == "Rules for you (the host/patient):"
    assert (
        "- Privately choose one random, realistic, but non-obvious medical condition (the hidden "
        "condition). Do not reveal it unless I ask to reveal it." in lines
    )
    assert "  1) Answer: yes or no." in lines
    assert lines[-1] == "I will begin now with initial questions."


def test_fixed_prompts() -> None:
    assert REVEAL_REQUEST == (
        "Please reveal the medical condition now. Respond with the medical condition name only. "
        "Do not include any extra text."
    )
    assert verification_prompt("  Sarcoidosis ") == (
        "Is the hidden condition Sarcoidosis? Answer only with a single word: yes or no."
    )


def test_a_full_evidence_question_is_asked_as_it_stands() -> None:
    question = "Do you have a fever (either felt or measured with a thermometer)?"
    assert question_prompt(question) == question
    assert question_prompt("a  persistent cough") == "Do you have a persistent cough?"
    with pytest.raises(ValueError, match="empty"):
        question_prompt("   ")


def test_candidate_generation_prompt() -> None:
    text = candidate_generation_prompt(4, "User: Do you have a cough?\nAssistant: Yes.")
    assert "return exactly 4 plausible medical conditions" in text
    assert text.endswith("<transcript> User: Do you have a cough?\nAssistant: Yes. </transcript>")
    assert '["influenza", "pulmonary embolism"]' in text
    with pytest.raises(ValueError, match="at least 1"):
        candidate_generation_prompt(0, "")


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('["Lyme disease", "Pneumonia"]', ["Lyme disease", "Pneumonia"]),
        ('```json\n["Asthma", 3, " "]\n```', ["Asthma"]),
        ('Sure! Here: ["GERD"] hope it helps', ["GERD"]),
        ("no array here", []),
        ('["unterminated', []),
        ('{"a": [1]}', []),
    ],
)
def test_parse_proposals(reply: str, expected: list[str]) -> None:
    assert parse_proposals(reply) == expected
