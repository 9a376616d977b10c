"""The ready-made retrieval agents take ``store: memory`` (the in-process vector store), as the
README says, and answer with it."""

from __future__ import annotations

import pytest

from cogarch.memory.retrieval.vector_store import VectorStore
from tests.workspace import make_agent

RETRIEVAL_AGENTS = ("rag", "raw_turns", "mem0", "lightmem", "amem", "memoryos")


def reply_ok(pairs: object, info: object) -> str:
    return '{"facts": [], "memory": []}'


@pytest.mark.parametrize("name", RETRIEVAL_AGENTS)
async def test_a_ready_made_retrieval_agent_keeps_its_vectors_in_process(name: str) -> None:
    agent = make_agent(name, reply_ok, store="memory", embedder="hash")
    stores = [
        value
        for module in agent.memory.values()
        for value in vars(module).values()
        if isinstance(value, VectorStore)
    ]
    assert stores, f"{name} built no in-process store"
    assert isinstance(await agent.respond("My cat is called Tom."), str)


@pytest.mark.parametrize("name", RETRIEVAL_AGENTS)
def test_the_default_store_is_still_chromadb(name: str) -> None:
    agent = make_agent(name, reply_ok, embedder="hash")
    assert all(m.params.store == "chroma" for m in agent.memory.values())
