"""Exact scoring after the stated normalisation."""

from __future__ import annotations

import pytest

from cogarch.tasks.genmem.scoring import abstains, is_correct, normalise


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("Twenty-one days.", "21 days"),
        ("March 14th, 2024", "march 14 2024"),
        ("2024/03/14 (Thu)", "2024 3 14 thu"),
        ("Mar. 9", "march 9"),
        ("$1,650", "1650"),
        ("The answer is a pharmacist.", "answer is pharmacist"),
        ("forty five", "45"),
        ("Eleven", "11"),
    ],
)
def test_normalisation(text: str, normal: str) -> None:
    assert normalise(text) == normal


def test_a_variant_counts_as_whole_words_and_a_rival_spoils_it() -> None:
    assert is_correct("She is a Pharmacist.", ("pharmacist",), ("baker",), False)
    assert is_correct("It was on 14 March 2023", ("march 14 2023", "14 march 2023"), (), False)
    assert is_correct("three", ("3",), (), False)
    assert not is_correct("13", ("3",), (), False)
    assert not is_correct("pharmacist or baker", ("pharmacist",), ("baker",), False)
    assert not is_correct("Not mentioned.", ("Velmora",), (), False)


def test_abstention_is_saying_it_is_missing() -> None:
    assert abstains("The conversation never mentioned it.")
    assert abstains("I don't know.")
    assert is_correct("There is no information about that.", (), (), True)
    assert not is_correct("Kovi", (), (), True)
