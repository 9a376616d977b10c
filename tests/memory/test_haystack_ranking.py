"""The official readers' haystack memory ranks every chunk it holds, apart from the top k
the reader is shown."""

from __future__ import annotations

from cogarch.core.memory import TurnRecord
from cogarch.memory.registry import build_memory
from cogarch.memory.retrieval.haystack import HaystackMemory
from tests.memory import FakeLLM, context

DATE = "2023/05/30 (Tue) 23:40"
LINES = [
    ("a_1", "user", "my sister moved to Lisbon"),
    ("a_2", "assistant", "Lisbon is lovely"),
    ("b_1", "user", "a rice recipe please"),
    ("b_2", "assistant", "try beans"),
    ("c_1", "user", "   "),
    ("c_2", "assistant", "anything else?"),
    ("d_1", "user", "plants in winter"),
]


async def haystack(**params: object) -> HaystackMemory:
    module = build_memory("haystack", {"embedder": "hash", "store": "memory", **params})
    assert isinstance(module, HaystackMemory)
    records = [
        TurnRecord(i, f"[{DATE}] {role}: {text}", "", source_ids=(tid,), time="2023-05-30T23:40")
        for i, (tid, role, text) in enumerate(LINES, start=1)
    ]
    await module.ingest_many(records, context(FakeLLM()))
    return module


async def test_rounds_rank_every_user_turn_and_sessions_every_session() -> None:
    rounds = await haystack(granularity="round", top_k=1, search="hybrid")
    shown = await rounds.retrieve("where did my sister move", context(FakeLLM()))
    ranking = await rounds.rank_all(context(FakeLLM()))
    assert [i.source_ids for i in shown] == [["a_1"]]
    # a user turn with no words is not indexed, yet held: it comes last
    assert ranking is not None and ranking[0] == ["a_1"] and ranking[-1] == ["c_1"]
    assert sorted(e[0] for e in ranking) == ["a_1", "b_1", "c_1", "d_1"]
    sessions = await haystack(granularity="session", top_k=1, search="lexical")
    await sessions.retrieve("rice recipe", context(FakeLLM()))
    ranking = await sessions.rank_all(context(FakeLLM()))
    assert ranking == [["b_1", "b_2"], ["a_1", "a_2"], ["c_1", "c_2"], ["d_1"]]


async def test_the_full_history_reader_ranks_nothing() -> None:
    full = await haystack(select="all")
    await full.retrieve("anything", context(FakeLLM()))
    assert await full.rank_all(context(FakeLLM())) is None
