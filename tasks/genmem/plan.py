"""The plan of a conversation: its sessions' dates, and each question with the user turns
that state its facts, placed at (session, slot). The plan is small (it grows with the
questions, not with the length); the sessions themselves are written from it one at a time
(``conversation``).

A placed user turn's id is LongMemEval's: the session's id, an underscore and the turn's
index from 1 over the session's turns (user and assistant alternate, so user slot j is turn
2j + 1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from cogarch.errors import ConfigError

DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"
"""How sessions are dated, as LongMemEval writes dates: '2023/05/30 (Tue) 23:40'."""
MAX_FACT_SHARE = 0.6
"""At most this share of the user turns state facts; the rest is chat and hard negatives."""


def session_id(index: int) -> str:
    return f"s{index + 1:05d}"


def turn_id(session: int, slot: int) -> str:
    """The id of user slot ``slot`` of session ``session`` (LongMemEval's numbering)."""
    return f"{session_id(session)}_{2 * slot + 1}"


@dataclass(frozen=True)
class Statement:
    """A planned user turn: its words, and what it states as (subject, attribute, value)."""

    text: str
    states: tuple[tuple[str, str, str], ...] = ()
    evidence: bool = True
    """False for a mention that is no evidence (the entity an abstention question asks of)."""


@dataclass
class PlannedQuestion:
    """A question with its answer, the variants scoring accepts, the rival values of its hard
    negatives, and where its statements are."""

    qid: str
    ability: str
    family: str
    question: str
    answer: str
    variants: tuple[str, ...]
    check: str
    """How the answer follows from the evidence: value, count, sum, older, date, first,
    days, or none (abstention)."""
    rivals: tuple[str, ...] = ()
    distractors: tuple[str, ...] = ()
    placed: list[tuple[int, int, Statement]] = field(default_factory=list)
    subject: str = ""
    attribute: str = ""

    @property
    def abstention(self) -> bool:
        return self.ability == "abstention"

    def evidence_turns(self) -> list[str]:
        return [turn_id(s, j) for s, j, st in sorted(self.placed) if st.evidence]

    def evidence_sessions(self) -> list[str]:
        return list(dict.fromkeys(session_id(s) for s, _, st in sorted(self.placed) if st.evidence))


class Calendar:
    """The sessions' dates and which user slots are taken; picks sessions for statements."""

    def __init__(self, sessions: int, turns: int, start: datetime, rng: random.Random) -> None:
        self.turns = turns
        self.rng = rng
        mean_hours = min(96.0, max(6.0, 540 * 24 / sessions))
        self.times: list[datetime] = []
        at = start.replace(hour=9, minute=0)
        for _ in range(sessions):
            self.times.append(at)
            step = rng.uniform(0.5, 1.5) * mean_hours
            nxt = at + timedelta(hours=step)
            day = nxt.replace(hour=rng.randint(8, 21), minute=rng.choice((0, 10, 20, 30, 40, 50)))
            at = day if day > at else at + timedelta(minutes=30)
        self.taken: dict[int, set[int]] = {}

    @property
    def sessions(self) -> int:
        return len(self.times)

    def date(self, session: int) -> str:
        return self.times[session].strftime(DATE_FORMAT)

    def free(self, session: int) -> bool:
        return len(self.taken.get(session, ())) < self.turns

    def _slot(self, session: int) -> int:
        used = self.taken.setdefault(session, set())
        slot = self.rng.choice([j for j in range(self.turns) if j not in used])
        used.add(slot)
        return slot

    def place(self, sessions: list[int]) -> list[tuple[int, int]]:
        """A free slot in each of ``sessions`` (each must have one)."""
        return [(s, self._slot(s)) for s in sessions]

    def pick(self, n: int, *, within_days: tuple[int, int] | None = None) -> list[int] | None:
        """``n`` distinct sessions with a free slot, in date order; with ``within_days``, two
        sessions whose dates are that many days apart (same month preferred); None when
        there are none."""
        open_ = [s for s in range(self.sessions) if self.free(s)]
        if within_days is None:
            return sorted(self.rng.sample(open_, n)) if len(open_) >= n else None
        low, high = within_days
        for _ in range(40):
            first = self.rng.choice(open_) if open_ else None
            if first is None:
                return None
            later = [
                s
                for s in open_
                if low <= (self.times[s].date() - self.times[first].date()).days <= high
            ]
            same = [s for s in later if self.times[s].month == self.times[first].month]
            if same or later:
                return [first, self.rng.choice(same or later)]
        return None


def capacity_error(needed: int, sessions: int, turns: int) -> ConfigError:
    return ConfigError(
        f"the questions need {needed} fact turns but {sessions} sessions of {turns} user turns "
        f"hold at most {int(MAX_FACT_SHARE * sessions * turns)} (a share of "
        f"{MAX_FACT_SHARE}); raise target_tokens, sessions or turns_per_session, or lower "
        "questions"
    )
