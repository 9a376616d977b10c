"""Temporal families: when something happened (a session's date, or its month), what
happened on a given date (which of two trips with a person; naming both is wrong), which of
two trips with a person came first (both towns named), and how many days (2 to 9, same month
where the calendar allows) passed between two events. The user says "today", so an event's
date is its session's date (the days-between turns say the day too, "today, May 3")."""

from __future__ import annotations

from datetime import datetime

from cogarch.words import MONTHS

from .families import Draw, _one, _q, date_variants
from .plan import PlannedQuestion, Statement
from .words import SPECIES


def _event(d: Draw, asks: str) -> tuple[str, str, str, str]:
    """An event the user says happened today: its statement, the question ``asks`` ("On what
    date", "In which month") about it, the name it mentions, and a rival name."""
    species = d.pick(SPECIES)
    pet, rival = d.names.pet(), d.names.pet()
    rel, name = d.person()
    book = d.names.book()
    event, question, mention = d.pick(
        (
            (
                f"I adopted a {species} today and named it {pet}!",
                f"{asks} did I adopt my {species} {pet}?",
                pet,
            ),
            (
                f"Went to my {rel} {name}'s housewarming party today, lovely evening.",
                f"{asks} did I go to my {rel} {name}'s housewarming party?",
                name,
            ),
            (
                f"I finished reading {book} today, what an ending.",
                f"{asks} did I finish reading {book}?",
                book,
            ),
        )
    )
    return event, question, mention, rival


def event_date(d: Draw) -> PlannedQuestion | None:
    event, question, mention, rival = _event(d, "On what date")
    sessions = d.calendar.pick(1)
    if sessions is None:
        return None
    answer, variants = date_variants(d.calendar, sessions[0])
    return _dated(
        d, "event_date", "date", question, answer, variants, event, mention, rival, sessions
    )


def event_month(d: Draw) -> PlannedQuestion | None:
    """The month of an event: the session's month, named ("March"; "2023/03" also counts)."""
    event, question, mention, rival = _event(d, "In which month")
    sessions = d.calendar.pick(1)
    if sessions is None:
        return None
    when = d.calendar.times[sessions[0]]
    answer = MONTHS[when.month - 1].capitalize()
    variants = (answer, f"{when.year} {when.month}")
    return _dated(
        d, "event_month", "month", question, answer, variants, event, mention, rival, sessions
    )


def _dated(
    d: Draw,
    family: str,
    kind: str,
    question: str,
    answer: str,
    variants: tuple[str, ...],
    event: str,
    mention: str,
    rival: str,
    sessions: list[int],
) -> PlannedQuestion:
    q = _q(
        d,
        "temporal",
        family,
        kind,
        question,
        answer,
        variants=variants,
        check=kind,
        distractors=(
            f"I keep thinking about {mention}, it's been on my mind.",
            f"{rival} reminded me of {mention} for some reason.",
        ),
    )
    statement = Statement(event, ((mention, "date", answer),))
    q.placed = [(s, j, statement) for s, j in d.calendar.place(sessions)]
    return q


def first_trip(d: Draw) -> PlannedQuestion | None:
    rel, name = d.person()
    towns = [d.names.town(), d.names.town()]
    named = d.rng.sample(towns, 2)
    rival = d.names.town()
    texts = [
        Statement(
            d.pick(
                (
                    f"My {rel} {name} and I took a day trip to {t} today.",
                    f"Spent the day in {t} with {name}, my {rel}.",
                    f"{name} and I drove to {t} today, great food there.",
                )
            ),
            ((name, "trip", t),),
        )
        for t in towns
    ]
    q = _q(
        d,
        "temporal",
        "first_trip",
        "town",
        f"Which town did I visit first with my {rel} {name}, {named[0]} or {named[1]}?",
        towns[0],
        check="first",
        rivals=(rival, towns[1]),
        distractors=(
            f"{name} visited {rival} alone years ago and still talks about it.",
            f"{name} and I might go to {rival} one day, if we ever find the time.",
        ),
    )
    return _one(d, q, texts)


def trip_on_date(d: Draw) -> PlannedQuestion | None:
    """Two day trips with a person on different days; asked which town they visited on the
    date of one of them (the other town is a rival: naming both is wrong)."""
    rel, name = d.person()
    towns = [d.names.town(), d.names.town()]
    rival = d.names.town()
    for _ in range(10):
        sessions = d.calendar.pick(2)
        if sessions is None:
            return None
        first, second = (d.calendar.times[s].date() for s in sessions)
        if first != second:
            break
    else:
        return None
    asked = d.rng.randrange(2)
    answer, _ = date_variants(d.calendar, sessions[asked])
    texts = [
        Statement(
            d.pick(
                (
                    f"My {rel} {name} and I took a day trip to {t} today.",
                    f"Spent the day in {t} with {name}, my {rel}.",
                    f"{name} and I drove to {t} today, great food there.",
                )
            ),
            ((name, "trip", t),),
        )
        for t in towns
    ]
    q = _q(
        d,
        "temporal",
        "trip_on_date",
        "town",
        f"Which town did I visit with my {rel} {name} on {answer}?",
        towns[asked],
        check="on_date",
        rivals=(towns[1 - asked], rival),
        distractors=(
            f"{name} visited {rival} alone years ago and still talks about it.",
            f"{name} and I might go to {rival} one day, if we ever find the time.",
        ),
    )
    q.placed = [(s, j, st) for (s, j), st in zip(d.calendar.place(sessions), texts, strict=True)]
    return q


def _day(when: datetime) -> str:
    return f"{when:%B} {when.day}"


def days_between(d: Draw) -> PlannedQuestion | None:
    species = d.pick(SPECIES)
    pet = d.names.pet()
    sessions = d.calendar.pick(2, within_days=(2, 9))
    if sessions is None:
        return None
    first, second = (d.calendar.times[s] for s in sessions)
    texts = [
        Statement(
            f"I adopted a {species} today, {_day(first)}! I named it {pet}.",
            ((pet, "adopted", ""),),
        ),
        Statement(
            d.pick(
                (
                    f"Took {pet} to the vet for the first time today, {_day(second)}.",
                    f"{pet} had a first visit to the vet today, {_day(second)}, all healthy.",
                )
            ),
            ((pet, "vet", ""),),
        ),
    ]
    days = (second.date() - first.date()).days
    q = _q(
        d,
        "temporal",
        "days_between",
        "number",
        f"How many days passed between adopting {pet} and {pet}'s first visit to the vet?",
        str(days),
        check="days",
        distractors=(
            f"{pet} has a check-up booked at the vet sometime next season.",
            f"A friend asked how {pet} is settling in.",
        ),
    )
    q.placed = [(s, j, st) for (s, j), st in zip(d.calendar.place(sessions), texts, strict=True)]
    return q
