"""Synthetic data in LongMemEval's format with questions of each type's kind: it loads as the
published files do, its answers agree with its sessions, and a judge audit of a run on it
makes every kind of wrong answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.longmemeval.data import QUESTION_TYPES, load_longmemeval, parse_date
from cogarch.tasks.longmemeval.synthetic_typed import typed_longmemeval
from cogarch.tasks.longmemeval.write_synthetic import main


def written(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "synthetic.json"
    assert main([str(out), *args]) == 0
    return out


def test_the_written_file_loads_with_every_type_and_s_sized_haystacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = written(tmp_path, "--questions-per-type", "3", "--abstention", "2", "--pool", "60")
    assert "wrote 20 questions (1000 sessions)" in capsys.readouterr().out
    questions = load_longmemeval(path)
    assert sorted({q.question_type for q in questions}) == sorted(QUESTION_TYPES)
    assert sum(q.abstention for q in questions) == 2
    for q in questions:
        assert len(q.sessions) == 50 and all(len(s.turns) == 10 for s in q.sessions)
        dates = [parse_date(s.date) for s in q.sessions]
        assert dates == sorted(dates) and parse_date(q.question_date) > dates[-1]
        evidence = [s for s in q.sessions if s.session_id in q.answer_session_ids]
        assert evidence and all(any(t.has_answer for t in s.turns) for s in evidence)
    words = sum(len(t.content.split()) for s in questions[0].sessions for t in s.turns)
    assert 55_000 < words < 70_000  # about 115k tokens, as an S haystack


def test_answers_agree_with_the_sessions_that_hold_them() -> None:
    for q in typed_longmemeval(3, sessions=6, turns_per_session=2, turn_words=0, pool=10, seed=3):
        evidence = [
            (date, turns)
            for sid, date, turns in zip(
                q["haystack_session_ids"], q["haystack_dates"], q["haystack_sessions"], strict=True
            )
            if sid in q["answer_session_ids"]
        ]
        first = parse_date(evidence[0][0])
        said = " ".join(t["content"] for _, turns in evidence for t in turns if t["has_answer"])
        question, answer = q["question"], str(q["answer"])
        if question.startswith("What day of the week"):
            assert answer == first.strftime("%A")
        elif question.startswith("On what date"):
            assert answer == f"{first.day} {first.strftime('%B %Y')}"
        elif question.startswith("How many days passed"):
            days = (parse_date(evidence[1][0]).date() - first.date()).days
            assert answer == f"{days} days"
        elif question.startswith("How many days did I spend"):
            assert answer == f"{sum(int(w) for w in said.split() if w.isdigit())} days"
        elif q["question_type"] == "knowledge-update":
            assert len(evidence) == 2 and answer in evidence[1][1][0]["content"]
        elif not q["question_id"].endswith("_abs") and q["question_type"] != (
            "single-session-preference"
        ):
            assert answer.split(" ")[0] in said or answer == "Yes" or answer == "3"


def test_the_same_arguments_give_the_same_file() -> None:
    made = [typed_longmemeval(2, sessions=5, turns_per_session=2, pool=8, seed=9) for _ in "ab"]
    assert json.dumps(made[0]) == json.dumps(made[1])
    assert json.dumps(made[0]) != json.dumps(typed_longmemeval(2, sessions=5, pool=8, seed=10))


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--questions-per-type", "0"], "--questions-per-type is 0; give 1 or more"),
        (["--words", "-1"], "--words is -1; give 0 or more"),
        (["--turns", "1"], "turns_per_session is 1; a session needs at least 2 turns"),
    ],
)
def test_bad_sizes_are_refused_naming_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], problem: str
) -> None:
    assert main([str(tmp_path / "x.json"), *args]) == 2
    assert problem in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


async def test_an_audit_on_it_makes_every_kind_of_wrong_answer(tmp_path: Path) -> None:
    data = written(tmp_path, "--questions-per-type", "3", "--sessions", "4", "--turns", "2")
    cfg = RunConfig.model_validate(
        {
            "name": "typed",
            "task": {"kind": "longmemeval", "data": str(data)},
            "trials": 20,
            "seed": 1,
            "cache": False,
            "results_dir": str(tmp_path / "run"),
            "providers": {
                "reader": {"kind": "fake", "fake": "longmemeval.reader"},
                "judge": {"kind": "fake", "fake": "longmemeval.judge"},
            },
            "helper_provider": "judge",
            "agents": [{"name": "full", "agent": "longmemeval_full", "provider": "reader"}],
            "audit_judge": True,
        }
    )
    report = await Runner(cfg, progress=False).run()
    assert report.failed == 0 and report.audit is not None
    assert report.audit.eligible == 15  # 20 less the 3 preference and 2 abstention questions
    kinds = {p.kind for p in report.audit.probes if p.expected == "reject"}
    assert kinds == {"number", "date", "weekday", "other_name", "negation", "older_value"}
