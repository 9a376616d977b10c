"""Execution backends: where the runner's trials run."""

from .local import LocalBackend, LocalHandle

__all__ = ["LocalBackend", "LocalHandle"]
