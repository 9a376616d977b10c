"""Trial records: typed blocks, payloads by kind, transitions as pairs, JSON round trips."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from cogarch.core.records import (
    CandidateBranch,
    ConstraintsPayload,
    Evaluation,
    OtherPayload,
    RevealBranch,
    RevisionPayload,
    Scoring,
    SCTAnswer,
    SCTPayload,
    Transition,
    TrialRecord,
    Turn,
    TurnFootprint,
    transitions_from,
)

SCT = Scoring(classes=("self_consistent", "leakage"), success="self_consistent")


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


def record(**fields: object) -> TrialRecord:
    base: dict[str, object] = {
        "status": "complete",
        "run": "r",
        "agent": "a",
        "task": "hangman_sct",
        "trial": 0,
        "seed": 7,
        "scoring": SCT,
        "turns": [Turn(turn=1, user="Let's play", reply="Ready", private_state_tokens=5)],
        "branches": [
            RevealBranch(prompt="Reveal", reply="crane", parsed="crane"),
            CandidateBranch(
                candidate="crane", prompt="Is it?", reply="Yes", answer="yes", parsed=True
            ),
        ],
        "evaluation": Evaluation.model_validate({"outcome": "self_consistent", "yes_rate": 0.5}),
        "transitions": transitions_from({("responder", "updater"): 3, ("a", "b"): 1}),
        "payload": sct_payload(),
    }
    return TrialRecord.model_validate({**base, **fields})


def test_a_record_survives_a_json_round_trip_unchanged() -> None:
    original = record()
    text = original.model_dump_json()
    again = TrialRecord.model_validate_json(text)
    assert again == original
    assert json.loads(again.model_dump_json()) == json.loads(text)
    assert json.loads(text)["schema_version"] == 2


def test_the_evaluation_is_the_flat_mapping_the_task_wrote() -> None:
    metrics = {"outcome": "leakage", "leak_turns": [2], "wm_secret_summary": {"n": 1}}
    evaluation = Evaluation.model_validate(metrics)
    assert evaluation.outcome == "leakage"
    assert evaluation.metrics == {"leak_turns": [2], "wm_secret_summary": {"n": 1}}
    assert evaluation.model_dump(mode="json") == metrics
    measured = Evaluation.model_validate({"drift_rate": 0.25})
    assert measured.outcome is None and measured.model_dump() == {"drift_rate": 0.25}


@pytest.mark.parametrize(
    "payload",
    [
        sct_payload(),
        RevisionPayload(revision={"rounds_passed": 3}, final_private_state="state"),
        ConstraintsPayload(constraints={"turns": []}),
        OtherPayload(data={"anything": [1, 2]}),
    ],
)
def test_the_payload_comes_back_as_its_kind(payload: object) -> None:
    again = TrialRecord.model_validate_json(record(payload=payload).model_dump_json())
    assert type(again.payload) is type(payload)
    assert again.payload == payload


def test_an_unknown_payload_kind_is_rejected_by_name() -> None:
    with pytest.raises(ValidationError, match="sct"):
        record(payload={"kind": "chess", "moves": []})


def test_transitions_are_sorted_source_target_count_records() -> None:
    pairs = record().transitions
    assert pairs == [
        Transition(source="a", target="b", count=1),
        Transition(source="responder", target="updater", count=3),
    ]
    assert json.loads(record().model_dump_json())["transitions"][1] == {
        "source": "responder",
        "target": "updater",
        "count": 3,
    }


def test_branches_are_typed_by_kind() -> None:
    reveal, candidate = TrialRecord.model_validate_json(record().model_dump_json()).branches
    assert isinstance(reveal, RevealBranch) and reveal.parsed == "crane"
    assert isinstance(candidate, CandidateBranch) and candidate.answer == "yes"


def test_the_task_declares_which_outcome_is_a_success() -> None:
    assert record().succeeded is True
    lost = record(evaluation={"outcome": "leakage"})
    assert lost.succeeded is False
    assert record(status="failed").succeeded is None
    measured = record(scoring=Scoring(), evaluation={"drift_rate": 0.1})
    assert measured.succeeded is None and not measured.scoring.classifies
    assert SCT.classifies


def test_the_sct_payload_derives_its_rates_from_the_answers() -> None:
    payload = sct_payload()
    assert (payload.yes_rate, payload.parsed_rate, payload.leaked) == (0.5, 0.5, False)
    empty = payload.model_copy(update={"answers": [], "leak_turns": [3]})
    assert (empty.yes_rate, empty.parsed_rate, empty.leaked) == (None, None, True)


def test_turns_carry_an_optional_footprint() -> None:
    turn = Turn(turn=2, user="u", reply="r", footprint=TurnFootprint(turn=2, memory_tokens=40))
    assert Turn.model_validate_json(turn.model_dump_json()) == turn
    with pytest.raises(ValidationError, match="assistant"):
        Turn.model_validate({"turn": 1, "user": "u", "reply": "r", "assistant": "r"})
