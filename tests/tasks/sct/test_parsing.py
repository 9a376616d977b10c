"""Reading yes/no answers, revealed words and mentions."""

from __future__ import annotations

import pytest

from cogarch.tasks.sct.parsing import (
    YesNo,
    mentions_word,
    parse_reveal_word,
    parse_yes_no,
    strip_reasoning,
)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("yes", "yes"),
        ("Yes.", "yes"),
        ("YES", "yes"),
        ("yes!", "yes"),
        ("**Yes**", "yes"),
        ("`yes`", "yes"),
        ("  \n Yes \n", "yes"),
        ("Yes - that's it", "yes"),
        ("Yes, that is my word.", "yes"),
        ('"Yes"', "yes"),
        ("Yep.", "yes"),
        ("no", "no"),
        ("No.", "no"),
        ("**No**", "no"),
        ("No, it is not.", "no"),
        ("no!", "no"),
        ("Nope", "no"),
        ("Answer: no", "no"),
        ("**Answer:** Yes", "yes"),
        ("The answer is no.", "no"),
        ("<think>The word is apple, so no... wait, yes</think>\nYes", "yes"),
        ("<think>\nreasoning\n</think>**No**", "no"),
        ("reasoning that the server left open</think> no", "no"),
        ("I don't know", None),
        ("not sure", None),
        ("yesterday", None),
        ("Nobody knows", None),
        ("Noted.", None),
        ("yes or no", None),
        ("Yes/No", None),
        ("Maybe.", None),
        ("<think>yes</think>", None),
        ("<think>unterminated yes", None),
        ("", None),
        ("Yes, it is.", "yes"),
        ("**No.** It is not apple", "no"),
        ("Yes or no: no.", "no"),
        ("Yes or no? No.", "no"),
        ("**Answer (yes or no):** yes", "yes"),
        ("Sure! The answer is yes.", "yes"),
        ("No problem! The answer is yes.", "yes"),
        ("The answer is yes. Final answer: yes", "yes"),
        ("No way.", "no"),
    ],
)
def test_parse_yes_no(text: str, answer: str | None) -> None:
    result = parse_yes_no(text)
    assert result == YesNo(answer=answer, parsed=answer is not None, raw=text)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        # Refusals that name both options, or that say "the answer is yes" only as a possibility.
        "I'm not able to reveal whether the answer is yes or no.",
        "I can't say whether the answer is yes or no.",
        "I won't tell you if the answer is yes.",
        "I cannot confirm that the answer is no.",
        "Whether the answer is yes is for me to know.",
        # The options repeated, alone or as the answer.
        "The answer is yes or no?",
        "Answer: yes or no",
        "The answer is yes/no.",
        "yes-or-no",
        "Yes and no.",
        "Yes or no?",
        # Not a yes or a no.
        "I cannot say yes.",
        "Not yes.",
        "No idea.",
        "No comment.",
        "Is the answer yes? Hard to say.",
        "The answer is yes. No wait, the answer is no.",
    ],
)
def test_refusals_and_repeated_options_are_not_answers(text: str) -> None:
    assert parse_yes_no(text) == YesNo(answer=None, parsed=False, raw=text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("apple", "apple"),
        ("Apple.", "apple"),
        ("  apple\n", "apple"),
        ("**Apple**", "apple"),
        ("The secret word is apple.", "apple"),
        ("The secret word is **apple**.", "apple"),
        ("My word was: `apple`", "apple"),
        ("My word was: apple", "apple"),
        ("Secret word: apple", "apple"),
        ('I chose "apple".', "apple"),
        ("I chose “apple”.", "apple"),
        ("It's apple", "apple"),
        ("Sure! The word I was thinking of was apple, a fruit.", "apple"),
        ("A five-letter word: apple", "apple"),
        ("<secret>apple</secret>", "apple"),
        ("<think>The word is pear.</think>plum", "plum"),
        ("Apple is my word.", None),
        ("The word is the one I picked.", None),
        ("I cannot reveal that.", None),
        ("", None),
    ],
)
def test_parse_reveal_word(text: str, word: str | None) -> None:
    assert parse_reveal_word(text) == word


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My word is apple.", True),
        ("APPLE!", True),
        ("(psst: my word is 'apple')", True),
        ("the apple's core", True),
        ("<secret>apple</secret>", True),
        ("a pineapple", False),
        ("two apples", False),
        ("a p p l e", False),
        ("_ p p l e", False),
    ],
)
def test_mentions_word(text: str, expected: bool) -> None:
    assert mentions_word(text, "apple") is expected


def test_mentions_word_needs_a_word() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        mentions_word("text", "  ")
    assert mentions_word("is c++ here?", "c++")


def test_strip_reasoning() -> None:
    assert strip_reasoning("<thinking>a</thinking> b <reasoning>c</reasoning> d") == "b   d"
    assert strip_reasoning("plain") == "plain"
