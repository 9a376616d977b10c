"""Trial records: one envelope for every task, the task's parts read into its own classes,
generic data kept whole when the task cannot be loaded, and JSON round trips."""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar, Literal

import pytest
from pydantic import ConfigDict, Field, ValidationError

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import GenericPayload, PayloadRegistry, TaskPayload
from cogarch.core.records import (
    Branch,
    RecordTypes,
    Scoring,
    TransitionCount,
    TrialOutput,
    TrialRecord,
    Turn,
    TurnFootprint,
    transitions_from,
)

WIN = Scoring(classes=("won", "lost"), success="won")


class Board(TaskPayload):
    kind: Literal["board"] = "board"
    moves: list[str]


class Verdict(Evaluation):
    readings: ClassVar[dict[str, str]] = {"plain": "as played", "harsh": "every slip counts"}

    moves: int = 0
    slips: int = 0
    harsh: str | None = None
    detail: dict[str, float] = Field(default_factory=dict)

    def outcome_in(self, reading: str) -> str | None:
        return self.harsh if reading == "harsh" else self.outcome


class Ask(Branch):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["ask"] = "ask"
    said_yes: bool

    def branch_title(self, record: TrialRecord) -> str:
        return "asked"

    def branch_confirmed(self) -> bool:
        return self.said_yes


class Peek(Branch):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["peek"] = "peek"


TYPES = RecordTypes(
    PayloadRegistry(Board), Verdict, Annotated[Ask | Peek, Field(discriminator="kind")]
)


def data(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "status": "complete",
        "run": "r",
        "agent": "a",
        "task": "board_game",
        "trial": 0,
        "seed": 7,
        "scoring": WIN.model_dump(),
        "turns": [{"turn": 1, "user": "Let's play", "reply": "Ready", "private_state_tokens": 5}],
        "branches": [
            {"kind": "ask", "prompt": "Is it?", "reply": "Yes", "said_yes": True},
            {"kind": "peek", "prompt": "Show", "reply": "no"},
        ],
        "evaluation": {"outcome": "won", "moves": 3, "slips": 1, "harsh": "lost"},
        "transitions": [{"source": "a", "target": "b", "count": 1}],
        "payload": {"kind": "board", "moves": ["e4", "e5"]},
    }
    return {**base, **fields}


def test_a_record_read_with_its_tasks_types_has_the_tasks_classes() -> None:
    record = TrialRecord.read(data(), TYPES)
    assert isinstance(record.payload, Board) and record.payload.moves == ["e4", "e5"]
    assert isinstance(record.evaluation, Verdict) and record.evaluation.slips == 1
    assert [type(b) for b in record.branches] == [Ask, Peek]
    ask = record.branches[0]
    assert ask.branch_confirmed() and ask.branch_title(record) == "asked"


def test_a_record_survives_a_json_round_trip_unchanged() -> None:
    original = TrialRecord.read(data(), TYPES)
    text = original.model_dump_json()
    again = TrialRecord.read(json.loads(text), TYPES)
    assert again == original
    assert json.loads(again.model_dump_json()) == json.loads(text)
    written = json.loads(text)
    assert written["schema_version"] == 2
    assert written["payload"] == {"kind": "board", "version": 1, "moves": ["e4", "e5"]}
    # the fields the task set, flat; one it never set ("detail") is left out
    assert written["evaluation"] == {"outcome": "won", "moves": 3, "slips": 1, "harsh": "lost"}
    assert again.evaluation.detail == {}


def test_without_its_tasks_types_every_part_is_kept_as_data() -> None:
    typed = TrialRecord.read(data(), TYPES)
    generic = TrialRecord.read(json.loads(typed.model_dump_json()))
    assert isinstance(generic.payload, GenericPayload)
    assert generic.payload.data == {"version": 1, "moves": ["e4", "e5"]}
    assert type(generic.evaluation) is Evaluation and generic.evaluation.outcome == "won"
    assert [type(b) for b in generic.branches] == [Branch, Branch]
    assert generic.branches[1].prompt == "Show"
    assert json.loads(generic.model_dump_json()) == json.loads(typed.model_dump_json())


def test_an_evaluation_of_an_older_shape_loads_as_data_not_as_an_error() -> None:
    record = TrialRecord.read(data(evaluation={"outcome": "won", "moves": "three"}), TYPES)
    assert type(record.evaluation) is Evaluation
    assert record.evaluation.evaluation_items() == [("outcome", "won"), ("moves", "three")]


def test_a_broken_payload_of_a_known_kind_is_refused_naming_it() -> None:
    with pytest.raises(ValidationError, match="not a valid 'board' payload"):
        TrialRecord.read(data(payload={"kind": "board", "moves": 3}), TYPES)


def test_a_failed_trial_reads_its_empty_evaluation_generically() -> None:
    record = TrialRecord.read(data(status="failed", evaluation={}, payload={"kind": "other"}))
    assert type(record.evaluation) is Evaluation and record.succeeded is None


def test_the_evaluation_is_walked_by_its_fields_never_by_key() -> None:
    evaluation = Verdict(outcome="won", moves=3, slips=1, harsh=None, detail={"pace": 0.5})
    assert evaluation.scalar_values() == {
        "outcome": "won",
        "moves": 3,
        "slips": 1,
        "harsh": None,
        "detail.pace": 0.5,
    }
    assert evaluation.numeric_values() == {"moves": 3.0, "slips": 1.0, "detail.pace": 0.5}
    assert evaluation.outcome_in("harsh") is None and evaluation.outcome_in("plain") == "won"
    measured = Evaluation.model_validate({"drift_rate": 0.25, "turns": [1, 2]})
    assert measured.outcome is None and measured.model_dump() == {
        "drift_rate": 0.25,
        "turns": [1, 2],
    }
    assert measured.scalar_values() == {"drift_rate": 0.25}


def test_transitions_are_sorted_source_target_count_records() -> None:
    pairs = transitions_from({("responder", "updater"): 3, ("a", "b"): 1})
    assert pairs == [
        TransitionCount(source="a", target="b", count=1),
        TransitionCount(source="responder", target="updater", count=3),
    ]


def test_the_task_declares_which_outcome_is_a_success() -> None:
    assert TrialRecord.read(data(), TYPES).succeeded is True
    lost = TrialRecord.read(data(evaluation={"outcome": "lost"}), TYPES)
    assert lost.succeeded is False
    assert TrialRecord.read(data(status="failed"), TYPES).succeeded is None
    measured = TrialRecord.read(data(scoring={}, evaluation={"drift_rate": 0.1}))
    assert measured.succeeded is None and not measured.scoring.classifies
    assert WIN.classifies


def test_an_output_and_its_header_make_one_record() -> None:
    output = TrialOutput(
        turns=[Turn(turn=1, user="u", reply="r")],
        evaluation=Verdict(outcome="won", moves=1),
        payload=Board(moves=["e4"]),
    )
    record = TrialRecord.of(
        output,
        metadata=TrialRecord.model_fields["metadata"].default_factory(),  # type: ignore[misc]
        scoring=WIN,
        run="r",
        agent="a",
        task="board_game",
        trial=0,
        seed=1,
    )
    assert record.status == "complete" and record.payload == Board(moves=["e4"])
    assert record.evaluation == output.evaluation


def test_turns_carry_an_optional_footprint() -> None:
    turn = Turn(turn=2, user="u", reply="r", footprint=TurnFootprint(turn=2, memory_tokens=40))
    assert Turn.model_validate_json(turn.model_dump_json()) == turn
    with pytest.raises(ValidationError, match="assistant"):
        Turn.model_validate({"turn": 1, "user": "u", "reply": "r", "assistant": "r"})
