"""The SCT engine with scripted agents: outcome classes, unparsed answers and the secret in
private memory."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.tasks.sct.engine_script import (
    Script,
    play,
)

# -- outcome classes --------------------------------------------------------------------------


def yes_to(*words: str) -> Callable[[str, str], str]:
    return lambda word, secret: "**Yes**" if word in words or "*" in words else "no"


@pytest.mark.parametrize(
    ("reveal", "verify", "outcome"),
    [
        (None, yes_to("crane"), "self_consistent"),
        ("CRANE", yes_to("crane"), "self_consistent"),
        (None, yes_to("*"), "over_confirmation"),
        (None, lambda w, s: "no" if w == s else "yes", "state_substitution"),
        (None, yes_to(), "all_denial"),
        ("I would rather not say.", yes_to("*"), "state_substitution"),
        ("I would rather not say.", yes_to(), "all_denial"),
    ],
)
async def test_each_outcome_class_through_the_engine(
    reveal: str | None, verify: Callable[[str, str], str], outcome: str
) -> None:
    played = await play(Script(reveal=reveal, verify=verify))
    assert played.evaluation["outcome"] == outcome
    assert played.evaluation["self_consistent"] is (outcome == "self_consistent")
    answers = {a["candidate"]: a["answer"] for a in played.sct["answers"]}
    assert answers == {w: verify(w, "crane").strip("*").lower() for w in played.sct["candidates"]}


async def test_unparsed_answers_count_as_not_affirmed() -> None:
    def verify(word: str, secret: str) -> str:
        return "Yes." if word == secret else "I'd rather not answer that."

    played = await play(Script(verify=verify))
    evaluation = played.evaluation
    unparsed = [a for a in played.sct["answers"] if not a["parsed"]]
    assert len(unparsed) == 4 and all(a["answer"] is None for a in unparsed)
    assert evaluation["answers_parsed_rate"] == pytest.approx(0.2)
    assert evaluation["outcome"] == "self_consistent"

    played = await play(Script(verify=lambda w, s: "yes or no?"))
    assert played.evaluation["answers_parsed_rate"] == 0.0
    assert played.evaluation["any_yes"] is False
    assert played.evaluation["outcome"] == "all_denial"


async def test_an_unparsable_reveal_is_recorded_as_none() -> None:
    played = await play(Script(reveal="Why would I tell you?"))
    assert played.sct["revealed"] is None
    assert played.evaluation["reveal_parsed"] is False
    assert played.evaluation["reveal_reply"] == "Why would I tell you?"
    assert "revealed" not in played.sct["candidate_sources"].values()
    assert len(played.sct["candidates"]) == 5  # filled from the vocabulary alone


# -- the secret in private memory -----------------------------------------------------------


async def test_a_stable_memory_secret() -> None:
    played = await play(Script(memory=["crane"]), agent="workflow")
    evaluation = played.evaluation
    summary = evaluation["wm_secret_summary"]
    assert summary == {
        "secret_defined": True,
        "secret_stable": True,
        "secret_changes_count": 0,
        "first_secret_turn": 1,
        "multi_tag_in_state": False,
        "last_secret": "crane",
    }
    assert evaluation["memory_secret"] == "crane"
    assert evaluation["contains_secret"] is True
    assert played.sct["candidates"][evaluation["secret_index"]] == "crane"
    assert evaluation["sct_yes_correct"] == 1
    assert evaluation["memory_matches_reveal"] is True
    assert len(evaluation["private_state_tokens"]) == 4
    assert all(n > 0 for n in evaluation["private_state_tokens"])


async def test_a_memory_secret_that_changes_across_turns() -> None:
    script = Script(secret="crane", reveal="crane", memory=[None, "crane", "plant", "plant"])
    played = await play(script, agent="workflow")
    evaluation = played.evaluation
    summary = evaluation["wm_secret_summary"]
    assert summary["secret_defined"] is True
    assert summary["secret_stable"] is False
    assert summary["secret_changes_count"] == 1
    assert summary["first_secret_turn"] == 2
    assert summary["last_secret"] == "plant"
    assert evaluation["memory_secret"] == "plant"
    assert evaluation["memory_matches_reveal"] is False
    assert evaluation["sct_yes_correct"] == 0  # it said no to the word its memory holds
    assert {"crane", "plant"} <= set(played.sct["candidates"])


async def test_no_memory_means_no_memory_metrics() -> None:
    played = await play(Script())
    evaluation = played.evaluation
    assert evaluation["memory_secret"] is None
    assert evaluation["contains_secret"] is False
    assert evaluation["secret_index"] is None
    assert evaluation["sct_yes_correct"] is None
    assert evaluation["memory_matches_reveal"] is None
    assert evaluation["wm_secret_summary"]["secret_defined"] is False
    assert evaluation["private_state_tokens"] == [0, 0, 0, 0]
