"""The answers the audit makes from a gold answer: each kind on its own, by seed, and never the
gold answer itself; and the agreement of two judges by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogarch.core.judge_audit import AuditQuestion
from cogarch.experiments.judge_audit.measures import Rate, agreement
from cogarch.experiments.judge_audit.probes import make_probes, probes_of
from cogarch.experiments.judge_audit.wrong import normalized
from cogarch.tasks.longmemeval.data import load_longmemeval
from cogarch.tasks.longmemeval.judge_audit import superseded

from .scripted import question as lme_question
from .scripted import said

CONTEXT = (
    "Ann: I adopted a grey cat named Pixel last week.",
    "Bo: Lovely! I met Carla at the library and we talked about Denver.",
    "Ann: My brother Tom moved to New York in May.",
)


def made(gold: str, question: str = "What was it?", **extra: object) -> dict[str, str]:
    q = AuditQuestion(key="k", question=question, gold=gold, context=CONTEXT, **extra)  # type: ignore[arg-type]
    return {p.kind: p.answer for p in probes_of(q, seed=0)}


@pytest.mark.parametrize(
    ("gold", "wrong"),
    [
        ("42", "43"),
        ("$1,200", "$1,201"),
        ("2.5 hours", "3.5 hours"),
        ("three", "four"),
        ("Three times", "Four times"),
    ],
)
def test_a_number_is_moved_by_one(gold: str, wrong: str) -> None:
    assert made(gold)["number"] == wrong


def test_a_number_is_moved_by_the_step_the_rubric_asks() -> None:
    assert made("12 days", number_step=2)["number"] == "14 days"


def test_every_number_is_moved_so_that_no_listed_alternative_stays_right() -> None:
    gold = "7 days. 8 days (including the last day) is also acceptable."
    wrong = "9 days. 10 days (including the last day) is also acceptable."
    assert made(gold, number_step=2)["number"] == wrong
    assert made("3 kids (three)")["number"] == "4 kids (four)"


@pytest.mark.parametrize(
    ("gold", "wrong"),
    [
        ("7 May 2023", "14 May 2023"),
        ("May 7, 2023", "May 14, 2023"),
        ("The sunday before 25 May 2023", "The sunday before 1 June 2023"),
        ("2023/05/30 (Tue) 23:40", "2023/06/06 (Tue) 23:40"),
        ("the 31st of December 2023", "the 7th of January 2024"),
        ("December 2023", "January 2024"),
        ("Sept. 2022", "Oct. 2022"),
    ],
)
def test_a_date_is_moved_a_week_or_a_month(gold: str, wrong: str) -> None:
    answers = made(gold)
    assert answers["date"] == wrong
    assert "number" not in answers or "23:40" in gold  # a date's own numbers stay dates


def test_every_date_and_weekday_moves_and_never_onto_another_one_listed() -> None:
    assert made("7 May 2023, or 8 May 2023")["date"] == "14 May 2023, or 15 May 2023"
    assert made("7 May 2023 or 14 May 2023")["date"] == "21 May 2023 or 28 May 2023"
    assert made("Monday or Friday")["weekday"] == "Tuesday or Saturday"
    assert made("Monday or Tuesday")["weekday"] == "Wednesday or Thursday"
    assert made("7 or 8 days")["number"] == "9 or 10 days"


def test_a_weekday_alone_becomes_the_next_day() -> None:
    assert made("Sunday")["weekday"] == "Monday"
    assert made("every friday evening")["weekday"] == "every saturday evening"
    assert "weekday" not in made("Tuesday, 30 May 2023")


@pytest.mark.parametrize(
    ("gold", "wrong"), [("Yes", "No"), ("no.", "yes"), ("Likely yes, she would", "Likely no")]
)
def test_a_yes_or_no_answer_is_negated(gold: str, wrong: str) -> None:
    assert made(gold)["negation"] == wrong


def test_another_name_of_the_conversation_replaces_the_answers_name_by_seed() -> None:
    q = AuditQuestion(key="k", question="Who did Bo meet?", gold="Carla", context=CONTEXT)
    choices = {p.answer for s in range(40) for p in probes_of(q, s) if p.kind == "other_name"}
    assert choices == {"Ann", "Pixel", "Denver", "Tom", "New York"}  # never Bo, the asked one
    first = [p.answer for p in probes_of(q, 7)]
    assert first == [p.answer for p in probes_of(q, 7)]
    assert made("a trip to Denver with Tom")["other_name"].startswith("a trip to ")
    assert "other_name" not in made("a grey cat")


def test_an_older_value_the_task_knows_is_a_wrong_answer() -> None:
    assert made("25 miles", superseded=("18 miles",))["older_value"] == "18 miles"
    assert "older_value" not in made("25 miles", superseded=("25 Miles",))


@pytest.mark.parametrize(
    ("question", "gold", "kind", "same"),
    [
        ("What?", "Lisbon", "casing", "lisbon"),
        ("What?", "pottery", "casing", "POTTERY"),
        ("What?", "a teal parrot", "articles", "teal parrot"),
        ("How many?", "21", "number_words", "twenty-one"),
        ("How many?", "305 books", "number_words", "three hundred five books"),
        ("How many?", "four", "number_words", "4"),
        ("How long?", "45 min", "units", "45 minutes"),
        ("How far?", "10 kilometers", "units", "10 km"),
        ("How much?", "$300", "units", "300 dollars"),
        ("How much?", "50%", "units", "50 percent"),
        ("How much?", "50 percent", "units", "50%"),
        ("How many vinyl records do I own?", "42", "units", "42 vinyl records"),
        ("How long did it take in minutes?", "197", "units", "197 minutes"),
        ("Which?", "violin, piano and drums", "list_order", "drums, piano and violin"),
        ("Which?", "Ann, Bo", "list_order", "Bo, Ann"),
        ("What?", "Oslo.", "sentence", "Based on what you told me, the answer is Oslo."),
    ],
)
def test_rephrasings_mean_the_same(question: str, gold: str, kind: str, same: str) -> None:
    assert made(gold, question)[kind] == same


def test_rephrasings_that_would_change_the_meaning_are_not_made() -> None:
    assert "number_words" not in made("2022")  # a year
    assert "number_words" not in made("3:30 pm")  # a time
    assert "list_order" not in made("Yes, she did")
    assert "list_order" not in made("June 9, 2023")
    assert "casing" not in made("42")
    assert "number_words" not in made("the blue one")  # a pronoun, not a number
    assert "articles" not in made("Plan A is best")  # a letter, not an article
    assert made("A trip to the coast")["articles"] == "trip to coast"


@pytest.mark.parametrize(
    "gold",
    ["42", "Pixel", "7 May 2023", "Yes", "the violin and the piano", "THE END", "Tom, Ann", "x"],
)
def test_no_item_is_the_gold_answer_and_no_wrong_answer_reads_as_a_right_one(gold: str) -> None:
    q = AuditQuestion(key="k", question="What?", gold=gold, context=CONTEXT)
    probes = probes_of(q, 3)
    assert all(p.answer != gold for p in probes)
    same = {normalized(p.answer) for p in probes if p.expected == "accept"}
    for p in probes:
        if p.expected == "reject":
            assert normalized(p.answer) != normalized(gold) and normalized(p.answer) not in same


def test_the_sample_is_drawn_by_seed_and_keeps_the_questions_order() -> None:
    questions = [AuditQuestion(key=f"q{i}", question="?", gold=str(i)) for i in range(20)]
    chosen, probes = make_probes(questions, 5, seed=1)
    again, _ = make_probes(questions, 5, seed=1)
    assert chosen == again and len(chosen) == 5
    assert [q.key for q in chosen] == sorted((q.key for q in chosen), key=lambda k: int(k[1:]))
    assert {p.question_key for p in probes} == {q.key for q in chosen}
    assert make_probes(questions, None, seed=1)[0] == questions
    with pytest.raises(ValueError, match="question key 'q1' more than once"):
        make_probes([*questions, questions[1]], None, seed=1)


def test_kappa_by_hand() -> None:
    first = {"a": True, "b": True, "c": False, "d": False, "e": True}
    second = {"a": True, "b": False, "c": False, "d": True, "e": True, "z": False}
    a = agreement(first, second)  # z, judged by one judge only, is left out
    # both accept a, e; first only b; second only d; neither c: observed 3/5; chance
    # (3/5)(3/5) + (2/5)(2/5) = 13/25; kappa (15/25 - 13/25) / (12/25) = 1/6
    assert a.table == [[2, 1], [1, 1]] and a.items == 5 and a.agree == 3
    assert a.kappa == pytest.approx(1 / 6) and a.raw == pytest.approx(0.6)
    assert a.disagreements == ["b", "d"]


def test_kappa_is_undefined_when_both_judges_give_one_verdict() -> None:
    same = {"a": True, "b": True}
    assert agreement(same, same).kappa is None and agreement(same, same).raw == 1.0
    assert agreement({}, {}).raw is None


def test_a_rate_has_a_wilson_interval_and_none_without_items() -> None:
    rate = Rate.of(0, 10)
    assert rate.rate == 0.0 and rate.low == 0.0 and rate.high == pytest.approx(0.2775, abs=1e-4)
    assert Rate.of(0, 0).rate is None and Rate.of(0, 0).text() == "- (no items)"
    assert Rate.of(3, 20).text() == "3/20 = 15.0% (5.2-36.0)"


def test_longmemeval_knows_the_number_a_knowledge_update_replaced(tmp_path: Path) -> None:
    earlier = said(
        "answer_a", "My 5K personal best is 27:12 after 3 races.", "2023/02/01 (Wed) 08:00"
    )
    later = said("answer_b", "New 5K personal best: 25:50!", "2023/05/01 (Mon) 08:00")
    raw = [
        lme_question("ku", "knowledge-update", "What is my 5K best?", "25:50", [earlier, later]),
        lme_question("ku2", "knowledge-update", "Where do I live?", "Oslo", [earlier, later]),
        lme_question("ssu", "single-session-user", "What is my 5K best?", "25:50", [later]),
    ]
    path = tmp_path / "ku.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    found = [superseded(q) for q in load_longmemeval(path)]
    assert found == [("27:12",), (), ()]
