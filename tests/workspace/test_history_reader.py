"""LongMemEval's official readers as ready-made agents: the exact answer prompt, chunks
sorted by date, JSON or natural-language history, step by step, Chain-of-Note, the head of
the history kept within the window, and the memory saved and forked."""

from __future__ import annotations

import json
from typing import Any

from cogarch.core.host import Observation
from cogarch.models import as_pairs
from cogarch.tasks.longmemeval.question import question_message
from cogarch.workspace.specialists.history_reader import ANSWER_PROMPT, NOTE_PROMPT, head_within
from tests.workspace import make_agent

SESSIONS = [  # (session id, date, turns), given out of date order
    (
        "s_late",
        "2023/06/02 (Fri) 10:00",
        [("user", "I adopted a parrot named Kiwi."), ("assistant", "Lovely!")],
    ),
    ("s_early", "2023/05/01 (Mon) 08:15", [("user", "I own 3 bikes."), ("assistant", "Nice.")]),
]


class Recorder:
    def __init__(self, reply: str = "Kiwi") -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.reply = reply

    def __call__(self, messages: Any, info: Any) -> str:
        pairs = as_pairs(messages)
        self.calls.append((pairs[-1][1], dict(info.args)))
        return "a note" if "Extracted note" in pairs[-1][1] else self.reply


async def fed(name: str, brain: Recorder, **params: Any) -> Any:
    agent = make_agent(name, brain, **params)
    for sid, date, turns in SESSIONS:
        await agent.observe_many(
            [
                Observation(f"[{date}] {role}: {text}", (f"{sid}_{i + 1}",), None)
                for i, (role, text) in enumerate(turns)
            ]
        )
    return agent


def history(*sessions: tuple[str, list[dict[str, str]]]) -> str:
    return "".join(
        f"\n### Session {n}:\nSession Date: {date}\nSession Content:\n\n{json.dumps(turns)}\n"
        for n, (date, turns) in enumerate(sessions, start=1)
    )


EARLY = (
    "2023/05/01 (Mon) 08:15",
    [{"role": "user", "content": "I own 3 bikes."}, {"role": "assistant", "content": "Nice."}],
)
LATE = (
    "2023/06/02 (Fri) 10:00",
    [
        {"role": "user", "content": "I adopted a parrot named Kiwi."},
        {"role": "assistant", "content": "Lovely!"},
    ],
)


async def test_the_full_history_reader_asks_the_official_prompt() -> None:
    brain = Recorder()
    agent = await fed("longmemeval_full", brain)
    asked = question_message("What is my parrot's name?", "2023/06/10 (Sat) 09:00")
    assert await agent.respond(asked) == "Kiwi"
    [(prompt, args)] = brain.calls
    assert prompt == ANSWER_PROMPT.format(
        history=history(EARLY, LATE),
        date="2023/06/10 (Sat) 09:00",
        question="What is my parrot's name?",
    )
    assert args["temperature"] == 0.0 and args["max_tokens"] == 500
    assert agent.last_reply().retrieved is None  # the whole history: nothing ranked


async def test_retrieval_readers_rank_chunks_and_show_them_by_date() -> None:
    brain = Recorder()
    agent = await fed("longmemeval_sessions", brain, embedder="hash", top_k=1)
    await agent.respond(question_message("How many bikes do I own?", "2023/06/10 (Sat) 09:00"))
    prompt = brain.calls[0][0]
    assert history(EARLY) in prompt and "Kiwi" not in prompt
    [found] = agent.last_reply().retrieved or []
    assert found.source_ids == ["s_early_1", "s_early_2"]

    rounds = await fed("longmemeval_rounds", Recorder(), embedder="hash", top_k=2)
    await rounds.respond(question_message("What is my parrot's name?", "2023/06/10 (Sat) 09:00"))
    ranked = [r.source_ids for r in rounds.last_reply().retrieved or []]
    assert ranked[0] == ["s_late_1"] and all(len(ids) == 1 for ids in ranked)


async def test_natural_language_history_and_step_by_step() -> None:
    brain = Recorder()
    agent = await fed("longmemeval_full", brain, history_format="nl")
    await agent.respond(
        question_message("What is my parrot's name?", "2023/06/10 (Sat) 09:00", cot=True)
    )
    [(prompt, args)] = brain.calls
    assert "Session Content:\n\n\nuser: I own 3 bikes.\n\nassistant: Nice.\n" in prompt
    assert "Answer the question step by step" in prompt
    assert prompt.endswith("Question: What is my parrot's name?\nAnswer (step by step):")
    assert args["max_tokens"] == 800


async def test_chain_of_note_writes_one_note_per_chunk_first() -> None:
    brain = Recorder()
    agent = await fed("longmemeval_full", brain, chain_of_note=True)
    await agent.respond(question_message("What is my parrot's name?", "2023/06/10 (Sat) 09:00"))
    notes, answer = brain.calls[:2], brain.calls[2]
    assert len(brain.calls) == 3
    assert notes[0][0] == NOTE_PROMPT.format(
        date=LATE[0],
        content=json.dumps(LATE[1]),
        question_date="2023/06/10 (Sat) 09:00",
        question="What is my parrot's name?",
    )
    assert all(a["temperature"] == 0.0 and a["max_tokens"] == 500 for _, a in notes)
    assert '\n{"session_summary": "a note"}\n' in answer[0]


async def test_the_history_keeps_its_head_within_the_window() -> None:
    brain = Recorder()
    agent = await fed("longmemeval_full", brain, history_tokens=20)
    await agent.respond(question_message("What is my parrot's name?", "2023/06/10 (Sat) 09:00"))
    prompt = brain.calls[0][0]
    assert "### Session 1:" in prompt and "Kiwi" not in prompt
    assert head_within("abc " * 100, 10) == ("abc " * 100)[: len(head_within("abc " * 100, 10))]


async def test_the_ingested_history_saves_loads_and_forks() -> None:
    agent = await fed("longmemeval_sessions", Recorder(), embedder="hash", top_k=2)
    fork = agent.fork()
    await fork.observe_many([Observation("[2023/07/01 (Sat) 10:00] user: new", ("s_new_1",))])
    assert "new" not in agent.private_state() and "new" in fork.private_state()
    twin = make_agent("longmemeval_sessions", Recorder(), embedder="hash", top_k=2)
    twin.load_state(agent.save_state())
    assert twin.private_state() == agent.private_state()
    await twin.respond(question_message("How many bikes do I own?", "2023/06/10 (Sat) 09:00"))
    assert (twin.last_reply().retrieved or [])[0].source_ids == ["s_early_1", "s_early_2"]
