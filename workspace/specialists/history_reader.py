"""LongMemEval's official reader: the history chats, the current date and the question, in
one user message, answered at temperature 0.

The agent is asked ``Current Date: D\\nQuestion: Q\\nAnswer:`` (``Answer (step by step):``
for step-by-step reasoning), as the official prompt ends. The reader takes the chunks its
memory module (a ``haystack`` module) gives for the question (every session for the full
history, the top k sessions or rounds for retrieval), optionally writes a Chain-of-Note note
for each (one call per chunk, temperature 0, at most 500 tokens, the chunk then replaced by
its note), sorts them by date, renders them (``### Session N:`` ...), keeps the head of that
block within ``history_tokens`` (the official code cuts the history to the model's window
minus the answer's length minus 1000, keeping its beginning) and asks the official answer
prompt (see ``memory.retrieval.reader_budget`` for the window and the token counter). The
prompts are LongMemEval's (``src/generation/run_generation.py``), as published.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch import tracing
from cogarch.memory.retrieval.haystack import HaystackMemory, render_history
from cogarch.memory.retrieval.reader_budget import (
    ESTIMATOR,
    TokenCounter,
    official_budget,
    reader_counter,
)
from cogarch.models.messages import user
from cogarch.tokens import count_tokens

from ..sanitize import public_text
from ..specialist import BaseSpecialist, StepContext
from ..workspace import IngestFailure, Workspace

ANSWER_PROMPT = (
    "I will give you several history chats between you and a user. Please answer the "
    "question based on the relevant chat history.\n\n\nHistory Chats:\n\n{history}\n\n"
    "Current Date: {date}\nQuestion: {question}\nAnswer:"
)
ANSWER_PROMPT_COT = (
    "I will give you several history chats between you and a user. Please answer the "
    "question based on the relevant chat history. Answer the question step by step: first "
    "extract all the relevant information, and then reason over the information to get the "
    "answer.\n\n\nHistory Chats:\n\n{history}\n\nCurrent Date: {date}\nQuestion: {question}\n"
    "Answer (step by step):"
)
NOTE_PROMPT = (
    "I will give you a chat history between you and a user, as well as a question from the "
    "user. Write reading notes to extract all the relevant user information relevant to "
    'answering the answer. If no relevant information is found, just output "empty". \n\n\n'
    "Chat History:\nSession Date: {date}\nSession Content:\n{content}\n\nQuestion Date: "
    "{question_date}\nQuestion: {question}\nExtracted note (information relevant to answering "
    "the question):"
)
SLOT = re.compile(r"\{(history|date|question)\}")
"""The answer prompt's slots, filled in one pass (what fills one is never read as another)."""

QUESTION = re.compile(
    r"Current Date: (?P<date>.*?)\nQuestion: (?P<question>.*)\n(?P<tail>Answer(?: \(step by "
    r"step\))?):\s*\Z",
    re.S,
)
"""A question as LongMemEval's answer prompt ends (``cogarch.tasks.longmemeval.question``
writes it): ``Current Date: D``, ``Question: Q``, then the answer cue."""
COT_CUE = "Answer (step by step)"
"""The answer cue of a question that asks for reasoning before the answer."""


def head_within(text: str, budget: int | None, counter: TokenCounter = ESTIMATOR) -> str:
    """The longest beginning of ``text`` within ``budget`` tokens by ``counter`` (the official
    cut keeps the first tokens)."""
    return text if budget is None else counter.head(text, budget)


class HistoryReader(BaseSpecialist):
    """Reads a haystack module's chunks with the official answer prompt (see the module)."""

    kind: ClassVar[str] = "history_reader"
    reads = ("current_input", "turns", "ingested", "memory")
    writes = ("reply", "thought", "broadcasts.<name>", "ingested", "memory")

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")
        memory: str = Field(description="The agent's haystack memory module to read.")
        chain_of_note: bool = Field(
            default=False, description="Write a note per chunk first (Chain-of-Note)."
        )
        history_tokens: Annotated[int, Field(ge=1)] | Literal["official"] | None = Field(
            default="official",
            description="Keep the head of the history block within this many tokens; "
            "'official': the model's window less the answer's length less 1000, as the "
            "official code cuts it, for the models whose window its table knows (others are "
            "not cut); none: no cut. Counted with the model's own tokenizer where known "
            "(o200k_base for GPT-4 models), else the offline estimate.",
        )
        prompt: str = Field(
            default=ANSWER_PROMPT,
            description="The answer prompt, with {history}, {date} and {question} (default: "
            "the official one).",
        )
        cot_prompt: str = Field(
            default=ANSWER_PROMPT_COT,
            description="The answer prompt when asked step by step (default: the official one).",
        )
        max_tokens: int | None = Field(
            default=None,
            ge=1,
            description="The answer's length (default 500, or 800 step by step, as the "
            "official code).",
        )

    params: Params

    def _module(self, ctx: StepContext) -> HaystackMemory:
        module = ctx.memory_module(self.params.memory)
        if not isinstance(module, HaystackMemory):
            raise TypeError(
                f"specialist '{self.name}' reads a 'haystack' memory module; "
                f"'{self.params.memory}' is a '{module.kind}' module"
            )
        return module

    async def _take_in(self, module: HaystackMemory, ws: Workspace, ctx: StepContext) -> None:
        """Ingest the completed turns the module has not seen (a dialogue, not observed)."""
        name = self.params.memory
        done = ws.ingested.get(name, 0)
        pending = [r for r in ws.turns if r.index > done]
        if pending:
            mctx = ctx.memory_context(f"memory:{module.kind}")
            failed = await module.ingest_many(pending, mctx)
            ws.ingest_failures.extend(IngestFailure(name, i, e) for i, e in failed.items())
            ws.ingested[name] = pending[-1].index

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        module = self._module(ctx)
        module.use_provider(self.provider)
        await self._take_in(module, ws, ctx)
        asked = QUESTION.match(ws.current_input.strip())
        question = asked["question"] if asked else ws.current_input
        date = asked["date"] if asked else ""
        cot = asked is not None and asked["tail"] == COT_CUE
        mctx = ctx.memory_context(f"memory:{module.kind}")
        with tracing.memory_operation("search_memory", p.memory, module.kind) as span:
            found = await module.retrieve(question, mctx)
            tracing.record_search(span, question, found)
        chunks: list[tuple[str, object]] = list(module.chunks())
        model = self.model(ctx)
        if p.chain_of_note:
            noted: list[tuple[str, object]] = []
            for chunk_date, turns in chunks:
                prompt = NOTE_PROMPT.format(
                    date=chunk_date,
                    content=json.dumps(turns),
                    question_date=date,
                    question=question,
                )
                note = await model.complete(
                    [user(prompt)],
                    caller=f"{self.name}:note",
                    seed=ctx.seed,
                    temperature=0.0,
                    max_tokens=500,
                )
                noted.append((chunk_date, {"session_summary": note.content.strip()}))
            chunks = noted
        limit = p.max_tokens or (800 if cot else 500)
        budget = (
            official_budget(model.model, limit)
            if p.history_tokens == "official"
            else p.history_tokens
        )
        history = head_within(
            render_history(chunks, module.params.history_format),
            budget,
            reader_counter(model.model),
        )
        template = p.cot_prompt if cot else p.prompt
        values = {"history": history, "date": date, "question": question}
        prompt = SLOT.sub(lambda m: values[m.group(1)], template)
        ws.memory_tokens = count_tokens(history)
        completion = await model.complete(
            [user(prompt)], caller=self.name, seed=ctx.seed, temperature=0.0, max_tokens=limit
        )
        ws.thought = completion.thought
        ws.reply = public_text(completion.content).strip()
        ws.broadcasts[self.name] = ws.reply
