"""Synthetic data in LongMemEval's published format whose questions read like each type's.

This is not LongMemEval: it is a file of its shape for running the benchmark's configs where
the published data is not at hand (no network, or a check before downloading it). Unlike
``synthetic`` (one stated fact per question, whatever its type), each question type gets
questions of its kind, so that a judge audit and the controls have what real data gives them:

- ``single-session-user``: a place visited with a friend, a yes/no question, a count;
- ``single-session-assistant``: the author the assistant suggested;
- ``single-session-preference``: a request whose gold answer is a rubric;
- ``multi-session``: a total over two sessions, a count over three;
- ``temporal-reasoning``: days between two dated events, a weekday, a date;
- ``knowledge-update``: a count or a place stated, then updated in a later session.

The evidence turns name other people and places (a friend, a sister, a city not visited), as
conversations do, and a knowledge update keeps its older value in an earlier evidence
session. Filler sessions come from a shared pool and keep one date everywhere, as the
published haystacks share sessions; 50 sessions of 10 turns with ``turn_words=45`` are about
the 115k tokens of an S haystack. The same arguments give the same file.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .data import DATE_FORMAT, QUESTION_TYPES
from .synthetic import _filler

START = datetime(2023, 3, 1, 9, 30)
SPAN_DAYS = 200
PEOPLE = ("Marco", "Priya", "Elena", "Jonah", "Aisha", "Kenji", "Fatima", "Lukas", "Sofia")
PLACES = ("Lisbon", "Denver", "Kyoto", "Oslo", "Cusco", "Tallinn", "Porto", "Hanoi", "Quito")
AUTHORS = ("Saramago", "Murakami", "Allende", "Ishiguro", "Adichie", "Pamuk", "Atwood")
HOBBIES = ("pottery", "salsa", "fencing", "calligraphy", "archery", "climbing")
BRANDS = ("Patagonia", "Fjallraven", "Arcteryx", "Salomon", "Osprey")
PETS = ("parrot", "rabbit", "turtle", "hamster", "kitten")
PET_NAMES = ("Pixel", "Biscuit", "Nova", "Pepper", "Ziggy", "Mochi")
INSTRUMENTS = ("ukulele", "cello", "keyboard", "harmonica", "banjo", "violin")


@dataclass
class Evidence:
    """One evidence session: the turns that replace its filler's first ones (user first),
    the day it is dated (days after ``START``), and the turns that hold the answer."""

    day: int
    turns: list[str]
    answer_turns: tuple[int, ...] = (0,)


@dataclass
class Drafted:
    question: str
    answer: str | int
    evidence: list[Evidence] = field(default_factory=list)


def _days(rng: random.Random, count: int) -> list[int]:
    """``count`` distinct days in increasing order, leaving room for the question after."""
    return sorted(rng.sample(range(1, SPAN_DAYS - 10), count))


def _pick(rng: random.Random, pool: tuple[str, ...], count: int) -> list[str]:
    return rng.sample(pool, count)


def _user(rng: random.Random, variant: int) -> Drafted:
    p1, p2 = _pick(rng, PEOPLE, 2)
    place1, place2 = _pick(rng, PLACES, 2)
    (day,) = _days(rng, 1)
    if variant == 0:
        said = (
            f"My friend {p1} and I finally visited {place1} last weekend; my coworker {p2} "
            f"had recommended {place2} instead, but we skipped it."
        )
        return Drafted(
            f"Which city did I visit with my friend {p1}?", place1, [Evidence(day, [said])]
        )
    if variant == 1:
        said = (
            f"I finally went to {place1} with {p1} last spring, my first time there, "
            f"and {p2} joined us."
        )
        return Drafted(f"Have I ever been to {place1}?", "Yes", [Evidence(day, [said])])
    n = rng.randrange(17, 240)
    said = (
        f"I have been collecting vinyl records, I own {n} of them now; {p1} gave me the first one."
    )
    return Drafted("How many vinyl records do I own?", n, [Evidence(day, [said])])


def _assistant(rng: random.Random, variant: int) -> Drafted:
    (place,) = _pick(rng, PLACES, 1)
    author, other = _pick(rng, AUTHORS, 2)
    (day,) = _days(rng, 1)
    asked = f"Can you recommend a novel set in {place}? I read a lot on the train."
    told = (
        f"You could start with a novel by {author}, set in {place}, although {other} also "
        f"wrote about {place}; still, I would begin with {author}."
    )
    return Drafted(
        f"In our chat about novels set in {place}, which author did you suggest I start with?",
        author,
        [Evidence(day, [asked, told], answer_turns=(1,))],
    )


def _preference(rng: random.Random, variant: int) -> Drafted:
    (hobby,) = _pick(rng, HOBBIES, 1)
    (brand,) = _pick(rng, BRANDS, 1)
    (day,) = _days(rng, 1)
    said = f"I have been getting into {hobby}, and I only buy gear from {brand} because it lasts."
    rubric = (
        f"The user would prefer suggestions of {brand} gear suited to {hobby}, building on "
        f"what they already use. They might not prefer other brands or generic advice."
    )
    asked = f"Can you recommend some accessories for my {hobby}?"
    return Drafted(asked, rubric, [Evidence(day, [said])])


def _multi(rng: random.Random, variant: int) -> Drafted:
    if variant == 0:
        p1, p2 = _pick(rng, PEOPLE, 2)
        place1, place2 = _pick(rng, PLACES, 2)
        n1, n2 = rng.randrange(2, 9), rng.randrange(2, 9)
        d1, d2 = _days(rng, 2)
        return Drafted(
            "How many days did I spend hiking in total on my two hiking trips?",
            f"{n1 + n2} days",
            [
                Evidence(
                    d1, [f"I spent {n1} days hiking around {place1} with {p1}, it was muddy."]
                ),
                Evidence(
                    d2, [f"I just got back from {n2} days of hiking near {place2}; {p2} drove."]
                ),
            ],
        )
    bought = _pick(rng, INSTRUMENTS, 3)
    (friend,) = _pick(rng, PEOPLE, 1)
    days = _days(rng, 3)
    said = [
        f"I bought a {bought[0]} today, {friend} says it suits me.",
        f"Another purchase: a second-hand {bought[1]} from a shop downtown.",
        f"I could not resist, I bought a {bought[2]} as well.",
    ]
    return Drafted(
        "How many musical instruments have I bought?",
        3,
        [Evidence(d, [s]) for d, s in zip(days, said, strict=True)],
    )


def _when(day: int) -> datetime:
    return START + timedelta(days=day)


def _temporal(rng: random.Random, variant: int) -> Drafted:
    (hobby,) = _pick(rng, HOBBIES, 1)
    (place,) = _pick(rng, PLACES, 1)
    (friend,) = _pick(rng, PEOPLE, 1)
    if variant == 0:
        d1, d2 = _days(rng, 2)
        return Drafted(
            f"How many days passed between starting my {hobby} classes and my trip to {place}?",
            f"{d2 - d1} days",
            [
                Evidence(d1, [f"I started {hobby} classes today, {friend} signed up too!"]),
                Evidence(d2, [f"I am flying to {place} today with {friend}, so excited."]),
            ],
        )
    (day,) = _days(rng, 1)
    if variant == 1:
        return Drafted(
            f"What day of the week did I start my {hobby} classes?",
            _when(day).strftime("%A"),
            [Evidence(day, [f"I started my {hobby} classes today, {friend} came along."])],
        )
    (pet,) = _pick(rng, PETS, 1)
    (name,) = _pick(rng, PET_NAMES, 1)
    return Drafted(
        f"On what date did I adopt my {pet}?",
        f"{_when(day).day} {_when(day).strftime('%B %Y')}",
        [Evidence(day, [f"I adopted a {pet} today and named it {name}; {friend} helped."])],
    )


def _update(rng: random.Random, variant: int) -> Drafted:
    d1, d2 = _days(rng, 2)
    if variant == 0:
        old = rng.randrange(17, 120)
        new = old + rng.randrange(3, 40)
        return Drafted(
            "How many vinyl records do I own now?",
            new,
            [
                Evidence(d1, [f"I have been collecting vinyl records, I own {old} of them now."]),
                Evidence(d2, [f"After the record fair I now own {new} vinyl records."]),
            ],
        )
    (sister,) = _pick(rng, PEOPLE, 1)
    place1, place2 = _pick(rng, PLACES, 2)
    return Drafted(
        f"Where does my sister {sister} live now?",
        place2,
        [
            Evidence(d1, [f"My sister {sister} lives in {place1}, I visit her every summer."]),
            Evidence(
                d2,
                [f"Big news: my sister {sister} moved from {place1} to {place2} for her new job."],
            ),
        ],
    )


_VARIANTS: dict[str, tuple[Callable[[random.Random, int], Drafted], int]] = {
    "single-session-user": (_user, 3),
    "single-session-assistant": (_assistant, 1),
    "single-session-preference": (_preference, 1),
    "multi-session": (_multi, 2),
    "temporal-reasoning": (_temporal, 3),
    "knowledge-update": (_update, 2),
}


def _abstained(rng: random.Random, n: int) -> Drafted:
    """A question about something the user never mentioned, on a session that mentions a
    neighbouring fact."""
    (friend,) = _pick(rng, PEOPLE, 1)
    (day,) = _days(rng, 1)
    count = rng.randrange(17, 240)
    return Drafted(
        "How many vinyl records does my cousin own?",
        "The information provided is not enough: you never mentioned how many vinyl records "
        "your cousin owns.",
        [Evidence(day, [f"I own {count} vinyl records now; {friend} gave me the first one."])],
    )


def typed_longmemeval(
    questions_per_type: int = 1,
    *,
    sessions: int = 50,
    turns_per_session: int = 10,
    turn_words: int = 45,
    abstention: int = 1,
    pool: int = 300,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """``questions_per_type`` questions of every type (each type's variants in turn) and
    ``abstention`` abstention ones, each with a haystack of ``sessions`` sessions of
    ``turns_per_session`` turns: its evidence sessions among filler sessions of a shared
    ``pool``, every turn padded with ``turn_words`` words (four times that for the
    assistant's), in date order. The defaults give S-sized haystacks (about 115k tokens)."""
    if turns_per_session < 2:
        raise ValueError(
            f"turns_per_session is {turns_per_session}; a session needs at least 2 turns "
            "(a question and the assistant's answer): pass 2 or more"
        )
    rng = random.Random(seed)
    fillers = [
        (f"sharegpt_{rng.getrandbits(32):08x}_{i}", _filler(rng, turns_per_session, turn_words))
        for i in range(pool)
    ]
    pool_days = {sid: 1 + (i * 7919) % (SPAN_DAYS - 1) for i, (sid, _) in enumerate(fillers)}
    drafts: list[tuple[str, bool, Drafted]] = []
    for qtype in QUESTION_TYPES:
        make, variants = _VARIANTS[qtype]
        for i in range(questions_per_type):
            drafts.append((qtype, False, make(rng, i % variants)))
    for i in range(abstention):
        qtype = QUESTION_TYPES[(i * 3) % len(QUESTION_TYPES)]
        drafts.append((qtype, True, _abstained(rng, i)))
    out = []
    for n, (qtype, abstains, drafted) in enumerate(drafts):
        own: list[tuple[str, int, list[dict[str, Any]]]] = []
        for k, ev in enumerate(drafted.evidence):
            turns = _filler(rng, turns_per_session, turn_words)
            for i, text in enumerate(ev.turns):
                turns[i] = {"role": turns[i]["role"], "content": text}
            for i, turn in enumerate(turns):
                turn["has_answer"] = i in ev.answer_turns
            own.append((f"answer_{rng.getrandbits(32):08x}_{n}_{k}", ev.day, turns))
        room = max(0, min(sessions - len(own), len(fillers)))
        chosen = [(sid, pool_days[sid], turns) for sid, turns in rng.sample(fillers, room)]
        minutes = {sid: (sum(map(ord, sid)) * 37) % 600 for sid, _, _ in [*chosen, *own]}
        haystack = sorted([*chosen, *own], key=lambda s: (s[1], minutes[s[0]], s[0]))
        last = max(day for _, day, _ in haystack)
        qid = f"{rng.getrandbits(32):08x}" + ("_abs" if abstains else "")
        out.append(
            {
                "question_id": qid,
                "question_type": qtype,
                "question": drafted.question,
                "answer": drafted.answer,
                "question_date": (_when(last) + timedelta(days=3, hours=14)).strftime(DATE_FORMAT),
                "haystack_session_ids": [sid for sid, _, _ in haystack],
                "haystack_dates": [
                    (_when(day) + timedelta(minutes=minutes[sid])).strftime(DATE_FORMAT)
                    for sid, day, _ in haystack
                ],
                "haystack_sessions": [turns for _, _, turns in haystack],
                "answer_session_ids": [sid for sid, _, _ in own],
            }
        )
    return out
