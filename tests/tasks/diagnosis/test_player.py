"""The seeded player: reproducible questions, no repeats, the split policy, recording answers."""

from __future__ import annotations

import random
import re
import sys
from dataclasses import dataclass

import pytest

from cogarch.tasks.diagnosis.catalogue import Catalogue, load_catalogue
from cogarch.tasks.diagnosis.player import DiagnosisPlayer
from cogarch.tasks.diagnosis.prompts import OPENER


def parse(text: str) -> str | None:
    words = re.findall(r"[a-z]+", text.lower())
    if "yes" in words:
        return "yes"
    return "no" if "no" in words else None


def play(seed: int, turns: int, answer_seed: int = 0, top_k: int = 5) -> list[str]:
    """Questions asked against random yes/no answers."""
    player = DiagnosisPlayer(seed, top_k=top_k, parse_answer=parse)
    answers = random.Random(answer_seed)
    questions = []
    for _ in range(turns):
        questions.append(player.next_question())
        player.record_reply(answers.choice(["Yes.", "**No**"]))
    return questions


def toy_catalogue() -> Catalogue:
    """Four conditions over four binary groups (E_1 .. E_4)."""
    evidences = {
        f"E_{i}": {
            "question_en": f"Do you have sign {i}?",
            "code_question": f"E_{i}",
            "is_antecedent": False,
            "data_type": "B",
        }
        for i in range(1, 5)
    }
    holders = {"A": [1, 2, 3], "B": [1, 3], "C": [3], "D": [3, 4]}
    conditions = {
        name: {"symptoms": {f"E_{i}": {} for i in signs}, "antecedents": {}, "severity": 3}
        for name, signs in holders.items()
    }
    return Catalogue.from_ddxplus(conditions, evidences)


def test_the_opener_comes_from_the_paper() -> None:
    player = DiagnosisPlayer(0)
    assert player.opener() == OPENER


def test_the_same_seed_asks_the_same_questions() -> None:
    assert play(seed=11, turns=8) == play(seed=11, turns=8)
    sequences = {tuple(play(seed=s, turns=4)) for s in range(8)}
    assert len(sequences) > 1


def test_questions_are_the_evidence_groups_own_questions() -> None:
    catalogue = load_catalogue()
    player = DiagnosisPlayer(3)
    question = player.next_question()
    assert player.last_evidence is not None
    assert question == catalogue.groups[player.last_evidence].question
    assert catalogue.group_for_question(question) is catalogue.groups[player.last_evidence]


def test_no_group_is_asked_twice() -> None:
    player = DiagnosisPlayer(5, parse_answer=parse)
    answers = random.Random(1)
    for _ in range(60):
        player.next_question()
        player.record_reply(answers.choice(["yes", "no", "maybe"]))
    assert len(player.asked) == 60
    assert len(set(player.asked)) == 60
    assert set(player.asked) <= set(player.catalogue.askable)


def test_every_pick_is_among_the_top_k_splits() -> None:
    for seed in range(6):
        player = DiagnosisPlayer(seed, top_k=5)
        answers = random.Random(seed)
        for _ in range(6):
            ranked = player.ranked_questions()
            allowed = {score.group for score in ranked[:5]}
            player.next_question()
            assert player.last_evidence in allowed
            player.record_answer(player.last_evidence, answers.choice(["yes", "no"]))


def test_ranking_prefers_even_splits_then_catalogue_balance_then_code() -> None:
    player = DiagnosisPlayer(0, catalogue=toy_catalogue(), top_k=1)
    ranked = player.ranked_questions()
    # E_1: 2 of 4 (an even split); E_2 and E_4: 1 of 4 (tied, lower code first); E_3: all.
    assert [s.group for s in ranked] == ["E_1", "E_2", "E_4", "E_3"]
    assert [s.holders for s in ranked] == [2, 1, 1, 4]
    assert [s.balance for s in ranked] == pytest.approx([0.0, 0.25, 0.25, 0.5])
    # With top_k=1 the best split is always asked.
    player.next_question()
    assert player.last_evidence == "E_1"
    player.record_answer("E_1", "yes")  # A and B remain
    ranked = player.ranked_questions()
    # E_3 and E_4 both split {A, B} not at all; E_4 splits the whole catalogue better.
    assert [(s.group, s.holders, s.pool_size) for s in ranked] == [
        ("E_2", 1, 2),
        ("E_4", 0, 2),
        ("E_3", 2, 2),
    ]
    player.next_question()
    assert player.last_evidence == "E_2"


def test_real_catalogue_first_split_is_the_most_even() -> None:
    catalogue = load_catalogue()
    player = DiagnosisPlayer(0, top_k=1)
    player.next_question()
    chosen = player.last_evidence
    shares = {
        code: abs(sum(code in c.groups for c in catalogue.conditions) / 49 - 0.5)
        for code in catalogue.askable
    }
    assert chosen is not None
    assert shares[chosen] == min(shares.values())


def test_answers_narrow_the_remaining_conditions() -> None:
    catalogue = load_catalogue()
    player = DiagnosisPlayer(0)
    player.record_answer("E_91", "yes")
    player.record_answer("E_55", "no")  # a pain sub-evidence stands for the pain group E_53
    assert player.affirmed == {"E_91"}
    assert player.denied == {"E_53"}
    expected = [c for c in catalogue.conditions if "E_91" in c.groups and "E_53" not in c.groups]
    assert list(player.remaining) == expected
    player.record_answer("E_201", None)
    assert "E_201" in player.asked
    assert player.answers["E_201"] is None
    assert list(player.remaining) == expected
    assert all(s.group not in {"E_91", "E_53", "E_201"} for s in player.ranked_questions())


def test_contradictory_answers_still_leave_questions_to_ask() -> None:
    player = DiagnosisPlayer(2)
    for code in ("E_91", "E_53", "E_66", "E_77", "E_201"):
        player.record_answer(code, "yes")
    for code in ("E_181", "E_57"):
        player.record_answer(code, "no")
    assert player.remaining == ()
    question = player.next_question()
    assert question.endswith("?")
    assert player.ranked_questions()[0].pool_size >= 1


def test_running_out_of_questions_is_an_error() -> None:
    player = DiagnosisPlayer(0, catalogue=toy_catalogue())
    for _ in range(4):
        player.next_question()
    with pytest.raises(RuntimeError, match="every askable question group"):
        player.next_question()


def test_record_reply_uses_the_injected_parser() -> None:
    player = DiagnosisPlayer(4, parse_answer=lambda text: text.startswith("Y"))
    with pytest.raises(RuntimeError, match="next_question"):
        player.record_reply("Yes")
    player.next_question()
    assert player.record_reply("Yes") == "yes"
    assert player.last_evidence in player.affirmed
    player.next_question()
    assert player.record_reply("nope") == "no"
    assert player.last_evidence in player.denied


@dataclass(frozen=True)
class Parsed:
    answer: str | None


def test_a_parser_may_return_a_result_object() -> None:
    player = DiagnosisPlayer(4, parse_answer=lambda text: Parsed("yes" if "Y" in text else None))
    player.next_question()
    assert player.record_reply("Yes") == "yes"
    player.next_question()
    assert player.record_reply("hmm") is None
    assert player.answers[player.asked[-1]] is None


def test_a_parser_returning_something_else_is_reported() -> None:
    player = DiagnosisPlayer(4, parse_answer=lambda text: 0.5)
    player.next_question()
    with pytest.raises(TypeError, match="'yes', 'no', True, False or None"):
        player.record_reply("yes")


def test_without_the_sct_parser_record_reply_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "cogarch.tasks.sct.parsing", None)
    player = DiagnosisPlayer(1)
    player.next_question()
    with pytest.raises(ImportError, match="parse_answer"):
        player.record_reply("Yes.")


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(ValueError, match="top_k"):
        DiagnosisPlayer(0, top_k=0)
    player = DiagnosisPlayer(0)
    with pytest.raises(ValueError, match="'yes', 'no' or None"):
        player.record_answer("E_91", "maybe")  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="E_91"):
        player.record_answer("fever", "yes")
