"""cogarch's own retrieval memories embed with the static embedder unless told otherwise; the
modules over the real libraries embed with MiniLM, as the libraries do."""

from __future__ import annotations

import pytest

from cogarch.memory.registry import MEMORY_MODULES
from cogarch.memory.retrieval.libs.base import LibraryModule
from cogarch.memory.retrieval.params import RetrievalParams
from cogarch.workspace import load_agent_spec

OWN = ("raw_turns", "mem0", "amem", "lightmem", "memoryos", "haystack")
LIBRARIES = ("mem0_lib", "amem_lib", "memoryos_lib")


@pytest.mark.parametrize("kind", OWN)
def test_an_own_retrieval_memory_embeds_with_the_static_embedder_by_default(kind: str) -> None:
    params = MEMORY_MODULES.get(kind).Params()
    assert isinstance(params, RetrievalParams) and params.embedder == "static"


@pytest.mark.parametrize("kind", LIBRARIES)
def test_a_library_memory_embeds_with_minilm_by_default(kind: str) -> None:
    module = MEMORY_MODULES.get(kind)
    assert issubclass(module, LibraryModule)
    assert module.Params().embedder == "minilm"


@pytest.mark.parametrize(
    "agent", ["raw_turns", "raw_turns_hybrid", "rag", "mem0", "longmemeval_sessions"]
)
def test_the_ready_made_retrieval_agents_embed_with_the_static_embedder(agent: str) -> None:
    spec = load_agent_spec(agent)
    embedders = {part.params().get("embedder") for part in spec.memory.values()}
    assert embedders == {"static"}
