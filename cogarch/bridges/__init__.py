"""Bridges to other agent frameworks and harnesses: cogarch's memory and agents inside them,
their agents inside cogarch's tasks, cogarch's tasks inside their evals. Each bridge is an
optional extra. The framework bridges sit below the experiments layer, which reaches them by
name only when a run config names a framework; the Inspect AI bridge (``inspect``) sits on
top, since it plays tasks through the runner's own setup, and nothing imports it."""
