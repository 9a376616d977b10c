"""Which scenario a trial plays, for tasks whose config names one scenario, several, or all.

A task's ``scenario`` parameter accepts a name, a list of names, or ``all``; it is stored as
the list. Trial ``i`` plays ``scenarios[i % len(scenarios)]``, so ``trials: 2 * len(list)``
plays every scenario twice.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

ALL = "all"
SCENARIO_HELP = "A scenario, a list of them or 'all'; trial i plays the (i mod n)-th."


def scenario_list(value: Any, known: Collection[str]) -> list[str]:
    """Normalise a ``scenario`` parameter to a non-empty list of known names.

    Raises ``ValueError`` (reported by pydantic as a config problem) naming the bad entries.
    """
    if isinstance(value, str):
        names = list(known) if value == ALL else [value]
    elif isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        names = list(value)
    else:
        raise ValueError(f"expected a scenario name, a list of names or '{ALL}', got {value!r}")
    if not names:
        raise ValueError(f"the scenario list is empty; name at least one or use '{ALL}'")
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(
            f"unknown scenario {', '.join(repr(n) for n in unknown)}; valid: "
            f"{', '.join(known)} (or '{ALL}')"
        )
    return list(dict.fromkeys(names))


def scenario_for_trial(scenarios: Sequence[str], trial: int) -> str:
    """The scenario trial number ``trial`` plays: round-robin over ``scenarios``."""
    return scenarios[trial % len(scenarios)]


class ScenarioParams(BaseModel):
    """Task parameters that name the scenarios to play; subclasses set ``catalogue``."""

    model_config = ConfigDict(extra="forbid")

    catalogue: ClassVar[Collection[str]] = ()
    scenario: list[str] = Field(
        default_factory=list,
        description=SCENARIO_HELP,
    )

    @field_validator("scenario", mode="before")
    @classmethod
    def _known(cls, value: Any) -> list[str]:
        return scenario_list(value, cls.catalogue)
