"""What a task may ask of the agent it plays (its host): the agent-capability interface.

Each protocol is one capability. A task types its host with the ones it uses (the SCT needs
a host that answers, forks and shows its private state; LoCoMo one that also takes turns in
without replying); the composed agent (``cogarch.workspace.agent.Agent``) implements them
all (:class:`AgentHost`), and a test double implements what its task needs. Tasks read an
agent only through these members, never through its workspace, memory modules or graph.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, runtime_checkable

from .acting import ActionChoice, Percept
from .memory import EpisodeEnd, MemoryItem
from .records import WalkStep


@dataclass(frozen=True)
class Retrieved:
    """One entry a memory module retrieved for the last reply."""

    module: str
    """The name of the agent's memory module that gave it."""
    item: MemoryItem
    """The entry itself."""

    @property
    def source_ids(self) -> list[str]:
        """The ids of the source records the entry was made from (a benchmark's dialog ids)."""
        return self.item.source_ids


@dataclass(frozen=True)
class ReplyReport:
    """What the agent's last reply carried (None where the agent cannot say)."""

    memory_tokens: int | None = None
    """The memory the answering prompt carried besides its fixed instructions and the input,
    in tokens (the replayed transcript, the retrieved block, the rendered state)."""
    state_tokens: int | None = None
    """The agent's private state after the reply, in tokens."""
    answer_prompt_tokens: int | None = None
    """Prompt tokens of the model calls of the specialist that wrote the reply."""
    retrieved: tuple[Retrieved, ...] | None = None
    """What memory retrieved for the reply, in rank order per module; None when no memory
    module of the agent retrieves."""
    steps: int | None = None
    """The specialist steps the reply's turn ran (each one transition of the agent's graph);
    None for an agent without a graph."""


@dataclass(frozen=True)
class EpisodeReport:
    """What the agent did during one episode, as JSON data, for the task's record of it."""

    memory: dict[str, dict[str, Any]] = field(default_factory=dict)
    """By memory module name, what the module did for the episode (see
    ``MemoryModule.episode_activity``); modules that keep no such record are left out."""
    focus: list[dict[str, Any]] = field(default_factory=list)
    """The focus-loop activations during the episode, in order: why each fired and what the
    agent did next."""
    budget_turns: list[int] = field(default_factory=list)
    """The turns of the episode that the agent's step budget ended (its responder made to
    reply before its walk was done), in order."""
    held_back: int | None = None
    """Outputs its responder held back during the episode (proposals that were no action of
    the environment, which cost no action); None where the agent cannot say."""


@dataclass(frozen=True)
class Observation:
    """A turn to take in without replying (see :class:`Observing`)."""

    text: str
    """What was said."""
    source_ids: tuple[str, ...] = ()
    """Kept by every memory entry made from it (a benchmark's dialog ids)."""
    time: str | None = None
    """When it was said (ISO 8601)."""


class Host(Protocol):
    """Anything a task can talk to: one async call per user turn, returning the public reply."""

    async def respond(self, text: str) -> str: ...


@runtime_checkable
class Acting(Protocol):
    """Acts in an environment: takes a typed percept, answers with the action it chose.

    A task whose agent acts hands an agent that has this capability its percept as is, and
    one that has only :meth:`Host.respond` the percept rendered as text
    (``cogarch.core.affordances.render``), whose reply it reads with
    ``cogarch.core.acting.read_action``; either way the game gets the same action."""

    async def act(self, percept: Percept) -> ActionChoice:
        """Take one turn on ``percept``; the action chosen, with the public reply."""
        ...


class Observing(Protocol):
    """Takes in a turn without replying (a conversation it is shown, to remember)."""

    async def observe(
        self, text: str, *, source_ids: Sequence[str] = (), time: str | None = None
    ) -> None:
        """Add ``text`` to the public dialogue as a completed turn, and let every memory
        module take it in. ``source_ids`` are kept by every memory entry made from it;
        ``time`` (ISO 8601) dates it."""
        ...

    async def observe_many(self, turns: Sequence[Observation]) -> None:
        """Take ``turns`` in, in order, as ``observe`` would one at a time; each memory module
        takes them in together, so it can batch its work (one embedding call for all)."""
        ...


class PrivateState(Protocol):
    """Shows what the agent keeps hidden from the user."""

    def private_state(self) -> str:
        """Everything private, as text (memory modules and private reasoning)."""
        ...

    def task_state(self) -> dict[str, str] | None:
        """The task's slot values as the agent's memory holds them (a task graph), or None
        when it keeps none."""
        ...


class ReplyReporting(Protocol):
    """A host that tells what its latest reply carried."""

    def last_reply(self) -> ReplyReport:
        """What the latest reply carried (see :class:`ReplyReport`)."""
        ...


@runtime_checkable
class MemoryRanking(Protocol):
    """A host whose memory ranks everything it holds (a benchmark's retrieval metrics at any
    depth), apart from what its last reply was shown."""

    async def rank_memory(self) -> dict[str, list[list[str]] | None]:
        """By retrieving memory module, every entry it holds ranked for the query of its last
        retrieval (source ids per entry, best first); None for a module that cannot rank its
        whole store."""
        ...


class Forking(Protocol):
    """A host that forks into independent branches (the SCT, LoCoMo's questions)."""

    def fork(self) -> Self:
        """An independent branch: nothing mutable is shared with the original."""
        ...


class Walking(Protocol):
    """Tells how the agent moved through its transition graph."""

    def walk(self) -> list[WalkStep]:
        """Every specialist step so far, turn by turn (empty for an agent without a graph)."""
        ...

    def transition_counts(self) -> Counter[tuple[str, str]]:
        """How often the router moved from one node to another."""
        ...


class EpisodeAware(Protocol):
    """A host that plays several episodes in one trial, its memory carried across them."""

    async def end_episode(self, end: EpisodeEnd) -> EpisodeReport:
        """An episode of a multi-episode trial ended: memory takes in how it went, and the
        public dialogue starts afresh. Returns what the agent did during the episode."""
        ...


class StateSaving(Protocol):
    """A host whose whole state saves as JSON data and loads back, all or nothing."""

    def save_state(self) -> dict[str, Any]:
        """The agent's whole state as JSON data."""
        ...

    def load_state(self, state: dict[str, Any]) -> None:
        """Go on from a state :meth:`save_state` returned (an agent of the same spec)."""
        ...


class DialogueTrimming(Protocol):
    """A host whose public dialogue can be cut to fit a model's context."""

    def trim_dialogue(self, budget_tokens: int) -> None:
        """Keep only the latest public messages that fit ``budget_tokens`` (a model's
        context); private memory is untouched."""
        ...


class AgentHost(
    Host,
    Observing,
    PrivateState,
    ReplyReporting,
    Forking,
    Walking,
    EpisodeAware,
    StateSaving,
    DialogueTrimming,
    Protocol,
):
    """Every capability every agent a run builds offers a task; a composed agent acts too
    (:class:`Acting`), which a task asks for at run time (a bridged agent only answers text)."""
