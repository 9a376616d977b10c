"""Building a conversation's plan from the knobs: the calendar of sessions, then each
question drawn from a family of its ability (families taken in a shuffled cycle, so a mix
covers them all), its statements placed on the calendar. Every random choice comes from a
``random.Random`` seeded by text derived from the seed, so a plan is the same everywhere."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from cogarch.errors import ConfigError
from cogarch.tokens import count_tokens

from . import families, temporal, updates
from .chat import acknowledgement, filler
from .params import ABILITIES, GeneratorParams
from .plan import DATE_FORMAT, MAX_FACT_SHARE, Calendar, PlannedQuestion, capacity_error
from .words import ITEMS, NamePool

GENERATOR_VERSION = 2
"""Raised whenever the same knobs would give different text (a memory cache keys on it)."""
Family = Callable[[families.Draw], PlannedQuestion | None]
FAMILIES: dict[str, tuple[Family, ...]] = {
    "extraction": (
        families.person_job,
        families.person_town,
        families.person_pet,
        families.person_brand,
        families.person_age,
    ),
    "multi_session": (
        families.activity_count,
        families.pet_via_town,
        families.job_via_pet,
        families.purchase_sum,
        families.older_of_two,
    ),
    "update": (updates.job_change, updates.town_move, updates.car_colour),
    "temporal": (
        temporal.event_date,
        temporal.event_month,
        temporal.trip_on_date,
        temporal.first_trip,
        temporal.days_between,
    ),
    "abstention": (families.missing_attribute,),
}
"""Every family, by ability."""
ARITHMETIC = frozenset({"purchase_sum", "older_of_two", "first_trip", "days_between"})
"""The families whose answer takes arithmetic or a comparison over the evidence (a sum, two
ages, two dates): out of the default set, since a 1.5B reader misses most of them even with
the evidence in front of it (see the genmem guide); name them in ``families`` to ask them."""
DEFAULT_FAMILIES: tuple[str, ...] = tuple(
    f.__name__ for fams in FAMILIES.values() for f in fams if f.__name__ not in ARITHMETIC
)
"""The families asked when the knobs name none: each answered in one step from its evidence."""
FAMILY_NAMES: tuple[str, ...] = tuple(f.__name__ for fams in FAMILIES.values() for f in fams)


def chosen_families(params: GeneratorParams) -> dict[str, list[Family]]:
    """The families of each ability the knobs ask from (``families``, else the default set);
    a ConfigError names an unknown family or an ability left with none."""
    names = DEFAULT_FAMILIES if params.families is None else tuple(params.families)
    unknown = [n for n in names if n not in FAMILY_NAMES]
    if unknown:
        raise ConfigError(
            f"unknown genmem families {unknown}; choose among {list(FAMILY_NAMES)} (or leave "
            "families out for the default set)"
        )
    chosen: dict[str, list[Family]] = {
        a: [f for f in FAMILIES[a] if f.__name__ in names] for a in ABILITIES
    }
    empty = [a for a, n in params.counts().items() if n and not chosen[a]]
    if empty:
        raise ConfigError(
            f"families name none of ability {empty[0]}'s families "
            f"{[f.__name__ for f in FAMILIES[empty[0]]]}; add one, or give {empty[0]} no "
            "weight in mix"
        )
    return chosen


DEFAULT_TARGET = 16_000


def stream(seed: int, *parts: object) -> random.Random:
    """A random stream of its own for one purpose (``random.Random`` seeded by text)."""
    return random.Random(":".join(["genmem", str(seed), *map(str, parts)]))


ASIDE_TOKENS = 20
"""About the length of a fact or hard-negative user turn (they are one sentence)."""


@lru_cache(maxsize=1)
def round_tokens() -> tuple[float, float]:
    """The mean length, in tokens, of a filler round and of an aside round (a fact or hard
    negative and its acknowledgement), each as an agent takes it in (dated lines), measured
    on a fixed sample so that it is the same everywhere."""
    rng = random.Random("genmem:calibration")
    dated = 2 * count_tokens("[2023/05/30 (Tue) 23:40] user: ")
    chat = [sum(map(count_tokens, filler(rng))) + dated for _ in range(500)]
    acks = [count_tokens(acknowledgement(rng)) + ASIDE_TOKENS + dated for _ in range(500)]
    return sum(chat) / len(chat), sum(acks) / len(acks)


def session_count(params: GeneratorParams) -> int:
    """The sessions of the knobs: ``sessions``, or the number whose expected length (rounds
    of filler and asides, mixed by ``distractor_share``) is ``target_tokens``."""
    if params.sessions is not None:
        return params.sessions
    target = params.target_tokens or DEFAULT_TARGET
    chat, aside = round_tokens()
    share = params.distractor_share
    per_round = (1 - share) * chat + share * aside
    return max(2, round(target / (params.turns_per_session * per_round)))


@dataclass
class Plan:
    params: GeneratorParams
    calendar: Calendar
    questions: list[PlannedQuestion]

    @property
    def sessions(self) -> int:
        return self.calendar.sessions

    @property
    def question_date(self) -> str:
        """The day after the last session, in the evening: when every question is asked."""
        last = self.calendar.times[-1]
        return (last + timedelta(days=1)).replace(hour=20, minute=0).strftime(DATE_FORMAT)


def build_plan(params: GeneratorParams) -> Plan:
    """The plan of the conversation the knobs give (a ConfigError when its questions cannot
    fit the history)."""
    sessions = session_count(params)
    start = datetime(params.start.year, params.start.month, params.start.day)
    calendar = Calendar(sessions, params.turns_per_session, start, stream(params.seed, "dates"))
    names = NamePool(stream(params.seed, "names"))
    items = list(ITEMS)
    stream(params.seed, "items").shuffle(items)
    room = int(MAX_FACT_SHARE * sessions * params.turns_per_session)
    order: list[str] = [a for a, n in params.counts().items() for _ in range(n)]
    stream(params.seed, "order").shuffle(order)
    cycles = chosen_families(params)
    for ability, fams in cycles.items():
        stream(params.seed, "families", ability).shuffle(fams)
    out: list[PlannedQuestion] = []
    used = 0
    turn: dict[str, int] = dict.fromkeys(ABILITIES, 0)
    for n, ability in enumerate(order):
        draw = families.Draw(stream(params.seed, "question", n), names, calendar, items)
        fams = cycles[ability]
        turn[ability] += 1
        made = None
        for k in range(len(fams)):
            family = fams[(turn[ability] - 1 + k) % len(fams)]
            made = family(draw)
            if made is not None:
                break
        if made is None:
            raise capacity_error(used + 4, sessions, params.turns_per_session)
        used += len(made.placed)
        if used > room:
            raise capacity_error(used, sessions, params.turns_per_session)
        made.qid = f"q{n + 1:04d}_{ability}"
        out.append(made)
    return Plan(params, calendar, out)
