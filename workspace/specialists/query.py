"""What a retrieval memory searches for, given the input the agent was asked.

Benchmark prompts wrap the question in instructions ("Based on the above context, write an
answer in the form of a short phrase ... Question: Q Short answer:") or in a date line and an
answer cue (``Current Date: D\\nQuestion: Q\\nAnswer:``). Ranked for the whole input, a memory
also matches the instruction's words, which say nothing about what to find; ranked for the
question, it matches what is asked. ``search_query`` gives the question: the text after the
input's last ``Question:`` label, without a trailing answer cue (``Answer:``, ``Short
answer:``, ``Answer (step by step):``, ``Extracted answer:``). An input without that label
(a user's message in a dialogue, a game's observation) is searched for as it is.
"""

from __future__ import annotations

import re
from typing import Literal

QueryMode = Literal["question", "input"]

_LABEL = re.compile(r"(?:^|(?<=\s))Question:[ \t]*")
_ANSWER_CUE = re.compile(r"\s*\b(?:[A-Za-z]+ )?answer(?: \([^)\n]*\))?:\s*\Z", re.IGNORECASE)


def search_query(text: str, mode: QueryMode = "question") -> str:
    """The text a memory ranks its records for.

    Args:
        text: The input the agent was asked.
        mode: ``question``: the asked question (see the module docstring), the whole input
            when it has no ``Question:`` label or nothing after it; ``input``: the whole input.

    Returns:
        The query text.
    """
    if mode == "input":
        return text
    labels = list(_LABEL.finditer(text))
    if not labels:
        return text
    asked = _ANSWER_CUE.sub("", text[labels[-1].end() :]).strip()
    return asked or text
