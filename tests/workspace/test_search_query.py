"""A retrieval memory searches for the question an input asks, not for the instructions around
it; ``query: input`` keeps the whole input."""

from __future__ import annotations

import pytest

from cogarch.workspace.specialists.query import search_query
from tests.spans import attrs, recording
from tests.workspace import Brain, make_agent

LOCOMO = (
    "Based on the above context, write an answer in the form of a short phrase for the "
    "following question. Answer with exact words from the context whenever possible.\n\n"
    "Question: When is the invoice due? Short answer:"
)


@pytest.mark.parametrize(
    ("text", "query"),
    [
        (LOCOMO, "When is the invoice due?"),
        ("Current Date: 2023/05/30 (Tue) 23:40\nQuestion: What degree?\nAnswer:", "What degree?"),
        ("Current Date: 2023/05/30\nQuestion: Which one?\nAnswer (step by step):", "Which one?"),
        (
            "Question: Which pet? Select the correct answer: (a) Not mentioned (b) a dog. "
            "Short answer:",
            "Which pet? Select the correct answer: (a) Not mentioned (b) a dog.",
        ),
        ("Question: first\nQuestion: the last one asked\nExtracted answer:", "the last one asked"),
        ("Is there an e in the word?", "Is there an e in the word?"),
        ("Our Question: board is out", "board is out"),
        ("The FAQuestion: label is not one", "The FAQuestion: label is not one"),
        ("Question:\nAnswer:", "Question:\nAnswer:"),
        ("Question: what is the answer: 42 or 43", "what is the answer: 42 or 43"),
    ],
)
def test_the_query_is_the_question_after_the_last_label_without_the_answer_cue(
    text: str, query: str
) -> None:
    assert search_query(text) == query


def test_input_mode_searches_for_the_whole_input() -> None:
    assert search_query(LOCOMO, "input") == LOCOMO


async def _searched(**params: object) -> list[str]:
    agent = make_agent("raw_turns", Brain(), embedder="hash", top_k=3, **params)
    with recording(capture_content=True) as spans:
        await agent.respond("the invoice is due Friday")
        await agent.respond(LOCOMO)
    return [str(attrs(s)["gen_ai.memory.query.text"]) for s in spans.named("search_memory")]


async def test_a_retrieval_agent_searches_for_the_asked_question_by_default() -> None:
    assert await _searched() == ["the invoice is due Friday", "When is the invoice due?"]


async def test_a_retrieval_agent_set_to_input_searches_for_the_whole_prompt() -> None:
    assert await _searched(query="input") == ["the invoice is due Friday", LOCOMO]


def test_an_unknown_query_mode_is_refused_with_the_valid_ones() -> None:
    with pytest.raises(Exception, match="'question' or 'input'"):
        make_agent("raw_turns", Brain(), embedder="hash", query="prompt")
