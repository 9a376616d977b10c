"""A scripted stand-in for the model behind the memory libraries' own calls.

It answers each library prompt in the shape the library parses, deterministically, from the
text the prompt carries (never from a model): Mem0's fact extraction (the last line of each
role in its input becomes a fact), its update decision (every new fact is added), MemoryOS's
summaries, keywords, continuity check, meta summary, profile and knowledge extraction, and
A-Mem's note analysis and evolution decision; cogarch's own ``mem0``, ``memoryos`` and ``amem``
get answers of the same kind in the shapes their prompts ask for. A fake host or patient wraps
it with :func:`with_library_memory`, so a run of the library agents against fakes stores real
memories.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Sequence

from cogarch.models.fakes import CallInfo, PairsFn, Reply

LIBRARY_KINDS = frozenset({"mem0_lib", "memoryos_lib", "amem_lib"})
"""The memory modules whose calls arrive with their kind as the call's role."""
REIMPLEMENTED = frozenset({"mem0", "memoryos", "amem"})
"""cogarch's re-implementations, whose calls (caller ``memory:<kind>``) get the same kind of
answers, in the shapes their prompts ask for, so both sides of a comparison store memories."""

_LINE = re.compile(r"^\s*(user|assistant)\s*:\s*(.+)$", re.IGNORECASE | re.MULTILINE)
_FENCED = re.compile(r"```\s*(.*?)\s*```", re.DOTALL)
_WORD = re.compile(r"[A-Za-z][A-Za-z']{3,}")


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rstrip() + "..."


def _facts(text: str) -> list[str]:
    """The last line each role said in a transcript, as facts."""
    last: dict[str, str] = {}
    for role, said in _LINE.findall(text):
        last[role.lower()] = said
    return [f"{role.capitalize()} said: {_clip(said)}" for role, said in last.items()]


def _new_facts(prompt: str) -> list[str]:
    """The facts between Mem0's triple backticks (a Python or JSON list)."""
    for block in reversed(_FENCED.findall(prompt)):
        for parse in (json.loads, ast.literal_eval):
            try:
                value = parse(block)
            except (ValueError, SyntaxError):
                continue
            if isinstance(value, list):
                return [str(v) for v in value]
    return []


def _json_list(text: str) -> list[str]:
    start = text.find("[")
    if start < 0:
        return []
    try:
        value, _ = json.JSONDecoder().raw_decode(text[start:])
    except ValueError:
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def _keywords(text: str, n: int = 4) -> list[str]:
    seen: dict[str, None] = {}
    for word in _WORD.findall(text):
        seen.setdefault(word.lower(), None)
    return list(seen)[:n] or ["conversation"]


def library_memory_reply(messages: Sequence[tuple[str, str]]) -> str:
    """The answer a library's prompt gets (see the module docstring)."""
    system = "\n".join(text for role, text in messages if role == "system")
    prompt = next((text for role, text in reversed(messages) if role == "user"), "")
    both = f"{system}\n{prompt}"
    if '"facts"' in both or "Personal Information Organizer" in both:
        return json.dumps({"facts": _facts(prompt)})
    if "subtopic summaries" in prompt:
        said = " ".join(
            _facts(prompt.replace("User:", "user:").replace("Assistant:", "assistant:"))
        )
        topic = {"theme": "conversation", "keywords": _keywords(said), "content": _clip(said, 100)}
        return json.dumps([topic])
    if "New facts:" in prompt:
        listed = _json_list(prompt.split("New facts:", 1)[1])
        ops = [{"id": "", "text": fact, "event": "ADD"} for fact in listed]
        return json.dumps({"memory": ops})
    if '"summary"' in both and '"keywords"' in both:
        return json.dumps(
            {"summary": _clip(" ".join(_facts(prompt)), 100), "keywords": _keywords(prompt)}
        )
    if '"user_knowledge"' in both:
        return json.dumps({"user_knowledge": _facts(prompt)[:1], "assistant_knowledge": []})
    if '"profile"' in both:
        return json.dumps({"profile": _clip(" ".join(_facts(prompt)), 120) or "None"})
    if '"memory"' in both and "new retrieved facts" in both:
        facts = _new_facts(prompt)
        ops = [{"id": str(i), "text": fact, "event": "ADD"} for i, fact in enumerate(facts)]
        return json.dumps({"memory": ops})
    if "continuity detector" in system:
        return "false"
    if "keyword extraction" in system:
        return ", ".join(_keywords(prompt))
    if "【User Private Data】" in prompt:
        lines = _facts(prompt)
        return (
            "【User Private Data】\n"
            + "\n".join(f"- {f}" for f in lines)
            + ("\n【Assistant Knowledge】\n- Assistant answered in the conversation")
        )
    if "should_evolve" in both:
        return json.dumps(
            {
                "should_evolve": False,
                "actions": [],
                "suggested_connections": [],
                "tags_to_update": [],
                "new_context_neighborhood": [],
                "new_tags_neighborhood": [],
            }
        )
    if "keywords" in both and "context" in both and "tags" in both:
        content = prompt.rsplit("Content for analysis:", 1)[-1].strip()
        return json.dumps(
            {"keywords": _keywords(content), "context": _clip(content, 80), "tags": ["dialogue"]}
        )
    return _clip(" ".join(_facts(prompt)) or prompt, 200) or "None"


def with_library_memory(fake: PairsFn) -> PairsFn:
    """``fake``, except that calls of the library memory modules get a library answer."""

    def reply(messages: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> Reply:
        asker = call.caller.removeprefix("memory:") if call is not None else ""
        if call is not None and (call.role in LIBRARY_KINDS or asker in REIMPLEMENTED):
            return library_memory_reply(messages)
        return fake(messages, seed, call)  # type: ignore[return-value]

    reply.__name__ = getattr(fake, "__name__", "fake")
    reply.__doc__ = fake.__doc__
    return reply
