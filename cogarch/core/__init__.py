"""Core interfaces and records, one concept per file."""
