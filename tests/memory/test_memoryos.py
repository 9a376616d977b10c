"""MemoryOS: FIFO eviction, the session merge rule, heat, promotion, retrieval, fork, state."""

from __future__ import annotations

import json
import math
from datetime import datetime, timedelta
from typing import Any

import pytest

from cogarch.core.memory import TurnRecord
from cogarch.errors import ModelCallError
from cogarch.memory.retrieval.embeddings import HashEmbedder, cosine
from cogarch.memory.retrieval.memoryos import MemoryOSMemory
from cogarch.models import Meter
from tests.memory import FakeLLM, context, second_reply_prompt


class FakeClock:
    def __init__(self) -> None:
        self.time = datetime(2025, 3, 3, 12, 0, 0)

    def __call__(self) -> datetime:
        return self.time


def module(clock: FakeClock | None = None, **params: Any) -> MemoryOSMemory:
    return MemoryOSMemory(
        MemoryOSMemory.Params(embedder="hash", **params),
        provider="fake",
        embedder=HashEmbedder(),
        clock=clock,
    )


SUMMARY = {"summary": "hangman secret word game", "keywords": ["hangman", "game"]}
PROFILE = {"profile": "Plays Hangman as the guesser."}
KNOWLEDGE = {
    "user_knowledge": ["User has 6 lives"],
    "assistant_knowledge": ["Assistant chose a secret word"],
}


def by_page(summaries: dict[str, dict[str, Any]]) -> Any:
    """A page summariser that answers by the page's user text."""

    def answer(prompt: str) -> dict[str, Any]:
        page = prompt.split("Page:\nUser: ")[1].split("\nAssistant:")[0]
        return summaries[page]

    return answer


async def test_short_term_is_a_fifo_and_evicted_pages_reach_a_session() -> None:
    llm = FakeLLM(PageSummary=SUMMARY)
    mem = module(short_term_capacity=3)
    for n in range(1, 5):
        await mem.ingest(TurnRecord(n, f"question {n}", f"answer {n}"), context(llm))
    assert [p.turn for p in mem.short_term] == [2, 3, 4]
    [prompt] = llm.of("PageSummary")
    assert "Page:\nUser: question 1\nAssistant: answer 1" in prompt
    [session] = mem.sessions.values()
    assert (session.summary, session.keywords, session.pages) == (
        SUMMARY["summary"],
        ["hangman", "game"],
        ["p1"],
    )
    assert mem.pages["p1"].session == session.id


async def test_a_page_joins_the_best_session_when_similarity_plus_overlap_reaches_threshold() -> (
    None
):
    summaries = {
        "q1": {"summary": "hangman secret word game", "keywords": ["hangman", "game"]},
        "q2": {"summary": "hangman secret word guess", "keywords": ["hangman", "guess"]},
        "q3": {"summary": "weather forecast paris", "keywords": ["weather"]},
        "q4": {"summary": "zebra crossing", "keywords": ["hangman", "game"]},
    }
    llm = FakeLLM(PageSummary=by_page(summaries))
    mem = module(short_term_capacity=1)
    embed = HashEmbedder().embed
    for n in range(1, 3):
        await mem.ingest(TurnRecord(n, f"q{n}", "a"), context(llm))
    assert list(mem.sessions) == ["s1"]  # the first page opens a session
    await mem.ingest(TurnRecord(3, "q3", "a"), context(llm))
    expected = cosine(*embed(["hangman secret word game", "hangman secret word guess"])) + 1 / 3
    assert mem.last_merge_score == pytest.approx(expected, abs=1e-5)
    assert mem.sessions["s1"].pages == ["p1", "p2"]
    assert mem.sessions["s1"].interaction == 2
    await mem.ingest(TurnRecord(4, "q4", "a"), context(llm))
    assert mem.last_merge_score is not None and mem.last_merge_score < 0.6
    assert list(mem.sessions) == ["s1", "s2"]  # unrelated summary, no shared keyword
    await mem.ingest(TurnRecord(5, "q5", "a"), context(llm))
    assert mem.sessions["s1"].pages == ["p1", "p2", "p4"]  # keyword overlap alone suffices

    strict = module(short_term_capacity=1, keyword_weight=0.0)
    for n in (1, 4, 5):
        await strict.ingest(TurnRecord(n, f"q{n}", "a"), context(llm))
    assert len(strict.sessions) == 2


async def test_heat_is_visits_plus_pages_plus_recency() -> None:
    clock = FakeClock()
    mem = module(clock, short_term_capacity=1)
    llm = FakeLLM(PageSummary=SUMMARY)
    await mem.ingest(TurnRecord(1, "q1", "a1"), context(llm))
    await mem.ingest(TurnRecord(2, "q2", "a2"), context(llm))
    session = mem.sessions["s1"]
    assert mem.heat(session) == pytest.approx(0 + 1 + 1.0)
    session.visits = 2
    clock.time += timedelta(hours=12)
    assert mem.heat(session) == pytest.approx(2 + 1 + math.exp(-0.5))
    clock.time += timedelta(hours=36)
    assert mem.heat(session) == pytest.approx(2 + 1 + math.exp(-2.0))


async def test_a_hot_session_is_promoted_to_profile_and_knowledge_and_cools_down() -> None:
    llm = FakeLLM(PageSummary=SUMMARY, ProfileUpdate=PROFILE, Knowledge=KNOWLEDGE)
    mem = module(short_term_capacity=1)
    for n in range(1, 5):
        await mem.ingest(TurnRecord(n, f"guess {n}", f"reply {n}"), context(llm))
    session = mem.sessions["s1"]
    assert mem.heat(session) == pytest.approx(3 + 1.0)
    assert llm.of("ProfileUpdate") == []
    await mem.ingest(TurnRecord(5, "guess 5", "reply 5"), context(llm))
    [prompt] = llm.of("ProfileUpdate")
    assert "Current profile:\nNone" in prompt
    assert all(f"User: guess {n}\nAssistant: reply {n}" in prompt for n in range(1, 5))
    assert mem.profile == "Plays Hangman as the guesser."
    assert (session.visits, session.interaction) == (0, 0)
    assert all(mem.pages[p].analyzed for p in session.pages)
    assert [r.text for r in mem.knowledge_store.all()] == [
        "User has 6 lives",
        "Assistant chose a secret word",
    ]
    assert mem.stats["promotions"] == 1
    await mem.ingest(TurnRecord(6, "guess 6", "reply 6"), context(llm))
    assert len(llm.of("ProfileUpdate")) == 1  # cooled down: no second promotion yet


async def test_a_failed_promotion_writes_nothing_and_waits_for_the_session_to_heat_again() -> None:
    broken = True

    def knowledge(prompt: str) -> Any:
        return "The user, hmm, I could go on" if broken else KNOWLEDGE

    llm = FakeLLM(PageSummary=SUMMARY, ProfileUpdate=PROFILE, Knowledge=knowledge)
    mem = module(short_term_capacity=1)
    for n in range(1, 5):
        await mem.ingest(TurnRecord(n, f"guess {n}", f"reply {n}"), context(llm))
    with pytest.raises(ModelCallError, match="no valid Knowledge"):
        await mem.ingest(TurnRecord(5, "guess 5", "reply 5"), context(llm))
    session = mem.sessions["s1"]
    assert mem.profile == "None"
    assert mem.knowledge_store.all() == []
    assert not any(mem.pages[p].analyzed for p in session.pages)
    assert (session.visits, session.interaction) == (0, 0)
    asked = len(llm.of("Knowledge"))
    broken = False
    for n in range(6, 9):
        await mem.ingest(TurnRecord(n, f"guess {n}", f"reply {n}"), context(llm))
    assert len(llm.of("Knowledge")) == asked  # not retried while the session is cool
    await mem.ingest(TurnRecord(9, "guess 9", "reply 9"), context(llm))
    prompt = llm.of("Knowledge")[-1]
    assert all(f"User: guess {n}\nAssistant: reply {n}" in prompt for n in range(1, 9))
    assert mem.profile == "Plays Hangman as the guesser."
    assert all(mem.pages[p].analyzed for p in session.pages)
    assert len(mem.knowledge_store.all()) == 2


async def test_retrieval_takes_top_sessions_then_pages_and_counts_visits() -> None:
    summaries = {
        "hangman secret word guess e": {"summary": "hangman secret word", "keywords": ["hangman"]},
        "weather in paris": {"summary": "weather paris", "keywords": ["weather"]},
        "now": {"summary": "x", "keywords": []},
    }
    llm = FakeLLM(PageSummary=by_page(summaries))
    mem = module(short_term_capacity=1, top_k=1, knowledge_k=1)
    for n, text in enumerate(summaries, 1):
        await mem.ingest(TurnRecord(n, text, f"reply {n}"), context(llm))
    assert set(mem.sessions) == {"s1", "s2"}
    items = await mem.retrieve("hangman secret word", context(llm))
    assert [(i.id, i.fields["tier"]) for i in items] == [("p1", "mid")]
    assert (mem.sessions["s1"].visits, mem.sessions["s2"].visits) == (1, 0)
    assert mem.render() == (
        "[Short-Term Memory]\n- Q: now A: reply 3 @ 2025-01-06 09:03:00\n"
        "[Mid-Term Memory]\n- Q: hangman secret word guess e A: reply 1 @ 2025-01-06 09:01:00\n"
        "[User Profile]\nNone\n"
        "[User Knowledge] (none)\n"
        "[Assistant Knowledge] (none)"
    )


async def test_rendering_cuts_long_pages_and_shows_knowledge() -> None:
    llm = FakeLLM(PageSummary=SUMMARY, ProfileUpdate=PROFILE, Knowledge=KNOWLEDGE)
    mem = module(short_term_capacity=1, render_chars=20)
    for n in range(1, 6):
        await mem.ingest(TurnRecord(n, f"guess {n} " + "x" * 40, f"reply {n}"), context(llm))
    await mem.retrieve("secret word lives", context(llm))
    block = mem.render()
    assert "- Q: guess 5 xxxxxxxxxxxx... A: reply 5 @ 2025-01-06 09:05:00" in block
    assert "[User Profile]\nPlays Hangman as the guesser." in block
    assert "[User Knowledge]\n- User has 6 lives" in block
    assert "[Assistant Knowledge]\n- Assistant chose a secret word" in block
    assert module().render() == (
        "[Short-Term Memory] (empty)\n[Mid-Term Memory] (empty)\n[User Profile]\nNone\n"
        "[User Knowledge] (none)\n[Assistant Knowledge] (none)"
    )


async def test_both_roles_are_ingested_by_default_and_the_choice_is_a_parameter() -> None:
    llm = FakeLLM()
    both, users = module(), module(ingest_roles=["user"])
    for mem in (both, users):
        await mem.ingest(TurnRecord(1, "My guess: e", "The secret has no e."), context(llm))
    assert both.short_term[0].assistant == "The secret has no e."
    assert users.short_term[0].assistant == ""


async def test_fork_state_and_metering() -> None:
    llm = FakeLLM(PageSummary=SUMMARY, ProfileUpdate=PROFILE, Knowledge=KNOWLEDGE)
    mem = module(short_term_capacity=1)
    meter = Meter()
    with meter.active():
        for n in range(1, 4):
            await mem.ingest(TurnRecord(n, f"guess {n}", f"reply {n}"), context(llm))
    assert meter.summary()["by_caller"]["memory:memoryos"]["calls"] == 2
    branch = mem.fork()
    assert branch.page_store.name == mem.page_store.name  # shared until a write
    for n in range(4, 7):
        await branch.ingest(TurnRecord(n, f"guess {n}", f"reply {n}"), context(llm))
    names = {mem.page_store.name, branch.page_store.name, mem.session_store.name}
    assert len(names) == 3
    assert mem.sessions["s1"].pages == ["p1", "p2"] and mem.profile == "None"
    assert branch.profile == PROFILE["profile"] and mem.knowledge_store.count() == 0
    assert mem.page_store.count() == 2 and branch.page_store.count() == 5

    restored = module(short_term_capacity=1)
    restored.load_state(json.loads(json.dumps(branch.save_state())))
    assert restored.private_text() == branch.private_text()
    assert restored.heat(restored.sessions["s1"]) == branch.heat(branch.sessions["s1"])
    await restored.ingest(TurnRecord(7, "guess 7", "reply 7"), context(llm))
    assert restored.pages["p6"].session == "s1" and restored.counters["page"] == 7


async def test_the_agent_spec_fills_the_memories_block() -> None:
    llm = FakeLLM(PageSummary=SUMMARY, reply="Word: _____")
    prompt = await second_reply_prompt(llm, "memoryos", "Let's play Hangman", "Is there an e?")
    assert (
        "[Short-Term Memory]\n- Q: Let's play Hangman A: Word: _____ @ 2025-01-06 09:01:00"
        in prompt
    )
