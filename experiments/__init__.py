"""Experiments from Python: run a run config (:func:`load_run_config`, :class:`Runner`) or a
suite (:func:`load_suite_config`, :func:`run_suite`), report on a results folder
(:func:`build_report`) and read its trial files (:func:`read_trial`, :func:`iter_trials`), as
the ``cogarch`` command does. Each name is imported from its file on first use."""

# ruff: noqa: F401
# (the imports under TYPE_CHECKING are the public names: cogarch.lazy reads them)
from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_module

if TYPE_CHECKING:
    from cogarch.experiments.reports.report import build_report
    from cogarch.experiments.results.trial_files import CorruptTrialError, iter_trials, read_trial
    from cogarch.experiments.running.run_config import RunConfig, load_run_config
    from cogarch.experiments.running.runner import Runner, RunReport
    from cogarch.experiments.suites.config import SuiteConfig, load_suite_config
    from cogarch.experiments.suites.runner import SuiteRun, run_suite

__all__, __getattr__ = lazy_module(__name__)
