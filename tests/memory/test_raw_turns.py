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


async def test_the_whole_store_is_ranked_apart_from_what_the_reader_is_shown() -> None:
    texts = ["Ann moved to Oslo", "the weather is grey", "Oslo has fjords", "lunch at noon"]
    for search in ("dense", "lexical", "hybrid"):
        mem = raw(top_k=2, search=search, tags=False, ingest_roles=["user"])
        assert await mem.rank_all(context(FakeLLM())) is None  # nothing asked yet
        for i, text in enumerate(texts, start=1):
            await mem.ingest(TurnRecord(i, text, "", source_ids=(f"s_{i}",)), context(FakeLLM()))
        shown = await mem.retrieve("Oslo", context(FakeLLM()))
        ranking = await mem.rank_all(context(FakeLLM()))
        assert ranking is not None
        # every message once; a lexical search's records without a shared word follow in
        # the order taken in
        assert sorted(e[0] for e in ranking) == ["s_1", "s_2", "s_3", "s_4"], search
        assert {e[0] for e in ranking[:2]} == {"s_1", "s_3"}, search
        if search == "lexical":
            assert [e[0] for e in ranking[2:]] == ["s_2", "s_4"]
        # ranking everything leaves what the reader was shown as it was
        assert [i.source_ids for i in mem.retrieved() or []] == [i.source_ids for i in shown]
        assert len(shown) == 2


async def test_an_empty_query_ranks_the_store_in_the_order_taken_in() -> None:
    mem = raw(top_k=1, search="hybrid")
    for i in (1, 2):
        await mem.ingest(TurnRecord(i, f"note {i}", "", source_ids=(f"s_{i}",)), context(FakeLLM()))
    await mem.retrieve("  ", context(FakeLLM()))
    assert await mem.rank_all(context(FakeLLM())) == [["s_1"], ["s_2"]]
