"""Retrieval memory: the vector store, the embedders (MiniLM and the feature-hash embedder the ACC
artifact store also uses), and the Mem0-, A-Mem-, LightMem- and MemoryOS-style modules."""
