"""The ready-made retrieval agents embed with the static embedder and search for the question an
input asks; the components' own defaults (MiniLM, the whole input) stay as they were, so a spec
that names neither keeps the meaning of the runs already made with it."""

from __future__ import annotations

import pytest

from cogarch.memory.registry import MEMORY_MODULES
from cogarch.memory.retrieval.params import RetrievalParams
from cogarch.workspace import load_agent_spec
from cogarch.workspace.specialists.retrieval import RetrievalMemory

READY_MADE = ("raw_turns", "raw_turns_hybrid", "rag", "mem0", "amem", "lightmem", "memoryos")


@pytest.mark.parametrize("agent", READY_MADE)
def test_a_ready_made_retrieval_agent_embeds_statically_and_searches_for_the_question(
    agent: str,
) -> None:
    spec = load_agent_spec(agent)
    assert {part.params().get("embedder") for part in spec.memory.values()} == {"static"}
    queries = {p.params().get("query") for p in spec.specialists.values() if p.kind == "retrieval"}
    assert queries == {"question"}


@pytest.mark.parametrize("agent", ["longmemeval_sessions", "longmemeval_rounds"])
def test_the_longmemeval_readers_embed_statically(agent: str) -> None:
    spec = load_agent_spec(agent)
    assert {part.params().get("embedder") for part in spec.memory.values()} == {"static"}


@pytest.mark.parametrize("kind", ["raw_turns", "mem0", "amem", "lightmem", "memoryos", "haystack"])
def test_a_module_named_without_an_embedder_keeps_minilm(kind: str) -> None:
    params = MEMORY_MODULES.get(kind).Params()
    assert isinstance(params, RetrievalParams) and params.embedder == "minilm"


def test_a_retrieval_step_named_without_a_query_searches_for_the_whole_input() -> None:
    assert RetrievalMemory.Params(memory="turns").query == "input"
