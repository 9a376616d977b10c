"""The Compressed Cognitive State (CCS): the one bounded, schema-governed state ACC carries.

Every field is bounded (list lengths and string lengths), so a rendered state has a fixed
ceiling whatever the length of the dialogue. ``CCS`` itself is strict: all nine fields must be
present and within bounds. ``CCSDraft`` is what a compressor model's answer is parsed into: it
repairs the slips that need no model call (a string where a list belongs, an over-long list or
string, an unknown entity type, stray keys, artifact text instead of an id) and then validates
exactly like ``CCS``. Missing fields are never invented: a state without its ``constraints``
field is rejected, not silently emptied.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Final, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

EntityType = Literal[
    "person",
    "organization",
    "system",
    "service",
    "resource",
    "item",
    "place",
    "time",
    "document",
    "concept",
    "other",
]
ENTITY_TYPES: Final[frozenset[str]] = frozenset(get_args(EntityType))
UncertaintyLevel = Literal["low", "medium", "high"]

MAX_TRACE: Final = 6
MAX_ENTITIES: Final = 8
MAX_ATTRIBUTES: Final = 2
MAX_RELATIONS: Final = 8
MAX_CONSTRAINTS: Final = 10
MAX_CUES: Final = 4
MAX_GAPS: Final = 4
MAX_ARTIFACTS: Final = 5
LONG: Final = 200
MEDIUM: Final = 120
SHORT: Final = 60

ARTIFACT_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,40}$")

LongText = Annotated[str, StringConstraints(strip_whitespace=True, max_length=LONG)]
MediumText = Annotated[str, StringConstraints(strip_whitespace=True, max_length=MEDIUM)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=SHORT)]
AttrKey = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=24)]
AttrValue = Annotated[str, StringConstraints(strip_whitespace=True, max_length=40)]
ObjectText = Annotated[str, StringConstraints(strip_whitespace=True, max_length=SHORT)]
ArtifactRef = Annotated[str, StringConstraints(pattern=ARTIFACT_ID.pattern)]


class FocalEntity(BaseModel):
    """A canonicalised object or actor the task keeps referring to."""

    model_config = ConfigDict(extra="forbid")

    name: Name
    type: EntityType = "other"
    attributes: dict[AttrKey, AttrValue] = Field(default_factory=dict, max_length=MAX_ATTRIBUTES)

    def render(self) -> str:
        attrs = ",".join(f"{k}={v}" for k, v in self.attributes.items())
        return f"{self.type}({self.name}{'; ' + attrs if attrs else ''})"


class Relation(BaseModel):
    """A causal or temporal dependency: ``relation(subject, object)``."""

    model_config = ConfigDict(extra="forbid")

    subject: Name
    relation: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32)]
    object: ObjectText = ""

    def render(self) -> str:
        args = f"{self.subject}, {self.object}" if self.object else self.subject
        return f"{self.relation}({args})"


class Uncertainty(BaseModel):
    """What is unresolved or low-confidence, so the agent does not overstate it."""

    model_config = ConfigDict(extra="forbid")

    level: UncertaintyLevel = "medium"
    gaps: list[MediumText] = Field(default_factory=list, max_length=MAX_GAPS)

    def render(self) -> str:
        return self.level + (f"; gaps: {'; '.join(self.gaps)}" if self.gaps else "")


class CCS(BaseModel):
    """The nine fields of the Compressed Cognitive State, all required and all bounded."""

    model_config = ConfigDict(extra="forbid", title="CompressedCognitiveState")

    episodic_trace: list[LongText] = Field(
        max_length=MAX_TRACE, description="What changed in this turn (events, new evidence)."
    )
    semantic_gist: LongText = Field(description="The dominant intent or topic, in one line.")
    focal_entities: list[FocalEntity] = Field(
        max_length=MAX_ENTITIES, description="Canonical typed entities the task refers to."
    )
    relational_map: list[Relation] = Field(
        max_length=MAX_RELATIONS, description="Causal and temporal dependencies between entities."
    )
    goal_orientation: LongText = Field(description="The persistent objective of the interaction.")
    constraints: list[LongText] = Field(
        max_length=MAX_CONSTRAINTS,
        description="Task, policy and safety rules in force; kept until the user revokes them.",
    )
    predictive_cue: list[MediumText] = Field(
        max_length=MAX_CUES, description="The expected next operations or checks."
    )
    uncertainty_signal: Uncertainty = Field(description="Unresolved or low-confidence state.")
    retrieved_artifacts: list[ArtifactRef] = Field(
        max_length=MAX_ARTIFACTS, description="Ids of qualified artifacts relied on (never text)."
    )

    @classmethod
    def empty(cls) -> CCS:
        """The state before the first turn."""
        return cls(
            episodic_trace=[],
            semantic_gist="",
            focal_entities=[],
            relational_map=[],
            goal_orientation="",
            constraints=[],
            predictive_cue=[],
            uncertainty_signal=Uncertainty(level="high", gaps=["no interaction yet"]),
            retrieved_artifacts=[],
        )

    def render(self) -> str:
        """Compact line-per-field text (TOON-like); every field always appears, in order."""

        def join(items: list[str]) -> str:
            return "; ".join(items) if items else "-"

        lines = [
            f"episodic_trace: {join(self.episodic_trace)}",
            f"semantic_gist: {self.semantic_gist or '-'}",
            f"focal_entities: {join([e.render() for e in self.focal_entities])}",
            f"relational_map: {join([r.render() for r in self.relational_map])}",
            f"goal_orientation: {self.goal_orientation or '-'}",
            f"constraints: {join(self.constraints)}",
            f"predictive_cue: {join(self.predictive_cue)}",
            f"uncertainty_signal: {self.uncertainty_signal.render()}",
            f"retrieved_artifacts: {' '.join(self.retrieved_artifacts) or '-'}",
        ]
        return "\n".join(lines)


class CCSDraft(CCS):
    """A compressor model's answer: deterministic repair first, then the strict CCS checks."""

    model_config = ConfigDict(extra="forbid", title="CompressedCognitiveState")

    @model_validator(mode="before")
    @classmethod
    def _repair(cls, data: Any) -> Any:
        return repair_ccs_payload(data)

    def committed(self) -> CCS:
        return CCS.model_validate(self.model_dump())


FIELDS: Final[tuple[str, ...]] = tuple(CCS.model_fields)
_LIST_LIMITS: Final[dict[str, tuple[int, int]]] = {
    "episodic_trace": (MAX_TRACE, LONG),
    "constraints": (MAX_CONSTRAINTS, LONG),
    "predictive_cue": (MAX_CUES, MEDIUM),
}
_RELATION_TEXT = re.compile(r"^\s*([\w .-]{1,32}?)\s*\(\s*(.+?)\s*(?:,\s*(.+?))?\s*\)\s*$")


def clip(text: str, limit: int) -> str:
    """Cut ``text`` to at most ``limit`` characters, at a word boundary when one is near."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return cut[:space] if space > limit * 0.6 else cut


def repair_ccs_payload(data: Any) -> Any:
    """Fix what needs no model call; leave genuine gaps for validation to report.

    Unwraps ``{"ccs": {...}}``, drops unknown keys, turns scalars into lists and lists into
    strings where the schema wants them, trims over-long lists and strings, maps unknown entity
    types to ``other`` and keeps only id-shaped artifact references. Anything that is not a JSON
    object is returned unchanged, so validation names the problem.
    """
    if not isinstance(data, dict):
        return data
    if len(data) == 1:
        (only,) = data.values()
        if isinstance(only, dict) and set(only) & set(FIELDS):
            data = only
    out: dict[str, Any] = {k: v for k, v in data.items() if k in FIELDS}
    for key, (max_items, max_chars) in _LIST_LIMITS.items():
        if key in out:
            out[key] = [clip(_text(v), max_chars) for v in _as_list(out[key]) if _text(v)][
                :max_items
            ]
    for key in ("semantic_gist", "goal_orientation"):
        if key in out:
            value = out[key]
            joined = "; ".join(_text(v) for v in value) if isinstance(value, list) else _text(value)
            out[key] = clip(joined, LONG)
    if "focal_entities" in out:
        entities = [_entity(v) for v in _as_list(out["focal_entities"])]
        out["focal_entities"] = [e for e in entities if e is not None][:MAX_ENTITIES]
    if "relational_map" in out:
        relations = [_relation(v) for v in _as_list(out["relational_map"])]
        out["relational_map"] = [r for r in relations if r is not None][:MAX_RELATIONS]
    if "uncertainty_signal" in out:
        out["uncertainty_signal"] = _uncertainty(out["uncertainty_signal"])
    if "retrieved_artifacts" in out:
        refs = [_artifact_id(v) for v in _as_list(out["retrieved_artifacts"])]
        out["retrieved_artifacts"] = list(dict.fromkeys(r for r in refs if r))[:MAX_ARTIFACTS]
    return out


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {v}" for k, v in value.items())
    return " ".join(str(value).split())


def _entity(value: Any) -> dict[str, Any] | None:
    if isinstance(value, str):
        value = {"name": value}
    if not isinstance(value, dict) or not _text(value.get("name")):
        return None
    kind = str(value.get("type", "other")).strip().lower()
    attrs = value.get("attributes") or {}
    if not isinstance(attrs, dict):
        attrs = {}
    kept = {
        clip(str(k), 24): clip(_text(v), 40)
        for k, v in list(attrs.items())[:MAX_ATTRIBUTES]
        if str(k).strip()
    }
    return {
        "name": clip(_text(value["name"]), SHORT),
        "type": kind if kind in ENTITY_TYPES else "other",
        "attributes": kept,
    }


def _relation(value: Any) -> dict[str, str] | None:
    if isinstance(value, dict):
        subject = _text(value.get("subject"))
        relation = _text(value.get("relation") or value.get("predicate") or "relates_to")
        obj = _text(value.get("object"))
    elif isinstance(value, str) and value.strip():
        match = _RELATION_TEXT.match(value)
        if match:
            relation, subject, obj = match.group(1), match.group(2), match.group(3) or ""
        else:
            relation, subject, obj = "note", value, ""
    else:
        return None
    if not subject:
        return None
    return {
        "subject": clip(subject, SHORT),
        "relation": clip(relation, 32) or "relates_to",
        "object": clip(obj, SHORT),
    }


def _uncertainty(value: Any) -> Any:
    if isinstance(value, str):
        word = value.strip().lower()
        return (
            {"level": word}
            if word in ("low", "medium", "high")
            else {"gaps": [clip(value, MEDIUM)]}
        )
    if isinstance(value, dict):
        level = str(value.get("level", "medium")).strip().lower()
        gaps = [clip(_text(g), MEDIUM) for g in _as_list(value.get("gaps")) if _text(g)]
        return {
            "level": level if level in ("low", "medium", "high") else "medium",
            "gaps": gaps[:MAX_GAPS],
        }
    return value


def _artifact_id(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("id")
    if not isinstance(value, str):
        return None
    value = value.strip()
    return value if ARTIFACT_ID.match(value) else None
