"""A task's verdict on one trial, as a typed model that generic code reads without knowing
the task.

A task subclasses :class:`Evaluation` with typed fields (numbers, booleans, strings, lists,
nested models or mappings of them) and declares it on the task class
(``Evaluation = GuessEvaluation``). Its JSON is the flat mapping of the fields it was given
(``outcome`` left out when None; a field never set is left out and reads back as its
default), so a file written before a field existed reads and writes back unchanged. A file's
values beyond the declared fields are kept as extra data: an evaluation of a task that cannot
be imported here loads as this base class with every value.

Generic code (summaries, reports, the tidy export, the viewer) reads an evaluation only
through :meth:`Evaluation.evaluation_items` / :meth:`Evaluation.scalar_values` (its fields,
walked in order) and the hooks below, which a task overrides where it has the concept; it
never looks a value up by a task's key. The hooks' names are not field names a task would
choose (a task's evaluation may well have a ``scenario`` field, and return it from
``scenario_name``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, model_serializer

Scalar = str | int | float | bool | None
"""A value a table cell holds."""


class Evaluation(BaseModel):
    """An ``outcome`` class (when the task classifies trials) and the task's typed measures."""

    model_config = ConfigDict(extra="allow")

    outcome: str | None = None
    """The outcome class the trial falls in, one of the task's ``Scoring.classes`` (None: the
    task measures rather than classifies)."""

    readings: ClassVar[Mapping[str, str]] = {}
    """The readings the task scores a trial under, by name, each with what it means; the
    first is the one ``outcome`` holds. Empty: the task has one reading only."""
    answer_label: ClassVar[tuple[str, str]] = ("Final answers", "answered")
    """How the task's final answers are named where they are charted: a title, and the verb
    of a count (the SCT's: ``("Revealed secrets", "revealed")``)."""

    def outcome_in(self, reading: str) -> str | None:
        """The outcome under ``reading`` (one of ``readings``); the default has one reading."""
        return self.outcome

    def scenario_name(self) -> str | None:
        """The scenario the trial played, for tasks with several (tables are split by it)."""
        return None

    def judging_mode(self) -> str | None:
        """How the trial's replies were judged, for tasks that judge them in more than one
        way (named in its table's title)."""
        return None

    def unrated_reason(self) -> str | None:
        """Why this trial is left out of the success rates and the tests (its outcome is
        still counted), in a few words; None when it is rated."""
        return None

    def final_answer(self) -> str | None:
        """The trial's final answer, for tasks that ask the agent for one (charted per
        agent)."""
        return None

    def evaluation_items(self) -> list[tuple[str, Any]]:
        """Every field as JSON data, in order: the declared ones, then any kept as extra."""
        return list(self.model_dump(mode="json").items())

    def scalar_values(self) -> dict[str, Scalar]:
        """The scalar fields, with those of a nested model or mapping one level deep named
        ``outer.inner``; lists are left out (they are per-turn or per-item series)."""
        out: dict[str, Scalar] = {}
        for key, value in self.evaluation_items():
            if isinstance(value, Mapping):
                for inner, item in value.items():
                    if _scalar(item):
                        out[f"{key}.{inner}"] = item
            elif _scalar(value):
                out[key] = value
        return out

    def numeric_values(self) -> dict[str, float]:
        """The numeric values of :meth:`scalar_values` (booleans and strings left out)."""
        found: dict[str, float] = {}
        for k, v in self.scalar_values().items():
            if isinstance(v, int | float) and not isinstance(v, bool):
                try:
                    found[k] = float(v)
                except OverflowError:  # a whole number beyond the float range: not tabled
                    continue
        return found

    @model_serializer(mode="wrap")
    def _flat(self, handler: Any) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for name in type(self).model_fields:
            if name not in self.model_fields_set:
                data.pop(name, None)
        if data.get("outcome", "") is None:
            del data["outcome"]
        return data


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)
