"""The generator's promises, checked on the text it writes: the same seed and knobs give the
same bytes in two processes; every question's evidence turns hold its answer (or what it is
computed from); a knowledge update's latest statement is its only current value; abstention
questions have no evidence; the history is streamed and sized by its knobs."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from cogarch.errors import ConfigError
from cogarch.tasks.genmem.conversation import Conversation, Question, Turn
from cogarch.tasks.genmem.families import COLOURS
from cogarch.tasks.genmem.params import ABILITIES, GeneratorParams
from cogarch.tasks.genmem.questions import ARITHMETIC, DEFAULT_FAMILIES, FAMILY_NAMES
from cogarch.tasks.genmem.words import JOBS, TOWN_ENDINGS

REPO = Path(__file__).resolve().parents[3]
KNOBS = [
    {"seed": 0, "target_tokens": 8000, "questions": 15},
    {"seed": 4, "target_tokens": 40000, "questions": 60, "distractor_share": 0.6},
    {"seed": 91, "sessions": 30, "turns_per_session": 5, "questions": 40},
    {"seed": 12345, "target_tokens": 20000, "questions": 30, "mix": {"update": 3, "temporal": 1}},
    {"seed": 8, "target_tokens": 30000, "questions": 50, "families": list(FAMILY_NAMES)},
]
TOWN = re.compile(r"\b[A-Z][a-z]*(?:" + "|".join(TOWN_ENDINGS) + r")\b")
VOCABULARY = {
    "job": lambda text: any(re.search(rf"\b{j}\b", text) for j in JOBS),
    "car": lambda text: any(re.search(rf"\b{c}\b", text) for c in COLOURS),
    "town": lambda text: bool(TOWN.search(text)),
}


def _jsonl(seed: int, hashseed: str) -> bytes:
    command = [
        sys.executable,
        "-m",
        "cogarch.tasks.genmem",
        "--seed",
        str(seed),
        "--target-tokens",
        "20000",
        "--questions",
        "30",
        "--jsonl",
    ]
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, check=True)
    return done.stdout


def test_the_same_seed_gives_the_same_bytes_in_two_processes() -> None:
    first, second = _jsonl(17, "1"), _jsonl(17, "2")
    assert first.count(b'"kind": "question"') == 30 and first.count(b'"kind": "session"') > 10
    assert hashlib.sha256(first).digest() == hashlib.sha256(second).digest()
    assert _jsonl(18, "1") != first


def _all(c: Conversation) -> list[tuple[datetime, Turn]]:
    return [(datetime.fromisoformat(s.time), t) for s in c.sessions() for t in s.turns]


def _evidence(turns: list[tuple[datetime, Turn]], q: Question) -> list[tuple[datetime, Turn]]:
    wanted = set(q.evidence_turns)
    return [(when, t) for when, t in turns if t.turn_id in wanted]


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\b\d+\b", text)]


@pytest.mark.parametrize("knobs", KNOBS)
def test_every_question_follows_from_its_evidence_turns(knobs: dict[str, object]) -> None:
    c = Conversation(GeneratorParams.model_validate(knobs))
    turns = _all(c)
    ids = [t.turn_id for _, t in turns]
    assert len(ids) == len(set(ids))
    flagged = {t.turn_id for _, t in turns if t.has_answer}
    assert flagged == {e for q in c.questions for e in q.evidence_turns}
    for q in c.questions:
        found = _evidence(turns, q)
        assert len(found) == len(q.evidence_turns), q.question_id
        assert all(t.role == "user" and t.has_answer for _, t in found)
        assert list(q.answer_session_ids) == list(
            dict.fromkeys(e.split("_")[0] for e in q.evidence_turns)
        )
        texts = [t.content for _, t in found]
        days = [when.date() for when, _ in found]
        if q.check == "value":
            assert all(re.search(rf"\b{re.escape(q.answer)}\b", x) for x in texts), q
        elif q.check == "join":  # one turn names the pet or job, the other what it is asked by
            assert len(found) == 2 and len(q.answer_session_ids) == 2
            assert sum(bool(re.search(rf"\b{re.escape(q.answer)}\b", x)) for x in texts) == 1
            (other,) = [x for x in texts if q.answer not in x]
            asked_by = set(re.findall(r"[A-Z][a-z]+", q.question)) & set(
                re.findall(r"[A-Z][a-z]+", other)
            )
            assert asked_by, q  # the town or the pet the question names
        elif q.check == "month":
            (day,) = days
            assert q.answer == f"{day:%B}"
        elif q.check == "on_date":
            (asked,) = [
                (when, x)
                for when, x in zip(days, texts, strict=True)
                if f"{when:%B} {when.day}, {when.year}" in q.question
            ]
            assert q.answer in asked[1] and len(set(days)) == 2
            assert all(q.answer not in x for x in texts if x != asked[1])
        elif q.check == "count":
            assert len(found) == int(q.answer) >= 2
        elif q.check == "sum":
            assert sum(int(re.search(r"(\d+) dollars", x)[1]) for x in texts) == int(q.answer)
        elif q.check == "older":
            (younger,) = q.rivals
            age = {n: _numbers(x)[0] for x in texts for n in (q.answer, younger) if n in x}
            assert len(age) == 2 and age[q.answer] > age[younger]
        elif q.check == "date":
            (day,) = days
            assert q.answer == f"{day:%B} {day.day}, {day.year}"
        elif q.check == "first":
            assert q.answer in texts[0] and days == sorted(days) and len(set(days)) == len(days)
        elif q.check == "days":
            assert (days[1] - days[0]).days == int(q.answer) > 0
        else:
            assert q.check == "none" and q.abstention
        if q.abstention:
            assert found == [] and q.answer_session_ids == ()
            stated = {(s, a) for _, t in turns for s, a, _ in t.states}
            assert (q.subject, q.attribute) not in stated
            assert any(q.subject in t.content for _, t in turns)  # the entity was mentioned


@pytest.mark.parametrize("knobs", KNOBS)
def test_a_knowledge_update_has_one_current_value(knobs: dict[str, object]) -> None:
    c = Conversation(GeneratorParams.model_validate(knobs))
    turns = _all(c)
    updates = [q for q in c.questions if q.ability == "update"]
    assert updates or "mix" in knobs
    for q in updates:
        about = [
            t for _, t in turns if q.subject in t.content and VOCABULARY[q.attribute](t.content)
        ]
        assert all(any(s == q.subject for s, _, _ in t.states) for t in about), q
        assert len(about) >= 2  # the value changed
        latest = about[-1]
        if "before" in q.question:  # the value before the latest one
            assert latest.states[0][2] != q.answer
            assert about[-2].states[0][2] == q.answer and about[-2].turn_id in q.evidence_turns
        else:
            assert latest.has_answer and latest.turn_id in q.evidence_turns
            assert latest.states[0][2] == q.answer
            assert all(t.states[0][2] != q.answer for t in about[:-1])


def test_the_mix_and_the_size_follow_the_knobs() -> None:
    p = GeneratorParams(
        seed=2, target_tokens=60000, questions=50, mix={"temporal": 1, "abstention": 1}
    )
    c = Conversation(p)
    assert {q.ability for q in c.questions} == {"temporal", "abstention"}
    assert sum(q.ability == "temporal" for q in c.questions) == 25
    tokens = sum(len(t.content.split()) for _, t in _all(c))
    assert 0.5 * 60000 < tokens * 1.3 < 1.5 * 60000
    even = GeneratorParams(questions=10, target_tokens=20000).counts()
    assert even == dict.fromkeys(ABILITIES, 2)


def test_the_default_families_are_the_one_step_ones_and_families_chooses() -> None:
    asked = {
        q.question_id: q
        for q in Conversation(GeneratorParams(seed=5, questions=60, target_tokens=30000)).questions
    }
    checks = {q.check for q in asked.values()}
    assert checks == {"value", "join", "count", "date", "month", "on_date", "none"}
    assert not set(DEFAULT_FAMILIES) & ARITHMETIC
    only = GeneratorParams(
        seed=5, questions=20, mix={"temporal": 1}, families=["days_between", "first_trip"]
    )
    assert {q.check for q in Conversation(only).questions} == {"days", "first"}
    with pytest.raises(ConfigError, match="unknown genmem families \\['gossip'\\]"):
        Conversation(GeneratorParams(families=["gossip"]))
    with pytest.raises(ConfigError, match="none of ability extraction's families"):
        Conversation(GeneratorParams(families=["days_between"]))


def test_sessions_are_streamed_and_each_stands_alone() -> None:
    c = Conversation(GeneratorParams(seed=3, target_tokens=30000, questions=20))
    stream = c.sessions()
    assert iter(stream) is stream  # an iterator, not a list
    later = c.session(c.session_count - 1)
    assert list(stream)[-1] == later  # the same whether or not the others were written
    times = [s.time for s in c.sessions()]
    assert times == sorted(times) and len(set(times)) == len(times)


def test_bad_knobs_are_refused_with_the_fix() -> None:
    with pytest.raises(ValidationError, match="target_tokens or sessions, not both"):
        GeneratorParams(target_tokens=8000, sessions=4)
    with pytest.raises(ValidationError, match="at least one ability"):
        GeneratorParams(mix={"update": 0})
    with pytest.raises(ValidationError, match="mix"):
        GeneratorParams(mix={"gossip": 1})
    with pytest.raises(ConfigError, match="raise target_tokens, sessions or turns_per_session"):
        Conversation(GeneratorParams(sessions=2, turns_per_session=2, questions=30))


def test_the_cli_shows_a_conversation_and_refuses_bad_knobs() -> None:
    run = [sys.executable, "-m", "cogarch.tasks.genmem", "--seed", "5", "--questions", "10"]
    shown = subprocess.run([*run, "--show", "1"], cwd=REPO, capture_output=True, text=True)
    assert shown.returncode == 0 and "### Session s00001" in shown.stdout
    assert shown.stdout.count("    answer: ") == 10
    bad = subprocess.run(
        [*run, "--sessions", "3", "--target-tokens", "9000"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "not both" in bad.stderr
