"""The audit's verdicts as they come: ``judge_audit.jsonl`` in the run folder, append-only, so
an interrupted audit goes on where it stopped and judges nothing twice.

The first line is a header; each further line is one verdict: its key (a hash of the judge's
provider and settings, the task's metric, the probe's question, gold answer and answer, and the
call's seed), the verdict, the judge's reply and the model calls behind it (replayed into the
audit's usage on a rerun, marked cached). A line is written whole as its verdict comes; a last
line cut short by a kill is dropped. A log that cannot be read is set aside as
``judge_audit.jsonl.unusable`` and its verdicts are asked again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel, ConfigDict, StrictBool, StrictStr, ValidationError

from cogarch.core.usage import CallRecord
from cogarch.files import MAX_STATE_BYTES, FileRefusedError, read_bytes, set_aside
from cogarch.io import loads_json

LOG = "judge_audit.jsonl"
HEADER = {"log": "cogarch judge audit verdicts", "version": 1}


class LoggedVerdict(BaseModel):
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    key: StrictStr
    accepted: StrictBool
    reply: StrictStr
    calls: list[CallRecord] = []


def verdict_key(judge: dict[str, Any], seed: int, *parts: str) -> str:
    """The key of one verdict: who judged (provider name and settings) what, with which seed."""
    blob = json.dumps([judge, seed, *parts], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


class VerdictLog:
    """The verdict log of one run folder (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOG
        self._file: TextIO | None = None

    def read(self) -> dict[str, LoggedVerdict]:
        """Every whole verdict line, by key (a later line of the same key wins)."""
        if not os.path.lexists(self.path):
            return {}
        if self.path.is_symlink():
            self._set_aside("it is a link")
            return {}
        try:
            raw = read_bytes(self.path, within=self.path.parent, max_bytes=4 * MAX_STATE_BYTES)
        except FileRefusedError as exc:
            self._set_aside(str(exc))
            return {}
        whole, _, torn = raw.rpartition(b"\n")
        if torn:  # a line cut short by a kill
            with open(self.path, "r+b") as handle:
                handle.truncate(len(whole) + 1 if whole else 0)
        lines = whole.split(b"\n") if whole else []
        found: dict[str, LoggedVerdict] = {}
        try:
            if lines and loads_json(lines[0]) != HEADER:
                raise ValueError("its first line is not the audit log's header")
            for text in lines[1:]:
                line = LoggedVerdict.model_validate(loads_json(text))
                found[line.key] = line
        except (ValueError, ValidationError) as exc:
            self._set_aside(" ".join(str(exc).split())[:200])
            return {}
        return found

    def append(self, verdict: LoggedVerdict) -> None:
        if self._file is None:
            fresh = not self.path.exists() or self.path.stat().st_size == 0
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (close())
            if fresh:
                self._file.write(json.dumps(HEADER) + "\n")
        self._file.write(verdict.model_dump_json() + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def _set_aside(self, why: str) -> None:
        kept = set_aside(self.path)
        sys.stderr.write(
            f"warning: the judge audit's log '{self.path}' cannot be used ({why}); kept as "
            f"'{kept.name}', its verdicts are asked again\n"
        )
