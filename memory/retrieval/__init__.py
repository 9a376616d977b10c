"""Retrieval memory: vector store, embedders, and the Mem0-, A-Mem-, LightMem- and MemoryOS-style
modules."""
