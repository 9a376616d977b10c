"""The question families: each invents the entities of one question, writes the user turns
that state its facts (several templates each), places them on the calendar, and writes the
question, its answer with accepted variants, and hard negatives (turns about the same people
and the same kinds of value that state nothing the question asks).

Every entity is fresh to its question (names are never reused in a conversation), so facts
of different questions never interact: "my cousin Travel"'s job is stated only by the turns
of the question that asks it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from cogarch.words import MONTHS

from .plan import Calendar, PlannedQuestion, Statement
from .words import (
    ACTIVITIES,
    ACTIVITY_QUESTIONS,
    ITEMS,
    JOBS,
    RELATIONS,
    SPECIES,
    NamePool,
    a,
)

T = TypeVar("T")
COLOURS = ("red", "blue", "green", "silver", "black", "white", "yellow", "orange", "purple")
SUFFIX = {
    "job": "the job",
    "town": "the town",
    "name": "the name",
    "brand": "the brand",
    "number": "the number",
    "date": "the date",
    "colour": "the colour",
    "month": "the month",
}
"""What each kind of answer asks for; the question ends "Answer with <it> only, or with 'not
mentioned' if it never came up." (short answers score exactly)."""


@dataclass
class Draw:
    """What a family draws from: the question's random stream, the conversation's names and
    calendar, and the things no other question has bought yet."""

    rng: random.Random
    names: NamePool
    calendar: Calendar
    items: list[str] = field(default_factory=list)

    def pick(self, options: Sequence[T]) -> T:
        return self.rng.choice(options)

    def others(self, options: tuple[str, ...], but: set[str], n: int) -> list[str]:
        return self.rng.sample([o for o in options if o not in but], n)

    def person(self) -> tuple[str, str]:
        return self.pick(RELATIONS), self.names.person()


def date_variants(calendar: Calendar, session: int) -> tuple[str, tuple[str, ...]]:
    """A session's date as the answer ('March 14, 2023') and the spellings scoring accepts
    (after normalisation: month names, day-month orders, numeric forms)."""
    t = calendar.times[session]
    month = MONTHS[t.month - 1]
    answer = f"{month.capitalize()} {t.day}, {t.year}"
    return answer, (
        f"{month} {t.day} {t.year}",
        f"{t.day} {month} {t.year}",
        f"{t.year} {t.month} {t.day}",
        f"{t.month} {t.day} {t.year}",
        f"{month} {t.day}",
        f"{t.day} {month}",
    )


def _q(
    d: Draw,
    ability: str,
    family: str,
    kind: str,
    question: str,
    answer: str,
    *,
    check: str,
    variants: tuple[str, ...] | None = None,
    rivals: tuple[str, ...] = (),
    distractors: tuple[str, ...] = (),
    subject: str = "",
    attribute: str = "",
) -> PlannedQuestion:
    return PlannedQuestion(
        qid="",
        ability=ability,
        family=family,
        question=f"{question} Answer with {SUFFIX[kind]} only, or with 'not mentioned' if it "
        "never came up.",
        answer=answer,
        variants=(answer,) if variants is None else variants,
        check=check,
        rivals=rivals,
        distractors=distractors,
        subject=subject,
        attribute=attribute,
    )


def _one(
    d: Draw, q: PlannedQuestion, texts: list[Statement], within: tuple[int, int] | None = None
) -> PlannedQuestion | None:
    sessions = d.calendar.pick(len(texts), within_days=within)
    if sessions is None:
        return None
    q.placed = [(s, j, st) for (s, j), st in zip(d.calendar.place(sessions), texts, strict=True)]
    return q


# -- extraction --------------------------------------------------------------------------------
def person_job(d: Draw) -> PlannedQuestion | None:
    rel, name = d.person()
    job, *rivals = d.others(JOBS, set(), 3)
    said = d.pick(
        (
            f"My {rel} {name} started working as {a(job)} this spring and seems to love it.",
            f"Talked to my {rel} {name} today; {name} has been {a(job)} for years now.",
            f"Fun fact about my {rel} {name}: {name} works as {a(job)}.",
        )
    )
    q = _q(
        d,
        "extraction",
        "person_job",
        "job",
        d.pick((f"What does my {rel} {name} do for a living?", f"What is my {rel} {name}'s job?")),
        job,
        check="value",
        rivals=tuple(rivals),
        distractors=(
            f"{name}'s roommate is {a(rivals[0])}, and they argue about work schedules.",
            f"My {rel} {name} once thought about training as {a(rivals[1])} but never did.",
            f"I met {a(rivals[0])} at {name}'s party last weekend.",
        ),
    )
    return _one(d, q, [Statement(said, ((name, "job", job),))])


def person_town(d: Draw) -> PlannedQuestion | None:
    rel, name = d.person()
    town, r1, r2 = d.names.town(), d.names.town(), d.names.town()
    said = d.pick(
        (
            f"My {rel} {name} lives in {town}, so we mostly talk on the phone.",
            f"My {rel} {name} has a flat in {town} now, close to the river.",
            f"{name}, my {rel}, lives over in {town}.",
        )
    )
    q = _q(
        d,
        "extraction",
        "person_town",
        "town",
        d.pick((f"Which town does my {rel} {name} live in?", f"Where does my {rel} {name} live?")),
        town,
        check="value",
        rivals=(r1, r2),
        distractors=(
            f"{name} drove through {r1} on the way to a wedding.",
            f"My {rel} {name} keeps saying {r2} would be a nice place to retire someday.",
            f"{name} went to a concert in {r1} with some friends.",
        ),
    )
    return _one(d, q, [Statement(said, ((name, "town", town),))])


def person_pet(d: Draw) -> PlannedQuestion | None:
    rel, name = d.person()
    species = d.pick(SPECIES)
    pet, r1, r2 = d.names.pet(), d.names.pet(), d.names.pet()
    said = d.pick(
        (
            f"My {rel} {name} has a {species} called {pet}, the sweetest thing.",
            f"My {rel} {name} just got a {species} and named it {pet}.",
            f"{name}, my {rel}, sent me photos of {name}'s {species}, {pet}.",
        )
    )
    q = _q(
        d,
        "extraction",
        "person_pet",
        "name",
        f"What is the name of my {rel} {name}'s {species}?",
        pet,
        check="value",
        rivals=(r1, r2),
        distractors=(
            f"{name}'s neighbour has a {species} called {r1} that barks all night.",
            f"{name} was pet-sitting a {species} named {r2} last week.",
        ),
    )
    return _one(d, q, [Statement(said, ((name, "pet", pet),))])


def person_brand(d: Draw) -> PlannedQuestion | None:
    rel, name = d.person()
    item = d.pick(ITEMS)
    brand, r1 = d.names.brand(), d.names.brand()
    said = d.pick(
        (
            f"My {rel} {name} bought a {brand} {item} last week and won't stop talking about it.",
            f"My {rel} {name} finally replaced the old {item} with a new {brand} {item}.",
        )
    )
    q = _q(
        d,
        "extraction",
        "person_brand",
        "brand",
        f"What brand is the {item} my {rel} {name} bought?",
        brand,
        check="value",
        rivals=(r1,),
        distractors=(
            f"I saw a {r1} {item} in a shop window and thought of {name}.",
            f"{name} nearly bought a {r1} {item} but the shop was out of stock.",
        ),
    )
    return _one(d, q, [Statement(said, ((name, "brand", brand),))])


def person_age(d: Draw) -> PlannedQuestion | None:
    rel, name = d.person()
    age = d.rng.randint(19, 78)
    r = str(age + d.rng.choice((-7, -4, 3, 5, 9)))
    said = d.pick(
        (
            f"My {rel} {name} turned {age} this week, we had cake.",
            f"Hard to believe my {rel} {name} is {age} already.",
        )
    )
    q = _q(
        d,
        "extraction",
        "person_age",
        "number",
        f"How old is my {rel} {name}?",
        str(age),
        check="value",
        rivals=(r,),
        distractors=(
            f"{name}'s best friend is turning {r} next month.",
            f"{name} says {r} is the age to start running marathons.",
        ),
    )
    return _one(d, q, [Statement(said, ((name, "age", str(age)),))])


# -- multi-session -----------------------------------------------------------------------------
def activity_count(d: Draw) -> PlannedQuestion | None:
    rel, name = d.person()
    activity = d.pick(ACTIVITIES)
    k = d.rng.randint(2, 4)
    texts = [Statement(f"My {rel} {name} and I {activity} today, first time in ages.")]
    texts += [
        Statement(
            d.pick(
                (
                    f"My {rel} {name} and I {activity} again today.",
                    f"Just got back, my {rel} {name} and I {activity} this evening.",
                    f"Today my {rel} {name} and I {activity} again.",
                )
            )
        )
        for _ in range(k - 1)
    ]
    q = _q(
        d,
        "multi_session",
        "activity_count",
        "number",
        f"How many times have I {ACTIVITY_QUESTIONS[activity]} with my {rel} {name}?",
        str(k),
        check="count",
        distractors=(
            f"{name} {activity} with some colleagues today, without me.",
            f"Maybe {name} and I should try something new instead of the usual.",
        ),
    )
    return _one(d, q, texts)


def purchase_sum(d: Draw) -> PlannedQuestion | None:
    if len(d.items) < 2:
        return None
    first, second = d.items.pop(), d.items.pop()
    p1, p2 = d.rng.randrange(20, 400, 5), d.rng.randrange(20, 400, 5)
    rival = str(d.rng.randrange(20, 400, 5))
    _, other = d.person()
    texts = [
        Statement(f"I bought a {first} today for {p1} dollars.", (("user", first, str(p1)),)),
        Statement(
            d.pick(
                (
                    f"The new {second} cost me {p2} dollars.",
                    f"I finally got a {second}, it was {p2} dollars.",
                )
            ),
            (("user", second, str(p2)),),
        ),
    ]
    total = p1 + p2
    q = _q(
        d,
        "multi_session",
        "purchase_sum",
        "number",
        f"How much did I spend in total on the {first} and the {second}, in dollars?",
        str(total),
        check="sum",
        rivals=(rival,),
        distractors=(f"My friend {other} paid {rival} dollars for a {first}, which seems a lot.",),
    )
    return _one(d, q, texts)


def older_of_two(d: Draw) -> PlannedQuestion | None:
    """Two people's ages, said in different sessions; asked who is older (both named, in a
    random order; a reply naming both is wrong)."""
    (r1, n1), (r2, n2) = d.person(), d.person()
    a2 = d.rng.randint(20, 60)
    a1 = a2 + d.rng.randint(2, 15)
    texts = [
        Statement(f"My {r1} {n1} is {a1} years old now.", ((n1, "age", str(a1)),)),
        Statement(f"My {r2} {n2} just turned {a2}.", ((n2, "age", str(a2)),)),
    ]
    d.rng.shuffle(texts)
    first, second = d.rng.sample([f"my {r1} {n1}", f"my {r2} {n2}"], 2)
    q = _q(
        d,
        "multi_session",
        "older_of_two",
        "name",
        f"Who is older, {first} or {second}?",
        n1,
        check="older",
        rivals=(n2,),
        distractors=(f"{n1} and {n2} have never met, funnily enough.",),
    )
    return _one(d, q, texts)


def pet_via_town(d: Draw) -> PlannedQuestion | None:
    """A join over two sessions: where a person lives is said in one, the name of their pet
    in another (without the town); asked the pet's name by the town. The hard negatives name
    other pets near the person."""
    rel, name = d.person()
    town = d.names.town()
    species = d.pick(SPECIES)
    pet, r1, r2 = d.names.pet(), d.names.pet(), d.names.pet()
    texts = [
        Statement(
            d.pick(
                (
                    f"My {rel} {name} lives in {town} these days.",
                    f"{name}, my {rel}, has a flat in {town} now.",
                )
            ),
            ((name, "town", town),),
        ),
        Statement(
            d.pick(
                (
                    f"{name} has a {species} called {pet}, the sweetest thing.",
                    f"{name} just got a {species} and named it {pet}.",
                )
            ),
            ((name, "pet", pet),),
        ),
    ]
    d.rng.shuffle(texts)
    q = _q(
        d,
        "multi_session",
        "pet_via_town",
        "name",
        f"What is the name of the {species} of my {rel} who lives in {town}?",
        pet,
        check="join",
        rivals=(r1, r2),
        distractors=(
            f"{name}'s neighbour has a {species} called {r1} that barks all night.",
            f"{name} was pet-sitting a {species} named {r2} last week.",
        ),
    )
    return _one(d, q, texts)


def job_via_pet(d: Draw) -> PlannedQuestion | None:
    """A join over two sessions: a person's pet is said in one, their job in another; asked
    the job by the pet. The hard negatives name other jobs near the person."""
    rel, name = d.person()
    species = d.pick(SPECIES)
    pet = d.names.pet()
    job, *rivals = d.others(JOBS, set(), 3)
    texts = [
        Statement(f"My {rel} {name} has a {species} called {pet}.", ((name, "pet", pet),)),
        Statement(
            d.pick(
                (
                    f"{name} has been {a(job)} for years now.",
                    f"Fun fact about {name}: {name} works as {a(job)}.",
                )
            ),
            ((name, "job", job),),
        ),
    ]
    d.rng.shuffle(texts)
    q = _q(
        d,
        "multi_session",
        "job_via_pet",
        "job",
        f"What does the owner of the {species} {pet} do for a living?",
        job,
        check="join",
        rivals=tuple(rivals),
        distractors=(
            f"{name}'s roommate is {a(rivals[0])}, and they argue about work schedules.",
            f"{name} once thought about training as {a(rivals[1])} but never did.",
        ),
    )
    return _one(d, q, texts)


# -- abstention --------------------------------------------------------------------------------
def missing_attribute(d: Draw) -> PlannedQuestion | None:
    """A person the user mentions (where they live), asked about what was never said: their
    job, age or pet. The hard negatives put such values near the person's name."""
    rel, name = d.person()
    town = d.names.town()
    rival_job = d.pick(JOBS)
    rival_pet = d.names.pet()
    species = d.pick(SPECIES)
    asked = d.pick(("job", "age", "pet"))
    kind, question = {
        "job": ("job", f"What does my {rel} {name} do for a living?"),
        "age": ("number", f"How old is my {rel} {name}?"),
        "pet": ("name", f"What is the name of my {rel} {name}'s {species}?"),
    }[asked]
    q = _q(
        d,
        "abstention",
        "missing_attribute",
        kind,
        question,
        "not mentioned",
        variants=(),
        check="none",
        subject=name,
        attribute=asked,
        distractors=(
            f"{name}'s roommate is {a(rival_job)} and works nights.",
            f"{name} looked after a neighbour's {species} called {rival_pet} for a day.",
        ),
    )
    mention = Statement(
        f"My {rel} {name} lives in {town}; I should visit more often.",
        ((name, "town", town),),
        evidence=False,
    )
    return _one(d, q, [mention])
