"""The retrieval metrics equal LongMemEval's official definitions on hand-built rankings.

The reference below scores rankings the way ``src/retrieval/eval_utils.py`` does: rankings
are positions in the corpus, relevance comes from the corpus, and the turn-to-session reading
strips turn suffixes and widens k until k distinct sessions are covered."""

from __future__ import annotations

import math

import pytest

from cogarch.tasks.memory_bench.ranking import (
    METRICS,
    RANK_CUTOFFS,
    retrieval_scores,
    session_ranking_metrics,
    turn_ranking_metrics,
    turn_to_session_scores,
)


def reference_dcg(rels: list[float], k: int) -> float:
    rels = rels[:k]
    total = 0.0
    for i, r in enumerate(rels):
        total += r if i == 0 else r / math.log2(i + 1)
    return total


def reference(order: list[int], correct: list[str], corpus: list[str], k: int) -> tuple[float, ...]:
    got = {corpus[i] for i in order[:k]}
    rels = [1.0 if c in correct else 0.0 for c in corpus]
    ideal = reference_dcg(sorted(rels, reverse=True), k)
    actual = reference_dcg([rels[i] for i in order[:k]], k)
    return (
        float(any(c in got for c in correct)),
        float(all(c in got for c in correct)),
        actual / ideal if ideal else 0.0,
    )


def reference_turn2session(
    order: list[int], correct: list[str], corpus: list[str], k: int
) -> tuple[float, ...]:
    strip = ["_".join(c.split("_")[:-1]) for c in corpus]
    wanted = list({"_".join(c.split("_")[:-1]) for c in correct})
    eff = k
    while eff <= len(strip) and len({strip[i] for i in order[:eff]}) < k:
        eff += 1
    return reference(order, wanted, strip, eff)


SESSIONS = ["s1", "answer_a", "s3", "answer_b", "s5", "s6"]
TURNS = [f"{s}_{t}" for s in ["s1", "answer_a", "s3", "answer_b"] for t in (1, 2, 3)]


@pytest.mark.parametrize("k", [1, 2, 3, 5, 10])
@pytest.mark.parametrize(
    ("order", "correct"),
    [
        ([1, 0, 3, 2, 4, 5], ["answer_a", "answer_b"]),
        ([0, 2, 4, 5, 1, 3], ["answer_a", "answer_b"]),
        ([3, 5, 0], ["answer_b"]),
        ([0, 2], ["answer_a"]),
        ([0, 1], []),
    ],
)
def test_session_scores_equal_the_official_ones(
    order: list[int], correct: list[str], k: int
) -> None:
    ranked = [SESSIONS[i] for i in order]
    mine = retrieval_scores(ranked, correct, SESSIONS, k)
    assert mine == pytest.approx(reference(order, correct, SESSIONS, k))


@pytest.mark.parametrize("k", [1, 2, 3, 5])
@pytest.mark.parametrize(
    ("order", "correct"),
    [
        # two turns of one session first: k widens past them to reach k sessions
        ([0, 1, 4, 2, 10, 7], ["answer_a_2", "answer_b_1"]),
        ([9, 10, 11, 3, 4], ["answer_a_1"]),
        ([6, 7, 8, 0, 1, 2], ["answer_b_3"]),
        ([0, 1, 2], ["answer_a_1", "answer_b_2"]),  # widening runs out of ranking
    ],
)
def test_turn_to_session_widens_k_as_the_official_code(
    order: list[int], correct: list[str], k: int
) -> None:
    ranked = [TURNS[i] for i in order]
    mine = turn_to_session_scores(ranked, correct, TURNS, k)
    assert mine == pytest.approx(reference_turn2session(order, correct, TURNS, k))


def test_widened_k_counts_a_session_found_past_the_first_k_turns() -> None:
    ranked = ["s1_1", "s1_2", "s1_3", "answer_a_2"]
    # at k=2 the first two turns cover one session only: k widens to 4, which finds answer_a
    assert turn_to_session_scores(ranked, ["answer_a_2"], TURNS, 2)[0] == 1.0
    assert retrieval_scores(ranked, ["answer_a_2"], TURNS, 2)[0] == 0.0


def test_a_complete_ranking_scores_every_cutoff_and_a_partial_one_only_what_it_decides() -> None:
    ranked = ["answer_a_1", "s1_2", "s3_1"]
    whole = turn_ranking_metrics(ranked, ["answer_a_1"], TURNS, complete=True)
    assert set(whole["turn"]) == {f"{m}@{k}" for m in METRICS for k in RANK_CUTOFFS}
    partial = turn_ranking_metrics(ranked, ["answer_a_1"], TURNS, complete=False)
    assert sorted(partial["turn"]) == sorted(f"{m}@{k}" for m in METRICS for k in (1, 3))
    # three turns of three sessions decide the session reading at k = 1 and 3, not at 5
    assert sorted(partial["session"]) == sorted(f"{m}@{k}" for m in METRICS for k in (1, 3))
    assert partial["turn"]["recall_any@1"] == whole["turn"]["recall_any@1"] == 1.0


def test_turns_of_one_session_widen_past_a_partial_ranking_and_leave_the_cutoff_out() -> None:
    # two turns of one session: one distinct session only, so session @3 is not decided
    partial = turn_ranking_metrics(["s1_1", "s1_2", "s3_1"], [], TURNS, complete=False)
    assert "recall_any@1" in partial["session"]
    assert "recall_any@3" not in partial["session"]


def test_a_session_ranking_scores_sessions_only() -> None:
    scores = session_ranking_metrics(["s1", "answer_a"], ["answer_a"], SESSIONS, complete=False)
    assert set(scores) == {"session"}
    assert scores["session"]["recall_any@1"] == 0.0
    assert "recall_any@3" not in scores["session"]
    whole = session_ranking_metrics(["s1", "answer_a"], ["answer_a"], SESSIONS, complete=True)
    assert whole["session"]["recall_any@3"] == 1.0
    assert whole["session"]["ndcg_any@3"] == pytest.approx(1.0)  # position 2 is undiscounted
