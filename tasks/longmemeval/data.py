"""Reading LongMemEval's published JSON format (Wu et al., ICLR 2025).

A file (``longmemeval_s``, ``longmemeval_m``, ``longmemeval_oracle`` or the cleaned 2025
release, from Hugging Face ``xiaowu0162/longmemeval``) is a JSON list of questions (a JSON
Lines file of them is read too). Each has ``question_id``, ``question_type``, ``question``,
``answer`` (a string or a number), ``question_date`` (``2023/05/30 (Tue) 23:40``),
``haystack_session_ids``, ``haystack_dates`` and ``haystack_sessions`` (parallel lists; a
session is a list of turns with ``role``, ``content`` and, on evidence turns, ``has_answer``)
and ``answer_session_ids``. An ``_abs`` in the id marks an abstention question (its answer is
the explanation of why it cannot be answered). A turn's id is its session's id, an underscore
and its index from 1, as the official retrieval code numbers them.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cogarch.errors import ConfigError, MissingDataError
from cogarch.files import MAX_STATE_BYTES, FileRefusedError, read_bytes

DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"
"""How LongMemEval writes a date: '2023/05/30 (Tue) 23:40'."""
QUESTION_TYPES: tuple[str, ...] = (
    "single-session-user",
    "single-session-preference",
    "single-session-assistant",
    "multi-session",
    "temporal-reasoning",
    "knowledge-update",
)
"""The question types, in the order the official metrics script prints them."""
ROLES = ("user", "assistant")
WHERE_TO_GET = (
    "download longmemeval_s.json (or _m, _oracle) from Hugging Face xiaowu0162/longmemeval "
    "(or longmemeval-cleaned)"
)


class LongMemEvalDataError(ConfigError):
    """A LongMemEval file that cannot be read, or a selection it cannot satisfy."""


class LongMemEvalDataMissingError(LongMemEvalDataError, MissingDataError):
    """The LongMemEval file the config names does not exist (the user downloads it)."""


@dataclass(frozen=True)
class Turn:
    """One turn of a session (the generated memory benchmark writes its turns in this shape
    too)."""

    turn_id: str
    role: str
    content: str
    has_answer: bool = False
    states: tuple[tuple[str, str, str], ...] = ()
    """What the turn states, as (subject, attribute, value), in a generated conversation:
    known to its generator only, never shown to an agent (empty for a LongMemEval file)."""


@dataclass(frozen=True)
class Session:
    """One session of a haystack: its id, its date and its turns."""

    session_id: str
    date: str
    """As the file writes it ('2023/05/30 (Tue) 23:40')."""
    time: str
    """The same as ISO 8601, the time memory modules date the session's turns by."""
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    question_id: str
    question_type: str
    question: str
    answer: str | int | float
    question_date: str
    sessions: tuple[Session, ...]
    """The haystack, in the file's order."""
    answer_session_ids: tuple[str, ...]

    @property
    def abstention(self) -> bool:
        return "_abs" in self.question_id

    @property
    def gold(self) -> str:
        return str(self.answer)

    def in_date_order(self) -> list[Session]:
        """The haystack's sessions by date (file order among sessions of the same date)."""
        return sorted(self.sessions, key=lambda s: s.time)

    def evidence_turns(self) -> list[str]:
        """Ids of the turns marked ``has_answer``."""
        return [t.turn_id for s in self.sessions for t in s.turns if t.has_answer]

    def oracle(self) -> Question:
        """The question with only its evidence sessions, as ``longmemeval_oracle`` has it."""
        wanted = set(self.answer_session_ids)
        kept = tuple(s for s in self.sessions if s.session_id in wanted)
        return Question(**{**self.__dict__, "sessions": kept})

    def item_digest(self) -> str:
        """A hash of the whole question: its id, type, text, gold answer, date, haystack and
        evidence ids (a trial drawn from it is played again when any of them changes)."""
        blob = json.dumps(
            [
                self.question_id,
                self.question_type,
                self.question,
                self.answer,
                self.question_date,
                [
                    [s.session_id, s.date, [[t.role, t.content, t.has_answer] for t in s.turns]]
                    for s in self.sessions
                ],
                list(self.answer_session_ids),
            ],
            ensure_ascii=False,
        )
        return hashlib.sha256(blob.encode()).hexdigest()

    def digest(self) -> str:
        """A hash of what memory takes in: every session's id, date and turns, in order."""
        blob = json.dumps(
            [[s.session_id, s.date, [[t.role, t.content] for t in s.turns]] for s in self.sessions],
            ensure_ascii=False,
        )
        return hashlib.sha256(blob.encode()).hexdigest()


def parse_date(text: str) -> datetime:
    """A LongMemEval date ('2023/05/30 (Tue) 23:40'); ValueError when it is not one."""
    return datetime.strptime(text.strip(), DATE_FORMAT)


def _fail(path: Path, where: str, problem: str) -> LongMemEvalDataError:
    return LongMemEvalDataError(
        f"{path}: {where} {problem}; give a file in LongMemEval's published format ({WHERE_TO_GET})"
    )


def _field(path: Path, where: str, raw: dict[str, Any], key: str, kind: Any, what: str) -> Any:
    if key not in raw:
        raise _fail(path, where, f"has no '{key}'")
    value = raw[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise _fail(path, where, f"has a '{key}' that is not {what}")
    return value


def _date(path: Path, where: str, field: str, text: str) -> str:
    try:
        return parse_date(text).isoformat()
    except ValueError:
        raise _fail(
            path, where, f"has a {field} {text!r} that is not like '2023/05/30 (Tue) 23:40'"
        ) from None


def _turns(path: Path, where: str, session_id: str, raw: Any) -> tuple[Turn, ...]:
    if not isinstance(raw, list):
        raise _fail(path, where, f"has a session '{session_id}' that is not a list of turns")
    turns = []
    for i, turn in enumerate(raw):
        at = f"{where} session '{session_id}' turn {i + 1}"
        if not isinstance(turn, dict):
            raise _fail(path, at, "is not an object with 'role' and 'content'")
        role = _field(path, at, turn, "role", str, "a text")
        if role not in ROLES:
            raise _fail(path, at, f"has role {role!r} (LongMemEval's are 'user' and 'assistant')")
        content = _field(path, at, turn, "content", str, "a text")
        has_answer = turn.get("has_answer", False)
        if not isinstance(has_answer, bool):
            raise _fail(path, at, "has a 'has_answer' that is not true or false")
        turns.append(Turn(f"{session_id}_{i + 1}", role, content, has_answer))
    return tuple(turns)


def _question(path: Path, index: int, raw: Any) -> Question:
    if not isinstance(raw, dict):
        raise _fail(path, f"entry {index + 1}", "is not a question object")
    qid = _field(path, f"entry {index + 1}", raw, "question_id", str, "a text")
    where = f"question '{qid}'"
    qtype = _field(path, where, raw, "question_type", str, "a text")
    if qtype not in QUESTION_TYPES:
        raise _fail(
            path,
            where,
            f"has question_type {qtype!r}; LongMemEval's are " + ", ".join(QUESTION_TYPES),
        )
    question = _field(path, where, raw, "question", str, "a text")
    answer = _field(path, where, raw, "answer", (str, int, float), "a text or a number")
    date = _field(path, where, raw, "question_date", str, "a text")
    _date(path, where, "question_date", date)
    ids = _field(path, where, raw, "haystack_session_ids", list, "a list of session ids")
    dates = _field(path, where, raw, "haystack_dates", list, "a list of dates")
    sessions = _field(path, where, raw, "haystack_sessions", list, "a list of sessions")
    if not all(isinstance(i, str) for i in ids):
        raise _fail(path, where, "has a 'haystack_session_ids' entry that is not a text")
    if not (len(ids) == len(dates) == len(sessions)):
        raise _fail(
            path,
            where,
            f"has {len(ids)} haystack_session_ids, {len(dates)} haystack_dates and "
            f"{len(sessions)} haystack_sessions (they are parallel lists)",
        )
    seen: set[str] = set()
    for sid in ids:  # one pass: a question may hold many thousands of sessions
        if sid in seen:
            raise _fail(path, where, f"repeats haystack session id {sid!r}")
        seen.add(sid)
    evidence = _field(path, where, raw, "answer_session_ids", list, "a list of session ids")
    if not all(isinstance(i, str) for i in evidence):
        raise _fail(path, where, "has an 'answer_session_ids' entry that is not a text")
    haystack = []
    for sid, day, turns in zip(ids, dates, sessions, strict=True):
        if not isinstance(day, str):
            raise _fail(path, where, f"has a haystack_dates entry for '{sid}' that is not a text")
        at = f"{where} haystack_dates entry for '{sid}'"
        haystack.append(
            Session(sid, day, _date(path, at, "date", day), _turns(path, where, sid, turns))
        )
    return Question(qid, qtype, question, answer, date, tuple(haystack), tuple(evidence))


MAX_DATA_BYTES = 4 * MAX_STATE_BYTES
"""The largest data file read (``longmemeval_m`` is about 2.7 GB)."""
_BOM = b"\xef\xbb\xbf"


def _start(path: Path) -> None:
    """Refuse, before reading it whole, a file that is too large or that cannot be JSON or
    JSON Lines of questions (its first character past a UTF-8 BOM and blanks is no '[' or
    '{')."""
    try:
        size = path.stat().st_size
        with path.open("rb") as head:
            start = head.read(4096)
    except OSError:
        return  # read_bytes names what is wrong with the path
    if size > MAX_DATA_BYTES:
        raise LongMemEvalDataError(
            f"'{path}' is {size:,} bytes, larger than the {MAX_DATA_BYTES:,} bytes a "
            f"LongMemEval file may hold; give a file in LongMemEval's published format "
            f"({WHERE_TO_GET})"
        )
    first = start.removeprefix(_BOM).lstrip()[:1]
    if first and first not in (b"[", b"{"):
        raise _fail(
            path, "the file", "is neither JSON nor JSON Lines (it starts with no '[' or '{')"
        )


def _read(path: Path) -> Any:
    """The file's JSON (or JSON Lines) data; a UTF-8 BOM before it is skipped."""
    _start(path)
    try:
        raw = read_bytes(path, max_bytes=MAX_DATA_BYTES)
    except FileRefusedError as exc:
        raise LongMemEvalDataError(
            f"{exc}; give the path of a file in LongMemEval's published format ({WHERE_TO_GET})"
        ) from None
    text = raw.removeprefix(_BOM).decode("utf-8", errors="replace")
    del raw
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:  # the official scripts read JSON Lines too
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except ValueError:
        raise _fail(path, "the file", "is neither JSON nor JSON Lines") from None


def load_longmemeval(path: str | Path) -> list[Question]:
    """Every question of a LongMemEval file; one clear error, naming the question and the
    field, for a file that is not one."""
    path = Path(path).expanduser()
    if not os.path.lexists(path):
        raise LongMemEvalDataMissingError(
            f"LongMemEval data file {path} does not exist; {WHERE_TO_GET} and give its path "
            "as the task's 'data' (or, without the data, write synthetic data in its format "
            f"there: python -m cogarch.tasks.longmemeval.write_synthetic {path})"
        )
    data = _read(path)
    if isinstance(data, dict):  # a JSON Lines file of one question
        data = [data]
    if not isinstance(data, list) or not data:
        raise _fail(path, "the file", "is not a non-empty list of questions")
    questions = [_question(path, i, raw) for i, raw in enumerate(data)]
    seen: set[str] = set()
    for q in questions:
        if q.question_id in seen:
            raise _fail(path, "the file", f"repeats question_id {q.question_id!r}")
        seen.add(q.question_id)
    return questions
