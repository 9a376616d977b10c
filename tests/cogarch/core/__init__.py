"""Tests of the core interfaces and records."""
