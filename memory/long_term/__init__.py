"""Explicit long-term memory (Episodex): episodic memory of belief sequences per game, and
conceptual memory of concepts learned from won games, clustered by k-means; both keep their
per-game log and state through :class:`GameLogMemory`."""
