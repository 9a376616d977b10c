"""Tests of the execution backends."""
