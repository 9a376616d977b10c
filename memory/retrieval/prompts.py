"""Prompts of the four retrieval baselines.

Two kinds live here:

- the agent system prompts of the Hangman paper's Appendix F.2 (Mem0, A-Mem, LightMem,
  MemoryOS), which show the retrieved block to the responder through ``{memories}`` or
  ``{notes_block}``; ``RESPONDER_PROMPTS`` holds them by the names ``mem0``, ``amem``,
  ``lightmem`` and ``memoryos``, under which agent specs name them;
- the prompts each algorithm uses for its own model calls (fact extraction, update decisions,
  note construction, link and evolution decisions, page summaries, profile and knowledge).

Placeholders are ``{name}``; ``render_template`` fills the names it is given and leaves every
other brace (the JSON examples) as written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

# --------------------------------------------------------------------------------------------
# Appendix F.2: agent system prompts

MEM0_RESPONDER: Final = """You are a helpful assistant that uses retrieved long-term memories \
to maintain consistency, continuity, and factual accuracy across turns.

INSTRUCTIONS

You have access to a list of retrieved memories representing facts, preferences, or contextual \
information extracted from past interactions.

Use these memories to:

- Recall relevant information about the user or prior context.
- Maintain coherence and avoid contradictions with previous turns.
- Update your reasoning and answers to remain consistent with what you already know.
- Do not restate or list the memories explicitly; instead, use them naturally to inform your \
next reply.
- If no relevant memory applies, proceed as usual while staying consistent with the task \
instructions.
- Never modify, add, or delete memories directly — they are read-only in this context.

RETRIEVED MEMORIES

{memories}"""

AMEM_RESPONDER: Final = """You are a helpful assistant that uses retrieved agentic memory notes \
to maintain consistency, continuity, and factual accuracy across turns.

INSTRUCTIONS

You have access to a list of retrieved memory notes from your past interactions. Each note \
contains:

- Content: The core information stored in this note
- Keywords: Key terms that describe the note's topic
- Tags: Categories for organizing notes
- Context: Additional context that enriches the note's meaning

Use these notes to:

- Recall relevant information from prior interactions
- Maintain coherence and avoid contradictions with previous turns
- Update your reasoning and answers to remain consistent with what you already know
- Do not restate or list the notes explicitly; instead, use them naturally to inform your next \
reply
- If no relevant note applies, proceed as usual while staying consistent with the task \
instructions
- Never modify, add, or delete notes directly — they are automatically managed by the memory \
system

RETRIEVED NOTES (most relevant first)

{notes_block}"""

LIGHTMEM_RESPONDER: Final = """You are a helpful assistant that uses retrieved long-term \
memories to maintain consistency, continuity, and factual accuracy across turns.

INSTRUCTIONS

You have access to retrieved memories from past interactions. Each memory contains:

- Timestamp: When the information was stored
- Weekday: Day context for the memory
- Content: The factual information extracted from previous conversations

Use these memories to:

- Recall relevant information from prior interactions
- Maintain coherence and avoid contradictions with previous turns
- Update your reasoning to remain consistent with what you already know
- Do not restate or list the memories explicitly; use them naturally to inform your reply
- If no relevant memory applies, proceed as usual while staying consistent with the task \
instructions
- Never modify, add, or delete memories directly, they are automatically managed by the memory \
system

RETRIEVED MEMORIES
{memories}"""

# The paper's text prints the placeholder of this prompt without braces ("memories"); it is
# the same retrieved block as in the other three prompts.
MEMORYOS_RESPONDER: Final = """You are a helpful assistant with hierarchical long-term memory.

INSTRUCTIONS

You have access to retrieved memories from three tiers:

1. **Recent Interactions**: Your most recent exchanges with the user
2. **User Profile**: Accumulated knowledge about the user's preferences and traits
3. **Learned Knowledge**: Facts and information you've learned across sessions

Use these memories to:

- Maintain consistency with your previous statements and decisions
- Recall relevant context from prior interactions
- Avoid contradicting yourself or repeating information unnecessarily
- Inform your responses naturally without explicitly listing memories

If no relevant memory applies, proceed as usual while staying consistent with any task \
instructions.

RETRIEVED MEMORIES
{memories}"""

RESPONDER_PROMPTS: Final[Mapping[str, str]] = {
    "mem0": MEM0_RESPONDER,
    "amem": AMEM_RESPONDER,
    "lightmem": LIGHTMEM_RESPONDER,
    "memoryos": MEMORYOS_RESPONDER,
}

# --------------------------------------------------------------------------------------------
# Mem0: fact extraction, then one update decision over the nearest existing memories

MEM0_EXTRACT: Final = """You read a conversation and write down the facts worth keeping in a \
long-term memory.

Today's date is {today}.

List every distinct fact, preference, plan, request, rule or piece of personal context that \
the messages state. Write each as one short standalone sentence without a subject pronoun, \
for example "Is looking for a restaurant in San Francisco" or "Has a dog named Max". \
Record only what the messages say: do not guess, infer or add anything. Leave out \
greetings and small talk. When nothing is worth keeping, return an empty list.

Return ONLY JSON of this shape: {"facts": ["first fact", "second fact"]}"""

MEM0_USER_FACTS: Final = """Take facts only from the user's messages. The assistant's messages \
show what the user was answering, but nothing the assistant said is a fact to keep."""
"""Added to ``MEM0_EXTRACT`` when facts come from the user only, as mem0ai 1.0.x extracts them
for a user id (its extraction prompt forbids facts from the assistant's messages)."""

MEM0_EXTRACT_INPUT: Final = "Messages:\n{conversation}"

MEM0_UPDATE: Final = """You keep a memory of facts up to date. Compare the new facts with the \
existing memories and choose one operation for each:

- ADD: the fact is new (no existing memory covers it). Give the fact as "text"; the id you \
write is ignored.
- UPDATE: the fact adds detail to an existing memory or corrects it. Give that memory's id \
and the combined text.
- DELETE: the fact contradicts an existing memory, which must be removed. Give that \
memory's id.
- NONE: the fact is already recorded. Give the id of the memory that records it.

Refer to existing memories only by the ids listed below; never invent an id.

Existing memories:
{existing}

New facts:
{facts}

Return ONLY JSON of this shape:
{"memory": [{"id": "0", "text": "memory text", "event": "UPDATE", "old_memory": "previous \
text"}, {"id": "new", "text": "a new fact", "event": "ADD"}]}"""

# --------------------------------------------------------------------------------------------
# A-Mem: note construction, then a link and evolution decision against the nearest notes

AMEM_NOTE: Final = """You annotate a note for a Zettelkasten-style memory, where notes are \
found again by their meaning and linked to related notes.

Recent conversation (for context):
{conversation}

Note content:
{content}

Write:
- "keywords": 3 to 6 specific terms from the note (names, objects, key actions), most \
important first;
- "context": one sentence saying what the note is about, its purpose and its setting;
- "tags": 1 to 5 broad categories for organising notes (domain, kind of information).

Return ONLY JSON of this shape: {"keywords": ["..."], "context": "...", "tags": ["..."]}"""

AMEM_EVOLVE: Final = """You maintain the links and annotations of a note memory. A new note \
is about to be added; its nearest existing notes are listed with their ids.

New note:
{note}

Nearest existing notes:
{neighbours}

Decide:
- "should_evolve": true when the memory should change because of the new note;
- "actions": any of "strengthen" (link the new note to related notes and possibly retag it) \
and "update_neighbor" (revise the context and tags of the listed notes in the light of the \
new note);
- "suggested_connections": ids of the listed notes the new note should link to;
- "tags_to_update": the new note's tags after strengthening;
- "new_context_neighborhood": one context per listed note, in the order listed (repeat a \
context unchanged to keep it);
- "new_tags_neighborhood": one list of tags per listed note, in the order listed.

Use only the ids listed above.

Return ONLY JSON of this shape:
{"should_evolve": true, "actions": ["strengthen"], "suggested_connections": ["0"], \
"tags_to_update": ["..."], "new_context_neighborhood": ["..."], "new_tags_neighborhood": \
[["..."]]}"""

# --------------------------------------------------------------------------------------------
# LightMem: fact extraction from the short-term buffer, then the optional offline update

LIGHTMEM_EXTRACT: Final = """You extract every piece of information a conversation \
gives, to be kept in a long-term memory. The messages are numbered, carry their time, and are \
grouped into topic segments.

Go through the messages in order, one at a time. For each message:
- If it states anything at all (an event, fact, plan, preference, opinion, feeling, \
relation, place, time or number), write it as a standalone sentence that names whom it is \
about and keeps every specific detail. Keep small details too; resolve "I", "my" and "you" to \
the speaker or the person addressed.
- Skip it only when it says nothing (a greeting, "thanks", "lol").
Give with each fact the number of the message it comes from. Record what is stated; do not \
add what is not.

Example messages:
Segment 1:
[0] 2023-03-20T13:21:00.000 Mon user: Alice: Hi Bob!
[1] 2023-03-20T13:21:00.000 Mon user: Alice: My sister and I ran a 10k in Boston on Saturday.
Example answer: {"facts": [{"source": 1, "fact": "Alice and her sister ran a 10k race in \
Boston on Saturday."}]}

Messages:
{segments}

Return ONLY JSON of this shape: {"facts": [{"source": 0, "fact": "..."}]}"""

LIGHTMEM_UPDATE: Final = """You keep a memory consistent. An older entry is compared with \
newer entries about the same subject. Decide what happens to the older entry:

- "update": the newer entries refine or extend it; give its revised text in "new_text";
- "delete": the newer entries contradict or supersede it;
- "ignore": it stays as it is.

Older entry:
{target}

Newer entries:
{candidates}

Return ONLY JSON of this shape: {"action": "ignore", "new_text": ""}"""

# --------------------------------------------------------------------------------------------
# MemoryOS: page summaries for mid-term sessions, then profile and knowledge for hot sessions

MEMORYOS_PAGE: Final = """You file one exchange of a conversation (a page) into a mid-term \
memory organised by topic.

Earlier messages (for context):
{conversation}

Page:
User: {user}
Assistant: {assistant}

Write a one-sentence "summary" of the page's topic and 2 to 6 "keywords" (lowercase).

Return ONLY JSON of this shape: {"summary": "...", "keywords": ["..."]}"""

MEMORYOS_PROFILE: Final = """You maintain a profile of the user: traits, preferences, goals \
and circumstances, as short lines. Revise the current profile with what the exchanges below \
show: keep what still holds, correct what they contradict, add what is new. Return the whole \
profile ("None" when nothing is known).

Current profile:
{profile}

Exchanges:
{pages}

Return ONLY JSON of this shape: {"profile": "..."}"""

MEMORYOS_KNOWLEDGE: Final = """Extract lasting knowledge from the exchanges below, as short \
standalone sentences:

- "user_knowledge": facts about the user and what the user stated or asked for;
- "assistant_knowledge": what the assistant stated, decided or committed to.

Exchanges:
{pages}

Return ONLY JSON of this shape: {"user_knowledge": ["..."], "assistant_knowledge": ["..."]}"""

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def render_template(template: str, **values: str) -> str:
    """Fill ``{name}`` for the given names; every other brace stays as written."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)
