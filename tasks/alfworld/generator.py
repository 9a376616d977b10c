"""Seeded ALFWorld problems written from the wheel's rooms, rules and goal library.

A game is named by its room, task type and seed. The room gives the receptacles (one location
each, the agent starting in the middle of the room, every openable receptacle closed); the
seed draws the goal's targets, the template of its text, and where every object of the room's
types lies (one to three of each, only in receptacles that can hold it, the target never
already where the goal wants it). The problem is PDDL for ALFWorld's own domain, with ids
mangled as ALFWorld mangles ALFRED's, so the engine names things exactly as ALFWorld does
(``apple 1``, ``sinkbasin 1``). Writing a problem is pure; whether the planner solves it is
checked apart (``planner.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Final

from cogarch.errors import ConfigError

from .wheel import TASK_TYPES, Receptacle, Room, goals, room, rules

GENERATOR_VERSION: Final = 1
"""Bump when the same (room, task type, seed) would give another problem: it keys the cache."""

LAMPS: Final = ("DeskLamp", "FloorLamp")
LAMP_HOLDERS: Final = (
    "Desk",
    "SideTable",
    "Dresser",
    "CoffeeTable",
    "DiningTable",
    "Shelf",
    "TVStand",
    "CounterTop",
    "ArmChair",
    "Sofa",
    "Bed",
)
"""Surfaces a lamp may stand on, in order of preference (the goal needs it in a receptacle)."""

_STATION: Final = {
    "pick_clean_then_place_in_recep": ("Cleanable", "SinkBasin"),
    "pick_heat_then_place_in_recep": ("Heatable", "Microwave"),
    "pick_cool_then_place_in_recep": ("Coolable", "Fridge"),
}
"""Task types that change the object first: the ability it needs and where it is done."""

_FLAGS: Final = (
    ("cleanable", "Cleanable"),
    ("heatable", "Heatable"),
    ("coolable", "Coolable"),
    ("sliceable", "Sliceable"),
)


class InfeasibleGameError(ConfigError):
    """The room cannot host the task type (no sink for cleaning, no lamp to look under...)."""


@dataclass(frozen=True)
class GameSpec:
    """Names one generated game."""

    room: int
    task_type: str
    seed: int

    def __post_init__(self) -> None:
        if self.task_type not in TASK_TYPES:
            raise ConfigError(
                f"unknown ALFWorld task type {self.task_type!r}; valid: {', '.join(TASK_TYPES)}"
            )

    @property
    def key(self) -> str:
        return f"room{self.room}-{self.task_type}-seed{self.seed}-v{GENERATOR_VERSION}"


@dataclass(frozen=True)
class Target:
    """What a goal is about: the object type, and the receptacle or lamp type."""

    obj: str
    recep: str = ""
    toggle: str = ""


@dataclass(frozen=True)
class Problem:
    spec: GameSpec
    goal: str
    """The goal's text, as the game states it after ``Your task is to:``."""
    target: Target
    pddl: str
    planning_pddl: str
    """The same problem with only the objects the goal is about (its type and the lamp): the
    planner searches it much faster, and its plan wins the full game too (nothing in the
    domain lets other objects stand in the way)."""


def _holders(r: Room, obj: str, *, avoid: str = "") -> list[Receptacle]:
    contains = rules().contains
    return [x for x in r.receptacles if obj in contains.get(x.type, ()) and x.type != avoid]


def _objects(r: Room) -> list[str]:
    """The room's object types that lie somewhere, sorted."""
    return sorted(t for t in r.object_types & rules().pickupable if _holders(r, t))


def targets(r: Room, task_type: str) -> list[Target]:
    """Every target the room allows for the task type, in a fixed order."""
    contains = rules().contains
    kinds = sorted(r.receptacle_types)
    if task_type == "look_at_obj_in_light":
        lamps = [lamp for lamp in LAMPS if lamp in r.object_types]
        if not lamps or not any(t in r.receptacle_types for t in LAMP_HOLDERS):
            return []
        return [Target(o, toggle=lamp) for lamp in lamps for o in _objects(r)]
    ability, station = _STATION.get(task_type, ("", ""))
    if station and station not in r.receptacle_types:
        return []
    found = []
    for o in _objects(r):
        if ability and o not in rules().actions[ability]:
            continue
        for recep in kinds:
            if recep == station or o not in contains.get(recep, ()):
                continue
            if _holders(r, o, avoid=recep):
                found.append(Target(o, recep=recep))
    return found


@cache
def feasible(room_number: int, task_type: str) -> bool:
    return bool(targets(room(room_number), task_type))


def _mangle(text: str) -> str:
    """ALFWorld's id mangling (``|`` -> ``_bar_``...), ``#`` standing for PDDL's type dash."""
    table = {
        "-": "_minus_",
        "#": "-",
        "|": "_bar_",
        "+": "_plus_",
        ".": "_dot_",
        ",": "_comma_",
    }
    return "".join(table.get(c, c) for c in text)


def write_problem(spec: GameSpec) -> Problem:
    """The PDDL problem of ``spec`` (pure: the same spec always gives the same text)."""
    r = room(spec.room)
    options = targets(r, spec.task_type)
    if not options:
        raise InfeasibleGameError(
            f"room {spec.room} cannot host {spec.task_type} (it lacks what the task needs: "
            "a sink, microwave or fridge, a lamp, or an object with a place to go)"
        )
    rng = random.Random(f"alfworld:{GENERATOR_VERSION}:{spec.room}:{spec.task_type}:{spec.seed}")
    target = rng.choice(options)
    goal = goals()[spec.task_type]
    text = rng.choice(goal.templates).format(
        obj=target.obj.lower(), recep=target.recep.lower(), toggle=target.toggle.lower(), mrecep=""
    )
    placed: list[tuple[str, str, Receptacle]] = []
    for obj in _objects(r):
        if obj == target.obj:
            low = 2 if spec.task_type == "pick_two_obj_and_place" else 1
            count = rng.randint(low, 3)
            where = _holders(r, obj, avoid=target.recep)
        else:
            count = rng.choices((1, 2, 3), weights=(6, 3, 1))[0]
            where = _holders(r, obj)
        placed += [(f"{obj}|{k}", obj, rng.choice(where)) for k in range(1, count + 1)]
    stand = next((t for t in LAMP_HOLDERS if t in r.receptacle_types), "")
    stands = [x for x in r.receptacles if x.type == stand]
    lamps: list[tuple[str, str, Receptacle]] = [
        (f"{lamp}|1", lamp, rng.choice(stands)) for lamp in LAMPS if lamp in r.object_types
    ]
    goal_pddl = goal.pddl.format(
        obj=target.obj, recep=target.recep, toggle=target.toggle, mrecep=""
    )
    needed = [p for p in placed if p[1] == target.obj] + [x for x in lamps if x[1] == target.toggle]
    return Problem(
        spec,
        text,
        target,
        _problem_text(r, placed + lamps, goal_pddl),
        _problem_text(r, needed, goal_pddl),
    )


def _problem_text(r: Room, things: list[tuple[str, str, Receptacle]], goal_pddl: str) -> str:
    rule = rules()
    where = {x.id: f"loc|{i}" for i, x in enumerate(r.receptacles, start=1)}
    otypes = sorted({t for _, t, _ in things})
    rtypes = sorted(r.receptacle_types)
    objects = ["agent1 # agent"]
    objects += [f"{i} # object" for i, _, _ in things]
    objects += [f"{t}Type # otype" for t in otypes] + [f"{t}Type # rtype" for t in rtypes]
    objects += [f"{x.id} # receptacle" for x in r.receptacles]
    objects += [f"{loc} # location" for loc in ["loc|0", *where.values()]]
    init = ["(atLocation agent1 loc|0)"]
    for x in r.receptacles:
        init += [
            f"(receptacleType {x.id} {x.type}Type)",
            f"(receptacleAtLocation {x.id} {where[x.id]})",
        ]
        if x.type in rule.openable:
            init.append(f"(openable {x.id})")
    for i, t, x in things:
        init += [
            f"(objectType {i} {t}Type)",
            f"(inReceptacle {i} {x.id})",
            f"(objectAtLocation {i} {where[x.id]})",
        ]
        if t in rule.actions["Toggleable"]:
            init.append(f"(toggleable {i})")
        else:
            init.append(f"(pickupable {i})")
        init += [f"({flag} {i})" for flag, ability in _FLAGS if t in rule.actions[ability]]
    for rt in rtypes:
        init += [
            f"(canContain {rt}Type {ot}Type)" for ot in otypes if ot in rule.contains.get(rt, ())
        ]
    body = "\n".join(
        [
            "(define (problem cogarch_alfworld)",
            "(:domain alfred)",
            "(:objects",
            *(f"    {line}" for line in objects),
            ")",
            "(:init",
            *(f"    {line}" for line in init),
            ")",
        ]
    )
    # the library's goal closes the problem's parenthesis itself
    return _mangle(body + "\n" + goal_pddl.strip() + "\n")
