"""Knowledge-update families: a value of a person that changes once or twice (a job, a
town, a car's colour). The latest value is asked, or (a quarter of the time) the one before
it. Only the turns of the chain state the value; the hard negatives mention the person
without any value of that kind, so no other turn states a different current answer."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from .families import COLOURS, Draw, _one, _q
from .plan import PlannedQuestion, Statement
from .words import JOBS, a


def _update(
    d: Draw,
    family: str,
    kind: str,
    attribute: str,
    values: list[str],
    first: Callable[[str, str, str], str],
    later: Callable[[str, str, str], str],
    now_q: str,
    before_q: Callable[[str], str],
    distractors: tuple[str, ...],
    rel: str,
    name: str,
) -> PlannedQuestion | None:
    texts = [Statement(first(rel, name, values[0]), ((name, attribute, values[0]),))]
    for old, new in itertools.pairwise(values):
        texts.append(Statement(later(name, old, new), ((name, attribute, new),)))
    earlier = d.rng.random() < 0.25
    if earlier:
        answer, question = values[-2], before_q(values[-1])
    else:
        answer, question = values[-1], now_q
    q = _q(
        d,
        "update",
        family,
        kind,
        question,
        answer,
        check="value",
        distractors=distractors,
        subject=name,
        attribute=attribute,
    )
    placed = _one(d, q, texts)
    if placed is not None:
        says = re.compile(rf"\b{re.escape(answer)}\b")
        placed.placed = [
            (s, j, Statement(st.text, st.states, bool(says.search(st.text))))
            for s, j, st in placed.placed
        ]
    return placed


def job_change(d: Draw) -> PlannedQuestion | None:
    rel, name = d.person()
    jobs = d.others(JOBS, set(), d.rng.choice((2, 2, 3)))
    return _update(
        d,
        "job_change",
        "job",
        "job",
        jobs,
        lambda r, n, v: f"My {r} {n} works as {a(v)}, long shifts but good pay.",
        lambda n, o, v: d.pick(
            (
                f"Big news: my {rel} {n} quit being {a(o)} and is now {a(v)}.",
                f"My {rel} {n} changed careers: no longer {a(o)}, now {a(v)}.",
            )
        ),
        f"What is my {rel} {name}'s job now?",
        lambda v: f"What was my {rel} {name}'s job before becoming {a(v)}?",
        (
            f"{name} has been working long hours lately.",
            f"{name} complained about a difficult customer today.",
        ),
        rel,
        name,
    )


def town_move(d: Draw) -> PlannedQuestion | None:
    rel, name = d.person()
    towns = [d.names.town() for _ in range(d.rng.choice((2, 2, 3)))]
    return _update(
        d,
        "town_move",
        "town",
        "town",
        towns,
        lambda r, n, v: f"My {r} {n} lives in {v} and likes the quiet there.",
        lambda n, o, v: d.pick(
            (
                f"My {rel} {n} moved out of {o} and lives in {v} now.",
                f"Update on my {rel} {n}: no longer in {o}, just moved to {v}.",
            )
        ),
        f"Which town does my {rel} {name} live in now?",
        lambda v: f"Which town did my {rel} {name} live in before moving to {v}?",
        (
            f"{name} is thinking about repainting the kitchen.",
            f"{name} says the neighbours are noisy but kind.",
        ),
        rel,
        name,
    )


def car_colour(d: Draw) -> PlannedQuestion | None:
    rel, name = d.person()
    colours = d.others(COLOURS, set(), d.rng.choice((2, 2, 3)))
    return _update(
        d,
        "car_colour",
        "colour",
        "car",
        colours,
        lambda r, n, v: f"My {r} {n} drives {a(v)} car that is always spotless.",
        lambda n, o, v: d.pick(
            (
                f"My {rel} {n} sold the {o} car and bought a new {v} car.",
                f"My {rel} {n} got rid of the {o} car; the new car is {v}.",
            )
        ),
        f"What colour is my {rel} {name}'s car now?",
        lambda v: f"What colour was my {rel} {name}'s car before the {v} one?",
        (
            f"{name} spent the whole morning at the car wash.",
            f"{name} is looking for a cheaper garage.",
        ),
        rel,
        name,
    )
