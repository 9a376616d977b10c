"""The raw-message memory behind the `rag` and `raw_turns` agents."""

from __future__ import annotations

from cogarch.core.memory import TurnRecord
from cogarch.memory.registry import build_memory
from cogarch.memory.retrieval.embeddings import HashEmbedder
from cogarch.memory.retrieval.raw_turns import RawTurnMemory
from tests.memory import FakeLLM, context


def raw(**params: object) -> RawTurnMemory:
    module = build_memory("raw_turns", {"embedder": "hash", **params})
    assert isinstance(module, RawTurnMemory)
    return module


async def test_every_message_is_stored_once_and_nothing_calls_a_model() -> None:
    mem = raw()
    llm = FakeLLM()
    await mem.ingest(TurnRecord(1, "the invoice is due Friday", "noted: Friday"), context(llm))
    await mem.ingest(TurnRecord(2, "the invoice is due Friday", "noted again"), context(llm))
    assert len(mem.store) == 4
    assert len({r.id for r in mem.store.all()}) == 4
    assert llm.prompts == []


async def test_block_tags_turn_and_speaker_or_lists_plain_lines() -> None:
    tagged, plain = raw(top_k=1), raw(top_k=1, tags=False)
    for mem in (tagged, plain):
        await mem.ingest(TurnRecord(3, "ship the parcel to Oslo", "ok, Oslo"), context(FakeLLM()))
        await mem.retrieve("ship the parcel to Oslo", context(FakeLLM()))
    assert tagged.render() == "[t3.user] ship the parcel to Oslo"
    assert plain.render() == "- ship the parcel to Oslo"


async def test_empty_query_or_store_returns_nothing_and_state_round_trips() -> None:
    mem = raw()
    assert await mem.retrieve("anything", context(FakeLLM())) == []
    moved = TurnRecord(1, "Ann: I moved to Oslo", "", source_ids=("D1:3",))
    await mem.ingest(moved, context(FakeLLM()))
    assert await mem.retrieve("   ", context(FakeLLM())) == []
    again = raw()
    again.load_state(mem.save_state())
    (item,) = await again.retrieve("Oslo", context(FakeLLM()))
    assert item.source_ids == ["D1:3"]
    await again.ingest(TurnRecord(2, "Bob: welcome", ""), context(FakeLLM()))
    assert len({r.id for r in again.store.all()}) == 2


class CountingEmbedder(HashEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.batches: list[int] = []

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.batches.append(len(texts))
        return super().embed(texts)


async def test_turns_taken_in_together_are_embedded_in_one_batch_as_one_at_a_time() -> None:
    turns = [TurnRecord(i, f"message {i} about Oslo", f"reply {i}") for i in range(1, 41)]
    batched, single = CountingEmbedder(), CountingEmbedder()
    together = RawTurnMemory(RawTurnMemory.Params(embedder="hash"), embedder=batched)
    one_by_one = RawTurnMemory(RawTurnMemory.Params(embedder="hash"), embedder=single)
    assert await together.ingest_many(turns, context(FakeLLM())) == {}
    for turn in turns:
        await one_by_one.ingest(turn, context(FakeLLM()))
    assert batched.batches == [80] and single.batches == [2] * 40
    assert together.save_state() == one_by_one.save_state()
    assert await together.ingest_many(turns[:3], context(FakeLLM())) == {}  # taken in already
    assert len(together.store) == 80 and together.stats["turns_skipped"] == 3
