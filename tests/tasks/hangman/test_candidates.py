"""Building the candidate set asked about after the fork."""

from __future__ import annotations

import random

import pytest

from cogarch.tasks.hangman.candidates import (
    CandidateSet,
    Rejection,
    build_candidates,
    parse_word_list,
)
from cogarch.tasks.hangman.rules import Constraints
from cogarch.tasks.hangman.vocabulary import Vocabulary

VOCABULARY = Vocabulary(
    ["table", "cable", "fable", "sable", "gable", "maybe", "label", "apple", "angle", "ample"]
)


def _board(pattern: str, absent: set[str]) -> Constraints:
    letters = set(pattern) - {"_"}
    return Constraints(pattern=pattern, present=letters, absent=absent, length=len(pattern))


async def _build(
    constraints: Constraints,
    n: int,
    *,
    seed: int = 0,
    revealed: str | None = None,
    memory_secret: str | None = None,
    proposals: list[str] | None = None,
    asked: list[int] | None = None,
) -> CandidateSet:
    async def propose(k: int) -> list[str]:
        if asked is not None:
            asked.append(k)
        return list(proposals or [])

    return await build_candidates(
        constraints=constraints,
        n=n,
        rng=random.Random(seed),
        revealed=revealed,
        memory_secret=memory_secret,
        propose=propose if proposals is not None else None,
        vocabulary=VOCABULARY,
    )


async def test_secrets_then_most_frequent_consistent_words() -> None:
    board = _board("__ble", {"s"})
    result = await _build(board, 4, revealed=" Fable ", memory_secret="gable")
    assert sorted(result.words) == ["cable", "fable", "gable", "table"]
    assert result.sources == {
        "fable": "revealed",
        "gable": "memory",
        "table": "vocabulary",
        "cable": "vocabulary",
    }
    assert result.shortfall == 0 and result.rejected_proposals == []


async def test_duplicates_are_dropped() -> None:
    board = _board("__ble", {"s"})
    same = await _build(board, 3, revealed="table", memory_secret="TABLE")
    assert sorted(same.words) == ["cable", "fable", "table"]
    assert same.sources["table"] == "revealed"
    assert len(set(same.words)) == len(same.words)


async def test_the_secret_is_not_always_first_and_order_follows_the_seed() -> None:
    board = _board("__ble", {"s"})
    orders = [
        tuple((await _build(board, 4, seed=seed, revealed="fable")).words) for seed in range(20)
    ]
    assert len({order.index("fable") for order in orders}) > 1
    again = await _build(board, 4, seed=5, revealed="fable")
    assert tuple(again.words) == orders[5]


async def test_inconsistent_secrets_are_kept() -> None:
    board = _board("__ble", {"s"})
    result = await _build(board, 3, revealed="sable", memory_secret="apple")
    assert {"sable", "apple"} <= set(result.words)
    assert len(result.words) == 3


async def test_shortfall_is_filled_by_checked_proposals() -> None:
    board = _board("__ble", {"s", "t"})  # vocabulary: cable, fable, gable
    asked: list[int] = []
    result = await _build(
        board,
        6,
        revealed="cable",
        proposals=["Hable", "cable", "sable", "table", "bubble", "two words", "wable", "zable"],
        asked=asked,
    )
    assert asked == [3]
    assert sorted(result.words) == ["cable", "fable", "gable", "hable", "wable", "zable"]
    assert {word: result.sources[word] for word in ("hable", "wable", "zable")} == {
        "hable": "model",
        "wable": "model",
        "zable": "model",
    }
    assert result.shortfall == 0
    assert result.rejected_proposals == [
        Rejection("cable", "duplicate"),
        Rejection("sable", "inconsistent with the public constraints"),
        Rejection("table", "inconsistent with the public constraints"),
        Rejection("bubble", "inconsistent with the public constraints"),
        Rejection("two words", "not a single word of letters a-z"),
    ]


async def test_surplus_proposals_are_recorded() -> None:
    board = _board("__ble", {"s", "t"})
    result = await _build(board, 4, proposals=["hable", "wable"])
    assert result.sources["hable"] == "model"
    assert result.rejected_proposals == [Rejection("wable", "surplus")]


async def test_shortfall_without_a_proposer() -> None:
    board = _board("__ble", {"s", "t"})
    result = await _build(board, 5, revealed="cable")
    assert sorted(result.words) == ["cable", "fable", "gable"]
    assert result.shortfall == 2


async def test_no_board_means_proposals_only_checked_by_letters() -> None:
    board = Constraints(present={"a"}, absent={"z"})
    result = await _build(board, 3, revealed="maybe", proposals=["apple", "pizza", "tent"])
    assert sorted(result.words) == ["apple", "maybe"]
    assert result.shortfall == 1
    assert [r.word for r in result.rejected_proposals] == ["pizza", "tent"]


async def test_the_proposer_is_not_called_when_the_vocabulary_suffices() -> None:
    asked: list[int] = []
    result = await _build(_board("__ble", set()), 3, proposals=["zable"], asked=asked)
    assert asked == [] and len(result.words) == 3


async def test_arguments_are_validated() -> None:
    board = _board("__ble", set())
    with pytest.raises(ValueError, match="n must be a positive int"):
        await _build(board, 0)
    with pytest.raises(TypeError, match="memory secret must be a string"):
        await _build(board, 3, memory_secret=["table"])  # type: ignore[arg-type]


async def test_secrets_from_model_output_are_read_leniently() -> None:
    board = _board("__ble", set())
    result = await _build(board, 3, revealed="**Sable**.", memory_secret="the word is gable")
    assert result.sources["sable"] == "revealed" and result.sources["gable"] == "memory"
    assert result.unusable_secrets == []
    unusable = await _build(board, 3, revealed="I cannot say.", memory_secret="")
    assert sorted(unusable.words) == ["cable", "fable", "table"]
    assert [r.word for r in unusable.unusable_secrets] == ["I cannot say.", ""]
    assert "revealed secret names no single word" in unusable.unusable_secrets[0].reason


async def test_default_english_vocabulary() -> None:
    constraints = Constraints.from_dialogue(
        [("", "_ _ _ _ _"), ("e", "Pattern: _ _ _ _ e"), ("s", "No. _ _ _ _ e")]
    )
    result = await build_candidates(
        constraints=constraints, n=5, rng=random.Random(1), revealed="apple", memory_secret=None
    )
    assert len(result.words) == 5 and "apple" in result.words
    assert all(constraints.admits(word) for word in result.words)


async def test_a_guess_left_unread_and_missing_from_later_boards_is_excluded() -> None:
    # "e" was guessed, the reply said nothing clear, and the boards after it never showed it.
    constraints = Constraints.from_dialogue(
        [("", "_ _ _ _ _"), ("a", "a _ _ _ _"), ("e", "Hmm, let me see."), ("t", "a _ _ _ _")]
    )
    result = await build_candidates(
        constraints=constraints,
        n=3,
        rng=random.Random(0),
        revealed=None,
        memory_secret=None,
        vocabulary=Vocabulary(["asked", "above", "angry", "album", "after", "admin"]),
    )
    assert sorted(result.words) == ["admin", "album", "angry"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('["apple", "angle"]', ["apple", "angle"]),
        ('```json\n["Apple", " angle ", "apple"]\n```', ["apple", "angle"]),
        ('Sure! Here they are: ["apple", "angle"]. Hope it helps.', ["apple", "angle"]),
        ('<think>maybe ["x"]</think>["apple"]', ["apple"]),
        ('[1, "apple", null, "angle"]', ["apple", "angle"]),
        ('Constraints [a-e]: ["apple", "angle"]', ["apple", "angle"]),
        ("['apple', 'angle']", ["apple", "angle"]),
        ('["apple", "angle"', ["apple", "angle"]),
        ("1. apple\n2. angle\n", ["apple", "angle"]),
        ("- apple\n- angle", ["apple", "angle"]),
        ("I cannot think of any.", []),
        ("", []),
    ],
)
def test_parse_word_list(text: str, words: list[str]) -> None:
    assert parse_word_list(text) == words
