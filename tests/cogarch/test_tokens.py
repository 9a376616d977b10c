"""The offline token estimate."""

from __future__ import annotations

import pytest

from cogarch.tokens import count_tokens


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        (None, 0),
        ("", 0),
        ("   \n\t", 0),
        ("cat", 1),
        ("word", 1),
        ("words", 2),  # pieces of at most four characters
        ("internationalization", 5),
        ("2024", 1),
        ("12345", 2),
        ("a, b.", 4),  # punctuation marks count one each
        ("<secret>", 4),
        ("naïve", 3),  # a non-ASCII letter is a mark of its own
    ],
)
def test_count_tokens(text: str | None, tokens: int) -> None:
    assert count_tokens(text) == tokens


def test_count_tokens_is_additive_over_whitespace() -> None:
    left, right = "The hidden word is", "PLANT; five letters."
    assert count_tokens(f"{left} {right}") == count_tokens(left) + count_tokens(right)


def test_count_tokens_is_close_to_words_on_plain_english() -> None:
    text = "the cat sat on the mat and then it ran off to find a dog"
    assert count_tokens(text) == len(text.split())
