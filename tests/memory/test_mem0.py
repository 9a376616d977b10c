"""Mem0: fact extraction, ADD / UPDATE / DELETE / NONE with small ids, retrieval, fork, state."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from cogarch.core.memory import TurnRecord
from cogarch.errors import ConfigError
from cogarch.memory.registry import build_memory
from cogarch.memory.retrieval.embeddings import HashEmbedder
from cogarch.memory.retrieval.mem0 import Mem0Memory
from cogarch.models import FunctionModel, Meter, Model
from cogarch.workspace.spec import build_agent, load_agent_spec
from tests.memory import FakeLLM, context


def module(**params: Any) -> Mem0Memory:
    return Mem0Memory(
        Mem0Memory.Params(embedder="hash", **params), provider="fake", embedder=HashEmbedder()
    )


def shown_ids(prompt: str) -> dict[str, str]:
    """Small id -> memory text, as listed in an update prompt."""
    block = prompt.split("Existing memories:")[1].split("New facts:")[0]
    return {m["id"]: m["text"] for m in json.loads(block)}


def add_all(prompt: str) -> dict[str, Any]:
    facts = json.loads(prompt.split("New facts:")[1].split("Return ONLY")[0])
    return {"memory": [{"id": "new", "text": f, "event": "ADD"} for f in facts]}


def adding(*facts: str) -> FakeLLM:
    """A model that extracts ``facts`` and adds every one of them."""
    return FakeLLM(FactList={"facts": list(facts)}, UpdatePlan=add_all)


TURN1 = TurnRecord(1, "Let's play Hangman. I have 6 lives.", "Great, I picked a secret word.")


async def test_facts_come_from_the_window_of_both_roles_and_are_added() -> None:
    llm = FakeLLM(
        FactList={"facts": ["Wants to play Hangman", "Has 6 lives", "Has 6 lives"]},
        UpdatePlan=add_all,
    )
    mem = module()
    await mem.ingest(TURN1, context(llm))
    assert [m.text for m in mem.memories()] == ["Wants to play Hangman", "Has 6 lives"]
    extraction = llm.of("FactList")[0]
    assert "user: Let's play Hangman" in extraction
    assert "assistant: Great, I picked a secret word." in extraction  # as the reference agent
    assert mem.stats["add"] == 2
    first = mem.memories()[0]
    assert first.fields["created_at"] == "2025-01-06T09:01:00"
    assert first.fields["turn"] == 1


async def test_update_delete_none_apply_to_the_mapped_entries() -> None:
    mem = module()
    seed = FakeLLM(
        FactList={"facts": ["Has 6 lives", "Likes animals", "Wants a long word"]},
        UpdatePlan=add_all,
    )
    await mem.ingest(TURN1, context(seed))
    before = {m.text: m.id for m in mem.memories()}

    def decide(prompt: str) -> dict[str, Any]:
        by_text = {text: small for small, text in shown_ids(prompt).items()}
        return {
            "memory": [
                {"id": by_text["Has 6 lives"], "text": "Has 5 lives", "event": "UPDATE"},
                {"id": by_text["Likes animals"], "text": "", "event": "DELETE"},
                {"id": by_text["Wants a long word"], "text": "Wants a long word", "event": "NONE"},
                {"id": "99", "text": "Invented", "event": "UPDATE"},
                {"id": "42", "text": "", "event": "delete"},
                {"id": "x", "text": "Guessed the letter e", "event": "ADD"},
            ]
        }

    llm = FakeLLM(
        FactList={"facts": ["Has 5 lives", "Dislikes animals", "Guessed the letter e"]},
        UpdatePlan=decide,
    )
    await mem.ingest(TurnRecord(2, "I guessed e and lost a life.", "Yes."), context(llm))

    prompt = llm.of("UpdatePlan")[0]
    assert set(shown_ids(prompt)) <= {str(n) for n in range(9)}
    assert not re.search(r"\bm\d+\b", prompt)  # stored ids never reach the model
    after = {m.text: m.id for m in mem.memories()}
    assert after == {
        "Has 5 lives": before["Has 6 lives"],
        "Wants a long word": before["Wants a long word"],
        "Guessed the letter e": "m4",
    }
    assert mem.stats["ignored_ops"] == 2
    assert (mem.stats["update"], mem.stats["delete"], mem.stats["none"]) == (1, 1, 1)
    events = [(e["event"], e["old"]) for e in mem.events[-3:]]
    assert events == [("UPDATE", "Has 6 lives"), ("DELETE", "Likes animals"), ("ADD", None)]


async def test_retrieval_is_top_k_by_similarity_and_renders_timestamps() -> None:
    mem = module(top_k=2)
    llm = FakeLLM(
        FactList={"facts": ["Has 6 lives left", "Secret word has five letters", "Likes tea"]},
        UpdatePlan=add_all,
    )
    await mem.ingest(TURN1, context(llm))
    items = await mem.retrieve("how many lives are left", context(llm))
    assert len(items) == 2
    assert items[0].text == "Has 6 lives left"
    assert items[0].score > items[1].score
    assert mem.render().splitlines()[0] == "- Has 6 lives left @ 2025-01-06T09:01:00"
    assert mem.render(budget_tokens=12).count("\n") == 0


async def test_empty_memory_renders_none() -> None:
    mem = module()
    assert await mem.retrieve("anything", context(FakeLLM())) == []
    assert mem.render() == "(none)"


async def test_a_turn_is_ingested_once() -> None:
    llm = adding("Has 6 lives")
    mem = module()
    await mem.ingest(TURN1, context(llm))
    await mem.ingest(TURN1, context(llm))
    assert len(llm.prompts) == 2
    assert [m.text for m in mem.memories()] == ["Has 6 lives"]
    assert mem.stats["turns_skipped"] == 1


async def test_no_facts_means_no_update_call() -> None:
    llm = FakeLLM(FactList={"facts": []})
    mem = module()
    await mem.ingest(TURN1, context(llm))
    assert [name for name, _ in llm.prompts] == ["FactList"]
    assert mem.memories() == []


async def test_ingest_roles_is_a_parameter() -> None:
    llm = FakeLLM(FactList={"facts": []})
    mem = module(ingest_roles=["user"])
    await mem.ingest(TURN1, context(llm))
    assert "secret word" not in llm.of("FactList")[0]  # the assistant's message is left out


async def test_fork_copies_the_store_and_branches_stay_apart() -> None:
    mem = module()
    await mem.ingest(TURN1, context(adding("Has 6 lives")))
    left, right = mem.fork(), mem.fork()
    assert left.store.name == right.store.name == mem.store.name  # shared until a write
    turn = TurnRecord(2, "The secret is apple.", "ok")
    await left.ingest(turn, context(adding("Secret is apple")))
    await right.ingest(turn, context(adding("Secret is pear")))
    assert len({mem.store.name, left.store.name, right.store.name}) == 3
    assert [m.text for m in mem.memories()] == ["Has 6 lives"]
    assert [m.text for m in left.memories()] == ["Has 6 lives", "Secret is apple"]
    assert [m.text for m in right.memories()] == ["Has 6 lives", "Secret is pear"]
    assert "apple" not in right.private_text()


async def test_state_round_trips_through_json() -> None:
    mem = module()
    llm = FakeLLM(FactList={"facts": ["Has 6 lives", "Likes tea"]}, UpdatePlan=add_all)
    await mem.ingest(TURN1, context(llm))
    await mem.retrieve("tea", context(llm))
    state = json.loads(json.dumps(mem.save_state()))
    other = module()
    other.load_state(state)
    assert other.private_text() == mem.private_text()
    assert other.render() == mem.render()
    assert other.next_id == mem.next_id
    assert [i.id for i in await other.retrieve("tea", context(llm))] == ["m2", "m1"]
    with pytest.raises(ConfigError, match="'amem' state"):
        other.load_state({**state, "kind": "amem"})


async def test_model_calls_are_metered_under_the_module_caller() -> None:
    llm = FakeLLM(FactList={"facts": ["Has 6 lives"]}, UpdatePlan=add_all)
    meter = Meter()
    with meter.active():
        await module().ingest(TURN1, context(llm))
    calls = meter.summary()["by_caller"]["memory:mem0"]
    assert calls["calls"] == 2
    assert calls["prompt_tokens"] > 0


async def test_a_module_without_provider_says_how_to_fix_it() -> None:
    mem = Mem0Memory(Mem0Memory.Params(embedder="hash"))
    with pytest.raises(ConfigError, match="no provider for its own model calls"):
        await mem.ingest(TURN1, context(FakeLLM()))


def test_params_are_validated_with_a_clear_message() -> None:
    with pytest.raises(ConfigError, match="top_k"):
        build_memory("mem0", {"embedder": "hash", "top_k": 0})
    with pytest.raises(ConfigError, match=r"topk: unknown key .*of memory module 'mem0'"):
        build_memory("mem0", {"embedder": "hash", "topk": 3})
    assert build_memory("mem0", {"embedder": "hash"}).params.window == 10  # type: ignore


async def test_the_agent_spec_feeds_retrieved_memories_to_the_responder() -> None:
    llm = FakeLLM(
        FactList={"facts": ["Wants to play Hangman with 6 lives"]},
        UpdatePlan=add_all,
        reply="Okay!",
    )
    model = Model(FunctionModel(llm), provider="fake", model="fake", fake=True)
    agent = build_agent(
        load_agent_spec("mem0", {"embedder": "hash"}), lambda name: model, provider="fake", seed=3
    )
    await agent.respond("Let's play Hangman. I have 6 lives.")
    assert "RETRIEVED MEMORIES\n\n(none)" in llm.of("reply")[0]
    meter = Meter()
    with meter.active():
        await agent.respond("How many lives do I have?")
    system_prompt = llm.of("reply")[1]
    assert "- Wants to play Hangman with 6 lives @ 2025-01-06T09:01:00" in system_prompt
    assert "{memories}" not in system_prompt
    assert agent.workspace.ingested == {"mem0": 1}
    assert meter.summary()["by_caller"]["memory:mem0"]["calls"] == 2

    branch = agent.fork()
    await branch.respond("Next guess: e")
    assert branch.workspace.ingested == {"mem0": 2}
    assert agent.workspace.ingested == {"mem0": 1}
    memory = agent.memory["mem0"]
    assert isinstance(memory, Mem0Memory)
    assert len(memory.memories()) == 1


def test_facts_come_from_the_users_messages_unless_told_otherwise() -> None:
    from cogarch.memory.retrieval.prompts import MEM0_USER_FACTS

    user_only = Mem0Memory(Mem0Memory.Params(embedder="hash")).extraction_prompt("2025-01-06")
    everyone = Mem0Memory(Mem0Memory.Params(embedder="hash", facts_from="all")).extraction_prompt(
        "2025-01-06"
    )
    assert MEM0_USER_FACTS in user_only and MEM0_USER_FACTS not in everyone
    assert user_only.endswith('{"facts": ["first fact", "second fact"]}')
    assert everyone == user_only.replace(f"\n\n{MEM0_USER_FACTS}", "")
