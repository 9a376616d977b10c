"""The DDXPlus knowledge base as the Diagnosis Simulator uses it: conditions and question groups.

DDXPlus describes 49 conditions by their evidences (symptoms and antecedents). Related evidences
share a ``code_question``: the root question (for example E_53 "Do you have pain somewhere ...?")
and its follow-ups (pain location, intensity, ...). The player asks about whole groups through
their root question, as the Hangman paper's processed CSV does, and a condition *has* a group
when it lists any evidence of that group.

Differences from the paper's processed CSV (``hangman_diagnosis_simulator_conditions.csv``):
five group codes (E_36, E_68, E_85, E_117, E_122) are not keys of ``release_evidences.json``;
each has a single member (E_37, E_69, E_87, E_118, E_123). The CSV drops them from every
condition, so asking them never splits anything. Here they are ordinary groups whose question is
their only member's question. Everything else matches the CSV exactly (checked in the tests).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal

DataType = Literal["B", "C", "M"]

DEFAULT_EXCLUDED_GROUPS: tuple[str, ...] = ("E_204",)
"""E_204 asks about travel in the last four weeks; every condition lists it: it splits nothing."""

_DATA_PACKAGE = "cogarch.tasks.diagnosis.data"
CONDITIONS_FILE = "release_conditions.json"
EVIDENCES_FILE = "release_evidences.json"


@dataclass(frozen=True)
class Evidence:
    """One DDXPlus evidence: a question the patient can answer."""

    code: str
    question: str
    group: str
    is_antecedent: bool
    data_type: DataType


@dataclass(frozen=True)
class EvidenceGroup:
    """Evidences that share a ``code_question``; the player asks its root ``question``.

    ``data_type`` is that of the root question. In DDXPlus every root question is binary except
    E_204 (travel, categorical); the pain (E_53), skin (E_129) and swelling (E_151) groups have a
    binary root with categorical or multi-choice follow-ups, which are never asked.
    """

    code: str
    question: str
    members: tuple[str, ...]
    data_type: DataType
    is_antecedent: bool

    @property
    def is_binary(self) -> bool:
        """Whether the root question is a yes/no question."""
        return self.data_type == "B"


@dataclass(frozen=True)
class Condition:
    """One DDXPlus pathology.

    ``severity`` runs from 1 (most severe) to 5 (least severe). ``icd10`` is kept as published
    (its letter case varies, e.g. "J93" and "g44.009"). ``groups`` holds every question group the
    condition has, including groups the catalogue does not ask (such as travel, E_204).
    """

    name: str
    name_fr: str
    icd10: str
    severity: int
    symptoms: frozenset[str]
    antecedents: frozenset[str]
    groups: frozenset[str]

    @property
    def evidences(self) -> frozenset[str]:
        """Every evidence code the condition lists (symptoms and antecedents)."""
        return self.symptoms | self.antecedents


def _normalise_question(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


@dataclass(frozen=True, eq=False)
class Catalogue:
    """Conditions, evidences and the question groups the player may ask.

    Build it with :func:`load_catalogue` (the packaged DDXPlus files) or
    :meth:`Catalogue.from_ddxplus` (records in the DDXPlus JSON layout, e.g. a small test set).
    """

    conditions: tuple[Condition, ...]
    evidences: Mapping[str, Evidence]
    groups: Mapping[str, EvidenceGroup]
    askable: tuple[str, ...]
    """Codes of the groups the player asks, in numeric code order."""
    _by_name: Mapping[str, Condition] = field(init=False, repr=False)
    _by_question: Mapping[str, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.askable) - self.groups.keys())
        if unknown:
            raise ValueError(f"askable names unknown question groups {unknown}")
        by_name = MappingProxyType({c.name.casefold(): c for c in self.conditions})
        by_question = MappingProxyType(
            {_normalise_question(g.question): g.code for g in self.groups.values()}
        )
        # Frozen dataclass: the lookup tables are derived once, here.
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_by_question", by_question)

    @classmethod
    def from_ddxplus(
        cls,
        conditions: Mapping[str, Mapping[str, Any]],
        evidences: Mapping[str, Mapping[str, Any]],
        *,
        include_non_binary: bool = False,
        excluded_groups: Iterable[str] | None = None,
    ) -> Catalogue:
        """Build a catalogue from records laid out like ``release_*.json``.

        Only binary groups are askable unless ``include_non_binary`` is set, in which case other
        groups are asked through their root question as well. ``excluded_groups`` are never
        asked; ``None`` stands for :data:`DEFAULT_EXCLUDED_GROUPS` (those the records have).
        """
        evidence_map = {code: _evidence(code, record) for code, record in evidences.items()}
        groups = _groups(evidence_map)
        condition_list = [
            _condition(name, record, evidence_map) for name, record in conditions.items()
        ]
        if not condition_list:
            raise ValueError("the catalogue needs at least one condition; `conditions` is empty")
        if excluded_groups is None:
            excluded_groups = [code for code in DEFAULT_EXCLUDED_GROUPS if code in groups]
        excluded = frozenset(excluded_groups)
        unknown = sorted(excluded - groups.keys())
        if unknown:
            raise ValueError(
                f"excluded_groups names unknown question groups {unknown}; "
                f"use codes that are a `code_question` of some evidence (e.g. 'E_204')"
            )
        askable = tuple(
            code
            for code in sorted(groups, key=_code_number)
            if code not in excluded and (include_non_binary or groups[code].is_binary)
        )
        return cls(
            conditions=tuple(condition_list),
            evidences=MappingProxyType(evidence_map),
            groups=MappingProxyType(groups),
            askable=askable,
        )

    def condition(self, name: str) -> Condition:
        """The condition with exactly this name (case-insensitive)."""
        try:
            return self._by_name[name.strip().casefold()]
        except KeyError:
            raise KeyError(
                f"no condition named {name!r} in the catalogue; use one of the names in "
                f"`catalogue.conditions`, or `match_condition` for approximate names"
            ) from None

    def group_of(self, code: str) -> EvidenceGroup:
        """The question group of an evidence code, or the group with that code."""
        if code in self.groups:
            return self.groups[code]
        if code in self.evidences:
            return self.groups[self.evidences[code].group]
        raise KeyError(
            f"{code!r} is neither an evidence code nor a question group of the catalogue; "
            f"codes look like 'E_91'"
        )

    def group_for_question(self, text: str) -> EvidenceGroup | None:
        """The group whose root question is exactly ``text`` (case and spacing ignored)."""
        code = self._by_question.get(_normalise_question(text))
        return None if code is None else self.groups[code]


def _code_number(code: str) -> tuple[int, str]:
    digits = re.sub(r"\D", "", code)
    return (int(digits) if digits else -1, code)


def _evidence(code: str, record: Mapping[str, Any]) -> Evidence:
    data_type = record.get("data_type")
    if data_type not in ("B", "C", "M"):
        raise ValueError(f"evidence {code} has data_type {data_type!r}; expected 'B', 'C' or 'M'")
    return Evidence(
        code=code,
        question=str(record["question_en"]).strip(),
        group=str(record.get("code_question") or code),
        is_antecedent=bool(record["is_antecedent"]),
        data_type=data_type,
    )


def _groups(evidences: Mapping[str, Evidence]) -> dict[str, EvidenceGroup]:
    members: dict[str, list[Evidence]] = {}
    for evidence in evidences.values():
        members.setdefault(evidence.group, []).append(evidence)
    groups: dict[str, EvidenceGroup] = {}
    for code, group_members in members.items():
        # A group code that is not itself an evidence has a single member in DDXPlus;
        # its question is then that member's question.
        root = evidences.get(code, group_members[0])
        groups[code] = EvidenceGroup(
            code=code,
            question=root.question,
            members=tuple(sorted((e.code for e in group_members), key=_code_number)),
            data_type=root.data_type,
            is_antecedent=root.is_antecedent,
        )
    return groups


def _condition(
    name: str, record: Mapping[str, Any], evidences: Mapping[str, Evidence]
) -> Condition:
    symptoms = frozenset(record.get("symptoms", {}))
    antecedents = frozenset(record.get("antecedents", {}))
    unknown = sorted((symptoms | antecedents) - evidences.keys())
    if unknown:
        raise ValueError(f"condition {name!r} refers to unknown evidences {unknown}")
    severity = int(record["severity"])
    if not 1 <= severity <= 5:
        raise ValueError(f"condition {name!r} has severity {severity}; expected 1 to 5")
    return Condition(
        name=str(record.get("condition_name", name)),
        name_fr=str(record.get("cond-name-fr", "")),
        icd10=str(record.get("icd10-id", "")),
        severity=severity,
        symptoms=symptoms,
        antecedents=antecedents,
        groups=frozenset(evidences[code].group for code in symptoms | antecedents),
    )


def read_data_file(filename: str) -> str:
    """Text of a file shipped in ``tasks/diagnosis/data``."""
    return resources.files(_DATA_PACKAGE).joinpath(filename).read_text(encoding="utf-8")


@cache
def _raw_records() -> tuple[dict[str, Any], dict[str, Any]]:
    return json.loads(read_data_file(CONDITIONS_FILE)), json.loads(read_data_file(EVIDENCES_FILE))


@cache
def load_catalogue(
    *,
    include_non_binary: bool = False,
    excluded_groups: tuple[str, ...] | None = None,
) -> Catalogue:
    """The packaged DDXPlus catalogue (read on first use, then cached per option set)."""
    conditions, evidences = _raw_records()
    return Catalogue.from_ddxplus(
        conditions,
        evidences,
        include_non_binary=include_non_binary,
        excluded_groups=excluded_groups,
    )
