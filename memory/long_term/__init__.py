"""Explicit long-term memory (Episodex): episodic memory of belief sequences per game, and
conceptual memory of concepts learned from won games, clustered by k-means; both keep their
per-game log and state through :class:`GameLogMemory`."""

from .conceptual import ConceptualMemory
from .episodic import EpisodicMemory
from .game_log import GameLogMemory
from .records import (
    Belief,
    Cluster,
    Concept,
    ConceptGame,
    Episode,
    EpisodeOrderError,
    EpisodicGame,
    GameRecord,
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
    "GameLogMemory",
    "GameRecord",
    "Note",
    "StepAction",
]
