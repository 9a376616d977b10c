"""The metrics a run or suite config attaches by name (``metrics: [tokens, m.py:wrong]``).

A config names each metric by short name (``cogarch.metrics.METRICS``, an installed package's
included), import path or Python file; a file is looked for relative to the config file's
folder and recorded by its absolute path, so a report made from any directory finds it. The
config's loader imports every named metric, so a name that names nothing is refused before
any trial runs; ``cogarch run`` then lets readers of its results load that code
(``task_trust``). A metric changes no trial: it is left out of the run's identity, and
attaching one to a finished run and running it again plays nothing, it only records it.

Readers (``cogarch report``, the leaderboard) load a metric named by import path or file only
when it is code this user ran here, byte for byte, and never from inside the results being
read, as they load a task's code; one they cannot load is left out, saying why.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from cogarch.config import located
from cogarch.core.metric import Metric
from cogarch.core.records import TrialRecord
from cogarch.errors import ConfigError, UnknownNameError
from cogarch.metrics.registry import METRICS, as_metric, resolve_metric
from cogarch.registry import is_file_path

from ..results.task_code import code_of, load_object
from ..results.task_trust import trust, trusted_code

METRICS_FIELD = (
    "Further metrics to report and rank by, beside the task's own: short names "
    "(model_calls, prompt_tokens, completion_tokens, tokens, memory_calls, seconds, or one an "
    "installed package adds), 'package.module:function' or 'file.py:function' (relative to "
    "the config's folder); a function of the trial record, plain or made with "
    "cogarch.metrics.metric. Left out of the run's identity: it changes no trial."
)
"""The description of the ``metrics`` field of run and suite configs."""


def metric_names(names: list[str]) -> list[str]:
    """``names`` as a config may give them: each non-empty, none twice, every short name
    known (a ValueError naming the problem and the known names)."""
    for name in names:
        if not name.strip():
            raise ValueError("a metric's name is empty; give a short name or 'file.py:function'")
    repeated = sorted(n for n, k in Counter(names).items() if k > 1)
    if repeated:
        raise ValueError(f"metrics are named once each; repeated: {', '.join(repeated)}")
    unknown = [n for n in names if ":" not in n and n not in METRICS]
    if unknown:
        raise ValueError(
            f"unknown metric '{unknown[0]}'; known metrics: {', '.join(METRICS.names())} (or "
            "a function by 'package.module:function' or 'file.py:function')"
        )
    return names


def located_metrics(names: Sequence[str], config: str | os.PathLike[str]) -> list[str]:
    """``names`` with each Python file found relative to the config file's folder, by its
    absolute path (a file that is not there is refused, naming its entry)."""
    out = []
    for index, name in enumerate(names):
        if is_file_path(name):
            file, _, function = located(name, config, f"metrics[{index}]").rpartition(":")
            name = f"{Path(file).resolve()}:{function}"
        out.append(name)
    return out


def checked_metrics(names: Sequence[str], source: str) -> list[Metric]:
    """Every metric ``names`` names, imported now (the config's ``source`` named in errors).

    Raises:
        ConfigError: When one names nothing, or no metric (the message says which entry).
    """
    found = []
    for index, name in enumerate(names):
        try:
            found.append(resolve_metric(name))
        except UnknownNameError as exc:
            raise ConfigError(f"metrics[{index}] in '{source}': {exc}") from None
    return found


def trust_metrics(names: Sequence[str]) -> None:
    """Let readers of the run's results load the metrics named by code (already loaded)."""
    for name in names:
        if ":" in name:
            trust(name)


def read_metrics(
    names: Sequence[str], *, within: str | os.PathLike[str] | None
) -> tuple[list[Metric], list[str]]:
    """The metrics a finished run or suite recorded, for its reader, and a line for each
    left out: a short name this installation does not know, or code that is not what this
    user ran here (or lies inside ``within``, the results being read)."""
    metrics: list[Metric] = []
    notes: list[str] = []
    for name in names:
        try:
            if ":" not in name:
                metrics.append(resolve_metric(name))
                continue
            found = code_of(name, within=within)
            if found is None or not trusted_code(name, found):
                notes.append(
                    f"metric '{name}' left out: it is not code you ran here (run the config "
                    "again to attach it)"
                )
                continue
            metrics.append(as_metric(load_object(name, found, within), name))
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # the metric's own code, or a name no longer known
            notes.append(f"metric '{name}' left out: {' '.join(str(exc).split())[:200]}")
    return metrics, notes


def beside(declared: Sequence[Metric], attached: Sequence[Metric]) -> list[Metric]:
    """The task's ``declared`` metrics, then each ``attached`` one whose name they lack."""
    names = {m.name for m in declared}
    return [*declared, *(m for m in attached if m.name not in names)]


def trial_values(record: TrialRecord, metrics: Sequence[Metric]) -> dict[str, float]:
    """Each metric's value in one trial (the mean of its items); a metric with no item in
    it, or whose code fails on it, has none."""
    values: dict[str, float] = {}
    for metric in metrics:
        try:
            value = metric.trial_value(record)
        except KeyboardInterrupt:
            raise
        except Exception:  # the metric's own code: the trial counts as not measured
            continue
        if value is not None:
            values[metric.name] = value
    return values
