"""cogarch's tasks as Inspect AI evals (the ``inspect`` extra).

Every registered task is an Inspect task named ``cogarch/<kind>`` (and ``cogarch/task`` plays
a task of your own, named by import path or file path), found by Inspect through the
package's ``inspect_ai`` entry point (``cogarch.bridges.inspect.tasks``). Each sample is
one trial, played by cogarch's own runner setup with the seed ``cogarch run`` gives it; the
agent's model is Inspect's (:func:`inspect_model`) or one of cogarch's scripted fakes. From
Python, :func:`cogarch_task` makes the Inspect task of any cogarch task, and
:func:`trial_outcome` is its scorer. Each name is imported from its file on first use.
"""

# ruff: noqa: F401
# (the imports under TYPE_CHECKING are the public names: cogarch.lazy reads them)
from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_module

if TYPE_CHECKING:
    from cogarch.bridges.inspect.model import inspect_model
    from cogarch.bridges.inspect.scoring import trial_outcome
    from cogarch.bridges.inspect.task import cogarch_task

__all__, __getattr__ = lazy_module(__name__)
