"""Shared helpers of the task tests."""

from cogarch.models.fakes import CallInfo

UPDATER_CALL = CallInfo(
    index=0, seed=None, response_format=None, tools=(), caller="updater", role="memory_updater"
)
"""What the model layer tells a fake about an unconstrained memory updater's call."""
