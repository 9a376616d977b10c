"""The conversation written from its plan, one session at a time (an iterator: a history of
any length is never held whole), and its questions as records.

Each session has its own random stream, so session i is the same whether or not the ones
before it were written. A user slot holds one of the plan's statements, or else a hard
negative (with probability ``distractor_share``, one of the questions' distractors) or
filler chat; the assistant answers each. Turns and sessions are LongMemEval's own types
(:mod:`cogarch.tasks.longmemeval.data`: ids, roles, contents, ``has_answer`` on evidence
turns, dates as it writes them), with what each turn states kept in its ``states`` for
checking (never shown to an agent).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import IO, Any

from cogarch.tasks.longmemeval.data import Session, Turn

from .chat import acknowledgement, aside, filler
from .params import QUESTION_TYPE, GeneratorParams
from .plan import PlannedQuestion, Statement, session_id
from .questions import GENERATOR_VERSION, Plan, build_plan, stream


@dataclass(frozen=True)
class Question:
    """A question as the task asks and scores it."""

    question_id: str
    ability: str
    question_type: str
    abstention: bool
    question: str
    question_date: str
    answer: str
    variants: tuple[str, ...]
    rivals: tuple[str, ...]
    check: str
    evidence_turns: tuple[str, ...]
    """The turns marked ``has_answer`` (user turns; none for an abstention question)."""
    answer_session_ids: tuple[str, ...]
    subject: str = ""
    attribute: str = ""


def question_record(plan: Plan, q: PlannedQuestion) -> Question:
    return Question(
        question_id=q.qid,
        ability=q.ability,
        question_type=QUESTION_TYPE[q.ability],
        abstention=q.abstention,
        question=q.question,
        question_date=plan.question_date,
        answer=q.answer,
        variants=q.variants,
        rivals=q.rivals,
        check=q.check,
        evidence_turns=tuple(q.evidence_turns()),
        answer_session_ids=tuple(q.evidence_sessions()),
        subject=q.subject,
        attribute=q.attribute,
    )


class Conversation:
    """A generated conversation: its plan, its questions, and its sessions on demand."""

    def __init__(self, params: GeneratorParams) -> None:
        self.params = params
        self.plan = build_plan(params)
        self.questions = [question_record(self.plan, q) for q in self.plan.questions]
        self._placed: dict[int, dict[int, Statement]] = {}
        for q in self.plan.questions:
            for s, j, st in q.placed:
                self._placed.setdefault(s, {})[j] = st
        self._distractors = [t for q in self.plan.questions for t in q.distractors]

    @property
    def session_count(self) -> int:
        return self.plan.sessions

    def digest(self) -> str:
        """What identifies the text: the generator's version and the knobs."""
        blob = json.dumps([GENERATOR_VERSION, self.params.model_dump(mode="json")], sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()

    def session(self, index: int) -> Session:
        """Session ``index`` (from 0), written from its own random stream."""
        rng = stream(self.params.seed, "session", index)
        sid = session_id(index)
        placed = self._placed.get(index, {})
        turns: list[Turn] = []
        for slot in range(self.params.turns_per_session):
            statement = placed.get(slot)
            if statement is not None:
                user = Turn(
                    f"{sid}_{2 * slot + 1}",
                    "user",
                    aside(rng, statement.text),
                    statement.evidence,
                    statement.states,
                )
                reply = acknowledgement(rng)
            elif self._distractors and rng.random() < self.params.distractor_share:
                user = Turn(
                    f"{sid}_{2 * slot + 1}", "user", aside(rng, rng.choice(self._distractors))
                )
                reply = acknowledgement(rng)
            else:
                said, reply = filler(rng)
                user = Turn(f"{sid}_{2 * slot + 1}", "user", said)
            turns.append(user)
            turns.append(Turn(f"{sid}_{2 * slot + 2}", "assistant", reply))
        when = self.plan.calendar.times[index]
        return Session(sid, self.plan.calendar.date(index), when.isoformat(), tuple(turns))

    def sessions(self, only: set[int] | None = None) -> Iterator[Session]:
        """Every session in date order (or only the indices in ``only``), one at a time."""
        for index in range(self.session_count):
            if only is None or index in only:
                yield self.session(index)

    def oracle(self, question: Question) -> Iterator[Session]:
        """The question's evidence turns only, in their sessions (with their dates)."""
        wanted = set(question.evidence_turns)
        indices = {int(t.split("_")[0][1:]) - 1 for t in wanted}
        for session in self.sessions(indices):
            kept = tuple(t for t in session.turns if t.turn_id in wanted)
            yield Session(session.session_id, session.date, session.time, kept)


def session_json(session: Session) -> dict[str, Any]:
    """A session as one JSON object (LongMemEval's turn fields, with ``states``)."""
    return {
        "session_id": session.session_id,
        "date": session.date,
        "turns": [
            {k: v for k, v in asdict(t).items() if v or k in ("role", "content")}
            for t in session.turns
        ],
    }


def write_jsonl(conversation: Conversation, out: IO[str]) -> None:
    """The whole benchmark as JSON Lines: the knobs, each session, then each question."""
    lines: Iterator[dict[str, Any]] = itertools.chain(
        [{"kind": "knobs", **conversation.params.model_dump(mode="json")}],
        ({"kind": "session", **session_json(s)} for s in conversation.sessions()),
        ({"kind": "question", **asdict(q)} for q in conversation.questions),
    )
    for line in lines:
        out.write(json.dumps(line, sort_keys=True, ensure_ascii=False) + "\n")
