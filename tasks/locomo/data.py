"""Reading LoCoMo's published JSON format and choosing what a run plays.

A file is a list of samples; each has a ``sample_id``, a ``conversation`` (``speaker_a``,
``speaker_b``, turns under ``session_<n>`` with ``speaker``, ``dia_id``, ``text`` and an
optional ``blip_caption``, the date under ``session_<n>_date_time``) and ``qa`` (``question``,
``answer`` or ``adversarial_answer``, ``evidence`` dialog ids, ``category`` 1-5). Other keys
(observations, summaries) are ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cogarch.errors import ConfigError, MissingDataError
from cogarch.files import MAX_STATE_BYTES, FileRefusedError, read_json

_SESSION = re.compile(r"session_(\d+)")
SESSION_DATE = "%I:%M %p on %d %B, %Y"
"""How LoCoMo writes a session's date and time: '1:14 pm on 25 May, 2023'."""


class LocomoDataError(ConfigError):
    """A LoCoMo file that cannot be read, or a selection it cannot satisfy."""


class LocomoDataMissingError(LocomoDataError, MissingDataError):
    """The LoCoMo file the config names does not exist (it is downloaded by the user)."""


@dataclass(frozen=True)
class DialogTurn:
    dia_id: str
    speaker: str
    text: str
    session: int
    date: str
    time: str
    """The session's date and time as ISO 8601, the turn's time for a memory module."""
    caption: str | None = None

    def line(self) -> str:
        """The turn as memory ingests it: its date, speaker, words and any shared photo."""
        shared = f" [shares a photo: {self.caption}]" if self.caption else ""
        return f"[{self.date}] {self.speaker}: {self.text}{shared}"


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    sessions: dict[int, list[DialogTurn]]
    """Turns by session number, sessions in order."""
    qa: list[dict[str, Any]]

    def turns(self) -> list[DialogTurn]:
        return [t for n in sorted(self.sessions) for t in self.sessions[n]]

    def item_digest(self) -> str:
        """A hash of the whole conversation as played: speakers, turns and questions (a trial
        drawn from it is played again when any of them changes)."""
        sessions = {str(n): [asdict(t) for t in turns] for n, turns in self.sessions.items()}
        blob = json.dumps(
            [self.sample_id, list(self.speakers), sessions, self.qa],
            sort_keys=True,
            ensure_ascii=False,
            default=str,
        )
        return hashlib.sha256(blob.encode()).hexdigest()


def _fail(path: Path, where: str, problem: str) -> LocomoDataError:
    return LocomoDataError(
        f"{path}: {where} {problem}; give a file in LoCoMo's published format "
        "(data/locomo10.json of snap-research/LoCoMo)"
    )


def _need(path: Path, where: str, data: Any, key: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise _fail(path, where, f"has no '{key}'")
    if not isinstance(data[key], kind):
        raise _fail(path, where, f"has a '{key}' that is not {getattr(kind, '__name__', kind)}")
    return data[key]


def _session(path: Path, sample: str, conv: dict[str, Any], n: int) -> list[DialogTurn]:
    where = f"sample '{sample}' session_{n}"
    date = _need(path, f"sample '{sample}'", conv, f"session_{n}_date_time", str)
    try:
        time = datetime.strptime(date.strip(), SESSION_DATE).isoformat()
    except ValueError:
        raise _fail(
            path,
            f"sample '{sample}'",
            f"has a session_{n}_date_time {date!r} that is not like '1:14 pm on 25 May, 2023'",
        ) from None
    turns = []
    for i, raw in enumerate(_need(path, f"sample '{sample}'", conv, f"session_{n}", list)):
        at = f"{where} turn {i + 1}"
        caption = raw.get("blip_caption") if isinstance(raw, dict) else None
        turns.append(
            DialogTurn(
                dia_id=_need(path, at, raw, "dia_id", str),
                speaker=_need(path, at, raw, "speaker", str),
                text=_need(path, at, raw, "text", str),
                session=n,
                date=date,
                time=time,
                caption=caption if isinstance(caption, str) and caption.strip() else None,
            )
        )
    return turns


def _question(path: Path, sample: str, i: int, raw: Any) -> dict[str, Any]:
    where = f"sample '{sample}' question {i + 1}"
    _need(path, where, raw, "question", str)
    category = _need(path, where, raw, "category", int)
    if category not in range(1, 6):
        raise _fail(path, where, f"has category {category} (LoCoMo's are 1-5)")
    if "answer" not in raw and "adversarial_answer" not in raw:
        raise _fail(path, where, "has neither 'answer' nor 'adversarial_answer'")
    evidence = raw.get("evidence", [])
    if not isinstance(evidence, list) or not all(isinstance(e, str) for e in evidence):
        raise _fail(path, where, "has an 'evidence' that is not a list of dialog ids")
    return dict(raw)


def _conversation(path: Path, i: int, raw: Any) -> Conversation:
    sample = _need(path, f"sample {i + 1}", raw, "sample_id", str)
    conv = _need(path, f"sample '{sample}'", raw, "conversation", dict)
    speakers = (
        _need(path, f"sample '{sample}'", conv, "speaker_a", str),
        _need(path, f"sample '{sample}'", conv, "speaker_b", str),
    )
    numbers = sorted(int(m.group(1)) for k in conv if (m := _SESSION.fullmatch(k)))
    if not numbers:
        raise _fail(path, f"sample '{sample}'", "has no 'session_<n>' turns")
    sessions = {n: _session(path, sample, conv, n) for n in numbers}
    qa = [_question(path, sample, j, q) for j, q in enumerate(_need(path, sample, raw, "qa", list))]
    return Conversation(sample, speakers, sessions, qa)


def load_locomo(path: str | Path) -> list[Conversation]:
    """Every conversation of a LoCoMo file; one clear error for a file that is not one (or
    that repeats a sample id)."""
    path = Path(path).expanduser()
    if not os.path.lexists(path):
        raise LocomoDataMissingError(
            f"LoCoMo data file {path} does not exist; download data/locomo10.json from "
            "https://github.com/snap-research/LoCoMo and give its path as the task's 'data'"
        )
    try:
        data = read_json(path, max_bytes=MAX_STATE_BYTES)
    except FileRefusedError as exc:
        raise LocomoDataError(
            f"{exc}; give the path of a file in LoCoMo's published format "
            "(data/locomo10.json of snap-research/LoCoMo)"
        ) from None
    if not isinstance(data, list) or not data:
        raise _fail(path, "the file", "is not a non-empty list of samples")
    conversations = [_conversation(path, i, raw) for i, raw in enumerate(data)]
    seen = Counter(c.sample_id for c in conversations)
    repeated = sorted(s for s, n in seen.items() if n > 1)
    if repeated:
        raise _fail(path, "the file", f"repeats sample_id {', '.join(map(repr, repeated))}")
    return conversations


def id_problems(conv: Conversation) -> list[str]:
    """What is wrong with the dialog ids of ``conv``: ids two turns share, and evidence ids
    of its questions that name no turn (LoCoMo's recall cannot count them)."""
    ids = Counter(t.dia_id for t in conv.turns())
    problems = [f"dialog id {d!r} names {n} turns" for d, n in sorted(ids.items()) if n > 1]
    missing = sorted({e for q in conv.qa for e in evidence_ids(q)} - set(ids))
    if missing:
        listed = ", ".join(map(repr, missing[:10])) + (" ..." if len(missing) > 10 else "")
        problems.append(f"{len(missing)} evidence id(s) name no turn: {listed}")
    return [f"sample '{conv.sample_id}': {p}" for p in problems]


def select_conversations(
    conversations: Sequence[Conversation], sample_ids: Collection[str] | None
) -> list[Conversation]:
    """The conversations named (file order kept), or all of them."""
    if not sample_ids:
        return list(conversations)
    known = {c.sample_id for c in conversations}
    missing = [s for s in sample_ids if s not in known]
    if missing:
        raise LocomoDataError(
            f"the data file has no conversation {', '.join(missing)}; its samples are "
            f"{', '.join(sorted(known))}"
        )
    return [c for c in conversations if c.sample_id in sample_ids]


def select_sessions(conv: Conversation, sessions: Collection[int] | None) -> Conversation:
    """The conversation cut to the sessions named (all when none are); only the questions
    whose evidence lies entirely in those sessions stay (with a cut, questions without
    evidence go, since nothing says where their answer lies)."""
    if not sessions:
        return conv
    missing = sorted(set(sessions) - set(conv.sessions))
    if missing:
        raise LocomoDataError(
            f"conversation '{conv.sample_id}' has no session {', '.join(map(str, missing))}; "
            f"its sessions are 1-{max(conv.sessions)}"
        )
    kept = {n: t for n, t in conv.sessions.items() if n in sessions}
    ids = {t.dia_id for turns in kept.values() for t in turns}
    qa = [q for q in conv.qa if q.get("evidence") and evidence_ids(q) <= ids]
    return Conversation(conv.sample_id, conv.speakers, kept, qa)


def evidence_ids(qa: dict[str, Any]) -> set[str]:
    """Evidence ids, with the file's few ``"D8:6; D9:17"`` entries split into their ids."""
    return {part.strip() for e in qa.get("evidence", []) for part in e.split(";") if part.strip()}


def select_questions(qa: Sequence[dict[str, Any]], categories: Collection[int] | None) -> list:
    """The questions of the categories named (all when none are), file order kept."""
    return [q for q in qa if not categories or q["category"] in categories]
