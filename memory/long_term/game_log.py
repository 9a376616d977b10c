"""What both long-term memories share: a log per game, games in order, and their saved state.

Episodic and conceptual memory work game by game. Each keeps, across games, what it stores (the
archived episodes, the learned concepts) and ``games``, one :class:`GameRecord` per game; and,
for the game in progress, what it gathers (beliefs, then actions or lessons), cleared when the
game ends. :class:`GameLogMemory` is that skeleton: the game in progress (the last one logged,
while it is not over), games begun and ended in order (:class:`EpisodeOrderError` otherwise), a
game's log by index, an O(1) fork, and the state as JSON (``kind``, ``params``, what the module
adds, what it stores, ``games``, what it gathers), loaded whole or not at all.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

from pydantic import BaseModel

from cogarch.core.cow import CowList, fork_fields
from cogarch.core.memory import EpisodeEnd, MemoryModule
from cogarch.core.state import state_items, state_part, state_value

from ..retrieval.embeddings import Embedder, get_embedder
from .records import EpisodeOrderError, GameRecord

G = TypeVar("G", bound=GameRecord)


class EmbedderParams(Protocol):
    """Parameters that name an embedder."""

    @property
    def embedder(self) -> str: ...

    def model_dump(self, *, mode: str = ...) -> dict[str, Any]: ...


class GameLogMemory(MemoryModule, Generic[G]):
    """A memory that logs every game (``games``), one open at a time, and saves it all.

    A subclass names its parts: ``stored`` (the attribute kept across games, a ``CowList``,
    and its record model), ``game_model`` (its :class:`GameRecord`) and ``gathered`` (the
    attributes of the game in progress, plain lists, and their models), in the order its
    state lists them; and builds the log of a game ended before it began (``_unbegun``).
    """

    Params: ClassVar[type[BaseModel]]
    stored: ClassVar[tuple[str, type[BaseModel]]]
    game_model: ClassVar[type[GameRecord]]
    gathered: ClassVar[tuple[tuple[str, type[BaseModel]], ...]]

    params: EmbedderParams
    games: CowList[G]
    _embedder: Embedder | None

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = get_embedder(self.params.embedder)
        return self._embedder

    # ------------------------------------------------------------------ games in order

    @property
    def game(self) -> G | None:
        """The log of the game in progress (None between games)."""
        if self.games and not self.games[-1].over:
            return self.games[-1]
        return None

    def game_log(self, episode: int) -> G | None:
        """The log of game ``episode`` (None for a game never seen)."""
        return next((g for g in self.games if g.episode == episode), None)

    def _already_open(self, episode: int) -> G | None:
        """The game in progress when it is ``episode`` (None when no game is); refuses to
        begin ``episode`` while another is open, or when it has already ended."""
        game = self.game
        if game is not None:
            if game.episode == episode:
                return game
            raise EpisodeOrderError(
                f"episode {episode} begins while episode {game.episode} is still open; end "
                "each episode (agent.end_episode) before the next one begins"
            )
        self._refuse_ended(episode)
        return None

    def _refuse_ended(self, episode: int) -> None:
        if any(g.episode == episode for g in self.games):
            raise EpisodeOrderError(
                f"episode {episode} has already ended; each episode of a trial has its own index"
            )

    def _next_episode(self) -> int:
        return self.games[-1].episode + 1 if self.games else 0

    def _ending(self, end: EpisodeEnd) -> G:
        """The game ``end`` ends: the one in progress, or (when none is) an empty log of it,
        begun now; refuses an end that is not the game in progress's."""
        game = self.game
        if game is None:
            self._refuse_ended(end.episode)
            game = self._unbegun(end)
            self.games.append(game)
        elif game.episode != end.episode:
            raise EpisodeOrderError(
                f"the task ended episode {end.episode}, but episode {game.episode} is the one "
                "in progress; end episodes in the order they are played"
            )
        return game

    @abstractmethod
    def _unbegun(self, end: EpisodeEnd) -> G:
        """The log of a game the task ended before it began."""

    def _clear_gathered(self) -> None:
        for name, _ in self.gathered:
            setattr(self, name, [])

    # ------------------------------------------------------------------ fork and state

    def fork(self) -> Self:
        """O(1) in what is stored: it and past games are shared (never edited), the game in
        progress is copied (it is edited in place), the embedder is shared."""
        twin = fork_fields(self, share=("_embedder",))
        if twin.games:
            twin.games[-1] = twin.games[-1].model_copy(deep=True)
        return twin

    def _settings(self) -> dict[str, Any]:
        """What the state keeps beside ``params`` (a fallback provider, say)."""
        return {}

    def _load_settings(self, state: dict[str, Any]) -> dict[str, Any]:
        """The attributes ``_settings`` saved, read back from ``state`` and checked."""
        return {}

    def save_state(self) -> dict[str, Any]:
        name = self.stored[0]
        return {
            "kind": self.kind,
            "params": self.params.model_dump(mode="json"),
            **self._settings(),
            name: [r.model_dump(mode="json") for r in getattr(self, name)],
            "games": [g.model_dump(mode="json") for g in self.games],
            **{
                part: [r.model_dump(mode="json") for r in getattr(self, part)]
                for part, _ in self.gathered
            },
        }

    def load_state(self, state: dict[str, Any]) -> None:
        """Go on from a saved state, checked whole before anything changes."""
        state = self.check_state_kind(state)
        owner = self.kind
        params = cast(EmbedderParams, self._load_params(state))
        settings = self._load_settings(state)
        name, model = self.stored
        stored = state_items(state, name, model, owner)
        games = state_items(state, "games", self.game_model, owner)
        gathered = {part: state_items(state, part, m, owner) for part, m in self.gathered}
        if params.embedder != self.params.embedder:
            self._embedder = None
        self.params = params
        for attr, value in settings.items():
            setattr(self, attr, value)
        setattr(self, name, CowList(stored))
        self.games = CowList(cast(list[G], games))
        for part, values in gathered.items():
            setattr(self, part, values)

    def _load_params(self, state: dict[str, Any]) -> BaseModel:
        with state_part(self.kind, "params"):
            return self.Params.model_validate(state_value(state, "params", dict, self.kind))
