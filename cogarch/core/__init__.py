"""Core interfaces: one concept per file, importing only the standard library and pydantic."""
