"""Core interfaces and records: the small protocols the rest of cogarch is written against,
one concept per file."""
