"""LongMemEval's retrieval metrics on hand-built questions in the official file format, with
values worked out by hand from the official definitions (run_retrieval.py, eval_utils.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from cogarch.tasks.longmemeval.corpus import official_corpus
from cogarch.tasks.longmemeval.data import Question, load_longmemeval
from cogarch.tasks.longmemeval.metrics import retrieval_counts, retrieval_summary
from cogarch.tasks.longmemeval.records import LongMemEvalPayload
from cogarch.tasks.longmemeval.retrieval import answer_retrieval, official_ranking

DATE = "2023/05/30 (Tue) 23:40"


def turn(role: str, content: str, has_answer: bool | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"role": role, "content": content}
    if has_answer is not None:
        out["has_answer"] = has_answer
    return out


def entry(qid: str, sessions: dict[str, list[dict[str, Any]]], answers: list[str]) -> dict:
    return {
        "question_id": qid,
        "question_type": "single-session-user",
        "question": "Where did my sister move?",
        "answer": "Lisbon",
        "question_date": DATE,
        "haystack_session_ids": list(sessions),
        "haystack_dates": [DATE] * len(sessions),
        "haystack_sessions": list(sessions.values()),
        "answer_session_ids": answers,
    }


# answer_a: user turns 1 and 3, the evidence on turn 3; s_b and s_c are other sessions
OFFICIAL = {
    "answer_a": [
        turn("user", "hello there", False),
        turn("assistant", "hi", False),
        turn("user", "my sister moved to Lisbon", True),
        turn("assistant", "nice", False),
    ],
    "s_b": [turn("user", "a recipe please"), turn("assistant", "rice")],
    "s_c": [turn("user", "plants in winter"), turn("assistant", "water less")],
}


def load(tmp_path: Path, *entries: dict) -> list[Question]:
    path = tmp_path / "official.json"
    path.write_text(json.dumps(list(entries)), encoding="utf-8")
    return load_longmemeval(path)


def test_the_official_corpus_renames_the_non_evidence_turns_of_an_answer_session(
    tmp_path: Path,
) -> None:
    [q] = load(tmp_path, entry("q1", OFFICIAL, ["answer_a"]))
    corpus = official_corpus(q)
    assert list(corpus.turns.values()) == ["noans_a_1", "answer_a_3", "s_b_1", "s_c_1"]
    assert corpus.correct_turns == {"answer_a_3"}
    assert corpus.correct_sessions == {"answer_a"}
    assert corpus.left_out is None and corpus.answer_sessions_by == "id"


def test_an_evidence_turn_third_behind_a_turn_of_its_own_session_scores_as_officially(
    tmp_path: Path,
) -> None:
    [q] = load(tmp_path, entry("q1", OFFICIAL, ["answer_a"]))
    ranking = [["answer_a_1"], ["s_b_1"], ["answer_a_3"], ["s_c_1"]]
    scores = answer_retrieval(official_corpus(q), ranking, complete=True)
    # answer_a_1 is noans_a_1: its session is noans_a, no hit at 1
    assert scores["session"]["recall_any@1"] == 0.0
    # noans_a, s_b, answer_a are three sessions at k = 3: DCG = 0 + 0 + 1/log2(3), ideal 1
    assert scores["session"]["ndcg_any@3"] == pytest.approx(0.6309, abs=1e-4)
    assert scores["session"]["ndcg_any@3"] == pytest.approx(1 / math.log2(3))
    assert scores["turn"]["recall_any@3"] == 1.0 and scores["turn"]["recall_any@1"] == 0.0


def test_an_assistant_turn_takes_no_rank_slot(tmp_path: Path) -> None:
    [q] = load(tmp_path, entry("q1", OFFICIAL, ["answer_a"]))
    ranking = [["answer_a_2"], ["answer_a_3"], ["s_b_2"], ["s_b_1"]]
    level, ranked = official_ranking(official_corpus(q), ranking)
    assert level == "turn"
    assert ranked == ["answer_a_3", "s_b_1"]
    scores = answer_retrieval(official_corpus(q), ranking, complete=True)
    assert scores["turn"]["recall_any@1"] == 1.0
    assert scores["turn"]["ndcg_any@1"] == 1.0


def test_a_question_with_evidence_only_on_assistant_turns_is_left_out(tmp_path: Path) -> None:
    sessions = {
        "answer_x": [turn("user", "which tea", False), turn("assistant", "green tea", True)],
        "s_b": OFFICIAL["s_b"],
    }
    [q] = load(tmp_path, entry("q2", sessions, ["answer_x"]))
    corpus = official_corpus(q)
    assert corpus.left_out == "no user-side evidence"
    # the session has no user evidence turn: renamed noans at session level too
    assert list(corpus.sessions.values()) == ["noans_x", "s_b"]
    assert corpus.correct_sessions == frozenset()

    def payload(qid: str, left_out: Any, retrieval: Any) -> LongMemEvalPayload:
        return LongMemEvalPayload(
            question_id=qid,
            question_type="single-session-assistant",
            abstention="_abs" in qid,
            question="?",
            question_date=DATE,
            gold="x",
            hypothesis="x",
            sessions_ingested=2,
            turns_ingested=4,
            ranked=[["s_b_1"]],
            ranking=[["s_b_1"]],
            ranking_complete=True,
            retrieval_left_out=left_out,
            retrieval=retrieval,
        )

    counted = {"session": {"recall_any@1": 1.0}}
    answers = [
        payload("q1", None, counted),
        payload("q2", "no user-side evidence", None),
        payload("q3_abs", "abstention", None),
    ]
    assert retrieval_summary(answers) == {"session": {"recall_any@1": 1.0}}
    counts = retrieval_counts(answers)
    assert (counts["scored"], counts["abstention"], counts["no user-side evidence"]) == (1, 1, 1)


def test_an_answer_session_without_user_evidence_is_renamed_at_session_level(
    tmp_path: Path,
) -> None:
    sessions = {
        **OFFICIAL,
        "answer_y": [turn("user", "tea", False), turn("assistant", "green", True)],
    }
    [q] = load(tmp_path, entry("q3", sessions, ["answer_a", "answer_y"]))
    corpus = official_corpus(q)
    assert corpus.sessions["answer_y"] == "noans_y"
    ranking = [[f"answer_y_{i}" for i in (1, 2)], [f"answer_a_{i}" for i in (1, 2, 3, 4)]]
    scores = answer_retrieval(corpus, ranking, complete=True)
    assert set(scores) == {"session"}
    # answer_y is not correct (correct ids come from the corpus, not answer_session_ids)
    assert scores["session"]["recall_all@1"] == 0.0
    assert scores["session"]["recall_all@3"] == 1.0
    assert scores["session"]["ndcg_any@3"] == pytest.approx(1.0)  # position 2: undiscounted


def test_ids_without_the_answer_marker_score_as_the_officially_named_file(
    tmp_path: Path,
) -> None:
    renamed = {("ev_a" if s == "answer_a" else s): turns for s, turns in OFFICIAL.items()}
    [official] = load(tmp_path, entry("q1", OFFICIAL, ["answer_a"]))
    [plain] = load(tmp_path, entry("q1", renamed, ["ev_a"]))
    corpus = official_corpus(plain)
    assert corpus.answer_sessions_by == "answer_session_ids"
    assert corpus.correct_turns == {"ev_a_3"}
    for order in ([1, 0, 2, 3], [0, 1, 2, 3], [3, 2, 1, 0]):
        turns_a = [["answer_a_1"], ["answer_a_3"], ["s_b_1"], ["s_c_1"]]
        turns_b = [["ev_a_1"], ["ev_a_3"], ["s_b_1"], ["s_c_1"]]
        mine = answer_retrieval(corpus, [turns_b[i] for i in order], complete=True)
        theirs = answer_retrieval(
            official_corpus(official), [turns_a[i] for i in order], complete=True
        )
        assert mine == theirs


def test_a_ranking_of_the_top_entries_only_has_no_number_past_them(tmp_path: Path) -> None:
    [q] = load(tmp_path, entry("q1", OFFICIAL, ["answer_a"]))
    scores = answer_retrieval(official_corpus(q), [["answer_a_3"], ["s_b_1"]], complete=False)
    assert "recall_any@1" in scores["turn"] and "recall_any@3" not in scores["turn"]
    assert "ndcg_any@5" not in scores["session"]


def test_the_report_says_when_a_memory_ranked_only_the_readers_entries() -> None:
    def answer(qid: str, complete: bool, retrieval: dict) -> LongMemEvalPayload:
        return LongMemEvalPayload(
            question_id=qid,
            question_type="single-session-user",
            abstention=False,
            question="?",
            question_date=DATE,
            gold="x",
            hypothesis="x",
            sessions_ingested=2,
            turns_ingested=4,
            ranked=[["s_b_1"]],
            ranking=[["s_b_1"]] if complete else None,
            ranking_complete=complete,
            retrieval=retrieval,
        )

    # the mean of a cut-off some question has no number for is not shown
    answers = [
        answer("q1", False, {"turn": {"recall_any@1": 1.0, "recall_any@3": 1.0}}),
        answer("q2", False, {"turn": {"recall_any@1": 0.0}}),
    ]
    assert retrieval_summary(answers) == {"turn": {"recall_any@1": 0.5}}
    assert retrieval_counts(answers)["top entries only"] == 2
