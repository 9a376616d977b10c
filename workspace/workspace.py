"""The blackboard every specialist of an agent reads and writes."""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from cogarch.core.acting import Percept
from cogarch.core.affordances import split_input
from cogarch.core.cow import CowDict, CowList, fork_value
from cogarch.core.memory import TurnRecord
from cogarch.tokens import count_tokens

from .acting import SHAPES as ACTING_SHAPES
from .acting import ActingState


@dataclass(frozen=True, slots=True)
class Message:
    """One message of the public dialogue."""

    role: Literal["user", "assistant"]
    """Who said it."""
    content: str
    """What was said."""


@dataclass(frozen=True, slots=True)
class IngestFailure:
    """A completed turn a memory module could not take in (its own model gave nothing usable)."""

    memory: str
    turn: int
    error: str


@dataclass
class Workspace:
    """Public dialogue, the current input, this turn's broadcasts and the private record.

    Only ``reply`` ever reaches the user; everything else stays inside the agent. What several
    parts of an agent share has a typed field here; ``broadcasts[name]`` holds what specialist
    ``name`` said this turn, and ``private`` is free scratch space a specialist keeps across
    turns under keys it owns (small: a fork copies it whole).

    What only an agent that acts in an environment needs (the turn's percept and action, its
    proposals, focus activations, the turns the step budget ended) is the ``acting`` part
    (:class:`~cogarch.workspace.acting.ActingState`), which a text-only agent never has.

    What grows with the dialogue (``dialogue``, ``turns``, ``reasoning``, ``ingest_failures``,
    and the acting part's records) is held in copy-on-write containers, so ``copy`` costs the same
    at any length; a plain list or dict assigned to one of them is wrapped.
    """

    dialogue: CowList[Message] = field(default_factory=CowList)
    """The public dialogue so far, oldest first."""
    current_input: str = ""
    """The user's message of this turn."""
    turn: int = 0
    """The turn's number, from 1 (0 before the first)."""
    broadcasts: dict[str, Any] = field(default_factory=dict)
    """What each specialist said this turn, by its name."""
    private: dict[str, Any] = field(default_factory=dict)
    """Scratch space specialists keep across turns, under keys they own."""
    reply: str | None = None
    """This turn's public reply, once a responder wrote it."""
    thought: str | None = None
    """The reasoning the model gave for the reply, kept apart from it."""
    visits: dict[str, int] = field(default_factory=dict)
    """How often each node has run this turn (the agent counts them)."""
    turns: CowList[TurnRecord] = field(default_factory=CowList)
    """Every completed turn, oldest first, with the reasoning the model gave for it."""
    reasoning: CowDict[int, str] = field(default_factory=CowDict)
    """Private reasoning kept across turns, by turn number (a Private CoT responder's)."""
    reground_count: int = 0
    """How often a reground node has re-grounded the agent, over the whole dialogue."""
    ingested: dict[str, int] = field(default_factory=dict)
    """Per memory module, the last completed turn it has taken in."""
    ingest_failures: CowList[IngestFailure] = field(default_factory=CowList)
    """Completed turns a memory module could not take in, oldest first."""
    episode: int = 0
    """The episode the dialogue is in, for tasks that play several (games) in one trial."""
    memory_tokens: int | None = None
    """This turn's memory footprint, set by the answering specialist: the tokens of the memory
    its prompt carried (earlier dialogue, memory blocks, notes), never its fixed instructions
    or the current input."""
    must_reply: bool = False
    """Set when the step budget is spent and the responder runs to end the turn: a responder
    that may hold its reply back (a motor whose action is not admissible) must reply now."""
    resume_from: str | None = None
    """The node that ended the previous turn while its episode goes on: the next input answers
    what it did, so the next turn's walk resumes from it (None at the start of an episode and
    after a turn taken in without a reply)."""
    acting: ActingState | None = None
    """The acting part (percept, action choice, proposals, focus log, budget ends), begun by
    the first turn or specialist that acts (:meth:`acting_part`); None: the agent never acted."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _GROWING_LISTS and not isinstance(value, CowList):
            value = CowList(value)
        elif name == "reasoning" and not isinstance(value, CowDict):
            value = CowDict(value)
        object.__setattr__(self, name, value)

    def begin_turn(self, user_text: str, percept: Percept | None = None) -> None:
        """Start a turn on ``user_text``; ``percept`` is what it renders, when the turn acts
        on one (else a specialist that acts has the text read back: :meth:`percept`)."""
        self.turn += 1
        self.current_input = user_text
        if percept is not None or self.acting is not None:
            self.acting_part().begin_turn(percept)
        self.must_reply = False
        self.broadcasts = {}
        self.visits = {}
        self.reply = None
        self.thought = None
        self.memory_tokens = None

    def acting_part(self) -> ActingState:
        """The acting part, begun now if the agent has not acted before."""
        if self.acting is None:
            self.acting = ActingState()
        return self.acting

    def percept(self) -> Percept:
        """This turn's percept, for a specialist that acts: the one the turn was taken on,
        else the turn's text read back (once a turn)."""
        acting = self.acting_part()
        if acting.percept is None:
            acting.percept = split_input(self.current_input)
        return acting.percept

    def visit(self, node: str) -> int:
        """Count one run of ``node`` this turn; return how many runs it has had."""
        self.visits[node] = self.visits.get(node, 0) + 1
        return self.visits[node]

    def end_turn(self) -> None:
        self.turns.append(TurnRecord(self.turn, self.current_input, self.reply or "", self.thought))
        self.dialogue.append(Message("user", self.current_input))
        self.dialogue.append(Message("assistant", self.reply or ""))
        if self.acting is not None:
            self.acting.took_in(self.acting.percept)

    def observe(
        self, text: str, source_ids: tuple[str, ...] = (), time: str | None = None
    ) -> TurnRecord:
        """Record ``text`` as a completed turn the agent took in without replying: it joins
        the public dialogue as a user message."""
        self.turn += 1
        record = TurnRecord(self.turn, text, "", source_ids=source_ids, time=time)
        self.turns.append(record)
        self.dialogue.append(Message("user", text))
        if self.acting is not None:
            self.acting.took_in(split_input(text))
        return record

    def trim_dialogue(self, budget_tokens: int) -> None:
        """Keep only the latest public messages whose tokens fit ``budget_tokens``."""
        used, keep = 0, 0
        for message in reversed(self.dialogue):
            used += count_tokens(message.content)
            if used > budget_tokens:
                break
            keep += 1
        self.dialogue = CowList(self.dialogue[len(self.dialogue) - keep :])
        if self.acting is not None:
            self.acting.trim(sum(m.role == "user" for m in self.dialogue))

    def history(self, window: int | None = None) -> list[Message]:
        """Earlier public messages, oldest first; the last ``window`` of them when given."""
        if window is None or window >= len(self.dialogue):
            return list(self.dialogue)
        return self.dialogue[-window:] if window > 0 else []

    def copy(self) -> Workspace:
        """An independent copy, in O(1) in the length of the dialogue: the copy-on-write
        fields fork, the small ones (this turn's, ``private``) are copied whole."""
        twin = copy.copy(self)
        for f in dataclasses.fields(self):
            object.__setattr__(twin, f.name, fork_value(getattr(self, f.name)))
        return twin

    def save_state(self) -> dict[str, Any]:
        """Everything in the workspace as JSON data (``private`` and broadcast values must be
        JSON data themselves)."""
        data = {
            f.name: _plain(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if f.name != "acting"
        }
        data["acting"] = self.acting.save_state() if self.acting is not None else None
        data["reasoning"] = {str(turn): text for turn, text in self.reasoning.items()}
        return data

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> Workspace:
        """The workspace ``save_state()`` described; ``TypeError`` (or ``KeyError``) for one
        that is malformed. Earlier versions' states read as well: the acting part kept flat, or
        with the step budget's and resume marks; ``focus_count``, which counted the runs of
        reground and focus nodes together, for ``reground_count``."""
        acting = data.get("acting", data)
        if acting is not None and not isinstance(acting, dict):
            raise TypeError(f"the workspace's 'acting' is a {type(acting).__name__}")
        older: dict[str, Any] = acting or {}
        for where, shapes in ((data, _SHAPES), (older, ACTING_SHAPES)):
            for key, kinds in shapes.items():
                if (key in where and not isinstance(where[key], kinds)) or isinstance(
                    where.get(key), bool
                ):
                    raise TypeError(f"the workspace's '{key}' is a {type(where[key]).__name__}")
        if "reground_count" not in data:
            reground = data["focus_count"] - len(older.get("focus_log", []))
            data = {**data, "reground_count": reground}
        return cls(
            dialogue=CowList(Message(**m) for m in data["dialogue"]),
            current_input=data["current_input"],
            turn=data["turn"],
            broadcasts=copy.deepcopy(data["broadcasts"]),
            private=copy.deepcopy(data["private"]),
            reply=data["reply"],
            thought=data["thought"],
            visits=dict(data["visits"]),
            turns=CowList(TurnRecord(**t) for t in data["turns"]),
            reasoning=CowDict((int(turn), text) for turn, text in data["reasoning"].items()),
            reground_count=data["reground_count"],
            ingested=dict(data["ingested"]),
            ingest_failures=CowList(IngestFailure(**f) for f in data["ingest_failures"]),
            episode=data.get("episode", 0),
            memory_tokens=data.get("memory_tokens"),
            must_reply=data.get("must_reply", older.get("must_reply", False)),
            resume_from=data.get("resume_from", older.get("resume_from")),
            acting=ActingState.from_state(acting) if acting is not None else None,
        )


_SHAPES: dict[str, type | tuple[type, ...]] = {
    "dialogue": list,
    "current_input": str,
    "turn": int,
    "broadcasts": dict,
    "private": dict,
    "reply": (str, type(None)),
    "thought": (str, type(None)),
    "visits": dict,
    "turns": list,
    "reasoning": dict,
    "reground_count": int,
    "focus_count": int,
    "ingested": dict,
    "ingest_failures": list,
    "episode": int,
    "memory_tokens": (int, type(None)),
}
"""What each saved part of a workspace is."""

_GROWING_LISTS = ("dialogue", "turns", "ingest_failures")


def _plain(value: Any) -> Any:
    if isinstance(value, CowList):
        return [_plain(v) for v in value]
    if isinstance(value, CowDict):
        return {k: _plain(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    return copy.deepcopy(value)
