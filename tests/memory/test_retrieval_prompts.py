"""The retrieval modules' own prompts serve any task: none carries one task's vocabulary."""

from __future__ import annotations

import re

import pytest

from cogarch.memory.retrieval import prompts

_TASK_WORDS = re.compile(r"\b(hangman|guesser|secret|lives|letters?|diagnos\w*|patient)\b", re.I)

OWN_CALLS = sorted(
    name
    for name, value in vars(prompts).items()
    if name.isupper() and isinstance(value, str) and not name.endswith("_RESPONDER")
)


def test_every_module_call_prompt_is_checked() -> None:
    assert {"MEM0_EXTRACT", "MEM0_UPDATE", "LIGHTMEM_EXTRACT", "AMEM_NOTE"} <= set(OWN_CALLS)


@pytest.mark.parametrize("name", OWN_CALLS)
def test_a_module_prompt_names_no_task(name: str) -> None:
    text = getattr(prompts, name)
    assert _TASK_WORDS.findall(text) == [], f"{name} speaks of one task"
