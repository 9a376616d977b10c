"""The LongMemEval loader takes a haystack of tens of thousands of sessions (its time is
measured by benchmarks/bench_longmemeval_load.py, not here), reads a UTF-8 BOM file, and
refuses a file that cannot be LongMemEval before reading it whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cogarch.tasks.longmemeval.data as data_module
from cogarch.tasks.longmemeval.data import LongMemEvalDataError, load_longmemeval


def haystack(sessions: int, repeat_last: bool = False) -> dict[str, object]:
    ids = [f"s{i}" for i in range(sessions)]
    if repeat_last:
        ids[-1] = ids[0]
    return {
        "question_id": "q1",
        "question_type": "multi-session",
        "question": "?",
        "answer": "a",
        "question_date": "2023/05/30 (Tue) 23:40",
        "haystack_session_ids": ids,
        "haystack_dates": ["2023/05/20 (Sat) 10:02"] * sessions,
        "haystack_sessions": [[{"role": "user", "content": "hi"}]] * sessions,
        "answer_session_ids": ["s1"],
    }


def test_forty_thousand_sessions_load_and_a_repeated_id_is_named(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps([haystack(40_000)]), encoding="utf-8")
    [question] = load_longmemeval(path)
    assert len(question.sessions) == 40_000
    path.write_text(json.dumps([haystack(40_000, repeat_last=True)]), encoding="utf-8")
    with pytest.raises(LongMemEvalDataError, match="repeats haystack session id 's0'"):
        load_longmemeval(path)


def test_a_file_with_a_utf8_bom_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps([haystack(3)]).encode())
    assert [q.question_id for q in load_longmemeval(path)] == ["q1"]
    lines = tmp_path / "bom.jsonl"
    lines.write_bytes(b"\xef\xbb\xbf" + json.dumps(haystack(2)).encode() + b"\n")
    assert len(load_longmemeval(lines)) == 1


def test_a_file_that_cannot_be_json_is_refused_before_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "notes.json"
    path.write_bytes(b"garbage " * 10_000)

    def whole(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("the whole file was read")

    monkeypatch.setattr(data_module, "read_bytes", whole)
    with pytest.raises(LongMemEvalDataError, match="neither JSON nor JSON Lines"):
        load_longmemeval(path)


def test_a_file_over_the_size_limit_is_refused_before_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(b"[" + b" " * 2000 + b"]")
    monkeypatch.setattr(data_module, "MAX_DATA_BYTES", 1000)
    monkeypatch.setattr(
        data_module, "read_bytes", lambda *a, **k: pytest.fail("the whole file was read")
    )
    with pytest.raises(LongMemEvalDataError, match="larger than the 1,000 bytes"):
        load_longmemeval(path)
