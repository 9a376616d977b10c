"""Experiments: run configs, the runner, trial files, statistics and reports."""
