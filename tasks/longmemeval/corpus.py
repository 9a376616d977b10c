"""The retrieval corpus of one question as LongMemEval's official retrieval builds it
(``process_item_flat_index`` and ``batch_get_retrieved_context_and_eval`` of
``src/retrieval/run_retrieval.py``), and which of its ids are correct.

- Session granularity: one id per haystack session. An answer session none of whose user
  turns is marked ``has_answer`` is renamed ``noans`` (``answer`` replaced by ``noans``).
- Turn granularity: the user turns only, each ``<session id>_<index over all turns + 1>``; in
  an answer session a user turn without ``has_answer`` is renamed ``noans`` the same way, so
  only evidence turns are relevant and, once its suffix is stripped, such a turn belongs to
  another session (``noans_...``).
- The correct ids are the corpus ids that still contain ``answer`` (never
  ``answer_session_ids``).
- A question enters the means only when it is no abstention question and some user turn of
  its haystack is marked ``has_answer`` (the official means leave the others out: chiefly
  single-session-assistant, whose evidence is what the assistant said).

The official data names its evidence sessions ``answer_...`` and this is what "answer
session" means above. A file whose session ids carry no ``answer`` at all (data made
elsewhere) marks its evidence sessions only by ``answer_session_ids``; there the sessions it
lists are the answer sessions, and a renamed id gets a ``noans_`` prefix, so relevance is the
same as if the file had named them officially.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .data import Question

MARKER = "answer"
NOANS = "noans"


@dataclass(frozen=True)
class OfficialCorpus:
    """One question's corpus ids at both granularities, in haystack order, by our ids."""

    sessions: dict[str, str]
    """Our session id -> its official session-granularity id."""
    turns: dict[str, str]
    """Our user-turn id -> its official turn-granularity id."""
    correct_sessions: frozenset[str]
    correct_turns: frozenset[str]
    """Official ids that are correct."""
    answer_sessions_by: Literal["id", "answer_session_ids"]
    """How answer sessions were found: by ``answer`` in the id (the official data) or, in a
    file whose ids never carry it, by ``answer_session_ids``."""
    left_out: Literal["abstention", "no user-side evidence"] | None
    """Why the official means leave the question out (None: it counts)."""


def official_corpus(question: Question) -> OfficialCorpus:
    """The official corpus of ``question``'s haystack (see the module docstring)."""
    by_id = any(MARKER in s.session_id for s in question.sessions)
    listed = set(question.answer_session_ids)

    def answer_session(session_id: str) -> bool:
        return MARKER in session_id if by_id else session_id in listed

    def renamed(name: str) -> str:
        return name.replace(MARKER, NOANS) if by_id else f"{NOANS}_{name}"

    sessions: dict[str, str] = {}
    turns: dict[str, str] = {}
    correct_sessions: set[str] = set()
    correct_turns: set[str] = set()
    for session in question.sessions:
        users = [t for t in session.turns if t.role == "user"]
        flagged = answer_session(session.session_id)
        name = session.session_id
        if flagged and not any(t.has_answer for t in users):
            name = renamed(name)
        elif flagged:
            correct_sessions.add(name)
        sessions[session.session_id] = name
        for turn in users:
            official = turn.turn_id
            if flagged and not turn.has_answer:
                official = renamed(official)
            elif flagged:
                correct_turns.add(official)
            turns[turn.turn_id] = official
    left_out: Literal["abstention", "no user-side evidence"] | None = None
    if question.abstention:
        left_out = "abstention"
    elif not any(t.has_answer and t.role == "user" for s in question.sessions for t in s.turns):
        left_out = "no user-side evidence"
    return OfficialCorpus(
        sessions,
        turns,
        frozenset(correct_sessions),
        frozenset(correct_turns),
        "id" if by_id else "answer_session_ids",
        left_out,
    )
