"""A scripted Hangman host for the SCT engine tests.

:class:`Script` is a ``FunctionModel`` function that plays a Hangman host for a vanilla or a
workflow agent. It answers guesses honestly for its ``secret``, and each other behaviour is a
knob: what it reveals, how it answers each candidate, the turn at which a reply names a word,
and the secret its memory updater writes at each turn. :func:`play` runs one trial with it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from autogen_core.models import LLMMessage

from cogarch.core.task import TrialContext
from cogarch.models import CallInfo, FunctionModel, Model, Providers, as_pairs
from cogarch.tasks.hangman.prompts import REVEAL_PROMPT
from cogarch.tasks.hangman.rules import format_pattern, reveal_pattern
from cogarch.tasks.hangman.task import HangmanParams, HangmanSCT
from cogarch.workspace import Agent, build_agent, load_agent_spec

GUESS = re.compile(r'My next guess is the letter "([a-z])"')
VERIFY = re.compile(r'Is the secret word "([a-z]+)"\?')
UPDATER = "You are a memory updater"
SEED = 20240601


def guesses_in(text: str) -> list[str]:
    seen: dict[str, None] = {}
    for letter in GUESS.findall(text):
        seen.setdefault(letter, None)
    return list(seen)


def memory_text(secret: str | None, notes: Sequence[str] = ()) -> str:
    facts = f"- Secret word: <secret>{secret}</secret>" if secret else "- (no secret yet)"
    lines = "\n".join(f"- {n}" for n in notes) or "- none"
    return (
        "## 1. Goals and Plans\n- Host Hangman.\n\n"
        f"## 2. Facts and Knowledge\n{facts}\n\n## 3. Active Notes\n{lines}"
    )


@dataclass
class Script:
    """A scripted host; see the module docstring. ``calls`` keeps every prompt it saw."""

    secret: str = "crane"
    reveal: str | None = None
    """The reveal reply (default: ``The secret word is <secret>.``)."""
    verify: Callable[[str, str], str] = lambda word, secret: "Yes." if word == secret else "No."
    """``(candidate, secret) -> reply`` in each candidate branch."""
    say: dict[int, str] = field(default_factory=dict)
    """Extra public text added to the reply of a turn (1 = the opener)."""
    memory: Sequence[str | None] = ()
    """The secret the memory updater stores after each turn (the last one repeats)."""
    calls: list[list[tuple[str, str]]] = field(default_factory=list)

    def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> str:
        pairs = as_pairs(messages)
        self.calls.append(pairs)
        last = next(text for role, text in reversed(pairs) if role == "user")
        if any(role == "system" and text.startswith(UPDATER) for role, text in pairs):
            return self._update(" ".join(text for _, text in pairs), last)
        if last == REVEAL_PROMPT:
            return self.reveal if self.reveal is not None else f"The secret word is {self.secret}."
        asked = VERIFY.search(last)
        if asked is not None:
            return self.verify(asked.group(1), self.secret)
        guesses = guesses_in(" ".join(text for role, text in pairs if role == "user"))
        board = format_pattern(reveal_pattern(self.secret, guesses))
        misses = sum(g not in self.secret for g in guesses)
        reply = f"Pattern: {board}\nRemaining lives: {6 - misses}"
        extra = self.say.get(len(guesses) + 1)
        return f"{reply}\n{extra}" if extra else reply

    def _update(self, prompt: str, current: str) -> str:
        turn = len(guesses_in(prompt)) + 1
        schedule = list(self.memory) or [self.secret]
        secret = schedule[min(turn, len(schedule)) - 1]
        asked = VERIFY.search(current)
        notes = [f"asked about {asked.group(1)}"] if asked else []
        call = {"name": "overwrite_memory", "arguments": {"new_memory": memory_text(secret, notes)}}
        return json.dumps(call)

    def responder_calls(self) -> list[list[tuple[str, str]]]:
        return [c for c in self.calls if not c[0][1].startswith(UPDATER)]


@dataclass
class Played:
    out: dict[str, Any]
    agent: Agent
    script: Script

    @property
    def sct(self) -> dict[str, Any]:
        return dict(self.out["payload"])

    @property
    def transitions(self) -> dict[tuple[str, str], int]:
        return {(t["source"], t["target"]): t["count"] for t in self.out["transitions"]}

    @property
    def evaluation(self) -> dict[str, Any]:
        return dict(self.out["evaluation"])


async def play(
    script: Script,
    *,
    agent: str = "vanilla",
    seed: int = SEED,
    t_fork: int = 4,
    n_candidates: int = 5,
    parallel: bool = True,
) -> Played:
    providers = Providers()
    model = Model(FunctionModel(script), provider="script", model="scripted", fake=True)
    providers.register("script", model)
    spec = load_agent_spec(agent)
    made: list[Agent] = []

    def make_agent() -> Agent:
        made.append(build_agent(spec, providers.get, provider="script", seed=seed))
        return made[-1]

    task = HangmanSCT(
        HangmanParams(
            t_fork=t_fork, n_candidates=n_candidates, branch_concurrency=50 if parallel else 1
        )
    )
    ctx = TrialContext(
        agent_name=agent,
        trial=0,
        seed=seed,
        agent_factory=make_agent,
        models=providers.get,
        helper_provider=None,
    )
    out = await task.run_trial(ctx)
    assert len(made) == 1, "a trial builds exactly one agent and forks it"
    return Played(json.loads(out.model_dump_json()), made[0], script)
