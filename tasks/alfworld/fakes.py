"""Scripted models that play the agent's side of an ALFWorld game, one per outcome.

Each is a function ``(pairs, seed, call) -> reply`` over the prompt's ``(role, text)`` pairs. A
game turn is a user message that lists the admissible actions (``cogarch.core.affordances``);
any other call (a memory module's reflection, say) gets a short plain answer.

- ``oracle``: plays the planner's walkthrough and wins every game. Its trial hands it the
  walkthroughs of the trial's games (:func:`trial_walkthroughs`, in effect for the calls the
  trial makes, and for no other trial's); it finds its game by the first observation, which
  must be in its prompt, and counts its own replies since then; so it plays agents that show
  the whole current game to the answering model (``vanilla``, ``alfworld_react``,
  ``alfworld_reflexion``...).
- ``random``: an admissible action drawn with the seed and the turn.
- ``hallucinating``: only actions the game does not admit (it checks the list it is shown).
- ``silent``: empty replies.

Replies vary their form with the seed (``ACTION: [...]``, ``> ...``, a thought then
``Action: ...``, ALFWorld 0.3's ``put X in/on Y``), so the action reader meets each.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType

from cogarch.core.acting import normalize_action
from cogarch.core.affordances import split_input
from cogarch.models.fakes import CallInfo, PairsFn

REFLECTION = (
    "I lost that game. Next time I will look first in the places where the goal's object "
    "is usually kept, open closed receptacles, and take only admissible actions."
)
_MOVE = re.compile(r"^move (?P<obj>.+) to (?P<recep>.+)$")
_NOUN = re.compile(r"\b([a-z]+) \d+\b")


_WALKTHROUGHS: ContextVar[Mapping[str, tuple[str, ...]]] = ContextVar(
    "alfworld_walkthroughs", default=MappingProxyType({})
)
"""The walkthroughs of the trial being played, by first observation: each trial runs in a
context of its own, so each sees only its own games."""


def first_observation_key(observation: str) -> str:
    return " ".join(observation.split())


@contextmanager
def trial_walkthroughs(games: Mapping[str, Sequence[str]]) -> Iterator[None]:
    """Hand the oracle the walkthroughs of the trial played inside: ``games`` maps each game's
    first observation (:func:`first_observation_key`) to its walkthrough, and may be filled as
    the games start (a trial's curriculum never holds two games with one first observation)."""
    token = _WALKTHROUGHS.set(_Plans(games))
    try:
        yield
    finally:
        _WALKTHROUGHS.reset(token)


class _Plans(Mapping[str, tuple[str, ...]]):
    """A read-only view of a trial's walkthroughs."""

    def __init__(self, games: Mapping[str, Sequence[str]]) -> None:
        self._games = games

    def __getitem__(self, key: str) -> tuple[str, ...]:
        return tuple(self._games[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)


def _turns(pairs: Sequence[tuple[str, str]]) -> list[tuple[int, str]]:
    """The user messages of the prompt, with their index."""
    return [(i, text) for i, (role, text) in enumerate(pairs) if role == "user"]


def _styled(action: str, seed: int, step: int) -> str:
    style = random.Random(f"{seed}:{step}:style").randrange(4)
    if style == 0:
        return f"ACTION: [{action}]"
    if style == 1:
        return f"> {action}"
    if style == 2:
        return f"Thought: the next step of my plan.\nAction: {action}"
    move = _MOVE.match(action)
    return f"put {move['obj']} in/on {move['recep']}" if move else action


def oracle(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    turns = _turns(pairs)
    if not turns or split_input(turns[-1][1]).actions is None:
        return REFLECTION
    plans = _WALKTHROUGHS.get()
    for index, text in reversed(turns):
        plan = plans.get(first_observation_key(split_input(text).observation))
        if plan is None:
            continue
        step = sum(1 for role, _ in pairs[index + 1 :] if role == "assistant")
        return _styled(plan[step] if step < len(plan) else "look", seed, step)
    return "look"


def random_player(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    turns = _turns(pairs)
    actions = split_input(turns[-1][1]).actions if turns else None
    if actions is None:
        return REFLECTION
    if not actions:
        return "look"
    step = sum(1 for role, _ in pairs if role == "assistant")
    rng = random.Random(f"{seed}:{step}:{turns[-1][1]}")
    return _styled(rng.choice(actions), seed, step)


_IMAGINED = (
    "teleport to the {noun}",
    "eat the {noun}",
    "put {noun} 1 in/on the ceiling",
    "ask the {noun} for help",
    "fly to the {noun}",
    "cook {noun} 1 with stoveburner 9",
)


def hallucinating(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    turns = _turns(pairs)
    if not turns:
        return REFLECTION
    shown = split_input(turns[-1][1])
    if shown.actions is None:
        return REFLECTION
    nouns = sorted(set(_NOUN.findall(shown.observation))) or ["garden"]
    step = sum(1 for role, _ in pairs if role == "assistant")
    rng = random.Random(f"{seed}:{step}:imagined")
    allowed = {normalize_action(a) for a in shown.actions}
    for _ in range(20):
        action = rng.choice(_IMAGINED).format(noun=rng.choice(nouns))
        if normalize_action(action) not in allowed:
            return f"ACTION: [{action}]"
    return "ACTION: [dance with the moon]"


def silent(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    return ""


PLAYERS: dict[str, PairsFn] = {
    "oracle": oracle,
    "random": random_player,
    "hallucinating": hallucinating,
    "silent": silent,
}
