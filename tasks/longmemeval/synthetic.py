"""Small files in LongMemEval's published format, for tests, benchmarks and the fakes config.

LongMemEval's data is downloaded by the user; tests and benchmarks need files of its shape:
questions of every type (and abstention ones), each with a haystack of dated sessions of
user/assistant turns, the evidence turns marked ``has_answer``. Filler sessions come from a
shared pool, as the published haystacks share sessions, so a run over several questions
embeds some turns more than once unless it caches them. The same arguments give the same
file.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from .data import DATE_FORMAT, QUESTION_TYPES

_FACTS: list[tuple[str, str, str]] = [
    ("I just adopted a {color} {pet} and named it {name}.", "What did I name my {pet}?", "{name}"),
    (
        "I have been collecting vinyl records, I own {n} of them now.",
        "How many vinyl records do I own?",
        "{n}",
    ),
    (
        "My sister moved to {place} last month for her new job.",
        "Where did my sister move to?",
        "{place}",
    ),
    (
        "I started taking {hobby} classes every Tuesday evening.",
        "What classes did I start taking?",
        "{hobby}",
    ),
    (
        "My favourite cuisine is {cuisine}, I cook it every weekend.",
        "What is my favourite cuisine?",
        "{cuisine}",
    ),
    (
        "I ran my first marathon in {place} in {n} minutes.",
        "How long did my marathon in {place} take in minutes?",
        "{n}",
    ),
]
_WORDS = {
    "color": ["teal", "golden", "grey", "violet", "amber"],
    "pet": ["parrot", "rabbit", "turtle", "hamster", "kitten"],
    "name": ["Pixel", "Biscuit", "Nova", "Pepper", "Ziggy", "Mochi"],
    "place": ["Lisbon", "Denver", "Kyoto", "Oslo", "Cusco", "Tallinn"],
    "hobby": ["pottery", "salsa", "fencing", "calligraphy", "archery"],
    "cuisine": ["Ethiopian", "Peruvian", "Georgian", "Malaysian", "Lebanese"],
    "n": [str(n) for n in range(17, 240)],
}
_FILLER_USER = [
    "Can you suggest a quick recipe for dinner tonight with rice and beans?",
    "What are some tips for keeping houseplants alive during winter?",
    "Could you explain how compound interest works in simple terms?",
    "I need ideas for a birthday gift for a coworker who likes hiking.",
    "How do I fix a squeaky door hinge without special tools?",
    "What is a good stretching routine after a long day at the desk?",
]
_FILLER_ASSISTANT = [
    "Sure! Here are a few ideas you could try, starting with the simplest one.",
    "Great question. The short answer is that it depends, but here is a rule of thumb.",
    "Happy to help. Many people find that a small routine works best over time.",
]


def _date(day: datetime) -> str:
    return day.strftime(DATE_FORMAT)


_PADDING = (
    "also",
    "maybe",
    "later",
    "weekend",
    "garden",
    "coffee",
    "trip",
    "budget",
    "plan",
    "music",
    "recipe",
    "weather",
    "train",
    "library",
    "project",
    "meeting",
    "email",
    "morning",
    "evening",
    "bicycle",
    "sauce",
    "window",
    "paint",
    "tickets",
)


def _filler(rng: random.Random, turns: int, words: int = 0) -> list[dict[str, Any]]:
    """``turns`` alternating user/assistant turns; an assistant turn gets about four times
    ``words`` extra words, a user turn ``words``, as chat assistants answer at length."""
    out = []
    for i in range(turns):
        pool = _FILLER_USER if i % 2 == 0 else _FILLER_ASSISTANT
        extra = words if i % 2 == 0 else 4 * words
        text = " ".join([rng.choice(pool), *(rng.choice(_PADDING) for _ in range(extra))])
        out.append({"role": "user" if i % 2 == 0 else "assistant", "content": text})
    return out


def synthetic_longmemeval(
    questions_per_type: int = 1,
    *,
    sessions: int = 6,
    turns_per_session: int = 6,
    abstention: int = 1,
    pool: int = 40,
    turn_words: int = 0,
    shared_dates: bool = False,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """Questions of every type (``questions_per_type`` each, plus ``abstention`` ones), each
    with ``sessions`` sessions of ``turns_per_session`` turns: one evidence session (its
    first user turn states the fact asked about, marked ``has_answer``) among filler sessions
    drawn from a shared ``pool``, their turns padded with ``turn_words`` words (user) and four
    times that (assistant): 50 sessions of 10 turns with ``turn_words=45`` are about the
    115k tokens of an S haystack. With ``shared_dates`` a pool session has one date in every
    haystack that draws it (its dated turns are then the same text everywhere); otherwise
    each haystack dates its sessions anew. Answers that are counts are numbers, as in the data."""
    rng = random.Random(seed)
    start = datetime(2023, 3, 1, 9, 30)
    fillers = [
        (f"sharegpt_{rng.getrandbits(32):08x}_{i}", _filler(rng, turns_per_session, turn_words))
        for i in range(pool)
    ]
    pool_dates = {
        sid: start + timedelta(days=1 + i % 199, minutes=(i * 37) % 600)
        for i, (sid, _) in enumerate(fillers)
    }
    out: list[dict[str, Any]] = []
    kinds = [(t, False) for t in QUESTION_TYPES for _ in range(questions_per_type)]
    kinds += [(QUESTION_TYPES[(i * 3) % len(QUESTION_TYPES)], True) for i in range(abstention)]
    for n, (qtype, abstains) in enumerate(kinds):
        values = {k: rng.choice(v) for k, v in _WORDS.items()}
        said, asked, answer = rng.choice(_FACTS)
        fact = said.format(**values)
        question = asked.format(**values)
        gold: str | int = answer.format(**values)
        if isinstance(gold, str) and gold.isdigit():
            gold = int(gold)
        evidence_id = f"answer_{rng.getrandbits(32):08x}_{n}"
        evidence = _filler(rng, turns_per_session, turn_words)
        evidence[0] = {"role": "user", "content": fact, "has_answer": True}
        for turn in evidence[1:]:
            turn["has_answer"] = False
        chosen = rng.sample(fillers, min(sessions - 1, len(fillers)))
        place = rng.randrange(len(chosen) + 1)
        haystack = [*chosen[:place], (evidence_id, evidence), *chosen[place:]]
        if shared_dates:
            own = start + timedelta(days=rng.randrange(1, 200), minutes=rng.randrange(600))
            haystack.sort(key=lambda sd: pool_dates.get(sd[0], own))
            stamps = [pool_dates.get(sid, own) for sid, _ in haystack]
            dates = [_date(t) for t in stamps]
            days = [(stamps[-1] - start).days]
        else:
            days = sorted(rng.sample(range(1, 200), len(haystack)))
            dates = [_date(start + timedelta(days=d, minutes=rng.randrange(600))) for d in days]
        qid = f"{rng.getrandbits(32):08x}" + ("_abs" if abstains else "")
        if abstains:
            question = question.replace("my ", "my cousin's ", 1)
            gold = "The user never mentioned their cousin's " + question.split("cousin's ", 1)[
                -1
            ].rstrip("?")
        out.append(
            {
                "question_id": qid,
                "question_type": qtype,
                "question": question,
                "answer": gold,
                "question_date": _date(start + timedelta(days=days[-1] + 3, hours=2)),
                "haystack_session_ids": [s for s, _ in haystack],
                "haystack_dates": dates,
                "haystack_sessions": [turns for _, turns in haystack],
                "answer_session_ids": [evidence_id],
            }
        )
    return out
