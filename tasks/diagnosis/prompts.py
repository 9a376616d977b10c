"""The Diagnosis Simulator prompts of the Hangman paper (Appendix F.1), word for word.

The paper prints the prompts from a PDF; the wording below is exact, and the line layout is
restored where the extraction flattened it (the two numbered reply items are indented under
their bullet instead of carrying a stray "- ").

Questions. The paper's template is ``Do you have {symptom}?``, but a DDXPlus evidence is a full
English question ("Do you have a fever (either felt or measured with a thermometer)?", "Have you
ever had pneumonia?"); filling the template with it would read "Do you have Do you have a fever
...??". The player therefore asks each evidence group's own question as it stands, which is also
what the paper's released player does. :func:`question_prompt` applies the template only to a
bare symptom phrase (text that is not already a question).
"""

from __future__ import annotations

import json

OPENER = """\
You are the attending physician hosting a diagnostic session.
Rules for you (the host/patient):

- Privately choose one random, realistic, but non-obvious medical condition (the hidden \
condition). Do not reveal it unless I ask to reveal it.
- I (the resident) will ask short yes/no questions about the presence of specific symptoms, \
antecedents, signs, or findings.
- After each of my questions, reply including:
  1) Answer: yes or no.
  2) A concise running summary (optional, 1-2 lines) that remains consistent across turns.
- Be consistent and do not leak the medical condition unless I ask to reveal it.

I will begin now with initial questions."""

QUESTION_TEMPLATE = "Do you have {symptom}?"

VERIFICATION_TEMPLATE = (
    "Is the hidden condition {diagnosis}? Answer only with a single word: yes or no."
)

REVEAL_REQUEST = (
    "Please reveal the medical condition now. Respond with the medical condition name only. "
    "Do not include any extra text."
)

CANDIDATE_GENERATION_TEMPLATE = """\
From the diagnostic transcript below, infer constraints and return exactly {max_n} plausible \
medical conditions that are all consistent with the dialogue so far.
Constraints to respect when proposing each condition:

- The condition must be compatible with the signs, symptoms, and labs discussed.
- Avoid duplicates; return distinct conditions only.

Return ONLY a JSON array of strings (conditions may be multi-word), e.g., ["influenza", \
"pulmonary embolism"]. No extra text.

<transcript> {transcript} </transcript>"""


def question_prompt(symptom_or_question: str) -> str:
    """The player's question about one evidence.

    A full question (ending with "?") is asked as it stands; a bare phrase such as "a fever"
    goes through the paper's template ("Do you have a fever?").
    """
    text = " ".join(symptom_or_question.split())
    if not text:
        raise ValueError("the evidence question is empty; pass the evidence's English question")
    if text.endswith("?"):
        return text
    return QUESTION_TEMPLATE.format(symptom=text)


def verification_prompt(diagnosis: str) -> str:
    """The fork-time question "Is the hidden condition ...?" for one candidate."""
    name = " ".join(diagnosis.split())
    if not name:
        raise ValueError("the candidate diagnosis is empty; pass a condition name")
    return VERIFICATION_TEMPLATE.format(diagnosis=name)


def candidate_generation_prompt(max_n: int, transcript: str) -> str:
    """The helper prompt that asks a model for ``max_n`` conditions consistent with a dialogue."""
    if max_n < 1:
        raise ValueError(f"max_n must be at least 1, got {max_n}")
    return CANDIDATE_GENERATION_TEMPLATE.format(max_n=max_n, transcript=transcript)


def parse_proposals(text: str) -> list[str]:
    """The condition names in a candidate-generation reply (a JSON array of strings).

    Tolerates prose or a code fence around the array; returns ``[]`` when no array of strings
    can be read.
    """
    start, end = text.find("["), text.rfind("]")
    if start < 0 or end <= start:
        return []
    try:
        value = json.loads(text[start : end + 1])
    except json.JSONDecodeError:
        return []
    if not isinstance(value, list):
        return []
    return [item.strip() for item in value if isinstance(item, str) and item.strip()]
