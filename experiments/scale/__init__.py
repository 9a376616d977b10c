"""Scale curves: one memory benchmark at several history lengths, as curves, a figure
and files beside the suite's leaderboard."""
