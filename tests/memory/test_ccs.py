"""The CCS schema: strict validation, deterministic repair of model output, bounded rendering."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from cogarch.memory.compressed.ccs import CCS, FIELDS, MAX_CONSTRAINTS, CCSDraft, repair_ccs_payload
from cogarch.tokens import count_tokens


def payload(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "episodic_trace": ["user reported 502s after enabling http2"],
        "semantic_gist": "mitigate intermittent 502s",
        "focal_entities": [{"name": "nginx", "type": "service", "attributes": {"host": "web-03"}}],
        "relational_map": [{"subject": "502 spikes", "relation": "after", "object": "http2"}],
        "goal_orientation": "reduce 502s without downtime",
        "constraints": ["no restart of nginx during business hours"],
        "predictive_cue": ["check upstream keepalive"],
        "uncertainty_signal": {"level": "medium", "gaps": ["root cause unconfirmed"]},
        "retrieved_artifacts": ["t1.user"],
    }
    base.update(overrides)
    return base


def test_a_complete_state_validates_and_renders_every_field_in_order() -> None:
    state = CCS.model_validate(payload())
    lines = state.render().splitlines()
    assert [line.split(":")[0] for line in lines] == list(FIELDS)
    assert "service(nginx; host=web-03)" in lines[2]
    assert lines[3] == "relational_map: after(502 spikes, http2)"
    assert lines[-1] == "retrieved_artifacts: t1.user"


def test_the_empty_state_renders_placeholders_not_missing_lines() -> None:
    text = CCS.empty().render()
    assert len(text.splitlines()) == 9
    assert "constraints: -" in text


@pytest.mark.parametrize("missing", ["constraints", "goal_orientation", "uncertainty_signal"])
def test_every_field_is_required(missing: str) -> None:
    data = payload()
    del data[missing]
    with pytest.raises(ValidationError) as info:
        CCS.model_validate(data)
    assert missing in str(info.value)


def test_the_strict_schema_rejects_unbounded_or_foreign_content() -> None:
    with pytest.raises(ValidationError, match="at most 10 items"):
        CCS.model_validate(payload(constraints=[f"rule {i}" for i in range(MAX_CONSTRAINTS + 1)]))
    with pytest.raises(ValidationError, match="at most 200 characters"):
        CCS.model_validate(payload(semantic_gist="x" * 201))
    with pytest.raises(ValidationError, match="pattern"):
        CCS.model_validate(payload(retrieved_artifacts=["the whole runbook text pasted here"]))
    with pytest.raises(ValidationError, match="Extra inputs"):
        CCS.model_validate(payload(summary="free text"))
    with pytest.raises(ValidationError, match="type"):
        CCS.model_validate(payload(focal_entities=[{"name": "nginx", "type": "daemon"}]))


def test_the_draft_repairs_common_slips_without_a_model_call() -> None:
    messy = {
        "ccs": payload(
            episodic_trace="a single event",
            semantic_gist=["two", "parts"],
            focal_entities=["web-03", {"name": "nginx", "type": "Daemon", "attributes": "x"}],
            relational_map=["causes(keepalive mismatch, 502)", "free note"],
            constraints=[f"rule {i}" for i in range(15)],
            uncertainty_signal="HIGH",
            retrieved_artifacts=["t1.user", "pasted text is not an id", {"id": "t2.reply"}],
            extra_key="dropped",
        )
    }
    state = CCSDraft.model_validate(messy).committed()
    assert type(state) is CCS
    assert state.episodic_trace == ["a single event"]
    assert state.semantic_gist == "two; parts"
    assert [(e.name, e.type, e.attributes) for e in state.focal_entities] == [
        ("web-03", "other", {}),
        ("nginx", "other", {}),
    ]
    assert state.relational_map[0].render() == "causes(keepalive mismatch, 502)"
    assert state.relational_map[1].render() == "note(free note)"
    assert state.constraints == [f"rule {i}" for i in range(MAX_CONSTRAINTS)]
    assert state.uncertainty_signal.level == "high"
    assert state.retrieved_artifacts == ["t1.user", "t2.reply"]


def test_repair_never_invents_a_missing_field() -> None:
    data = payload()
    del data["constraints"]
    assert "constraints" not in repair_ccs_payload(data)
    with pytest.raises(ValidationError, match="constraints"):
        CCSDraft.model_validate(data)


def test_repair_leaves_non_objects_for_validation_to_reject() -> None:
    assert repair_ccs_payload(["not", "an", "object"]) == ["not", "an", "object"]
    with pytest.raises(ValidationError):
        CCSDraft.model_validate(["not", "an", "object"])


def test_the_rendered_state_is_bounded_whatever_the_input_length() -> None:
    def flood(n: int) -> dict[str, Any]:
        words = " ".join(f"word{i}" for i in range(n))
        return payload(
            episodic_trace=[words] * n,
            semantic_gist=words,
            focal_entities=[
                {"name": words, "type": "item", "attributes": {f"k{i}": words for i in range(n)}}
            ]
            * n,
            relational_map=[{"subject": words, "relation": "rel", "object": words}] * n,
            goal_orientation=words,
            constraints=[words] * n,
            predictive_cue=[words] * n,
            uncertainty_signal={"level": "low", "gaps": [words] * n},
            retrieved_artifacts=[f"t{i}.user" for i in range(n)],
        )

    sizes = [
        count_tokens(CCSDraft.model_validate(flood(n)).committed().render()) for n in (60, 600)
    ]
    assert sizes[0] == sizes[1]
    assert sizes[0] < 2500
