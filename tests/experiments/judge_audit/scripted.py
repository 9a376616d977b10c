"""Scripted judges whose errors are known, for LongMemEval's and LoCoMo's judge prompts, and a
small LongMemEval file whose audit items are worked out by hand in the tests."""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from pathlib import Path
from typing import Any

from cogarch.models.fakes import CallInfo

CALLS: list[str] = []
"""The answers the counting judge was asked about, in order."""
STOP_AFTER: list[int] = []
"""When set, the counting judge stops the run (``Stop``) on the call after this many."""


class Stop(BaseException):
    """An interruption in the middle of the audit (as Ctrl-C stops a run)."""


def _asked(prompt: str) -> tuple[str, str, bool]:
    """The gold answer, the answer judged, and whether the prompt is LoCoMo's (JSON label)."""
    found = re.search(
        r"(?:Correct Answer|Rubric|Explanation): (.*?)\n\nModel Response: (.*?)\n\n(?:Is|Does)",
        prompt,
        re.S,
    )
    if found is not None:
        return found[1], found[2], False
    found = re.search(
        r"Gold answer: (.*?)\nGenerated answer: (.*?)\n\nAnswer with JSON", prompt, re.S
    )
    assert found is not None, prompt
    return found[1], found[2], True


def _reply(accepted: bool, labelled: bool) -> str:
    if labelled:
        return json.dumps({"label": "CORRECT" if accepted else "WRONG"})
    return "Yes." if accepted else "No."


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def shares_a_word(gold: str, answer: str) -> bool:
    return bool(words(gold) & words(answer))


def overlap(pairs: list[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    """Accepts any answer that shares a word with the gold answer."""
    gold, answer, labelled = _asked(pairs[-1][1])
    return _reply(shares_a_word(gold, answer), labelled)


def exact(pairs: list[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    """Accepts only the gold answer itself."""
    gold, answer, labelled = _asked(pairs[-1][1])
    return _reply(answer.strip() == gold.strip(), labelled)


def contains(pairs: list[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    """Accepts an answer that holds the gold answer, case aside."""
    gold, answer, labelled = _asked(pairs[-1][1])
    return _reply(gold.strip().lower() in answer.lower(), labelled)


def counting(pairs: list[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    """The overlap judge, counting the calls made to it during the audit (the run's own judge
    calls are made before: they say "Model Response" too, so the tests reset after trials)."""
    _, answer, _ = _asked(pairs[-1][1])
    if STOP_AFTER and len(CALLS) >= STOP_AFTER[0]:
        raise Stop
    CALLS.append(answer)
    return overlap(pairs, seed, call)


def session(sid: str, date: str, turns: list[tuple[str, str, bool]]) -> dict[str, Any]:
    return {
        "id": sid,
        "date": date,
        "turns": [{"role": r, "content": c, "has_answer": h} for r, c, h in turns],
    }


FILLER = session(
    "sharegpt_filler",
    "2023/03/01 (Wed) 09:00",
    [
        ("user", "Can you suggest a recipe with rice?", False),
        ("assistant", "Sure, try this.", False),
    ],
)


def question(
    qid: str, qtype: str, question: str, answer: Any, evidence: list[dict[str, Any]]
) -> dict[str, Any]:
    sessions = [FILLER, *evidence]
    return {
        "question_id": qid,
        "question_type": qtype,
        "question": question,
        "answer": answer,
        "question_date": "2023/06/30 (Fri) 10:00",
        "haystack_session_ids": [s["id"] for s in sessions],
        "haystack_dates": [s["date"] for s in sessions],
        "haystack_sessions": [s["turns"] for s in sessions],
        "answer_session_ids": [s["id"] for s in evidence],
    }


def said(sid: str, text: str, date: str = "2023/04/02 (Sun) 10:00") -> dict[str, Any]:
    return session(sid, date, [("user", text, True), ("assistant", "Noted, thanks!", False)])


QUESTIONS = [
    question(
        "q_name",
        "single-session-user",
        "What did I name my parrot after the Lisbon trip?",
        "Pixel",
        [said("answer_1", "I named my parrot Pixel after our trip to Lisbon with Marco.")],
    ),
    question(
        "q_count",
        "multi-session",
        "How many vinyl records do I own?",
        42,
        [said("answer_2", "I own 42 vinyl records now.")],
    ),
    question(
        "q_update",
        "knowledge-update",
        "How many miles do I run each week now?",
        "25 miles",
        [
            said("answer_3a", "I run 18 miles each week.", "2023/02/01 (Wed) 08:00"),
            said("answer_3b", "I now run 25 miles each week.", "2023/05/01 (Mon) 08:00"),
        ],
    ),
    question(
        "q_days",
        "temporal-reasoning",
        "How many days passed between my two dentist visits?",
        "12 days",
        [said("answer_4", "I saw the dentist on May 2 and again on May 14.")],
    ),
    question(
        "q_yes",
        "single-session-user",
        "Did I enjoy the pottery class?",
        "Yes",
        [said("answer_5", "I really enjoyed the pottery class.")],
    ),
    question(
        "q_date",
        "single-session-user",
        "When did I move to Oslo?",
        "7 May 2023",
        [said("answer_6", "I moved to Oslo on 7 May 2023.")],
    ),
    question(
        "q_list",
        "multi-session",
        "Which instruments do I play?",
        "the violin and the piano",
        [said("answer_7", "I play the violin and the piano.")],
    ),
    question(
        "q_day",
        "single-session-user",
        "On which day do I have choir practice?",
        "Thursday",
        [said("answer_8", "My choir practice is every Thursday.")],
    ),
    question(
        "q9_abs",
        "single-session-user",
        "What did I name my cousin's parrot?",
        "The user never mentioned their cousin's parrot",
        [said("answer_9", "I named my parrot Pixel.")],
    ),
    question(
        "q_pref",
        "single-session-preference",
        "Can you suggest a dinner for tonight?",
        "The user would prefer Peruvian dishes",
        [said("answer_10", "My favourite cuisine is Peruvian.")],
    ),
]


def write_questions(path: Path) -> Path:
    path.write_text(json.dumps(QUESTIONS), encoding="utf-8")
    return path


def coin(answer: str) -> bool:
    """A verdict no rule of the audit could guess: the first bit of the answer's hash."""
    return hashlib.sha256(answer.encode()).digest()[0] % 2 == 0


def hashed(pairs: list[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    """Accepts the answers whose hash starts with an even byte, right or wrong."""
    _, answer, labelled = _asked(pairs[-1][1])
    return _reply(coin(answer), labelled)


CALLS_FILE_ENV = "COGARCH_TEST_AUDIT_CALLS"
"""Where the slow judge writes a line per call (a run in another process)."""


def slow_counting(pairs: list[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    """The overlap judge, a line per call in the file :data:`CALLS_FILE_ENV` names, slowly
    (so that a test can kill its process part-way through an audit)."""
    _, answer, _ = _asked(pairs[-1][1])
    with open(os.environ[CALLS_FILE_ENV], "a", encoding="utf-8") as calls:
        calls.write(answer.replace("\n", " ") + "\n")
    time.sleep(0.05)
    return overlap(pairs, seed, call)
