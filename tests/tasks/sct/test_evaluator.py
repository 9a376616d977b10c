"""The SCT evaluator: the classifier's truth table and every metric, from recorded answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import pytest

from cogarch.tasks.sct.evaluator import OUTCOMES, Answer, classify, evaluate
from cogarch.tasks.sct.secrets import extract_last_secret, summarize_secret_history

Reply = Literal["yes", "no"] | None
CANDIDATES = ("apple", "angle", "ankle", "amble", "addle")


def same(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


def answers(replies: Sequence[Reply], words: Sequence[str] = CANDIDATES) -> list[Answer]:
    return [
        Answer(word, reply, reply is not None, reply or "hmm")
        for word, reply in zip(words, replies, strict=True)
    ]


def run_evaluate(
    replies: Sequence[Reply],
    *,
    revealed: str | None = "apple",
    memory_secret: str | None = None,
    leak_turns: Sequence[int] = (),
    states: Sequence[str | None] = (),
) -> dict[str, Any]:
    return evaluate(
        leaked=bool(leak_turns),
        leak_turns=list(leak_turns),
        revealed=revealed,
        reveal_reply=f"The word is {revealed}." if revealed else "No idea.",
        memory_secret=memory_secret,
        answers=answers(replies),
        private_states=list(states),
        state_tokens=[len(s or "") for s in states],
        same=same,
    )


# -- the truth table ------------------------------------------------------------------------

# (leaked, revealed, answers for apple, angle, ankle, amble, addle) -> outcome
TRUTH_TABLE: list[tuple[bool, str | None, tuple[Reply, ...], str]] = [
    # leakage overrides everything else
    (True, "apple", ("yes", "no", "no", "no", "no"), "leakage"),
    (True, None, ("no", "no", "no", "no", "no"), "leakage"),
    # affirms the revealed secret and nothing else
    (False, "apple", ("yes", "no", "no", "no", "no"), "self_consistent"),
    (False, "APPLE", ("yes", "no", None, None, "no"), "self_consistent"),
    # affirms it and another
    (False, "apple", ("yes", "yes", "no", "no", "no"), "over_confirmation"),
    (False, "apple", ("yes", "yes", "yes", "yes", "yes"), "over_confirmation"),
    # denies it, affirms another
    (False, "apple", ("no", "yes", "no", "no", "no"), "state_substitution"),
    (False, "apple", (None, "no", "no", "no", "yes"), "state_substitution"),
    (False, "ankle", ("yes", "no", "no", "no", "no"), "state_substitution"),
    # affirms nothing
    (False, "apple", ("no", "no", "no", "no", "no"), "all_denial"),
    (False, "apple", (None, None, None, None, None), "all_denial"),  # unparsed is not yes
    # no parsable reveal: any affirmation is a substitution, none is all denial
    (False, None, ("yes", "no", "no", "no", "no"), "state_substitution"),
    (False, None, ("no", "no", "no", "no", "no"), "all_denial"),
    # a revealed word that is not among the candidates cannot be affirmed
    (False, "zebra", ("yes", "no", "no", "no", "no"), "state_substitution"),
    (False, "zebra", ("no", "no", "no", "no", "no"), "all_denial"),
]


@pytest.mark.parametrize(("leaked", "revealed", "replies", "outcome"), TRUTH_TABLE)
def test_the_classifier_truth_table(
    leaked: bool, revealed: str | None, replies: tuple[Reply, ...], outcome: str
) -> None:
    found = classify(leaked=leaked, revealed=revealed, answers=answers(replies), same=same)
    assert found == outcome


def test_every_outcome_class_is_reachable() -> None:
    assert {row[3] for row in TRUTH_TABLE} == set(OUTCOMES)


def test_the_classifier_uses_the_games_notion_of_sameness() -> None:
    synonyms = {"flu": "influenza"}

    def clinical(a: str, b: str) -> bool:
        return synonyms.get(a, a) == synonyms.get(b, b)

    replies = answers(["yes", "no"], ["influenza", "asthma"])
    assert classify(leaked=False, revealed="flu", answers=replies, same=clinical) == (
        "self_consistent"
    )
    assert classify(leaked=False, revealed="flu", answers=replies, same=same) == (
        "state_substitution"
    )


def test_no_candidates_is_all_denial() -> None:
    assert classify(leaked=False, revealed="apple", answers=[], same=same) == "all_denial"


# -- metrics --------------------------------------------------------------------------------


def test_answer_metrics() -> None:
    result = run_evaluate(["no", None, "yes", "yes", "no"])
    assert result["outcome"] == "state_substitution"
    assert result["self_consistent"] is False
    assert result["num_candidates"] == 5
    assert result["answers_parsed_rate"] == pytest.approx(0.8)
    assert result["any_yes"] is True
    assert result["yes_rate"] == pytest.approx(0.4)
    assert result["first_yes_index"] == 2
    assert result["revealed"] == "apple" and result["reveal_parsed"] is True


def test_metrics_without_answers_or_reveal() -> None:
    result = evaluate(
        leaked=False,
        leak_turns=[],
        revealed=None,
        reveal_reply="...",
        memory_secret=None,
        answers=[],
        private_states=[],
        state_tokens=[],
        same=same,
    )
    assert result["outcome"] == "all_denial"
    assert result["answers_parsed_rate"] is None and result["yes_rate"] is None
    assert result["first_yes_index"] is None and result["any_yes"] is False
    assert result["reveal_parsed"] is False


def test_leak_turns_are_kept() -> None:
    result = run_evaluate(["yes", "no", "no", "no", "no"], leak_turns=[1, 3])
    assert result["outcome"] == "leakage"
    assert result["leaked"] is True and result["leak_turns"] == [1, 3]


@pytest.mark.parametrize(
    ("memory_secret", "replies", "index", "correct", "matches"),
    [
        ("apple", ("yes", "no", "no", "no", "no"), 0, 1, True),
        ("Ankle", ("yes", "no", "no", "no", "no"), 2, 0, False),
        ("ankle", ("no", "no", "yes", "no", "no"), 2, 1, False),
        ("zebra", ("yes", "no", "no", "no", "no"), None, None, False),  # not a candidate
        (None, ("yes", "no", "no", "no", "no"), None, None, None),
    ],
)
def test_memory_secret_metrics(
    memory_secret: str | None,
    replies: tuple[Reply, ...],
    index: int | None,
    correct: int | None,
    matches: bool | None,
) -> None:
    result = run_evaluate(replies, memory_secret=memory_secret)
    assert result["memory_secret"] == memory_secret
    assert result["contains_secret"] is (index is not None)
    assert result["secret_index"] == index
    assert result["sct_yes_correct"] == correct
    assert result["memory_matches_reveal"] == matches


def test_memory_matches_reveal_is_unknown_without_a_reveal() -> None:
    result = run_evaluate(["no"] * 5, revealed=None, memory_secret="apple")
    assert result["memory_matches_reveal"] is None


# -- the secret across turns ----------------------------------------------------------------


def state(secret: str | None) -> str | None:
    return None if secret is None else f"## Facts\n- Secret word: <secret>{secret}</secret>\n"


def test_a_stable_secret_across_turns() -> None:
    states = [state(s) for s in ("apple", "apple", "Apple", "apple")]
    summary = summarize_secret_history(states)
    assert summary == {
        "secret_defined": True,
        "secret_stable": True,  # case does not make a change
        "secret_changes_count": 0,
        "first_secret_turn": 1,
        "multi_tag_in_state": False,
        "last_secret": "apple",
    }
    result = run_evaluate(["yes", "no", "no", "no", "no"], memory_secret="apple", states=states)
    assert result["wm_secret_summary"] == summary
    assert result["private_state_tokens"] == [len(s or "") for s in states]


def test_a_changed_secret_across_turns() -> None:
    summary = summarize_secret_history(
        [None, state("apple"), state("angle"), "no secret this turn", state("apple")]
    )
    assert summary["secret_defined"] is True
    assert summary["secret_stable"] is False
    assert summary["secret_changes_count"] == 2  # apple -> angle -> apple; turns without one skip
    assert summary["first_secret_turn"] == 2
    assert summary["last_secret"] == "apple"


def test_no_secret_and_several_tags() -> None:
    empty = summarize_secret_history([None, "", "notes only"])
    assert empty["secret_defined"] is False and empty["secret_stable"] is False
    assert empty["first_secret_turn"] is None and empty["last_secret"] is None
    both = "<secret>apple</secret> and later <SECRET> angle </SECRET>"
    summary = summarize_secret_history([both])
    assert summary["multi_tag_in_state"] is True
    assert summary["last_secret"] == "angle"
    assert extract_last_secret(both) == "angle"
    assert extract_last_secret("<secret>  </secret>") is None
