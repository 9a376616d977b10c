"""A-Mem: note construction, links, neighbour evolution, linked retrieval, fork and state."""

from __future__ import annotations

import json
from typing import Any

from cogarch.core.memory import TurnRecord
from cogarch.memory.retrieval.amem import AMemMemory
from cogarch.memory.retrieval.embeddings import HashEmbedder
from cogarch.models import Meter
from tests.memory import FakeLLM, context, second_reply_prompt


def module(**params: Any) -> AMemMemory:
    return AMemMemory(
        AMemMemory.Params(embedder="hash", **params), provider="fake", embedder=HashEmbedder()
    )


def annotate(prompt: str) -> dict[str, Any]:
    """Keywords are the note's long words; one tag; a context naming the first keyword."""
    content = prompt.split("Note content:\n")[1].split("\n\nWrite:")[0]
    words = [w.strip('.,?!"').lower() for w in content.split() if len(w) > 4]
    return {"keywords": words[:4], "context": f"About {words[0]}", "tags": ["game"]}


NO_CHANGE = {"should_evolve": False}


async def test_a_note_is_annotated_and_the_first_needs_no_evolution_call() -> None:
    llm = FakeLLM(NoteAnalysis=annotate)
    mem = module()
    await mem.ingest(TurnRecord(1, "Let's play Hangman with secret words.", "Sure."), context(llm))
    [note] = mem.notes()
    assert note.id == "n1"
    assert note.text == "Let's play Hangman with secret words."
    assert note.fields["keywords"] == ["let's", "hangman", "secret", "words"]
    assert note.fields["tags"] == ["game"]
    assert note.fields["links"] == []
    assert [name for name, _ in llm.prompts] == ["NoteAnalysis"]
    assert "user: Let's play Hangman" in llm.of("NoteAnalysis")[0]


async def test_strengthen_links_the_new_note_to_mapped_neighbours() -> None:
    llm = FakeLLM(NoteAnalysis=annotate, Evolution=NO_CHANGE)
    mem = module()
    ctx = context(llm)
    await mem.ingest(TurnRecord(1, "My guess is the letter e for hangman", "No e."), ctx)
    await mem.ingest(TurnRecord(2, "Weather in Paris is sunny today", "Nice."), ctx)
    assert mem.notes()[1].fields["links"] == []

    def link_first(prompt: str) -> dict[str, Any]:
        listing = prompt.split("Nearest existing notes:\n")[1].split("\n\nDecide:")[0]
        ids = {line.split(":")[0].removeprefix("id "): line for line in listing.splitlines()}
        letter = next(small for small, line in ids.items() if "letter e" in line)
        return {
            "should_evolve": True,
            "actions": ["strengthen"],
            "suggested_connections": [letter, "7"],
            "tags_to_update": ["hangman", "guess"],
        }

    llm.answers["Evolution"] = link_first
    await mem.ingest(TurnRecord(3, "My next guess is the letter a for hangman", "Yes."), ctx)
    note = mem.notes()[2]
    assert note.fields["links"] == ["n1"]
    assert note.fields["tags"] == ["hangman", "guess"]
    assert mem.stats["ignored_links"] == 1
    assert "n1" not in llm.of("Evolution")[-1]  # stored ids never reach the model


async def test_a_note_whose_evolution_answer_is_unusable_is_stored_unevolved() -> None:
    llm = FakeLLM(NoteAnalysis=annotate, Evolution='{"should_evolve": tru')  # cut JSON
    mem = module()
    ctx = context(llm)
    await mem.ingest(TurnRecord(1, "My guess is the letter e for hangman", "No e."), ctx)
    await mem.ingest(TurnRecord(2, "My next guess is the letter a for hangman", "Yes."), ctx)
    first, second = mem.notes()
    assert second.text == "My next guess is the letter a for hangman"
    assert second.fields["links"] == [] and second.fields["evolutions"] == 0
    assert first.fields["links"] == []
    assert mem.stats["evolution_failed"] == 1
    assert len(llm.of("Evolution")) >= 2  # repaired and retried before giving up


async def test_update_neighbor_rewrites_context_and_tags_and_reembeds() -> None:
    llm = FakeLLM(NoteAnalysis=annotate)
    mem = module(neighbours=1)
    ctx = context(llm)
    await mem.ingest(TurnRecord(1, "My guess is the letter e for hangman", "No e."), ctx)
    llm.answers["Evolution"] = {
        "should_evolve": True,
        "actions": ["update_neighbor"],
        "new_context_neighborhood": ["Zebra crossing rules for pedestrians"],
        "new_tags_neighborhood": [["traffic", "rules"]],
    }
    await mem.ingest(TurnRecord(2, "My next guess is the letter a for hangman", "Yes."), ctx)
    first, second = mem.notes()
    assert first.fields["context"] == "Zebra crossing rules for pedestrians"
    assert first.fields["tags"] == ["traffic", "rules"]
    assert first.fields["evolutions"] == 1
    assert second.fields["context"] == "About guess"
    assert mem.stats["neighbours_evolved"] == 1
    top = await mem.retrieve("zebra crossing pedestrians", ctx)
    assert top[0].id == "n1"  # the evolved context is part of the embedded document


async def test_retrieval_renders_notes_and_can_follow_links() -> None:
    llm = FakeLLM(NoteAnalysis=annotate, Evolution=NO_CHANGE)
    mem = module(top_k=1, include_links=True)
    ctx = context(llm)
    await mem.ingest(TurnRecord(1, "The secret category is animals", "ok"), ctx)
    llm.answers["Evolution"] = {
        "should_evolve": True,
        "actions": ["strengthen"],
        "suggested_connections": ["0"],
    }
    await mem.ingest(TurnRecord(2, "Guessing letters: e, a, t", "ok"), ctx)
    items = await mem.retrieve("which letters did I guess", ctx)
    assert [(i.id, i.fields.get("linked", False)) for i in items] == [("n2", False), ("n1", True)]
    block = mem.render()
    assert block.startswith("- Content: Guessing letters: e, a, t\nKeywords: guessing, letters")
    assert "\nTags: game\nContext: About guessing\n\n- Content: The secret category" in block
    plain = module(top_k=1)
    plain.load_state(mem.save_state())
    plain.params = plain.params.model_copy(update={"include_links": False})
    assert [i.id for i in await plain.retrieve("which letters did I guess", ctx)] == ["n2"]


async def test_window_of_recent_messages_is_shown_to_note_construction() -> None:
    llm = FakeLLM(NoteAnalysis=annotate, Evolution=NO_CHANGE)
    mem = module(window=2)
    ctx = context(llm)
    for n, text in enumerate(["first message here", "second message here", "third message"], 1):
        await mem.ingest(TurnRecord(n, text, "ok"), ctx)
    last = llm.of("NoteAnalysis")[-1]
    assert "user: second message here\nuser: third message" in last
    assert "first message" not in last


async def test_fork_gives_independent_note_stores() -> None:
    llm = FakeLLM(NoteAnalysis=annotate, Evolution=NO_CHANGE)
    mem = module()
    await mem.ingest(TurnRecord(1, "The secret word is chosen", "ok"), context(llm))
    branch = mem.fork()
    await branch.ingest(TurnRecord(2, "Reveal the secret word please", "apple"), context(llm))
    assert len(mem.notes()) == 1
    assert len(branch.notes()) == 2
    assert branch.store.name != mem.store.name


async def test_state_round_trip_and_metering() -> None:
    llm = FakeLLM(NoteAnalysis=annotate, Evolution=NO_CHANGE)
    mem = module()
    meter = Meter()
    with meter.active():
        await mem.ingest(TurnRecord(1, "Hangman with animals", "ok"), context(llm))
        await mem.ingest(TurnRecord(2, "Hangman guess letter e", "ok"), context(llm))
    assert meter.summary()["by_caller"]["memory:amem"]["calls"] == 3
    other = module()
    other.load_state(json.loads(json.dumps(mem.save_state())))
    assert other.private_text() == mem.private_text()
    assert other.next_id == 3


async def test_the_agent_spec_fills_the_notes_block() -> None:
    llm = FakeLLM(NoteAnalysis=annotate, Evolution=NO_CHANGE, reply="Fine.")
    prompt = await second_reply_prompt(
        llm, "amem", "Let's play Hangman with animals", "Is there an e?"
    )
    assert "RETRIEVED NOTES (most relevant first)\n\n- Content: Let's play Hangman" in prompt
