"""The question as LongMemEval's official answer prompt ends: what a LongMemEval (or a generated
benchmark's) agent is asked, and what the history reader recognises."""

from __future__ import annotations

# The official chain-of-thought cue; the history reader (a lower layer) knows it by this text.
COT_CUE = "Answer (step by step)"


def question_message(question: str, date: str, cot: bool = False) -> str:
    """The question message of the official answer prompt.

    Args:
        question: The question.
        date: The question's date, as the data writes it.
        cot: Whether to ask for reasoning before the answer (the official chain-of-thought
            cue, ``Answer (step by step):``).

    Returns:
        ``Current Date: D``, ``Question: Q`` and the answer cue, one per line.
    """
    cue = COT_CUE if cot else "Answer"
    return f"Current Date: {date}\nQuestion: {question}\n{cue}:"
