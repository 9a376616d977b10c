"""Retrieval metrics as LongMemEval's official evaluation defines them
(``src/retrieval/eval_utils.py`` of xiaowu0162/LongMemEval), over ids instead of indices.

For a ranking (retrieved ids, best first), the ids that answer the question (``correct``) and
every id the memory could have retrieved (``corpus``), at a cut-off ``k``:

- recall_any@k is 1 when any correct id is among the first k, recall_all@k when all are (a
  question with no correct id has recall_any 0 and recall_all 1, as the official code gives);
- ndcg_any@k is the DCG of the first k (relevance 1 for a correct id; the first two positions
  undiscounted, position i > 1 divided by log2(i), counting from 1) over the DCG of the
  corpus's relevances sorted best first, cut at k (0 when the corpus holds no correct id).

A turn's id is its session's id, an underscore and the turn's index from 1. The turn-to-session
reading strips that suffix from every id (correct, ranked and corpus), widens k until the first
k ranked ids cover k distinct sessions (or k passes the corpus size), and scores the sessions
at that k.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

RANK_CUTOFFS: tuple[int, ...] = (1, 3, 5, 10, 30, 50)
"""The cut-offs the official evaluation reports."""


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


def turn_to_session_scores(
    ranked: Sequence[str], correct: Collection[str], corpus: Sequence[str], k: int
) -> tuple[float, float, float]:
    """Session-level scores of a turn-level ranking, with k widened to k distinct sessions."""
    sessions = [session_of(t) for t in ranked]
    wanted = {session_of(t) for t in correct}
    pool = [session_of(t) for t in corpus]
    effective = k
    while effective <= len(pool) and len(set(sessions[:effective])) < k:
        effective += 1
    return retrieval_scores(sessions, wanted, pool, effective)


def _named(scores: tuple[float, float, float], k: int) -> dict[str, float]:
    any_, all_, ndcg = scores
    return {
        f"recall_any@{k}": any_,
        f"recall_all@{k}": all_,
        f"ndcg_any@{k}": round(ndcg, 6),
    }


def ranking_metrics(
    ranked: Sequence[Sequence[str]],
    *,
    correct_sessions: Collection[str],
    correct_turns: Collection[str],
    session_corpus: Sequence[str],
    turn_corpus: Sequence[str],
    cutoffs: Sequence[int] = RANK_CUTOFFS,
) -> dict[str, dict[str, float]]:
    """Session- and turn-level metrics of one answer's retrieval, official keys
    (``recall_any@5`` ...). ``ranked`` holds the turn ids each retrieved entry came from, in
    rank order. When every entry comes from one turn (raw turns, rounds), the ranking is a
    turn ranking: turn-level metrics, and session-level ones by the turn-to-session reading;
    otherwise (whole sessions, facts drawn from several turns) it is a session ranking: each
    entry's sessions in order, first mention kept, session-level metrics only."""
    entries = [list(e) for e in ranked if e]
    out: dict[str, dict[str, float]] = {"session": {}, "turn": {}}
    if all(len(e) == 1 for e in entries):
        turns = [e[0] for e in entries]
        for k in cutoffs:
            out["turn"].update(_named(retrieval_scores(turns, correct_turns, turn_corpus, k), k))
            scores = turn_to_session_scores(turns, correct_turns, turn_corpus, k)
            out["session"].update(_named(scores, k))
        return out
    sessions = list(dict.fromkeys(session_of(t) for e in entries for t in e))
    for k in cutoffs:
        scores = retrieval_scores(sessions, correct_sessions, session_corpus, k)
        out["session"].update(_named(scores, k))
    del out["turn"]
    return out
