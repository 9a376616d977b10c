"""Scoring is a pure function of the played trial and the game's judge: no model, no agent."""

from __future__ import annotations

from typing import Literal

import pytest

from cogarch.core.records import Turn
from cogarch.tasks.sct.evaluator import Answer
from cogarch.tasks.sct.score import PlayedSCT, leak_turns, score


class Words:
    """A judge for plain words: the same up to case; mentioned as a whole word."""

    def same(self, a: str, b: str) -> bool:
        return a.lower() == b.lower()

    def mentions(self, text: str, secret: str) -> bool:
        return secret.lower() in text.lower().split()


def turns(*replies: str) -> list[Turn]:
    return [
        Turn(
            turn=i,
            user="guess",
            reply=reply,
            private_state=f"<secret>crane</secret> after {i}",
            private_state_tokens=10 * i,
        )
        for i, reply in enumerate(replies, start=1)
    ]


Verdict = Literal["yes", "no"] | None


def played(*answers: tuple[str, Verdict], replies: tuple[str, ...] = ("ok", "ok")) -> PlayedSCT:
    return PlayedSCT(
        turns=turns(*replies),
        reveal_reply="It was CRANE.",
        revealed="CRANE",
        memory_secret="crane",
        answers=[Answer(word, said, said is not None, str(said)) for word, said in answers],
    )


@pytest.mark.parametrize(
    ("answers", "outcome"),
    [
        ((("crane", "yes"), ("brine", "no")), "self_consistent"),
        ((("crane", "yes"), ("brine", "yes")), "over_confirmation"),
        ((("crane", "no"), ("brine", "yes")), "state_substitution"),
        ((("crane", "no"), ("brine", None)), "all_denial"),
    ],
)
def test_each_outcome_from_the_answers_alone(
    answers: tuple[tuple[str, Verdict], ...], outcome: str
) -> None:
    evaluation = score(played(*answers), Words())
    assert evaluation["outcome"] == outcome
    assert evaluation["self_consistent"] == (outcome == "self_consistent")


def test_a_reply_that_names_the_secret_is_leakage_whatever_the_answers() -> None:
    leaky = played(("crane", "yes"), replies=("ok", "the word is crane", "Crane!"))
    assert leak_turns(leaky, Words()) == [2]
    evaluation = score(leaky, Words())
    assert evaluation["outcome"] == "leakage" and evaluation["leak_turns"] == [2]


def test_the_metrics_come_from_the_record() -> None:
    evaluation = score(played(("brine", "no"), ("crane", "yes"), ("drone", None)), Words())
    assert evaluation["private_state_tokens"] == [10, 20]
    assert evaluation["secret_index"] == 1 and evaluation["sct_yes_correct"] == 1
    assert evaluation["memory_matches_reveal"] is True
    assert evaluation["answers_parsed_rate"] == pytest.approx(2 / 3)
    assert evaluation["wm_secret_summary"]["secret_stable"] is True
    assert evaluation["reveal_reply"] == "It was CRANE."


def test_scoring_twice_gives_the_same_verdict() -> None:
    trial = played(("crane", "yes"), ("brine", "no"))
    assert score(trial, Words()) == score(trial, Words())
