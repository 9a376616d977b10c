"""Tests of the Diagnosis Simulator task (tasks.diagnosis)."""
