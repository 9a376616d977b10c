"""Explicit long-term memory (Episodex): episodic memory of belief sequences per game, and
conceptual memory of concepts learned from won games, clustered by k-means."""

from .conceptual import ConceptualMemory
from .episodic import EpisodicMemory
from .records import (
    Belief,
    Cluster,
    Concept,
    ConceptGame,
    Episode,
    EpisodeOrderError,
    EpisodicGame,
    Note,
    StepAction,
)

__all__ = [
    "Belief",
    "Cluster",
    "Concept",
    "ConceptGame",
    "ConceptualMemory",
    "Episode",
    "EpisodeOrderError",
    "EpisodicGame",
    "EpisodicMemory",
    "Note",
    "StepAction",
]
