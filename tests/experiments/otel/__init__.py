"""Traces of whole runs: the span tree of trials, the OTLP JSON file, a real OTLP collector."""
