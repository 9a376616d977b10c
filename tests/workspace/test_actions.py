"""An episode's focus loop, counted: how often it ran and how often the next action was
valid."""

from __future__ import annotations

from cogarch.workspace.actions import FocusActivation, focus_summary


def test_the_focus_summary_counts_recoveries_per_episode() -> None:
    log = [
        FocusActivation(0, 1, "empty", 0, "look", True),
        FocusActivation(0, 2, "inadmissible", 2, "fly", False),
        FocusActivation(1, 5, "chosen", None),
    ]
    first = focus_summary(log, episode=0)
    assert (first.activations, first.recovered, first.failed, first.pending) == (2, 1, 1, 0)
    assert focus_summary(log, episode=1).pending == 1
    assert focus_summary(log).activations == 3
