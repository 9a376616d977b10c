"""Trial files written by older versions, read as current records.

Version 1 (untyped blocks) kept the turns as ``interaction_log`` (the reply under
``assistant`` in the SCT and under ``reply`` elsewhere), the SCT's own block as ``sct``, the
revision and constraint results and the final private state in ``extra``, and transitions as
``"source->target"`` keys. Nothing is lost: every block lands in a typed field of the record or
in its payload (:func:`migrate_v1`).

Names renamed since a file was written are read as today's, whatever its version
(:func:`current_names`): a specialist kind in the recorded agent spec (``conscious`` is now
``hub``, ``focus`` is ``reground``: :data:`FORMER_KINDS`), so the spec of an old file compares
equal to the same agent's spec today and its run resumes. This is the one place old names are
read: agent specs and run configs name today's kinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cogarch.core.records import (
    RecordTypes,
    Scoring,
    TransitionCount,
    TrialRecord,
    Turn,
    TurnFootprint,
)
from cogarch.tasks.sct.evaluator import OUTCOMES

_SCT = Scoring(classes=OUTCOMES, success="self_consistent")
V1_SCORING = {
    "hangman_sct": _SCT,
    "diagnosis_sct": _SCT,
    "revision": Scoring(success="consistent"),
}
"""How the tasks of version 1 scored their trials (they did not record it)."""

FORMER_KINDS = {"conscious": "hub", "focus": "reground"}
"""Specialist kinds renamed, by the name they had (the node names ``conscious`` and ``focus``
of the ``gwt`` and ``episodex`` agents stay)."""

_TURN_KEYS = {"turn", "user", "assistant", "reply", "private_state", "private_state_tokens"}


def _footprints(extra: Mapping[str, Any]) -> list[Any]:
    revision = extra.get("revision")
    if isinstance(revision, Mapping) and isinstance(revision.get("footprint"), list):
        return list(revision["footprint"])
    constraints = extra.get("constraints")
    if isinstance(constraints, Mapping) and isinstance(constraints.get("turns"), list):
        turns = constraints["turns"]
        return [t.get("footprint") if isinstance(t, Mapping) else None for t in turns]
    return []


def _turns(log: list[dict[str, Any]], extra: Mapping[str, Any]) -> list[Turn]:
    footprints = _footprints(extra)
    turns = []
    for i, entry in enumerate(log):
        footprint = footprints[i] if i < len(footprints) else None
        turns.append(
            Turn(
                turn=entry["turn"],
                user=entry["user"],
                reply=entry["reply"] if "reply" in entry else entry["assistant"],
                private_state=entry.get("private_state"),
                private_state_tokens=entry.get("private_state_tokens"),
                footprint=TurnFootprint.model_validate(footprint) if footprint else None,
                extras={k: v for k, v in entry.items() if k not in _TURN_KEYS},
            )
        )
    return turns


def _transitions(counts: Mapping[str, int]) -> list[TransitionCount]:
    out = []
    for key, n in sorted(counts.items()):
        source, arrow, target = key.partition("->")
        if not arrow:
            raise ValueError(f"transition key '{key}' is not of the form 'source->target'")
        out.append(TransitionCount(source=source, target=target, count=n))
    return out


def _payload(data: Mapping[str, Any]) -> dict[str, Any]:
    """The payload's data, tagged with the kind its task reads it as."""
    extra = dict(data.get("extra") or {})
    final = extra.pop("final_private_state", None)
    if data.get("sct") is not None:
        leaks = (data.get("evaluation") or {}).get("leak_turns") or []
        return {"kind": "sct", **data["sct"], "leak_turns": leaks}
    if set(extra) == {"revision"}:
        return {"kind": "revision", "revision": extra["revision"], "final_private_state": final}
    if set(extra) == {"constraints"}:
        return {
            "kind": "constraints",
            "constraints": extra["constraints"],
            "final_private_state": final,
        }
    if final is not None:
        extra["final_private_state"] = final
    return {"kind": "other", "data": extra}


def current_names(data: dict[str, Any]) -> dict[str, Any]:
    """A trial file's content with the names it was written under replaced by today's (see
    the module's docstring); ``data`` itself is left as it is, and so is what is current."""
    metadata = data.get("metadata")
    if not isinstance(metadata, Mapping):
        return data
    spec = metadata.get("agent_spec")
    if not isinstance(spec, Mapping):
        return data
    specialists = spec.get("specialists")
    if not isinstance(specialists, Mapping):
        return data
    renamed = {
        node: {**part, "kind": FORMER_KINDS[part["kind"]]}
        for node, part in specialists.items()
        if isinstance(part, Mapping)
        and isinstance(part.get("kind"), str)
        and part["kind"] in FORMER_KINDS
    }
    if not renamed:
        return data
    spec = {**spec, "specialists": {**specialists, **renamed}}
    return {**data, "metadata": {**metadata, "agent_spec": spec}}


def migrate_v1(data: Mapping[str, Any], types: RecordTypes | None = None) -> TrialRecord:
    """A version 1 trial file's content as a version 2 record, its parts read into
    ``types`` (its task's classes) when given."""
    extra = data.get("extra") or {}
    return TrialRecord.read(
        {
            "status": data["status"],
            "run": data["run"],
            "agent": data["agent"],
            "task": data["task"],
            "trial": data["trial"],
            "seed": data["seed"],
            "metadata": data.get("metadata") or {},
            "scoring": V1_SCORING.get(str(data["task"]), Scoring()),
            "turns": _turns(list(data.get("interaction_log") or []), extra),
            "branches": data.get("branches") or [],
            "evaluation": data.get("evaluation") or {},
            "transitions": _transitions(data.get("transitions") or {}),
            "payload": _payload(data),
            "usage": data.get("usage") or {},
            "error": data.get("error"),
        },
        types,
    )
