"""What the ``alfworld`` wheel ships, read in place: the domain, the grammar, the rooms, the
object and receptacle rules, the goal library and ALFRED's seen and unseen room lists.

Nothing here is copied into this repository; every value is read from the installed wheel
(``pip install 'cogarch[alfworld]'``) the first time it is asked for.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Final

from cogarch.errors import ConfigError

INSTALL_HINT: Final = "pip install 'cogarch[alfworld]'"

TASK_TYPES: Final = (
    "pick_and_place_simple",
    "pick_clean_then_place_in_recep",
    "pick_heat_then_place_in_recep",
    "pick_cool_then_place_in_recep",
    "pick_two_obj_and_place",
    "look_at_obj_in_light",
)
"""ALFWorld's six task types, in its own order of difficulty."""


class AlfworldMissingError(ConfigError, ImportError):
    """The optional ``alfworld`` extra (the wheel, textworld and fast-downward) is missing."""


def _import(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise AlfworldMissingError(
            f"the alfworld task needs the alfworld extra ({exc}); install it with {INSTALL_HINT} "
            "(fast-downward-textworld compiles from source: it needs g++ and a 'python' command "
            "on PATH)"
        ) from None


def alfworld_root() -> Path:
    """The installed ``alfworld`` package's folder."""
    return Path(str(_import("alfworld").__file__)).parent


@dataclass(frozen=True)
class Receptacle:
    """One receptacle of a room: its ALFRED id (``Cabinet|+00.68|+00.50|-02.20``) and type."""

    id: str
    type: str


@dataclass(frozen=True)
class Room:
    """One of ALFRED's 120 rooms (``FloorPlan<number>``): its receptacles and object types."""

    number: int
    receptacles: tuple[Receptacle, ...]
    object_types: frozenset[str]
    """Every object type the room's layout lists (receptacles and fixtures included)."""

    @property
    def receptacle_types(self) -> frozenset[str]:
        return frozenset(r.type for r in self.receptacles)


@dataclass(frozen=True)
class Rules:
    """The object and receptacle rules of ``alfworld/gen/constants.py``."""

    contains: dict[str, frozenset[str]]
    """Receptacle type -> object types it can hold (``VAL_RECEPTACLE_OBJECTS``)."""
    actions: dict[str, frozenset[str]]
    """``Heatable``, ``Coolable``, ``Cleanable``, ``Toggleable``, ``Sliceable`` -> types."""
    openable: frozenset[str]
    movable_receptacles: frozenset[str]
    seen_rooms: tuple[int, ...]
    """ALFRED's training rooms (``TRAIN_SCENE_NUMBERS``)."""
    unseen_rooms: tuple[int, ...]
    """ALFRED's held-out rooms (``TEST_SCENE_NUMBERS``)."""

    @property
    def pickupable(self) -> frozenset[str]:
        """Object types a receptacle can hold, sliced variants aside."""
        held = frozenset().union(*self.contains.values())
        return frozenset(t for t in held if not t.endswith("Sliced"))

    @property
    def static_receptacles(self) -> frozenset[str]:
        return frozenset(self.contains) - self.movable_receptacles


@dataclass(frozen=True)
class Goal:
    """One task type of ``alfworld/gen/goal_library.py``: its PDDL goal and its text forms."""

    task_type: str
    pddl: str
    templates: tuple[str, ...]


@cache
def domain_text() -> str:
    """``alfworld/data/alfred.pddl``: the PDDL domain."""
    return (alfworld_root() / "data" / "alfred.pddl").read_text(encoding="utf-8")


@cache
def grammar_text() -> str:
    """``alfworld/data/alfred.twl2``: the text grammar (its goal is ``UNKNOWN GOAL``)."""
    return (alfworld_root() / "data" / "alfred.twl2").read_text(encoding="utf-8")


GOAL_PLACEHOLDER: Final = "UNKNOWN GOAL"


@cache
def rules() -> Rules:
    c = _import("alfworld.gen.constants")
    return Rules(
        contains={k: frozenset(v) for k, v in c.VAL_RECEPTACLE_OBJECTS.items()},
        actions={k: frozenset(v) for k, v in c.VAL_ACTION_OBJECTS.items()},
        openable=frozenset(c.OPENABLE_CLASS_LIST),
        movable_receptacles=frozenset(c.MOVABLE_RECEPTACLES),
        seen_rooms=tuple(c.TRAIN_SCENE_NUMBERS),
        unseen_rooms=tuple(c.TEST_SCENE_NUMBERS),
    )


@cache
def goals() -> dict[str, Goal]:
    library = _import("alfworld.gen.goal_library").gdict
    return {t: Goal(t, library[t]["pddl"], tuple(library[t]["templates"])) for t in TASK_TYPES}


def _receptacle_type(alfred_id: str) -> str:
    # a sink or bathtub's basin is its own type: "Sink|-03.12|-00.01|+01.53|SinkBasin"
    parts = alfred_id.split("|")
    return parts[-1] if len(parts) == 5 else parts[0]


@cache
def room(number: int) -> Room:
    """A room of the wheel's layouts: the receptacles ALFRED could reach
    (``FloorPlan<n>-openable.json``) plus one of each other static receptacle type the room's
    object list names (a coffee machine, a toaster, a toilet...)."""
    layouts = alfworld_root() / "gen" / "layouts"
    reachable = layouts / f"FloorPlan{number}-openable.json"
    if not reachable.is_file():
        raise ConfigError(
            f"there is no room {number} in the alfworld wheel's layouts; rooms are {_room_span()}"
        )
    ids = sorted(json.loads(reachable.read_text(encoding="utf-8")))
    types = frozenset(json.loads((layouts / f"FloorPlan{number}-objects.json").read_text()))
    found = [Receptacle(i, _receptacle_type(i)) for i in ids]
    present = {r.type for r in found}
    extra = sorted((types & rules().static_receptacles) - present)
    found += [Receptacle(f"{t}|+00.00|+00.00|+00.00", t) for t in extra]
    return Room(number, tuple(found), types)


def _room_span() -> str:
    return "1-30, 201-230, 301-330 and 401-430"


def all_rooms() -> tuple[int, ...]:
    r = rules()
    return tuple(sorted(r.seen_rooms + r.unseen_rooms))
