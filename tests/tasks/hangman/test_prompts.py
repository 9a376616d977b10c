"""The Appendix F.1 prompts and their formatting helpers."""

from __future__ import annotations

import pytest

from cogarch.tasks.hangman.prompts import (
    CANDIDATE_GENERATION_PROMPT,
    OPENER_PROMPT,
    REVEAL_PROMPT,
    format_candidate_generation,
    format_guess,
    format_verification,
)


def test_opener_keeps_the_paper_wording() -> None:
    lines = OPENER_PROMPT.split("\n")
    assert lines[0] == "Let’s play Hangman. You will be the host."
    assert lines[3] == "- I have 6 lives."
    assert lines[5] == (
        '1) The current pattern using underscores and revealed letters only (e.g., "_ a _ e _").'
    )
    assert lines[-1] == "I will begin guessing letters now."
    assert len(lines) == 10


def test_guess_and_verification() -> None:
    assert format_guess("E") == 'My next guess is the letter "e". Is it in the secret word?'
    assert format_verification("Apple") == (
        'Is the secret word "apple"? Answer only with a single word: yes or no.'
    )
    for bad in ("", "ab", "1", "é"):
        with pytest.raises(ValueError, match="one ASCII letter"):
            format_guess(bad)
    with pytest.raises(ValueError, match="word of ASCII letters"):
        format_verification("ice cream")


def test_reveal_request() -> None:
    assert REVEAL_PROMPT.startswith("Please reveal the secret word now.")
    assert REVEAL_PROMPT.endswith("with no punctuation or extra text.")


def test_candidate_generation() -> None:
    prompt = format_candidate_generation(7, "user: hi {not a field}\nassistant: _ _ _")
    assert prompt.startswith("From the Hangman transcript below, infer the constraints and ")
    assert "return exactly 7 plausible secret words" in prompt
    assert 'Return ONLY a JSON array of strings, e.g., ["apple", "angle"]. No extra text.' in prompt
    assert prompt.endswith("<transcript> user: hi {not a field}\nassistant: _ _ _ </transcript>")
    assert "{max_n}" in CANDIDATE_GENERATION_PROMPT
    with pytest.raises(ValueError, match="max_n"):
        format_candidate_generation(0, "")
