"""Reading LongMemEval files in the official format, and choosing questions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogarch.tasks.longmemeval.data import LongMemEvalDataError, load_longmemeval, parse_date
from cogarch.tasks.longmemeval.selection import select_questions
from cogarch.tasks.longmemeval.synthetic import synthetic_longmemeval


def question(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "question_id": "q1",
        "question_type": "multi-session",
        "question": "How many bikes do I own?",
        "answer": 3,
        "question_date": "2023/05/30 (Tue) 23:40",
        "haystack_session_ids": ["s_a", "answer_x"],
        "haystack_dates": ["2023/05/20 (Sat) 10:02", "2023/05/01 (Mon) 08:15"],
        "haystack_sessions": [
            [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}],
            [
                {"role": "user", "content": "I own 3 bikes.", "has_answer": True},
                {"role": "assistant", "content": "Nice!", "has_answer": False},
            ],
        ],
        "answer_session_ids": ["answer_x"],
    }
    return {**base, **changes}


def write(tmp_path: Path, data: Any, name: str = "lme.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_file_in_the_official_format_reads_whole(tmp_path: Path) -> None:
    [q] = load_longmemeval(write(tmp_path, [question()]))
    assert q.answer == 3 and q.gold == "3"
    assert q.question_date == "2023/05/30 (Tue) 23:40"
    assert [s.session_id for s in q.in_date_order()] == ["answer_x", "s_a"]
    assert q.sessions[1].time == "2023-05-01T08:15:00"
    assert [t.turn_id for t in q.sessions[1].turns] == ["answer_x_1", "answer_x_2"]
    assert q.evidence_turns() == ["answer_x_1"]
    assert not q.abstention
    assert [s.session_id for s in q.oracle().sessions] == ["answer_x"]


def test_abstention_ids_and_json_lines(tmp_path: Path) -> None:
    lines = "\n".join(json.dumps(question(question_id=i)) for i in ("a1", "a2_abs"))
    path = tmp_path / "lme.jsonl"
    path.write_text(lines, encoding="utf-8")
    found = load_longmemeval(path)
    assert [q.abstention for q in found] == [False, True]


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"question_date": "30 May 2023"}, "question_date"),
        ({"answer": None}, "'answer'"),
        ({"answer": True}, "'answer'"),
        ({"question_type": "trivia"}, "question_type"),
        ({"haystack_dates": ["2023/05/20 (Sat) 10:02"]}, "parallel"),
        ({"haystack_dates": ["2023/05/20 (Sat) 10:02", "yesterday"]}, "answer_x"),
        ({"haystack_sessions": [[], [{"role": "bot", "content": "x"}]]}, "role"),
        (
            {"haystack_sessions": [[], [{"role": "user", "content": "x", "has_answer": "y"}]]},
            "has_answer",
        ),
        ({"haystack_session_ids": ["s", "s"]}, "repeats"),
    ],
)
def test_a_malformed_question_is_refused_naming_it_and_the_field(
    tmp_path: Path, changes: dict[str, Any], named: str
) -> None:
    good = question(question_id="fine")
    bad = question(question_id="broken_7", **changes)
    with pytest.raises(LongMemEvalDataError) as caught:
        load_longmemeval(write(tmp_path, [good, bad]))
    message = str(caught.value)
    assert "'broken_7'" in message and named in message
    assert "\n" not in message


def test_a_missing_field_and_a_missing_file_are_named(tmp_path: Path) -> None:
    raw = question(question_id="q9")
    del raw["answer_session_ids"]
    with pytest.raises(LongMemEvalDataError, match=r"q9.*answer_session_ids"):
        load_longmemeval(write(tmp_path, [raw]))
    with pytest.raises(LongMemEvalDataError, match="Hugging Face"):
        load_longmemeval(tmp_path / "absent.json")
    with pytest.raises(LongMemEvalDataError, match="repeats question_id"):
        load_longmemeval(write(tmp_path, [question(), question()]))


def test_questions_are_chosen_by_ids_type_count_and_proportion(tmp_path: Path) -> None:
    questions = load_longmemeval(write(tmp_path, synthetic_longmemeval(4, abstention=2)))
    ids = [questions[5].question_id, questions[2].question_id]
    assert [q.question_id for q in select_questions(questions, ids=ids)] == sorted(
        ids, key=[q.question_id for q in questions].index
    )
    only = select_questions(questions, types=["knowledge-update"])
    assert {q.question_type for q in only} == {"knowledge-update"}
    assert len(select_questions(questions, count=3)) == 3
    sample = select_questions(questions, count=13, proportional=True, seed=1)
    shares = {
        t: sum(q.question_type == t for q in sample) for t in {q.question_type for q in sample}
    }
    assert len(sample) == 13 and max(shares.values()) - min(shares.values()) <= 1
    assert sample == select_questions(questions, count=13, proportional=True, seed=1)
    with pytest.raises(LongMemEvalDataError, match="nope"):
        select_questions(questions, ids=["nope"])
    with pytest.raises(LongMemEvalDataError, match="one of LongMemEval"):
        select_questions(questions, types=["trivia"])


def test_synthetic_files_are_official_and_can_share_dated_sessions(tmp_path: Path) -> None:
    data = synthetic_longmemeval(2, sessions=5, pool=8, shared_dates=True, seed=4)
    questions = load_longmemeval(write(tmp_path, data))
    dates: dict[str, set[str]] = {}
    for q in questions:
        assert [s.session_id for s in q.in_date_order()] == [s.session_id for s in q.sessions]
        assert q.sessions[-1].time < parse_date(q.question_date).isoformat()
        assert len(q.evidence_turns()) == 1
        for s in q.sessions:
            dates.setdefault(s.session_id, set()).add(s.date)
    shared = [sid for sid, seen in dates.items() if sid.startswith("sharegpt")]
    assert shared and all(len(dates[sid]) == 1 for sid in shared)
