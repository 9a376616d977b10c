"""What explicit long-term memory keeps, each entry traced back to its game and step.

A *game* is one episode of a trial that plays several (``EpisodeEnd.episode``); its *steps*
count the environment actions taken in it, so step 0 is the game's first observation. Belief
states and actions belong to the episodic memory, concepts and the clusters they form to the
conceptual memory. Each module also keeps a per-game log (:class:`EpisodicGame`,
:class:`ConceptGame`): what the game was given from memory and what it left in it, by id.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from cogarch.errors import CogarchError

EMPTY = "(none)"
"""What a memory block shows when it holds nothing."""


class EpisodeOrderError(CogarchError):
    """A game began or ended out of order (one still open, or one that already ended)."""


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Belief(_Record):
    """A belief state the conscious node wrote after an observation."""

    id: str
    """``ep<episode>.b<n>``: the n-th belief of that game, from 0."""
    episode: int
    step: int
    """Environment actions taken in the game before it was written."""
    turn: int
    """The agent's turn in the trial."""
    text: str


class StepAction(_Record):
    """An action the agent sent to the environment."""

    episode: int
    step: int
    """The step it was taken at: the environment actions before it in the game."""
    turn: int
    action: str


class Episode(_Record):
    """One archived game: its goal, outcome, belief sequence and actions."""

    id: str
    """``ep<episode>``."""
    episode: int
    label: str
    """The game's goal (the task's label for it, or the task read from its first observation)."""
    won: bool | None
    steps: int
    beliefs: tuple[Belief, ...] = ()
    actions: tuple[StepAction, ...] = ()


class GameRecord(BaseModel):
    """What a long-term memory did for one game: the game's index and task, and whether it
    is over (the log of the game in progress is the last one, while it is not)."""

    model_config = ConfigDict(extra="forbid")

    episode: int
    task: str = ""

    @property
    def over(self) -> bool:
        raise NotImplementedError


class EpisodicGame(GameRecord):
    """What the episodic memory did for one game."""

    task: str
    first_turn: int | None
    """The agent's turn at which the game began (None for a game ended before any turn)."""
    drawn: list[str] = Field(default_factory=list)
    """Ids of the past episodes put in context for it, in the order shown."""
    scores: list[float] = Field(default_factory=list)
    """Goal similarity of each drawn episode (``similar`` retrieval only)."""
    beliefs: list[str] = Field(default_factory=list)
    """Ids of the belief states written during it."""
    stored: str | None = None
    """Id of the episode archived when it ended (None while it runs)."""
    won: bool | None = None
    cut: dict[str, list[int]] = Field(default_factory=dict)
    """By drawn episode id, the steps of its beliefs left out of context or shortened to fit
    a cap (``belief_chars``, ``episode_tokens``, ``context_tokens``); empty when every drawn
    episode was shown in full."""

    @property
    def over(self) -> bool:
        """Whether it ended (its episode is archived)."""
        return self.stored is not None


class Concept(_Record):
    """A concept abstracted from the belief sequence of a won game."""

    id: str
    """``c<n>``, numbered in the order learned."""
    text: str
    episode: int
    label: str
    steps: tuple[int, ...]
    """The steps of the beliefs it was drawn from (every belief's, when the model named none)."""


class Note(_Record):
    """A lesson noted during a game, offered to the abstraction if the game is won."""

    episode: int
    step: int
    turn: int
    text: str


class Cluster(_Record):
    """One k-means cluster of concepts and the member nearest its centroid."""

    id: str
    """``k<i>`` within one consolidation, ordered by their representatives' ids."""
    members: tuple[str, ...]
    representative: str


class ConceptGame(GameRecord):
    """What the conceptual memory did for one game."""

    concepts: int = 0
    """How many concepts were stored when the game began (N)."""
    k: int = 0
    """Clusters formed: max(1, floor(sqrt(N))) (0 when nothing was stored or memory is off)."""
    clusters: list[Cluster] = Field(default_factory=list)
    retrieved: list[str] = Field(default_factory=list)
    """Ids of the concepts put in context, in the order shown: every concept, cluster by
    cluster (``show: all``), or every cluster's representative."""
    cut: list[str] = Field(default_factory=list)
    """Ids of the concepts a token cap left out of context (empty: none was cut)."""
    lessons: list[int] = Field(default_factory=list)
    """The steps at which lessons were recorded during the game."""
    stored: list[str] = Field(default_factory=list)
    """Ids of the concepts learned when the game ended (won games; with ``in_game`` or
    ``learn_from: every``, lost games' lessons too)."""
    won: bool | None = None
    ended: bool = False
    error: str | None = None
    """Why no concepts came from a won game (the abstraction call failed)."""

    @property
    def over(self) -> bool:
        """Whether it ended."""
        return self.ended
