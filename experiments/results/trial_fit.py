"""A run writes only trial files its own readers accept, and only numbers a table can hold.

Before a trial file is written its text is made exactly as it will be written and read back
the way every reader reads it: no larger than a trial file may be
(:data:`cogarch.files.MAX_FILE_BYTES`), nested no deeper than JSON is read, valid as a record
of its task. A record that fails any of it is written as a *failed* trial naming the problem
(without its turns, branches, payload and evaluation, with its usage), so a rerun plays it
again instead of calling its own file corrupt forever.

Numbers in an evaluation are tabled (means, spreads, totals) as floats: a whole number beyond
the float range (``10**400``) cannot be, and the trial is refused the same way; a float that
is not finite (NaN, infinity) is written as null, as JSON must, with a warning saying so.
Readers refuse a file whose evaluation holds such a whole number (:func:`check_numbers`).
An outcome outside the task's declared classes is written as it is, with a warning, and
tabled in a column of its own.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic_core import PydanticSerializationError

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import GenericPayload
from cogarch.core.records import GENERIC, RecordTypes, TrialError, TrialRecord
from cogarch.files import MAX_FILE_BYTES
from cogarch.io import is_utf8_encodable, loads_json

MAX_TABLED = sys.float_info.max
"""The largest magnitude a table's number may have (the float range)."""
NOT_WRITTEN = "TrialNotWritable"
"""The error type of a trial whose record its reader would refuse."""


@dataclass
class FittedTrial:
    """A trial as it will be written: its text, the record its readers read back from it,
    and what was changed on the way (NaN written as null, say)."""

    record: TrialRecord
    text: str
    warnings: list[str] = field(default_factory=list)


def untableable(value: Any, where: str = "evaluation") -> Iterator[tuple[str, Any]]:
    """Every number in ``value`` (walked through mappings and lists) a table cannot hold,
    with where it lies (``evaluation.score``, ``evaluation.series[3]``)."""
    stack: list[tuple[str, Any]] = [(where, value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, dict):
            stack.extend((f"{path}.{k}", v) for k, v in reversed(list(item.items())))
        elif isinstance(item, list | tuple):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(item))))
        elif _untableable_number(item):
            yield path, item


def _untableable_number(item: Any) -> bool:
    if isinstance(item, float):
        return not math.isfinite(item)
    return isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_TABLED


def _too_big(path: str, value: int) -> str:
    digits = int(value.bit_length() * math.log10(2)) + 1
    return (
        f"'{path}' holds a whole number of about {digits} digits, beyond what a table can "
        f"hold (at most {MAX_TABLED:.3g}); record it as a float or a smaller number"
    )


def check_numbers(data: Any) -> None:
    """Raise ``ValueError`` when a trial file's ``evaluation`` holds a whole number beyond
    the float range (what a reader refuses; a writer never writes it)."""
    evaluation = data.get("evaluation") if isinstance(data, dict) else None
    for path, value in untableable(evaluation):
        if isinstance(value, int):
            raise ValueError(_too_big(path, value))


def trial_text(record: TrialRecord) -> str:
    """The text of ``record``'s trial file (a lone surrogate in some text written escaped)."""
    try:
        return record.model_dump_json(indent=2) + "\n"
    except PydanticSerializationError:
        import json

        data = record.model_dump(mode="json")
        text = json.dumps(data, indent=2, ensure_ascii=False)
        if not is_utf8_encodable(text):
            text = json.dumps(data, indent=2, ensure_ascii=True)
        return text + "\n"


Reader = Callable[[Any, RecordTypes], TrialRecord]
"""How trial files are read: their JSON data and the task's classes to a record (raising
``ValueError`` for a file it refuses): ``results.load_record``."""


def _read_back(
    text: str, types: RecordTypes, read: Reader
) -> tuple[TrialRecord | None, str | None]:
    """The record ``read`` reads from the file ``text``, or why it refuses it."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        return None, (
            f"the trial's record is {size:,} bytes, more than the {MAX_FILE_BYTES:,} bytes a "
            "trial file may hold; make the task record less (a shorter payload, fewer or "
            "shorter turns and branches)"
        )
    try:
        return read(loads_json(text), types), None
    except ValueError as exc:  # too deep, an untableable number, not valid as a record
        return None, f"its record would not read back: {str(exc)[:300]}"


def _check(
    record: TrialRecord, types: RecordTypes, read: Reader
) -> tuple[list[str], str | None, str, TrialRecord | None]:
    """The warnings about ``record``, why a reader would refuse it (None: it reads it), the
    text of its file and the record read back from it."""
    warnings: list[str] = []
    label = f"{record.agent} #{record.trial}"
    problem = None
    evaluation = record.evaluation.model_dump(mode="python")
    for path, value in untableable(evaluation):
        if isinstance(value, float):
            warnings.append(
                f"{label}: '{path}' is {value}, which no table can hold; written as null"
            )
        else:
            problem = _too_big(path, value)
            break
    outcome, classes = record.evaluation.outcome, record.scoring.classes
    if record.status == "complete" and classes and outcome is not None and outcome not in classes:
        warnings.append(
            f"{label}: outcome '{outcome}' is none of the task's classes "
            f"({', '.join(classes)}); it is tabled in a column of its own"
        )
    text = trial_text(record)
    if problem is not None:
        return warnings, problem, text, None
    back, problem = _read_back(text, types, read)
    return warnings, problem, text, back


def fit_trial(record: TrialRecord, types: RecordTypes | None, read: Reader) -> FittedTrial:
    """``record`` as its trial file will be: the text to write and the record ``read`` (the
    readers' own function) reads from it with ``types`` (the task's classes); a record it
    would refuse, or that the task's own classes cannot write, becomes a failed trial saying
    why."""
    types = types or GENERIC
    try:
        warnings, problem, text, back = _check(record, types, read)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the task's own classes failed or stopped writing it
        error = TrialError.of(exc)
        warnings, problem = [], f"its record could not be written ({error.type}: {error.message})"
    if problem is None and back is not None:
        return FittedTrial(back, text, warnings)
    record = record.model_copy(
        update={
            "status": "failed",
            "error": TrialError(type=NOT_WRITTEN, message=(problem or "?")[:2000]),
            "turns": [],
            "branches": [],
            "payload": GenericPayload(),
            "walk": [],
            "transitions": [],
            "evaluation": Evaluation(),
        }
    )
    text = trial_text(record)
    return FittedTrial(read(loads_json(text), types), text, [])
