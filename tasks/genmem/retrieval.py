"""One answer's retrieval metrics, read as LongMemEval's official evaluation reads them (see
``cogarch.tasks.memory_bench.ranking``), on the generated conversation's own ids.

The corpus is the user turns (``s00001_1``, ``s00001_3`` ...) and their sessions; the correct
ids are the question's evidence turns (the user turns that state its answer) and their
sessions, so no id renaming is needed. A ranking whose every entry comes from one turn is a
turn ranking: its ids that are user turns of the corpus, first mention kept (an assistant
turn takes no rank slot); otherwise a session ranking of each entry's sessions in order.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogarch.tasks.memory_bench.ranking import (
    session_of,
    session_ranking_metrics,
    turn_ranking_metrics,
)


def answer_retrieval(
    entries: Sequence[Sequence[str]],
    *,
    correct_turns: Sequence[str],
    correct_sessions: Sequence[str],
    turn_corpus: Sequence[str],
    session_corpus: Sequence[str],
    complete: bool,
) -> dict[str, dict[str, float]]:
    """The official metrics of one answer's ranking ``entries`` (source ids per entry, best
    first); ``complete`` when the memory ranked everything it holds."""
    kept = [list(e) for e in entries if e]
    if all(len(e) == 1 for e in kept):
        users = set(turn_corpus)
        ranked = list(dict.fromkeys(e[0] for e in kept if e[0] in users))
        return turn_ranking_metrics(ranked, correct_turns, turn_corpus, complete=complete)
    known = set(session_corpus)
    sessions = dict.fromkeys(session_of(t) for e in kept for t in e)
    ranked = [s for s in sessions if s in known]
    return session_ranking_metrics(ranked, correct_sessions, session_corpus, complete=complete)
