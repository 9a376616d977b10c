"""Every constraint scenario by name: the scripted ones and the seeded 50-turn ones."""

from __future__ import annotations

from cogarch.errors import UnknownNameError

from .long_scenarios import payments_batch
from .scenarios import HEALTHCARE, IT_OPS, SECURITY, ConstraintScenario

CONSTRAINT_SCENARIOS: dict[str, ConstraintScenario] = {
    s.name: s for s in (IT_OPS, HEALTHCARE, SECURITY, payments_batch())
}


def get_constraint_scenario(name: str) -> ConstraintScenario:
    try:
        return CONSTRAINT_SCENARIOS[name]
    except KeyError:
        valid = ", ".join(CONSTRAINT_SCENARIOS)
        raise UnknownNameError(f"unknown constraint scenario '{name}'; valid: {valid}") from None
