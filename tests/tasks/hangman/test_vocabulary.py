"""The vocabulary index against the plain Hangman rule."""

from __future__ import annotations

import random
import string
import threading

import pytest

from cogarch.tasks.hangman.rules import reveal_pattern
from cogarch.tasks.hangman.vocabulary import (
    PatternError,
    Vocabulary,
    consistent_words,
    english_vocabulary,
    is_consistent,
)


@pytest.fixture(scope="module")
def english() -> Vocabulary:
    return english_vocabulary()


def _random_board(rng: random.Random, words: list[str]) -> tuple[str, frozenset[str]]:
    """A board some vocabulary word produces: its pattern after a random set of guesses."""
    secret = rng.choice(words)
    guessed = set(rng.sample(sorted(set(secret)), rng.randint(0, len(set(secret)))))
    guessed |= set(rng.sample(string.ascii_lowercase, rng.randint(0, 6)))
    absent = frozenset(letter for letter in guessed if letter not in secret)
    return reveal_pattern(secret, guessed), absent


def test_english_vocabulary_is_lowercase_ascii_unique_and_ranked(english: Vocabulary) -> None:
    words = english.words
    assert 250_000 < len(words) <= 300_000
    assert len(set(words)) == len(words)
    assert all(word.isascii() and word.isalpha() and word.islower() for word in words)
    assert words[:3] == ("the", "to", "and")
    assert english.rank("the") == 0
    assert english.rank("Apple") == english.rank("apple") < english.rank("pineapple")
    assert "apple" in english and "APPLE" in english
    assert "don't" not in english and "café" not in english and 3 not in english
    with pytest.raises(KeyError, match="not in the vocabulary"):
        english.rank("qzxqzxq")


def test_english_vocabulary_is_shared(english: Vocabulary) -> None:
    assert english_vocabulary() is english


def test_consistent_words_match_an_exhaustive_scan(english: Vocabulary) -> None:
    rng = random.Random(20240611)
    by_length: dict[int, list[str]] = {}
    for word in english.words:
        by_length.setdefault(len(word), []).append(word)
    lengths = [3, 4, 5, 6, 7, 9, 12]
    checked = 0
    for length in lengths:
        words = by_length[length]
        for _ in range(3):
            pattern, absent = _random_board(rng, words)
            expected = [word for word in words if is_consistent(word, pattern, absent)]
            got = consistent_words(pattern, absent)
            assert got == expected, (pattern, absent)
            assert got, "the board comes from a vocabulary word, so something fits"
            checked += len(got)
    # A few boards no word produced: usually empty, always equal to the scan.
    for length in (4, 6):
        words = by_length[length]
        for _ in range(2):
            letters = rng.sample(string.ascii_lowercase, 8)
            pattern = "".join(rng.choice(["_", "_", letters[0], letters[1]]) for _ in range(length))
            absent = frozenset(letters[4:])
            expected = [word for word in words if is_consistent(word, pattern, absent)]
            assert consistent_words(pattern, absent) == expected
    assert checked > 50


def test_every_returned_word_obeys_the_rules() -> None:
    pattern, absent = "_a__e", {"s", "t", "r"}
    words = consistent_words(pattern, absent, limit=200)
    assert words
    for word in words:
        assert len(word) == 5 and word[1] == "a" and word[4] == "e"
        assert "a" not in word[0] + word[2:4] and "e" not in word[:4]
        assert not set(word) & absent


def test_revealed_letter_never_fills_a_blank() -> None:
    # "apple" reveals both p's; a word with one p shown and another p hidden must not fit.
    assert is_consistent("apple", "_pp__", set())
    assert not is_consistent("apple", "_p___", set())
    assert "apple" not in consistent_words("_p___", set())
    assert "apple" in consistent_words("_pp__", set())


def test_limit_keeps_frequency_order() -> None:
    everything = consistent_words("_ _ _ _ e", {"s"})
    assert consistent_words("_ _ _ _ e", {"s"}, limit=7) == everything[:7]
    assert consistent_words("_ _ _ _ e", {"s"}, limit=0) == []
    ranks = [english_vocabulary().rank(word) for word in everything]
    assert ranks == sorted(ranks)


def test_pattern_forms_are_equivalent() -> None:
    expected = consistent_words("_a__e", "st")
    assert consistent_words("_ a _ _ e", ["s", "t"]) == expected
    assert consistent_words(" _A__E ", {"S", "T"}) == expected
    assert consistent_words("_\ta _\n_ e", frozenset("st")) == expected


@pytest.mark.parametrize(
    ("pattern", "absent", "message"),
    [
        ("", set(), "empty"),
        ("   ", set(), "empty"),
        ("_a-e", set(), "contains"),
        ("_a?e", set(), "contains"),
        ("_é__", set(), "contains"),
        ("_a__e", {"a"}, "both revealed"),
        ("_a__e", {"ab"}, "single letters"),
        ("_a__e", {"1"}, "single letters"),
    ],
)
def test_invalid_boards_are_rejected(pattern: str, absent: set[str], message: str) -> None:
    with pytest.raises(PatternError, match=message):
        consistent_words(pattern, absent)
    with pytest.raises(PatternError, match=message):
        is_consistent("apple", pattern, absent)


def test_limit_must_be_a_non_negative_int() -> None:
    with pytest.raises(ValueError, match="limit"):
        consistent_words("___", set(), limit=-1)
    with pytest.raises(TypeError, match="limit"):
        consistent_words("___", set(), limit=2.0)  # type: ignore[arg-type]


def test_lengths_without_words_give_nothing() -> None:
    assert consistent_words("_" * 40, set()) == []


def test_is_consistent_rejects_words_of_other_shapes() -> None:
    assert is_consistent("Apple", "_ p p _ e", "z")
    assert not is_consistent("apples", "_pp_e", "")
    assert not is_consistent("ap-le", "_p__e", "")
    assert not is_consistent("apzle", "_p__e", "z")


def test_custom_vocabulary_keeps_first_rank_and_validates() -> None:
    vocabulary = Vocabulary(["cat", "dog", "cat", "cot", "cut"])
    assert vocabulary.words == ("cat", "dog", "cot", "cut")
    assert len(vocabulary) == 4 and list(vocabulary) == list(vocabulary.words)
    assert vocabulary.rank("cot") == 2
    assert consistent_words("c_t", {"u"}, vocabulary=vocabulary) == ["cat", "cot"]
    assert consistent_words("c_t", set(), limit=1, vocabulary=vocabulary) == ["cat"]
    with pytest.raises(ValueError, match="lowercase ASCII letters"):
        Vocabulary(["cat", "Dog"])


def test_concurrent_first_queries_agree() -> None:
    vocabulary = Vocabulary(english_vocabulary().words[:20_000])
    results: list[list[str]] = []
    lock = threading.Lock()

    def query() -> None:
        words = vocabulary.consistent("__e__", {"a"})
        with lock:
            results.append(words)

    threads = [threading.Thread(target=query) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 8
    assert all(result == results[0] for result in results)
    assert results[0] == [w for w in vocabulary.words if is_consistent(w, "__e__", {"a"})]
