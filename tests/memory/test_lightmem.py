"""LightMem: compression, segment boundaries, buffer flushes, timestamps, offline update."""

from __future__ import annotations

import json
import re
from typing import Any

from cogarch.core.memory import TurnRecord
from cogarch.memory.retrieval.embeddings import HashEmbedder
from cogarch.memory.retrieval.lightmem import LightMemMemory, compress_text
from cogarch.models import Meter
from tests.memory import FakeLLM, context, second_reply_prompt

_LINE = re.compile(r"^\[(\d+)\] \S+ \w{3} \w+: (.*)$", re.MULTILINE)


def echo_facts(prompt: str) -> dict[str, Any]:
    """One fact per buffered message (the prompt's example is not one): 'User said: <text>'."""
    messages = prompt.split("\nMessages:\n")[1]
    return {
        "facts": [{"source": int(n), "fact": f"User said: {t}"} for n, t in _LINE.findall(messages)]
    }


def module(**params: Any) -> LightMemMemory:
    """A user-side-only module (the default also ingests replies), so segments follow the
    user's topics in these tests."""
    return LightMemMemory(
        LightMemMemory.Params(embedder="hash", ingest_roles=["user"], **params),
        provider="fake",
        embedder=HashEmbedder(),
    )


def test_compression_drops_frequent_function_words_only() -> None:
    text = 'My next guess is the letter "a". Is it not in the secret word?'
    assert compress_text(text) == 'next guess letter "a". not secret word?'
    assert compress_text("the of and") == "the of and"  # nothing left: keep the original
    assert compress_text(text, zipf_threshold=8.0) == text


async def test_a_topic_shift_closes_the_segment_and_flushes_the_buffer() -> None:
    llm = FakeLLM(FactBatch=echo_facts)
    mem = module(extract_each_turn=False, compress=False, segment_threshold=0.2)
    ctx = context(llm)
    await mem.ingest(TurnRecord(1, "mango papaya fruit salad", "ok"), ctx)
    await mem.ingest(TurnRecord(2, "fruit salad with mango and papaya", "ok"), ctx)
    assert llm.prompts == []  # same topic: still buffered
    assert [m.turn for m in mem.buffer] == [1, 2]
    await mem.ingest(TurnRecord(3, "train to berlin leaves at noon", "ok"), ctx)
    assert mem.boundaries == [3]
    [prompt] = llm.of("FactBatch")
    assert "Segment 1:\n[0] 2025-01-06T09:01:00.000 Mon user: mango papaya fruit salad" in prompt
    assert "[1] 2025-01-06T09:02:00.000 Mon user: fruit salad with mango and papaya" in prompt
    assert "berlin" not in prompt
    assert [(m.turn, m.segment) for m in mem.buffer] == [(3, 1)]
    assert [e.text for e in mem.entries()] == [
        "User said: mango papaya fruit salad",
        "User said: fruit salad with mango and papaya",
    ]


async def test_the_buffer_flushes_when_full() -> None:
    llm = FakeLLM(FactBatch=echo_facts)
    mem = module(extract_each_turn=False, compress=False, window=3)
    for n in range(1, 5):
        await mem.ingest(TurnRecord(n, f"hangman guess number {n}", "ok"), context(llm))
    assert len(llm.of("FactBatch")) == 1
    assert [e.fields["turn"] for e in mem.entries()] == [1, 2, 3]
    assert [m.turn for m in mem.buffer] == [4]
    tokens = module(extract_each_turn=False, compress=False, buffer_tokens=12)
    await tokens.ingest(TurnRecord(1, "hangman guess letter e please", "ok"), context(llm))
    assert tokens.buffer and len(llm.of("FactBatch")) == 1
    await tokens.ingest(TurnRecord(2, "hangman guess letter a please", "ok"), context(llm))
    assert not tokens.buffer and len(llm.of("FactBatch")) == 2


async def test_by_default_every_turn_is_extracted_with_compressed_text() -> None:
    llm = FakeLLM(FactBatch=echo_facts)
    mem = module()
    await mem.ingest(TurnRecord(1, "Let's play Hangman, you are the host.", "Sure!"), context(llm))
    await mem.ingest(TurnRecord(6, "My next guess is the letter n.", "No n."), context(llm))
    assert mem.buffer == []
    entries = mem.entries()
    assert [e.text for e in entries] == [
        "User said: Let's play Hangman, host.",
        "User said: next guess letter n.",
    ]
    assert entries[1].fields["source"] == "My next guess is the letter n."
    assert (entries[1].fields["timestamp"], entries[1].fields["weekday"]) == (
        "2025-01-06T09:06:00",
        "Mon",
    )
    assert "Sure!" not in "".join(llm.of("FactBatch"))  # only user messages by default


async def test_retrieval_renders_timestamp_weekday_and_fact() -> None:
    facts = {
        "facts": [
            {"source": 0, "fact": "User's next guess is the letter w."},
            {"source": 9, "fact": "User likes owls."},
        ]
    }
    llm = FakeLLM(FactBatch=facts)
    mem = module(top_k=1)
    await mem.ingest(TurnRecord(2, "Next guess: w", "ok"), context(llm))
    assert mem.stats["unknown_sources"] == 1
    await mem.retrieve("what was the next guess letter", context(llm))
    assert mem.render() == "2025-01-06T09:02:00.000 Mon User's next guess is the letter w."


async def test_offline_update_deletes_or_rewrites_older_similar_entries() -> None:
    llm = FakeLLM(FactBatch=echo_facts, UpdateDecision={"action": "delete"})
    mem = module(compress=False, update="after_flush", update_threshold=0.7)
    ctx = context(llm)
    await mem.ingest(TurnRecord(1, "user has six lives left", "ok"), ctx)
    await mem.ingest(TurnRecord(2, "weather is sunny", "ok"), ctx)
    assert llm.of("UpdateDecision") == []  # nothing similar enough yet
    await mem.ingest(TurnRecord(3, "user has five lives left", "ok"), ctx)
    [prompt] = llm.of("UpdateDecision")
    assert "Older entry:\nUser said: user has six lives left" in prompt
    assert "- User said: user has five lives left" in prompt
    assert [e.text for e in mem.entries()] == [
        "User said: weather is sunny",
        "User said: user has five lives left",
    ]
    llm.answers["UpdateDecision"] = {"action": "UPDATE", "new_text": "Weather: sunny, then rain"}
    await mem.ingest(TurnRecord(4, "weather is sunny then rain", "ok"), ctx)
    assert mem.entries()[0].text == "Weather: sunny, then rain"
    assert mem.stats["update_update"] == 1 and mem.stats["update_delete"] == 1


async def test_fork_state_and_metering() -> None:
    llm = FakeLLM(FactBatch=echo_facts)
    mem = module(extract_each_turn=False, compress=False)
    meter = Meter()
    with meter.active():
        await mem.ingest(TurnRecord(1, "apples and pears", "ok"), context(llm))
        await mem.ingest(TurnRecord(2, "trains to berlin", "ok"), context(llm))
    assert meter.summary()["by_caller"]["memory:lightmem"]["calls"] == 1
    branch = mem.fork()
    await branch.flush(context(llm))
    assert len(branch.entries()) == 2 and len(mem.entries()) == 1
    assert [m.text for m in mem.buffer] == ["trains to berlin"]
    other = module(extract_each_turn=False, compress=False)
    other.load_state(json.loads(json.dumps(mem.save_state())))
    assert other.private_text() == mem.private_text()
    assert other.private_text().endswith("[buffer]\nuser: trains to berlin")
    assert other.boundaries == [2] and other.last_vector == mem.last_vector


async def test_the_agent_spec_fills_the_memories_block() -> None:
    llm = FakeLLM(FactBatch=echo_facts, reply="Fine.")
    prompt = await second_reply_prompt(
        llm, "lightmem", "Let's play Hangman", "Play Hangman: next guess is e"
    )
    assert "RETRIEVED MEMORIES\n2025-01-06T09:01:00.000 Mon User said: Let's play Hangman" in prompt


async def test_turns_taken_in_together_embed_every_message_in_one_batch() -> None:
    class Counting(HashEmbedder):
        batches: list[int]

        def embed(self, texts: list[str]) -> list[list[float]]:
            self.batches = [*getattr(self, "batches", []), len(texts)]
            return super().embed(texts)

    turns = [
        TurnRecord(1, "mango papaya fruit salad", "ok"),
        TurnRecord(2, "fruit salad with mango and papaya", "ok"),
        TurnRecord(3, "stock markets fell sharply today", "ok"),
    ]
    states = []
    for batched in (True, False):
        embedder = Counting()
        mem = LightMemMemory(
            LightMemMemory.Params(embedder="hash", ingest_roles=["user"], extract_each_turn=False),
            provider="fake",
            embedder=embedder,
        )
        ctx = context(FakeLLM(FactBatch=echo_facts))
        if batched:
            assert await mem.ingest_many(turns, ctx) == {}
        else:
            for turn in turns:
                await mem.ingest(turn, ctx)
        states.append(mem.save_state())
        assert embedder.batches[0] == (3 if batched else 1)
    assert states[0] == states[1]
