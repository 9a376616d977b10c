"""One answer's retrieval metrics, the official way: the memory's ranking read as a ranking
of the official corpus (see ``corpus``), scored by ``memory_bench.ranking``.

A ranking is the source ids of each entry, best first. When every entry comes from one turn
(raw turns, rounds) it is a turn ranking: its ids that are user turns of the haystack, as
their official ids, first mention kept; an assistant turn, or an id the haystack does not
hold, takes no rank slot (the official turn corpus is the user's turns). It gives turn-level
metrics and session-level ones by the turn-to-session reading. Otherwise (whole sessions,
facts drawn from several turns) it is a session ranking: each entry's sessions in order,
first mention kept, as their official ids; session-level metrics only.

A complete ranking (the memory ranked everything it holds) is scored at every cut-off; a
corpus id the memory does not hold at all is never ranked (a memory that kept only the
assistant's turns finds no user evidence at any depth). The ideal DCG is the corpus's.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogarch.tasks.memory_bench.ranking import (
    session_of,
    session_ranking_metrics,
    turn_ranking_metrics,
)

from .corpus import OfficialCorpus


def official_ranking(
    corpus: OfficialCorpus, entries: Sequence[Sequence[str]]
) -> tuple[str, list[str]]:
    """``("turn" | "session", official ids best first)`` of a memory's ranking."""
    kept = [list(e) for e in entries if e]
    if all(len(e) == 1 for e in kept):
        turns = [corpus.turns[e[0]] for e in kept if e[0] in corpus.turns]
        return "turn", list(dict.fromkeys(turns))
    ours = dict.fromkeys(session_of(t) for e in kept for t in e)
    return "session", [corpus.sessions[s] for s in ours if s in corpus.sessions]


def answer_retrieval(
    corpus: OfficialCorpus, entries: Sequence[Sequence[str]], complete: bool
) -> dict[str, dict[str, float]]:
    """The official metrics of one answer's ranking (see the module docstring)."""
    level, ranked = official_ranking(corpus, entries)
    if level == "turn":
        return turn_ranking_metrics(
            ranked, corpus.correct_turns, list(corpus.turns.values()), complete=complete
        )
    return session_ranking_metrics(
        ranked, corpus.correct_sessions, list(corpus.sessions.values()), complete=complete
    )
