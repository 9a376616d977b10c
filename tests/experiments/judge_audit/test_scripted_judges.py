"""The judge audit of a LongMemEval run measures scripted judges' error rates and agreement
exactly as worked out by hand from the items it makes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.judge_audit.audit import AUDIT_FILE, JudgeAuditResult
from cogarch.experiments.results.trial_files import iter_trials
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner

from .scripted import coin, shares_a_word, write_questions

SCRIPTED = "tests.experiments.judge_audit.scripted"

SAID = "Based on what you told me, the answer is"
ITEMS = [
    ("q_name/other_name", "Marco", "reject"),
    ("q_name/casing", "pixel", "accept"),
    ("q_name/sentence", "Based on what you told me, the answer is Pixel.", "accept"),
    ("q_count/number", "43", "reject"),
    ("q_count/number_words", "forty-two", "accept"),
    ("q_count/units", "42 vinyl records", "accept"),
    ("q_count/sentence", "Based on what you told me, the answer is 42.", "accept"),
    ("q_update/number", "26 miles", "reject"),
    ("q_update/older_value", "18 miles", "reject"),
    ("q_update/casing", "25 MILES", "accept"),
    ("q_update/number_words", "twenty-five miles", "accept"),
    ("q_update/units", "25 mi", "accept"),
    ("q_update/sentence", "Based on what you told me, the answer is 25 miles.", "accept"),
    ("q_days/number", "14 days", "reject"),  # moved by 2: the temporal prompt forgives 1
    ("q_days/casing", "12 DAYS", "accept"),
    ("q_days/number_words", "twelve days", "accept"),
    ("q_days/sentence", "Based on what you told me, the answer is 12 days.", "accept"),
    ("q_yes/negation", "No", "reject"),
    ("q_yes/casing", "yes", "accept"),
    ("q_yes/sentence", "Based on what you told me, the answer is Yes.", "accept"),
    ("q_date/date", "14 May 2023", "reject"),
    ("q_date/casing", "7 may 2023", "accept"),
    ("q_date/sentence", "Based on what you told me, the answer is 7 May 2023.", "accept"),
    ("q_list/casing", "THE VIOLIN AND THE PIANO", "accept"),
    ("q_list/articles", "violin and piano", "accept"),
    ("q_list/list_order", "the piano and the violin", "accept"),
    ("q_list/sentence", f"{SAID} the violin and the piano.", "accept"),
    ("q_day/weekday", "Friday", "reject"),
    ("q_day/casing", "thursday", "accept"),
    ("q_day/sentence", "Based on what you told me, the answer is Thursday.", "accept"),
]  # fmt: skip
"""Every item of the file's eight auditable questions (the abstention and the preference
question are left out), written out by hand."""

OVERLAP_FALSE_POSITIVES = {
    "q_update/number",
    "q_update/older_value",
    "q_days/number",
    "q_date/date",
}
"""The wrong answers sharing a word with the gold answer ("miles", "days", "May 2023")."""
OVERLAP_FALSE_NEGATIVES = {"q_count/number_words"}
"""The only rephrasing sharing no word with its gold answer ("forty-two" for 42)."""
CONTAINS_FALSE_NEGATIVES = {
    "q_count/number_words",
    "q_update/number_words",
    "q_update/units",
    "q_days/number_words",
    "q_list/articles",
    "q_list/list_order",
}
"""The rephrasings that do not hold the gold answer's text."""


def config(
    tmp_path: Path,
    primary: str,
    second: str | None = None,
    task: dict[str, Any] | None = None,
    **audit: Any,
) -> RunConfig:
    tmp_path.mkdir(parents=True, exist_ok=True)
    data = write_questions(tmp_path / "questions.json")
    providers = {
        "reader": {"kind": "fake", "fake": "longmemeval.reader"},
        "judge": {"kind": "fake", "fake": f"{SCRIPTED}:{primary}"},
    }
    if second is not None:
        providers["second"] = {"kind": "fake", "fake": f"{SCRIPTED}:{second}"}
        audit["second_judge"] = "second"
    return RunConfig.model_validate(
        {
            "name": "audited",
            "task": {"kind": "longmemeval", "data": str(data), **(task or {})},
            "trials": 10,
            "seed": 5,
            "cache": False,
            "results_dir": str(tmp_path / "run"),
            "providers": providers,
            "helper_provider": "judge",
            "agents": [{"name": "full", "agent": "longmemeval_full", "provider": "reader"}],
            "audit_judge": audit or True,
        }
    )


async def audited(cfg: RunConfig) -> JudgeAuditResult:
    report = await Runner(cfg, progress=False).run()
    assert report.failed == 0 and report.audit is not None
    written = json.loads((cfg.output_dir() / AUDIT_FILE).read_text(encoding="utf-8"))
    assert JudgeAuditResult.model_validate(written) == report.audit
    return report.audit


async def test_every_item_is_made_as_worked_out_by_hand(tmp_path: Path) -> None:
    audit = await audited(config(tmp_path, "overlap"))
    assert sorted((p.id, p.answer, p.expected) for p in audit.probes) == sorted(ITEMS)
    assert audit.eligible == 8
    assert sorted(audit.questions) == sorted(
        ["q_name", "q_count", "q_update", "q_days", "q_yes", "q_date", "q_list", "q_day"]
    )


async def test_a_judge_accepting_any_shared_word_is_measured_as_scripted(tmp_path: Path) -> None:
    audit = await audited(config(tmp_path, "overlap"))
    judge = audit.judges[0]
    wrong = [i for i, _, e in ITEMS if e == "reject"]
    right = [i for i, _, e in ITEMS if e == "accept"]
    assert (len(wrong), len(right)) == (8, 22)
    assert (judge.false_positive.count, judge.false_positive.n) == (4, 8)
    assert judge.false_positive.rate == 0.5
    assert (judge.false_negative.count, judge.false_negative.n) == (1, 22)
    assert judge.false_negative.rate == pytest.approx(1 / 22)
    accepted = {i for i, v in judge.verdicts.items() if v}
    assert accepted == (set(right) - OVERLAP_FALSE_NEGATIVES) | OVERLAP_FALSE_POSITIVES
    assert judge.by_kind["number"].count == 2 and judge.by_kind["number"].n == 3
    assert judge.false_positive.low == pytest.approx(0.2152, abs=1e-4)  # Wilson, 95%
    assert judge.false_positive.high == pytest.approx(0.7848, abs=1e-4)
    assert judge.usage["model_calls"] == 30 and judge.usage["cache_hits"] == 0


async def test_a_judge_accepting_only_exact_answers_rejects_every_rephrasing(
    tmp_path: Path,
) -> None:
    audit = await audited(config(tmp_path, "exact"))
    judge = audit.judges[0]
    assert (judge.false_positive.count, judge.false_positive.n) == (0, 8)
    assert (judge.false_negative.count, judge.false_negative.n) == (22, 22)
    assert judge.false_negative.rate == 1.0 and judge.false_positive.rate == 0.0


async def test_kappa_between_two_scripted_judges_is_the_hand_computed_one(tmp_path: Path) -> None:
    audit = await audited(config(tmp_path, "overlap", "contains"))
    second = audit.judges[1]
    assert (second.role, second.provider) == ("second", "second")
    assert (second.false_positive.count, second.false_negative.count) == (0, 6)
    assert {i for i, v in second.verdicts.items() if not v} == CONTAINS_FALSE_NEGATIVES | {
        i for i, _, e in ITEMS if e == "reject"
    }
    a = audit.agreement
    assert a is not None
    # both accept 16, overlap only 9 (4 wrong answers, 5 rephrasings), contains only 0,
    # neither 5: observed 21/30, chance (25/30)(16/30) + (5/30)(14/30) = 470/900
    assert a.table == [[16, 9], [0, 5]]
    assert (a.items, a.agree, a.raw) == (30, 21, pytest.approx(0.7))
    assert a.kappa == pytest.approx((21 / 30 - 470 / 900) / (1 - 470 / 900))
    assert a.kappa == pytest.approx(16 / 43)
    expected = OVERLAP_FALSE_POSITIVES | (CONTAINS_FALSE_NEGATIVES - OVERLAP_FALSE_NEGATIVES)
    assert set(a.disagreements) == expected


async def test_the_audit_is_metered_apart_from_the_trials(tmp_path: Path) -> None:
    cfg = config(tmp_path, "overlap", "contains")
    audit = await audited(cfg)
    trial_calls, judge_calls = 0, 0
    for _, record in iter_trials(cfg.output_dir()):
        assert not isinstance(record, Exception)
        trial_calls += record.usage.model_calls
        judge_calls += sum(c.caller == "judge" for c in record.usage.calls)
    # each trial: one reader call and one judge call; the audit's 2 x 30 are in its file only
    assert (trial_calls, judge_calls) == (2 * 10, 10)
    assert [j.usage["model_calls"] for j in audit.judges] == [30, 30]


async def test_a_sample_of_questions_is_drawn_by_seed(tmp_path: Path) -> None:
    first = await audited(config(tmp_path / "a", "overlap", questions=3, seed=11))
    again = await audited(config(tmp_path / "b", "overlap", questions=3, seed=11))
    other = await audited(config(tmp_path / "c", "overlap", questions=3, seed=12))
    assert len(first.questions) == 3 and first.questions == again.questions
    assert first.probes == again.probes
    assert {p.question_key for p in first.probes} == set(first.questions)
    assert other.questions != first.questions
    assert first.judges[0].false_positive.n == sum(p.expected == "reject" for p in first.probes)


async def test_any_judge_is_measured_item_by_item(tmp_path: Path) -> None:
    audit = await audited(config(tmp_path, "hashed", "overlap"))
    judge = audit.judges[0]
    wrong = [p for p in audit.probes if p.expected == "reject"]
    right = [p for p in audit.probes if p.expected == "accept"]
    assert judge.false_positive.count == sum(coin(p.answer) for p in wrong)
    assert judge.false_negative.count == sum(not coin(p.answer) for p in right)
    assert (judge.false_positive.n, judge.false_negative.n) == (len(wrong), len(right))
    assert audit.agreement is not None
    assert set(audit.agreement.disagreements) == {
        p.id for p in audit.probes if coin(p.answer) != shares_a_word(p.gold, p.answer)
    }
