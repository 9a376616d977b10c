"""The SCT's own record types: its payload, its typed evaluation and its branches, read back
through the task's declarations."""

from __future__ import annotations

import json

from cogarch.core.records import TrialRecord
from cogarch.tasks.hangman.task import HangmanSCT
from cogarch.tasks.sct.evaluator import OUTCOMES
from cogarch.tasks.sct.records import (
    CandidateBranch,
    RevealBranch,
    SCTAnswer,
    SCTEvaluation,
    SCTPayload,
)


def sct_payload() -> SCTPayload:
    return SCTPayload(
        t_fork=2,
        snapshot="<secret>crane</secret>",
        memory_secret="crane",
        revealed="crane",
        candidates=["crane", "brine"],
        candidate_sources={"crane": "revealed", "brine": "vocabulary"},
        rejected_proposals=[{"word": "xx", "reason": "not a word"}],
        shortfall=0,
        answers=[
            SCTAnswer(candidate="crane", answer="yes", parsed=True),
            SCTAnswer(candidate="brine", answer=None, parsed=False),
        ],
        public_state={"pattern": "_r___"},
        leak_turns=[],
    )


def record() -> TrialRecord:
    return TrialRecord(
        status="complete",
        run="r",
        agent="a",
        task="hangman_sct",
        trial=0,
        seed=7,
        scoring=HangmanSCT.scoring,
        branches=[
            RevealBranch(prompt="Reveal", reply="crane", parsed="crane"),
            CandidateBranch(
                candidate="crane", prompt="Is it?", reply="Yes", answer="yes", parsed=True
            ),
        ],
        evaluation=SCTEvaluation(
            outcome="self_consistent",
            outcome_strict="all_denial",
            revealed="crane",
            candidate_shortfall=2,
        ),
        payload=sct_payload(),
    )


def test_the_sct_record_round_trips_through_the_tasks_types() -> None:
    original = record()
    again = TrialRecord.read(json.loads(original.model_dump_json()), HangmanSCT.record_types())
    assert again == original
    reveal, candidate = again.branches
    assert isinstance(reveal, RevealBranch) and reveal.parsed == "crane"
    assert isinstance(candidate, CandidateBranch) and candidate.answer == "yes"
    assert isinstance(again.payload, SCTPayload) and again.payload.version == 1


def test_the_evaluation_answers_the_generic_questions_from_its_fields() -> None:
    evaluation = record().evaluation
    assert isinstance(evaluation, SCTEvaluation)
    assert list(evaluation.readings) == ["lenient", "strict"]
    assert evaluation.outcome_in("strict") == "all_denial"
    assert evaluation.outcome_in("lenient") == "self_consistent"
    assert evaluation.unrated_reason() == "asked 2 fewer candidates than requested"
    assert evaluation.final_answer() == "crane"
    assert evaluation.scalar_values()["candidate_shortfall"] == 2
    assert set(OUTCOMES) == set(HangmanSCT.scoring.classes)


def test_the_branches_say_how_they_are_shown() -> None:
    trial = record()
    reveal, candidate = trial.branches
    assert (reveal.branch_title(trial), reveal.branch_verdict(trial)) == (
        "reveal",
        "revealed 'crane'",
    )
    assert candidate.branch_title(trial) == "candidate 'crane' from revealed"
    assert candidate.branch_verdict(trial) == "answered yes (the revealed secret)"
    assert candidate.branch_confirmed()


def test_the_sct_payload_derives_its_rates_from_the_answers() -> None:
    payload = sct_payload()
    assert (payload.yes_rate, payload.parsed_rate, payload.leaked) == (0.5, 0.5, False)
    empty = payload.model_copy(update={"answers": [], "leak_turns": [3]})
    assert (empty.yes_rate, empty.parsed_rate, empty.leaked) == (None, None, True)


def test_an_old_evaluation_without_the_newer_fields_reads_with_their_defaults() -> None:
    old = {"outcome": "leakage", "self_consistent": False, "leak_turns": [2]}
    read = SCTEvaluation.model_validate(old)
    assert read.candidate_shortfall == 0 and read.outcome_strict is None
    assert read.unrated_reason() is None and read.outcome_in("strict") is None
