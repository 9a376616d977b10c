"""Retrieval metrics as LongMemEval's official evaluation defines them
(``src/retrieval/eval_utils.py`` of xiaowu0162/LongMemEval), over ids instead of indices.

For a ranking (ids, best first, each at most once), the ids that answer the question
(``correct``) and every id the memory could have retrieved (``corpus``), at a cut-off ``k``:

- recall_any@k is 1 when any correct id is among the first k, recall_all@k when all are (a
  question with no correct id has recall_any 0 and recall_all 1, as the official code gives);
- ndcg_any@k is the DCG of the first k (relevance 1 for a correct id; the first two positions
  undiscounted, position i > 1 divided by log2(i), counting from 1) over the DCG of the
  corpus's relevances sorted best first, cut at k (0 when the corpus holds no correct id).

A turn's id is its session's id, an underscore and the turn's index from 1. The turn-to-session
reading (``evaluate_retrieval_turn2session``) strips that suffix from every id (correct, ranked
and corpus), widens k until the first k ranked ids cover k distinct sessions (or k passes the
corpus size), and scores the stripped ids at that k: a session ranked twice counts twice, in
the ranking as in the ideal.

The official retriever ranks the whole corpus. A ranking that is not ``complete`` (a memory
that ranked only its top k) gets a number only where its ranked ids decide it: @k for k up to
its length, and the session reading's @k only when the widened k stays within it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

RANK_CUTOFFS: tuple[int, ...] = (1, 3, 5, 10, 30, 50)
"""The cut-offs the official evaluation reports."""
METRICS: tuple[str, ...] = ("recall_any", "recall_all", "ndcg_any")


def _dcg(relevances: Sequence[float], k: int) -> float:
    top = list(relevances)[:k]
    if not top:
        return 0.0
    return top[0] + sum(r / math.log2(i + 1) for i, r in enumerate(top[1:], start=1))


def retrieval_scores(
    ranked: Sequence[str], correct: Collection[str], corpus: Sequence[str], k: int
) -> tuple[float, float, float]:
    """(recall_any@k, recall_all@k, ndcg_any@k) of ``ranked`` (see the module docstring)."""
    wanted = set(correct)
    top = set(ranked[:k])
    recall_any = float(any(c in top for c in wanted))
    recall_all = float(all(c in top for c in wanted))
    ideal = _dcg(sorted((float(c in wanted) for c in corpus), reverse=True), k)
    actual = _dcg([float(r in wanted) for r in ranked[:k]], k)
    return recall_any, recall_all, (actual / ideal if ideal else 0.0)


def session_of(turn_id: str) -> str:
    """The session id of a turn id (everything before its last underscore)."""
    return "_".join(turn_id.split("_")[:-1])


def widened_k(sessions: Sequence[str], k: int, corpus_size: int) -> int:
    """The official widened cut-off: the least k' >= k whose first k' ranked sessions are k
    distinct ones, or corpus_size + 1 when none is."""
    effective = k
    while effective <= corpus_size and len(set(sessions[:effective])) < k:
        effective += 1
    return effective


def turn_to_session_scores(
    ranked: Sequence[str], correct: Collection[str], corpus: Sequence[str], k: int
) -> tuple[float, float, float]:
    """Session-level scores of a turn-level ranking, with k widened to k distinct sessions."""
    sessions = [session_of(t) for t in ranked]
    wanted = {session_of(t) for t in correct}
    pool = [session_of(t) for t in corpus]
    return retrieval_scores(sessions, wanted, pool, widened_k(sessions, k, len(pool)))


def _named(scores: tuple[float, float, float], k: int) -> dict[str, float]:
    return {f"{name}@{k}": round(value, 6) for name, value in zip(METRICS, scores, strict=True)}


def turn_ranking_metrics(
    ranked: Sequence[str],
    correct: Collection[str],
    corpus: Sequence[str],
    *,
    complete: bool,
    cutoffs: Sequence[int] = RANK_CUTOFFS,
) -> dict[str, dict[str, float]]:
    """Turn-level metrics of a turn ranking and session-level ones by the turn-to-session
    reading, each only where the ranking decides it (see the module docstring)."""
    out: dict[str, dict[str, float]] = {"session": {}, "turn": {}}
    sessions = [session_of(t) for t in ranked]
    for k in cutoffs:
        if complete or k <= len(ranked):
            out["turn"].update(_named(retrieval_scores(ranked, correct, corpus, k), k))
        if complete or widened_k(sessions, k, len(corpus)) <= len(ranked):
            out["session"].update(_named(turn_to_session_scores(ranked, correct, corpus, k), k))
    return out


def session_ranking_metrics(
    ranked: Sequence[str],
    correct: Collection[str],
    corpus: Sequence[str],
    *,
    complete: bool,
    cutoffs: Sequence[int] = RANK_CUTOFFS,
) -> dict[str, dict[str, float]]:
    """Session-level metrics of a session ranking, each only where the ranking decides it."""
    scores = {
        k: retrieval_scores(ranked, correct, corpus, k)
        for k in cutoffs
        if complete or k <= len(ranked)
    }
    return {"session": {n: v for k, s in scores.items() for n, v in _named(s, k).items()}}
