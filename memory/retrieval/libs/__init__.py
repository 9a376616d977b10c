"""Memory modules over the real memory libraries (Mem0, MemoryOS, A-Mem), beside cogarch's own
re-implementations; each needs its library (an optional extra)."""
