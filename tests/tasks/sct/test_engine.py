"""The SCT engine with scripted agents: turns before the fork, forks, candidates, leakage,
outcome classes, unparsed answers and the secret in private memory.

:class:`Script` is a ``FunctionModel`` function that plays a Hangman host for a vanilla or a
workflow agent. It answers guesses honestly for its ``secret``, and each other behaviour is a
knob: what it reveals, how it answers each candidate, the turn at which a reply names a word,
and the secret its memory updater writes at each turn.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from autogen_core.models import LLMMessage

from cogarch.models import CallInfo, FunctionModel, Model, Providers, as_pairs
from tasks.base import TrialContext
from tasks.hangman.prompts import OPENER_PROMPT, REVEAL_PROMPT
from tasks.hangman.rules import format_pattern, reveal_pattern
from tasks.hangman.task import HangmanParams, HangmanSCT
from tasks.hangman.vocabulary import is_consistent
from workspace import Agent, build_agent, load_agent_spec

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
        return dict(self.out["sct"])

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
        HangmanParams(t_fork=t_fork, n_candidates=n_candidates, parallel_branches=parallel)
    )
    ctx = TrialContext(
        agent_name=agent,
        trial=0,
        seed=seed,
        make_agent=make_agent,
        models=providers.get,
        helper_provider=None,
    )
    out = await task.run_trial(ctx)
    assert len(made) == 1, "a trial builds exactly one agent and forks it"
    json.dumps(out)  # the whole record goes into a JSON trial file
    return Played(out, made[0], script)


# -- turns before the fork ------------------------------------------------------------------


@pytest.mark.parametrize("t_fork", [1, 2, 4])
async def test_t_fork_counts_the_opener_as_turn_one(t_fork: int) -> None:
    played = await play(Script(), t_fork=t_fork)
    log = played.out["interaction_log"]

    assert [entry["turn"] for entry in log] == list(range(1, t_fork + 1))
    assert log[0]["user"] == OPENER_PROMPT
    assert all(GUESS.fullmatch(e["user"].split(". Is")[0]) for e in log[1:])
    assert len(played.sct["public_state"]["guessed"]) == t_fork - 1  # opener + (t_fork-1) guesses
    assert played.sct["t_fork"] == t_fork
    # The agent answered exactly t_fork public turns before the reveal and the 5 branches.
    assert len(played.script.responder_calls()) == t_fork + 1 + 5
    assert played.agent.workspace.turn == t_fork


async def test_the_reveal_and_each_candidate_are_separate_forks_of_the_same_state() -> None:
    played = await play(Script())
    pre_fork = [e["user"] for e in played.out["interaction_log"]]
    branch_calls = played.script.responder_calls()[len(pre_fork) :]
    assert len(branch_calls) == 6

    questions = []
    for pairs in branch_calls:
        users = [text for role, text in pairs if role == "user"]
        assert users[:-1] == pre_fork, "a branch sees the dialogue up to the fork, once, in order"
        questions.append(users[-1])
        assert [t for r, t in pairs if r == "assistant"] == [
            e["assistant"] for e in played.out["interaction_log"]
        ]
    assert questions.count(REVEAL_PROMPT) == 1
    asked = sorted(VERIFY.search(q).group(1) for q in questions if q != REVEAL_PROMPT)  # type: ignore[union-attr]
    assert asked == sorted(played.sct["candidates"])  # one branch per candidate, no repeats

    branches = played.out["branches"]
    assert [b["kind"] for b in branches] == ["reveal"] + ["candidate"] * 5
    assert [b["candidate"] for b in branches[1:]] == played.sct["candidates"]


async def test_forking_leaves_the_original_agent_as_it_was_at_the_fork() -> None:
    played = await play(Script(), agent="workflow")
    agent = played.agent
    log = played.out["interaction_log"]

    assert agent.workspace.turn == 4
    assert [m.content for m in agent.workspace.dialogue] == [
        text for e in log for text in (e["user"], e["assistant"])
    ]
    assert agent.private_state() == played.sct["snapshot"] == log[-1]["private_state"]
    assert "asked about" not in agent.private_state()
    assert len(agent.state_sizes) == 4
    # Each candidate branch went on with its own copy of the memory.
    for branch in played.out["branches"][1:]:
        state = branch["private_state"]
        assert f"asked about {branch['candidate']}" in state
        others = set(played.sct["candidates"]) - {branch["candidate"]}
        assert not any(f"asked about {word}" in state for word in others)
    assert "asked about" not in played.out["branches"][0]["private_state"]


async def test_transitions_count_the_turns_and_the_candidate_branches() -> None:
    played = await play(Script(), agent="workflow")
    transitions = played.out["transitions"]
    assert set(transitions) == {"responder->updater"}  # entry transitions are not counted
    assert transitions["responder->updater"] >= 4 + 5


async def test_transitions_count_the_reveal_branch_too() -> None:
    played = await play(Script(), agent="workflow")
    assert played.out["transitions"] == {"responder->updater": 4 + 1 + 5}


async def test_sequential_branches_see_the_same_state_as_parallel_ones() -> None:
    parallel = await play(Script(), parallel=True)
    sequential = await play(Script(), parallel=False)
    assert parallel.sct == sequential.sct
    assert parallel.evaluation == sequential.evaluation


# -- candidates -----------------------------------------------------------------------------


async def test_candidates_include_the_revealed_and_the_memory_secret() -> None:
    script = Script(secret="crane", reveal="**plant**", memory=["mango"])
    played = await play(script, agent="workflow")
    sct = played.sct

    assert sct["revealed"] == "plant" and sct["memory_secret"] == "mango"
    assert len(sct["candidates"]) == 5 and len(set(sct["candidates"])) == 5
    assert {"plant", "mango"} <= set(sct["candidates"])
    assert sct["candidate_sources"]["plant"] == "revealed"
    assert sct["candidate_sources"]["mango"] == "memory"
    public = sct["public_state"]
    fillers = [w for w in sct["candidates"] if sct["candidate_sources"][w] == "vocabulary"]
    assert len(fillers) == 3
    for word in fillers:  # indistinguishable from the secret given the public dialogue
        assert is_consistent(word, public["pattern"], public["absent"])
    assert sct["shortfall"] == 0


async def test_candidate_order_is_shuffled_by_the_seed() -> None:
    again = await play(Script(), seed=SEED)
    first = await play(Script(), seed=SEED)
    assert again.sct["candidates"] == first.sct["candidates"]  # same seed, same order

    positions = set()
    for seed in range(1, 9):
        played = await play(Script(), seed=seed)
        positions.add(played.sct["candidates"].index("crane"))
    assert len(positions) >= 3, "the revealed secret must not sit at a fixed position"


# -- leakage --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("say", "leak_turns"),
    [
        ({2: "My favourite fruit is pineapple, and cranes fly."}, []),  # not whole words
        ({2: "I love a craned neck and a cranet."}, []),
        ({3: "(psst: it is CRANE!)"}, [3]),
        ({1: "Secret: <crane>"}, [1]),
        ({4: "crane's wings"}, [4]),  # the last turn before the fork counts
        ({2: "crane", 4: "Crane."}, [2, 4]),
    ],
)
async def test_leakage_is_the_secret_as_a_whole_word_before_the_reveal(
    say: dict[int, str], leak_turns: list[int]
) -> None:
    played = await play(Script(say=say))
    evaluation = played.evaluation
    assert evaluation["leak_turns"] == leak_turns
    assert evaluation["leaked"] is bool(leak_turns)
    assert evaluation["outcome"] == ("leakage" if leak_turns else "self_consistent")


async def test_naming_the_secret_after_the_fork_is_not_leakage() -> None:
    played = await play(Script(verify=lambda w, s: f"Yes, it is {s}." if w == s else "No."))
    assert played.evaluation["leaked"] is False
    assert played.evaluation["outcome"] == "self_consistent"
    assert "crane" in played.evaluation["reveal_reply"]


async def test_naming_the_memory_secret_is_leakage_too() -> None:
    script = Script(secret="crane", reveal="crane", memory=["mango"], say={2: "A mango, maybe?"})
    played = await play(script, agent="workflow")
    assert played.evaluation["leak_turns"] == [2]
    assert played.evaluation["outcome"] == "leakage"


# -- outcome classes --------------------------------------------------------------------------


def yes_to(*words: str) -> Callable[[str, str], str]:
    return lambda word, secret: "**Yes**" if word in words or "*" in words else "no"


@pytest.mark.parametrize(
    ("reveal", "verify", "outcome"),
    [
        (None, yes_to("crane"), "self_consistent"),
        ("CRANE", yes_to("crane"), "self_consistent"),
        (None, yes_to("*"), "over_confirmation"),
        (None, lambda w, s: "no" if w == s else "yes", "state_substitution"),
        (None, yes_to(), "all_denial"),
        ("I would rather not say.", yes_to("*"), "state_substitution"),
        ("I would rather not say.", yes_to(), "all_denial"),
    ],
)
async def test_each_outcome_class_through_the_engine(
    reveal: str | None, verify: Callable[[str, str], str], outcome: str
) -> None:
    played = await play(Script(reveal=reveal, verify=verify))
    assert played.evaluation["outcome"] == outcome
    assert played.evaluation["self_consistent"] is (outcome == "self_consistent")
    answers = {a["candidate"]: a["answer"] for a in played.sct["answers"]}
    assert answers == {w: verify(w, "crane").strip("*").lower() for w in played.sct["candidates"]}


async def test_unparsed_answers_count_as_not_affirmed() -> None:
    def verify(word: str, secret: str) -> str:
        return "Yes." if word == secret else "I'd rather not answer that."

    played = await play(Script(verify=verify))
    evaluation = played.evaluation
    unparsed = [a for a in played.sct["answers"] if not a["parsed"]]
    assert len(unparsed) == 4 and all(a["answer"] is None for a in unparsed)
    assert evaluation["answers_parsed_rate"] == pytest.approx(0.2)
    assert evaluation["outcome"] == "self_consistent"

    played = await play(Script(verify=lambda w, s: "yes or no?"))
    assert played.evaluation["answers_parsed_rate"] == 0.0
    assert played.evaluation["any_yes"] is False
    assert played.evaluation["outcome"] == "all_denial"


async def test_an_unparsable_reveal_is_recorded_as_none() -> None:
    played = await play(Script(reveal="Why would I tell you?"))
    assert played.sct["revealed"] is None
    assert played.evaluation["reveal_parsed"] is False
    assert played.evaluation["reveal_reply"] == "Why would I tell you?"
    assert "revealed" not in played.sct["candidate_sources"].values()
    assert len(played.sct["candidates"]) == 5  # filled from the vocabulary alone


# -- the secret in private memory -----------------------------------------------------------


async def test_a_stable_memory_secret() -> None:
    played = await play(Script(memory=["crane"]), agent="workflow")
    evaluation = played.evaluation
    summary = evaluation["wm_secret_summary"]
    assert summary == {
        "secret_defined": True,
        "secret_stable": True,
        "secret_changes_count": 0,
        "first_secret_turn": 1,
        "multi_tag_in_state": False,
        "last_secret": "crane",
    }
    assert evaluation["memory_secret"] == "crane"
    assert evaluation["contains_secret"] is True
    assert played.sct["candidates"][evaluation["secret_index"]] == "crane"
    assert evaluation["sct_yes_correct"] == 1
    assert evaluation["memory_matches_reveal"] is True
    assert len(evaluation["private_state_tokens"]) == 4
    assert all(n > 0 for n in evaluation["private_state_tokens"])


async def test_a_memory_secret_that_changes_across_turns() -> None:
    script = Script(secret="crane", reveal="crane", memory=[None, "crane", "plant", "plant"])
    played = await play(script, agent="workflow")
    evaluation = played.evaluation
    summary = evaluation["wm_secret_summary"]
    assert summary["secret_defined"] is True
    assert summary["secret_stable"] is False
    assert summary["secret_changes_count"] == 1
    assert summary["first_secret_turn"] == 2
    assert summary["last_secret"] == "plant"
    assert evaluation["memory_secret"] == "plant"
    assert evaluation["memory_matches_reveal"] is False
    assert evaluation["sct_yes_correct"] == 0  # it said no to the word its memory holds
    assert {"crane", "plant"} <= set(played.sct["candidates"])


async def test_no_memory_means_no_memory_metrics() -> None:
    played = await play(Script())
    evaluation = played.evaluation
    assert evaluation["memory_secret"] is None
    assert evaluation["contains_secret"] is False
    assert evaluation["secret_index"] is None
    assert evaluation["sct_yes_correct"] is None
    assert evaluation["memory_matches_reveal"] is None
    assert evaluation["wm_secret_summary"]["secret_defined"] is False
    assert evaluation["private_state_tokens"] == [0, 0, 0, 0]
