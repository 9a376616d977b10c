"""Scale curves: one memory benchmark at several history lengths, as curves, a figure
and files beside the suite's leaderboard."""

DEFAULT_RECALL = "turn recall_all@5"
"""The retrieval metric of the recall curve unless one is named: every evidence turn among the
first five (here, not in ``curves``, so the command line shows it without importing them)."""
