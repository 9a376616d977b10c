"""The memory-module interface: what every private or retrieval memory implements.

A memory module is the stateful part of an agent. It takes in completed turns, answers
queries, shows itself to a prompt within a token budget, forks into an independent copy, and
exports its state as plain JSON (``save_state``) that ``load_state`` on a freshly built module
of the same kind and parameters restores exactly (the convention agents follow too).

Forks. The SCT forks an agent into branches and LoCoMo forks it once per question, so
``fork()`` must cost the same whatever the module holds, and a fork must share nothing either
side can change: a write in a branch never shows in its trunk or a sibling, and a write in the
trunk never shows in a branch, in any order. Every module follows one convention:

- State that grows (logs, records, entries) lives in copy-on-write containers
  (``cogarch.core.cow.CowList``, ``CowDict``) or in something that forks itself in O(1) (a
  vector store, another module, any object with a ``fork()``).
- What goes into those containers is never changed in place: strings, numbers, tuples, frozen
  dataclasses, pydantic models that are replaced, not edited. A value of a ``CowDict`` that must
  be edited in place is taken with ``mutable(key)``, which gives this fork its own copy first.
- Configuration and resources that never change (parameters, an embedder, a clock) are shared.

The default ``fork`` applies that rule attribute by attribute
(``cogarch.core.cow.fork_fields``): forkable values fork, immutable values are shared, and
anything else is deep-copied, which is correct but costs its size, so keep only small, bounded
state in plain lists and dicts. A module that must share a resource overrides ``fork`` with
``fork_fields(self, share=("name", ...))``. Since neither side ever changes what they share, a
fork can be read in a worker thread (its state saved) while the original goes on writing.

Heavy work (an embedding model, a search over a large store) goes off the event loop
(``asyncio.to_thread``), so the other trials and branches of a run go on meanwhile.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Self

from cogarch.errors import ModelCallError
from cogarch.tokens import count_tokens

from .cow import fork_fields
from .model import ChatModel
from .state import StateError, state_object

ModelSource = Callable[[str], ChatModel]
"""Gives the model client of a provider name; modules pass it on to the model layer."""


@dataclass(frozen=True)
class TurnRecord:
    """One completed exchange: what the user said, what the agent answered (and thought)."""

    index: int
    """The exchange's number in the conversation, from 1."""
    user: str
    """What the user said."""
    assistant: str
    """The agent's public reply."""
    thought: str | None = None
    """The agent's reasoning behind the reply, when the model gave it apart."""
    source_ids: tuple[str, ...] = ()
    """Ids of the source records the turn carries (a benchmark's dialog ids), kept by every
    memory entry made from it."""
    time: str | None = None
    """When the turn happened (ISO 8601), where the source says so (a benchmark's session
    date); memory modules date what they store from it instead of their own clock."""

    def __post_init__(self) -> None:
        # a JSON round trip gives a list back; keep records equal to what was saved
        object.__setattr__(self, "source_ids", tuple(self.source_ids))
        if self.time is not None:
            try:
                datetime.fromisoformat(self.time)
            except ValueError:
                raise ValueError(
                    f"turn {self.index} has the time {self.time!r}, which is not ISO 8601; "
                    "give it as YYYY-MM-DDTHH:MM:SS"
                ) from None


@dataclass(frozen=True)
class MemoryItem:
    """A retrieved entry; ``fields`` carries module-specific metadata (tags, timestamps...)."""

    id: str
    """The entry's id within its module."""
    text: str
    """The entry as it is shown in a prompt."""
    score: float = 0.0
    """How well it matched the query (higher first; the scale is the module's own)."""
    fields: dict[str, Any] = field(default_factory=dict)
    """The module's own metadata of the entry (JSON values)."""

    @property
    def source_ids(self) -> list[str]:
        """The source ids the entry was made from (``fields["source_ids"]``), oldest first."""
        return [str(i) for i in self.fields.get("source_ids", [])]


@dataclass(frozen=True)
class Move:
    """One action of an episode and what the environment answered."""

    action: str
    """The action sent (empty: none)."""
    result: str
    """The observation that followed."""


@dataclass(frozen=True)
class Trajectory:
    """An episode as the agent lived it: the first observation, then every action and what
    followed it."""

    start: str = ""
    moves: tuple[Move, ...] = ()

    def text(self) -> str:
        """The first observation, then ``> action`` and its result, a line each (empty for an
        episode without actions)."""
        if not self.moves:
            return ""
        lines = [self.start]
        for move in self.moves:
            lines += [f"> {move.action or '(no action)'}", move.result]
        return "\n".join(lines)


@dataclass(frozen=True)
class EpisodeEnd:
    """The end of one episode (a game, say) of a trial that plays several in a row.

    A task that plays its agent through several episodes tells it when each one ends and how it
    went; memory that learns across episodes (an episodic archive, concepts learned from won
    games) takes it in, everything else ignores it.
    """

    episode: int
    """The episode's index in the trial, from 0."""
    won: bool | None
    """Whether the episode reached its goal (None when the task does not say)."""
    label: str = ""
    """What the episode was about, in the task's words (a game's goal, say)."""
    steps: int = 0
    """The agent's turns in the episode."""
    info: dict[str, Any] = field(default_factory=dict)
    """Whatever else the task reports about the episode (JSON values)."""
    trajectory: Trajectory | None = None
    """The episode's actions and what followed each, when the task keeps them."""


@dataclass(frozen=True)
class MemoryContext:
    """What a module may use while it works: models by provider name, and the call seed."""

    model: ModelSource
    """Gives the model client of a provider name."""
    seed: int | None = None
    """The seed of the module's model calls (None: unseeded, never cached)."""
    caller: str = "memory"
    """The name the module's calls are metered under (``memory:<kind>``)."""


class MemoryModule(ABC):
    """Ingest turns, retrieve for a query, render for a prompt, fork, save and load state.

    Subclasses implement ``render``, ``save_state`` and ``load_state``; the rest has defaults.
    Model calls a module makes go through the model layer with ``caller`` set to the module's
    name, so the active meter records them like any specialist's calls.
    """

    kind: ClassVar[str] = "memory"

    @classmethod  # noqa: B027
    def check_params(cls, params: Any) -> None:
        """Refuse, as constructing the module would, parameters that validate as data but
        cannot work (an unknown plug-in named by them, say), without building anything; a
        run checks every module this way before its first trial. The default has nothing
        to add to the parameter model's own validation."""

    async def ingest(self, turn: TurnRecord, ctx: MemoryContext) -> None:  # noqa: B027
        """Take in a completed turn. The default keeps nothing.

        Args:
            turn: The turn: what the user said, what the agent answered, its index and ids.
            ctx: Models by provider name, the call seed and the caller the module's own calls
                are metered under.

        Raises:
            ModelCallError: When a model call of the module's own gives nothing usable (the
                driving specialist then records the turn as not ingested).
        """

    async def ingest_many(self, turns: Sequence[TurnRecord], ctx: MemoryContext) -> dict[int, str]:
        """Take in several completed turns, in order, as ``ingest`` would one at a time; a
        module overrides it to batch its work (one embedding call for all the texts).

        Args:
            turns: The turns, oldest first.
            ctx: As for ``ingest``.

        Returns:
            The turns left out, by index, each with its error: a turn whose model call fails
            (``ModelCallError``) is left out and the others still go in.
        """
        failed: dict[int, str] = {}
        for turn in turns:
            try:
                await self.ingest(turn, ctx)
            except ModelCallError as exc:
                failed[turn.index] = str(exc)
        return failed

    async def retrieve(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        """Entries relevant to a query. The default returns none.

        Args:
            query: The current input.
            ctx: As for ``ingest``.

        Returns:
            The entries, best first.
        """
        return []

    async def end_episode(self, end: EpisodeEnd, ctx: MemoryContext) -> None:  # noqa: B027
        """An episode of the trial ended (see :class:`EpisodeEnd`). The default does nothing."""

    def episode_activity(self, episode: int) -> dict[str, Any] | None:
        """What the module did for episode ``episode`` as JSON data (what it retrieved for it,
        stored and formed, by id), for the task's record of the episode; None when it keeps
        no such record (the default)."""
        return None

    def retrieved(self) -> list[MemoryItem] | None:
        """What the latest ``retrieve`` returned, in rank order; None for a module that does
        not retrieve (the default)."""
        return None

    async def rank_all(self, ctx: MemoryContext) -> list[list[str]] | None:
        """Every entry the module holds, ranked for the query of its latest ``retrieve`` (best
        first, each as the source ids it was made from), apart from what ``retrieved`` gives
        and without changing it; None for a module that cannot rank its whole store (the
        default)."""
        return None

    def task_values(self) -> dict[str, str] | None:
        """The task's slot values as the module holds them (a task graph's current values);
        None for a module that keeps none (the default)."""
        return None

    def use_provider(self, provider: str | None) -> None:  # noqa: B027
        """Lend the module the provider of the specialist that drives it. The default makes no
        calls of its own.

        Args:
            provider: The provider name, or None; a module whose own model calls fall back on it
                keeps it (see :class:`cogarch.memory.ModelCallParams`).
        """

    @abstractmethod
    def render(self, budget_tokens: int | None = None) -> str:
        """The text a prompt shows of this memory.

        Args:
            budget_tokens: The most tokens the text may take, or None for no limit.

        Returns:
            The text (empty when the module has nothing to show).
        """

    def private_text(self) -> str:
        """The module's private state as text (what the SCT snapshots at the fork)."""
        return self.render()

    def size_tokens(self) -> int:
        return count_tokens(self.private_text())

    def fork(self) -> Self:
        """An independent copy: writes to either never reach the other (see the module
        docstring for the convention that makes it O(1))."""
        return fork_fields(self)

    @abstractmethod
    def save_state(self) -> dict[str, Any]:
        """The module's state, for ``load_state`` to restore.

        Returns:
            JSON values only (dicts, lists, str, numbers, bool, None), with the module's ``kind``.
        """

    @abstractmethod
    def load_state(self, state: dict[str, Any]) -> None:
        """Replace this module's state by one ``save_state`` exported (same kind and params).

        Every module validates the whole state first and then swaps it in
        (``cogarch.core.state``), and the module's own limits apply to what it loads.

        Args:
            state: What ``save_state`` exported.

        Raises:
            StateError: When the state is of another kind or has a malformed part (the message
                names it); the module is left as it was.
        """

    kindless_states: ClassVar[bool] = False
    """Whether states saved without a ``kind`` (by earlier versions) are read, their shape
    alone telling them from another module's."""

    def check_state_kind(self, state: Any) -> dict[str, Any]:
        """A saved state checked to be one this kind of module exported.

        Args:
            state: The saved state.

        Returns:
            The state, as a dict.

        Raises:
            StateError: When it is not a JSON object, or is of another kind.
        """
        state = dict(state_object(state, f"'{self.kind}' memory"))
        kind = state.get("kind")
        if kind is None and self.kindless_states:
            return state
        if kind != self.kind:
            raise StateError(
                f"cannot load a '{kind}' state into a '{self.kind}' module; "
                f"load it into a {self.kind} module"
            )
        return state
