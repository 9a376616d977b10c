"""Core interfaces: the small protocols the rest of cogarch is written against."""
