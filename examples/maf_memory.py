"""cogarch memory inside a Microsoft Agent Framework agent, offline (no model, no network).

    pip install 'cogarch[agent-framework]'
    python examples/maf_memory.py

An Agent Framework agent gets cogarch's ``raw_turns`` memory as a context provider; its model
is a scripted fake that answers a question from the memory block in its instructions. The
script talks to it, saves the session as JSON, reloads it into a new agent (as another
process would) and asks again, then asks a fresh session, which remembers nothing.

``build`` is also an agent factory: ``examples/maf_sct.yaml`` names it to play the Hangman
Self-Consistency Test with Agent Framework agents (``cogarch run examples/maf_sct.yaml``).
"""

from __future__ import annotations

import asyncio
import json
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from agent_framework import Agent, AgentSession

from cogarch.bridges.agent_framework import (
    FactoryContext,
    MemoryContextProvider,
    scripted_chat_client,
)
from cogarch.models import CallInfo


def memory() -> MemoryContextProvider:
    """cogarch's raw-turn retrieval (hashed embeddings: no model to load)."""
    return MemoryContextProvider("raw_turns", {"embedder": "hash", "top_k": 2, "tags": False})


def recall(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
    """A scripted model: a question is answered with the best memory its instructions show."""
    system = "\n".join(text for role, text in pairs if role == "system")
    question = next(text for role, text in reversed(pairs) if role == "user")
    if not question.endswith("?"):
        return "Noted."
    block = system.split("RETRIEVED MEMORIES", 1)[-1]
    found = re.findall(r"^- (.+)$", block, re.MULTILINE)
    return f"From memory: {found[0]}" if found else "I have no memory of that."


def build(ctx: FactoryContext) -> Agent:
    """The agent factory a run config names (``factory: maf_memory.py:build``)."""
    assert ctx.chat_client is not None, "give the agent entry a provider"
    return Agent(
        ctx.chat_client,
        "You are a helpful assistant.",
        name=ctx.name,
        context_providers=[memory()],
    )


def agent() -> Agent:
    return Agent(scripted_chat_client(recall), "Be brief.", context_providers=[memory()])


async def main() -> None:
    first = agent()
    session = first.create_session()
    for text in ["My cat is called Tomasz.", "I water the plants on Sundays.", "It rains."]:
        await first.run(text, session=session)
    print("asked:", (await first.run("What is my cat called?", session=session)).text)

    with tempfile.TemporaryDirectory() as folder:
        saved = Path(folder) / "session.json"
        saved.write_text(json.dumps(session.to_dict()), encoding="utf-8")
        reloaded = AgentSession.from_dict(json.loads(saved.read_text(encoding="utf-8")))
    second = agent()  # a new agent, as in another process
    print("reloaded:", (await second.run("When do I water the plants?", session=reloaded)).text)
    print("fresh session:", (await second.run("What is my cat called?")).text)
    print("memory kept:", reloaded.state[second.context_providers[0].source_id]["turn"], "turns")


if __name__ == "__main__":
    asyncio.run(main())
