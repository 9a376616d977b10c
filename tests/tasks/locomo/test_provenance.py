"""Stored memories keep the dialog ids they came from, through update, merge and evolution."""

from __future__ import annotations

from typing import Any

from cogarch.core.memory import TurnRecord
from cogarch.memory.retrieval.amem import AMemMemory
from cogarch.memory.retrieval.embeddings import HashEmbedder
from cogarch.memory.retrieval.lightmem import LightMemMemory
from cogarch.memory.retrieval.mem0 import Mem0Memory
from cogarch.memory.retrieval.memoryos import MemoryOSMemory
from cogarch.memory.retrieval.raw_turns import RawTurnMemory
from tests.memory import FakeLLM, context


def turn(index: int, text: str, dia: str) -> TurnRecord:
    return TurnRecord(index, text, "", source_ids=(dia,))


async def test_mem0_add_keeps_the_window_ids_and_update_keeps_the_union() -> None:
    mem = Mem0Memory(
        Mem0Memory.Params(embedder="hash", window=1), provider="f", embedder=HashEmbedder()
    )
    add = FakeLLM(
        FactList={"facts": ["Ann has a cat"]},
        UpdatePlan={"memory": [{"id": "", "text": "Ann has a cat", "event": "ADD"}]},
    )
    await mem.ingest(turn(1, "Ann: I adopted a cat", "D1:1"), context(add))
    assert [m.source_ids for m in mem.memories()] == [["D1:1"]]

    def update(prompt: str) -> dict[str, Any]:
        return {"memory": [{"id": "0", "text": "Ann has a cat named Pixel", "event": "UPDATE"}]}

    upd = FakeLLM(FactList={"facts": ["Cat is named Pixel"]}, UpdatePlan=update)
    await mem.ingest(turn(2, "Ann: her name is Pixel", "D2:5"), context(upd))
    (item,) = mem.memories()
    assert item.text == "Ann has a cat named Pixel"
    assert item.source_ids == ["D1:1", "D2:5"]
    found = await mem.retrieve("Pixel", context(upd))
    assert found[0].source_ids == ["D1:1", "D2:5"]
    restored = Mem0Memory(Mem0Memory.Params(embedder="hash"), embedder=HashEmbedder())
    restored.load_state(mem.save_state())
    assert restored.memories()[0].source_ids == ["D1:1", "D2:5"]


async def test_amem_evolved_neighbour_keeps_its_ids_and_the_new_notes() -> None:
    llm = FakeLLM(
        NoteAnalysis={"keywords": ["cat"], "context": "pets", "tags": ["pet"]},
        Evolution={
            "should_evolve": True,
            "actions": ["update_neighbor"],
            "new_context_neighborhood": ["pets, now named"],
            "new_tags_neighborhood": [["pet", "name"]],
        },
    )
    mem = AMemMemory(AMemMemory.Params(embedder="hash"), provider="f", embedder=HashEmbedder())
    await mem.ingest(turn(1, "I adopted a cat", "D1:1"), context(llm))
    await mem.ingest(turn(2, "The cat is called Pixel", "D2:3"), context(llm))
    notes = {n.text: n.source_ids for n in mem.notes()}
    assert notes == {"I adopted a cat": ["D1:1", "D2:3"], "The cat is called Pixel": ["D2:3"]}


async def test_lightmem_fact_keeps_its_source_and_an_offline_update_merges_ids() -> None:
    llm = FakeLLM(
        FactBatch={"facts": [{"source": 0, "fact": "Ann has a cat named Pixel"}]},
        UpdateDecision={"action": "update", "new_text": "Ann has a grey cat named Pixel"},
    )
    mem = LightMemMemory(
        LightMemMemory.Params(embedder="hash", update="after_flush", update_threshold=0.5),
        provider="f",
        embedder=HashEmbedder(),
    )
    await mem.ingest(turn(1, "I adopted a cat named Pixel", "D1:1"), context(llm))
    await mem.ingest(turn(2, "Pixel is a grey cat", "D2:4"), context(llm))
    ids = sorted(tuple(e.source_ids) for e in mem.entries())
    assert ("D1:1", "D2:4") in ids and ("D2:4",) in ids


async def test_raw_turns_store_each_message_with_its_dialog_id() -> None:
    mem = RawTurnMemory(RawTurnMemory.Params(embedder="hash", top_k=1), embedder=HashEmbedder())
    await mem.ingest(turn(1, "I adopted a cat", "D1:1"), context(FakeLLM()))
    await mem.ingest(turn(2, "My band played in Lisbon", "D1:2"), context(FakeLLM()))
    (hit,) = await mem.retrieve("band Lisbon", context(FakeLLM()))
    assert hit.source_ids == ["D1:2"]


async def test_memoryos_pages_and_promoted_knowledge_keep_their_dialog_ids() -> None:
    llm = FakeLLM(
        PageSummary={"summary": "Ann's cat Pixel", "keywords": ["cat", "pixel"]},
        ProfileUpdate={"profile": "Ann owns a cat."},
        Knowledge={"user_knowledge": ["Ann has a cat named Pixel"], "assistant_knowledge": []},
    )
    mem = MemoryOSMemory(
        MemoryOSMemory.Params(embedder="hash", short_term_capacity=1, heat_threshold=4.5),
        provider="f",
        embedder=HashEmbedder(),
    )
    for n in range(1, 6):
        await mem.ingest(turn(n, f"Ann: my cat Pixel, part {n}", f"D1:{n}"), context(llm))
    assert mem.stats["promotions"] == 1
    filed = sorted(mem.pages.values(), key=lambda p: p.turn)
    assert [p.source_ids for p in filed] == [[f"D1:{n}"] for n in range(1, len(filed) + 1)]
    (entry,) = mem.knowledge_store.all()
    assert entry.metadata["source_ids"] == [p.source_ids[0] for p in filed]
    found = await mem.retrieve("Ann cat Pixel", context(llm))
    knowledge = [i for i in found if i.fields.get("tier") == "knowledge"]
    assert knowledge and knowledge[0].source_ids == entry.metadata["source_ids"]
    pages = [i for i in found if i.fields.get("tier") == "mid"]
    assert pages and all(i.source_ids[0].startswith("D1:") for i in pages)
    restored = MemoryOSMemory(MemoryOSMemory.Params(embedder="hash"), embedder=HashEmbedder())
    restored.load_state(mem.save_state())
    assert restored.knowledge_store.all()[0].metadata["source_ids"] == entry.metadata["source_ids"]
