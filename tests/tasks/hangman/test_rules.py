"""Boards, reading a host's displayed pattern, and constraints over a dialogue."""

from __future__ import annotations

import pytest

from cogarch.tasks.hangman.rules import (
    Constraints,
    format_pattern,
    letter_verdict,
    parse_pattern,
    reveal_pattern,
)
from cogarch.tasks.hangman.vocabulary import PatternError, Vocabulary, is_consistent


def test_reveal_pattern_shows_every_occurrence_of_guessed_letters() -> None:
    assert reveal_pattern("apple", "pe") == "_pp_e"
    assert reveal_pattern("Apple", ["A", "z"]) == "a____"
    assert reveal_pattern("apple", []) == "_____"
    assert reveal_pattern("apple", "aple") == "apple"
    with pytest.raises(ValueError, match="letters a-z"):
        reveal_pattern("ap ple", "a")


def test_format_pattern_spaces_a_compact_board() -> None:
    assert format_pattern("_a__e") == "_ a _ _ e"
    assert format_pattern("_ A _ _ E") == "_ a _ _ e"
    with pytest.raises(PatternError):
        format_pattern("_a-e")


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Pattern: _ a _ _ e\nLives: 5\nGuessed: a, e", "_a__e"),
        ("_ a _ _ e", "_a__e"),
        ("_a__e", "_a__e"),
        ("**Pattern:** `_ A _ _ E`\n**Lives:** 5", "_a__e"),
        ("Good guess! The word now looks like: _a__e", "_a__e"),
        ("Current pattern: **_ a _ _ e**", "_a__e"),
        ("Current pattern: __ a __ t", "__a__t"),
        ("****Word:**** _____\n\n****Lives remaining:**** 6", "_____"),
        ("Here is the updated pattern:\n\n\\_ a \\_ \\_ e", "_a__e"),
        ("Pattern: _ a _ _ e (previously _ _ _ _ e)", "_a__e"),
        ("Was _ _ _ _ e, now: _ a _ _ e.", "_a__e"),
        ("Before: _ _ _ _ e\nAfter your guess: _ a _ _ e\nLives: 5", "_a__e"),
        ("Pattern: unchanged (_ a _ _ e)", "_a__e"),
        ("<think>it could be _ _ _</think>Pattern: _ _ a", "__a"),
        ("Yes!\n```\n_ a _ _ e\n```\nRemaining lives: 6", "_a__e"),
        ("The word: _ A _ _ E. Lives: 6.", "_a__e"),
        ("No pattern here, sorry.", None),
        ("Guessed letters: a, e, t. Lives: 4.", None),
        ("Word: a p p l e", None),  # a full board needs the guessed letters to back it
        ("", None),
    ],
)
def test_parse_pattern_reads_many_reply_styles(reply: str, expected: str | None) -> None:
    assert parse_pattern(reply) == expected


def test_parse_pattern_prefers_the_expected_length() -> None:
    reply = "It's a _ _ _ _ _ word."
    assert parse_pattern(reply, expected_length=5) == "_____"
    assert parse_pattern(reply, guessed=set()) == "_____"
    assert parse_pattern("_ _ _ _ _ I think", expected_length=5) == "_____"
    # A leading "a" right after a label is part of the board, whatever the length says.
    assert parse_pattern("Pattern: a _ e e", expected_length=3) == "a_ee"
    assert parse_pattern("_ _ _ (3) and _ _ _ _ _ (5)", expected_length=3) == "___"
    # No sighting of the expected length: the best other one is returned, so that a length
    # change can be noticed.
    assert parse_pattern("Pattern: _ _ _ _", expected_length=5) == "____"


def test_parse_pattern_accepts_a_full_board_backed_by_guesses() -> None:
    assert parse_pattern("Word: a p p l e", guessed="aple") == "apple"
    assert parse_pattern("You won! Pattern: apple", guessed="aplez") == "apple"
    assert parse_pattern("Pattern: apple", guessed="ap") is None


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Yes! The letter a is in the word.", "hit"),
        ("**Yes**, it is.", "hit"),
        ("Correct!", "hit"),
        ("Good guess - 'a' appears twice.", "hit"),
        ("No, the letter z is not in the word.", "miss"),
        ("**No**.", "miss"),
        ("Sorry, 'z' doesn't appear in my word.", "miss"),
        ("Incorrect. You lose a life.", "miss"),
        ("There is no 'z'.", "miss"),
        ("Hmm, let me think.", None),
        ("Good guess, but sorry, no.", None),
    ],
)
def test_letter_verdict(reply: str, verdict: str | None) -> None:
    assert letter_verdict(reply) == verdict


def test_constraints_from_a_clean_dialogue() -> None:
    pairs = [
        ("", "I picked a word.\nPattern: _ _ _ _ _\nLives: 6"),
        ("e", "Yes!\nPattern: _ _ _ _ e\nLives: 6\nGuessed: e"),
        ("s", "No.\n**Pattern:** `_ _ _ _ e`\nLives: 5\nGuessed: e, s"),
        ("p", "Yes! _pp_e\nLives: 5"),
        ("T", "Sorry.\nPattern: _ p p _ e\nLives: 4"),
    ]
    constraints = Constraints.from_dialogue(pairs)
    assert constraints.pattern == "_pp_e"
    assert constraints.length == 5
    assert constraints.present == {"e", "p"}
    assert constraints.absent == {"s", "t"}
    assert constraints.guessed == ["e", "s", "p", "t"]
    assert constraints.contradictions == []
    assert constraints.unresolved == []
    assert constraints.admits("apple") and constraints.admits("Upple")
    assert not constraints.admits("apply") and not constraints.admits("ample")
    words = constraints.consistent_words(limit=20)
    assert "apple" in words
    assert all(is_consistent(word, "_pp_e", {"s", "t"}) for word in words)


def test_pattern_decides_over_words() -> None:
    # The words say "no" but the board shows the letter: the board wins, the clash is noted.
    constraints = Constraints.from_dialogue(
        [("", "_ _ _ _ _"), ("a", "No, sorry.\nPattern: _ a _ _ _")]
    )
    assert constraints.present == {"a"} and constraints.absent == set()
    assert len(constraints.contradictions) == 1
    assert "reply says" in constraints.contradictions[0]


def test_words_decide_when_no_pattern_is_shown() -> None:
    constraints = Constraints.from_dialogue(
        [("", "Pattern: _ _ _ _ _"), ("z", "No, z is not in the word."), ("a", "Yes!")]
    )
    assert constraints.pattern == "_____"
    assert constraints.absent == {"z"}
    assert constraints.present == {"a"}
    assert not constraints.admits("truck")  # no "a" although the board allows it
    assert constraints.admits("about")
    assert all("a" in word for word in constraints.consistent_words(limit=30))
    # The "a" shown later is no contradiction: its positions were never displayed.
    later = Constraints.from_dialogue(
        [("", "Pattern: _ _ _ _ _"), ("a", "Yes!"), ("t", "No. Pattern: a _ _ _ _")]
    )
    assert later.contradictions == [] and later.pattern == "a____"


def test_unreadable_replies_are_unresolved() -> None:
    constraints = Constraints.from_dialogue([("", "_ _ _"), ("q", "Let me think about it.")])
    assert constraints.unresolved == ["q"]
    assert "q" not in constraints.present | constraints.absent


UNCLEAR_E = [
    ("", "_ _ _ _ _"),
    ("a", "a _ _ _ _"),
    ("e", "Let me think about it."),
    ("t", "Pattern: a _ _ _ _"),
]


def test_a_later_board_settles_an_unreadable_guess() -> None:
    # "e" was guessed, the reply was unclear, and the next board does not show it: a miss.
    constraints = Constraints.from_dialogue(UNCLEAR_E)
    assert constraints.unresolved == [] and constraints.contradictions == []
    assert constraints.absent == {"e", "t"} and constraints.present == {"a"}
    assert not constraints.admits("asked") and not constraints.admits("above")
    assert constraints.admits("angry")
    vocabulary = Vocabulary(["asked", "above", "angry", "album", "after"])
    assert constraints.consistent_words(vocabulary=vocabulary) == ["angry", "album"]
    # A later board that shows the letter settles it as a hit.
    shown = Constraints.from_dialogue([*UNCLEAR_E[:3], ("t", "Pattern: a _ _ e _")])
    assert shown.unresolved == [] and shown.absent == {"t"} and shown.present == {"a", "e"}
    # Showing it after a board omitted it is a contradiction.
    later = Constraints.from_dialogue([*UNCLEAR_E, ("d", "a _ _ e d")])
    assert any("shows 'e', reported absent at turn 4" in note for note in later.contradictions)


def test_only_a_board_shown_after_a_guess_settles_it() -> None:
    constraints = Constraints.from_dialogue([("", "_ _ _"), ("q", "Hmm. _ _ _"), ("z", "Hmm.")])
    assert constraints.absent == {"q"} and constraints.unresolved == ["z"]


def test_no_board_at_all() -> None:
    constraints = Constraints.from_dialogue([("e", "Yes!"), ("z", "No.")])
    assert constraints.pattern is None and constraints.length is None
    assert constraints.present == {"e"} and constraints.absent == {"z"}
    assert constraints.consistent_words() == []
    assert constraints.admits("apple") and not constraints.admits("pizza")


@pytest.mark.parametrize(
    ("pairs", "fragment"),
    [
        ([("", "_ _ _ _ _"), ("a", "_ a _ _ _"), ("e", "_ _ _ _ e")], "position 2 showed 'a'"),
        ([("", "_ _ _ _ _"), ("e", "_ _ _ _ e"), ("a", "_ a _ _ _ _")], "has 6 letters"),
        ([("", "_ _ _ _ _"), ("e", "_ _ _ _ _"), ("a", "_ a _ _ e")], "reported absent"),
        ([("", "_ _ _ _ _"), ("e", "_ _ _ _ e"), ("e", "_ _ _ _ _")], "position 5 showed 'e'"),
        ([("", "_ _ _ _ _"), ("e", "Yes!"), ("e", "No.")], "reported in the word"),
        ([("", "_ _ _ _ _"), ("a", "_ a _ _ t")], "'t', never guessed"),
        ([("", "_ a _ _ _")], "'a', never guessed"),
        ([("", "_ _ _ _"), ("e", "_ _ _ e"), ("x", "_ _ e e")], "new position 3"),
        ([("", "_ _ _"), ("e", "_ _ e"), ("a", "a _ e"), ("x", "a _ e e")], "has 4 letters"),
        ([("", "_ _ _ _ _"), ("e", "Yes!"), ("a", "Pattern: _ a _ _ _")], "no longer shows"),
    ],
)
def test_contradictions_are_reported(pairs: list[tuple[str, str]], fragment: str) -> None:
    constraints = Constraints.from_dialogue(pairs)
    assert any(fragment in note for note in constraints.contradictions), constraints
    # Whatever happened, the result is a usable query: nothing is both present and absent.
    assert not constraints.present & constraints.absent


def test_latest_board_is_authoritative_after_a_contradiction() -> None:
    constraints = Constraints.from_dialogue(
        [("", "_ _ _ _ _"), ("e", "No. _ _ _ _ _"), ("a", "Yes. _ a _ _ e")]
    )
    assert constraints.pattern == "_a__e"
    assert "e" in constraints.present and "e" not in constraints.absent
    vocabulary = Vocabulary(["apple", "maybe", "table", "dance"])
    assert constraints.consistent_words(vocabulary=vocabulary) == ["maybe", "table", "dance"]


def test_bad_guess_letters_are_rejected() -> None:
    with pytest.raises(ValueError, match="turn 2: the guessed letter"):
        Constraints.from_dialogue([("", "_ _ _"), ("ab", "_ _ _")])
    with pytest.raises(ValueError, match="one letter a-z"):
        Constraints.from_dialogue([("1", "_ _ _")])
