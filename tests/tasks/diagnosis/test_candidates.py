"""Candidate filtering (against an exhaustive scan of the raw files), ranking and the fork set."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

import pytest

from cogarch.tasks.diagnosis.candidates import CandidateSet, build_candidates, consistent_conditions
from cogarch.tasks.diagnosis.catalogue import Condition, load_catalogue, read_data_file


@cache
def raw_groups() -> dict[str, frozenset[str]]:
    """Question groups per condition, straight from the JSON files."""
    conditions: dict[str, Any] = json.loads(read_data_file("release_conditions.json"))
    evidences: dict[str, Any] = json.loads(read_data_file("release_evidences.json"))
    return {
        name: frozenset(
            evidences[code]["code_question"]
            for code in [*record["symptoms"], *record["antecedents"]]
        )
        for name, record in conditions.items()
    }


def scan(affirmed: set[str], denied: set[str]) -> set[str]:
    return {
        name for name, groups in raw_groups().items() if affirmed <= groups and not denied & groups
    }


def random_answers(seed: int) -> tuple[set[str], set[str]]:
    """A few groups answered at random, or truthfully for a random condition."""
    rng = random.Random(seed)
    catalogue = load_catalogue()
    asked = rng.sample(catalogue.askable, rng.randint(1, 6))
    truthful = rng.random() < 0.5
    held = rng.choice(catalogue.conditions)
    affirmed: set[str] = set()
    denied: set[str] = set()
    for code in asked:
        says_yes = code in held.groups if truthful else rng.random() < 0.4
        (affirmed if says_yes else denied).add(code)
    return affirmed, denied


@pytest.mark.parametrize("seed", range(40))
def test_filter_matches_an_exhaustive_scan_for_random_answers(seed: int) -> None:
    affirmed, denied = random_answers(seed)
    found = consistent_conditions(affirmed, denied, load_catalogue())
    assert {c.name for c in found} == scan(affirmed, denied)
    assert len(found) == len({c.name for c in found})


@pytest.mark.parametrize(
    ("affirmed", "denied"),
    [
        (set(), set()),
        ({"E_91"}, set()),
        ({"E_91"}, {"E_53"}),
        ({"E_53", "E_66"}, {"E_91", "E_201"}),
        ({"E_204"}, set()),
        ({"E_91"}, {"E_91"}),
        ({"E_68"}, set()),
    ],
)
def test_filter_matches_an_exhaustive_scan_for_chosen_answers(
    affirmed: set[str], denied: set[str]
) -> None:
    found = consistent_conditions(affirmed, denied, load_catalogue())
    assert {c.name for c in found} == scan(affirmed, denied)


def test_a_sub_evidence_stands_for_its_group() -> None:
    catalogue = load_catalogue()
    by_member = consistent_conditions({"E_55"}, {"E_130"}, catalogue)
    by_group = consistent_conditions({"E_53"}, {"E_129"}, catalogue)
    assert by_member == by_group
    assert {c.name for c in by_group} == scan({"E_53"}, {"E_129"})


def fit_key(condition: Condition, affirmed: set[str]) -> tuple[int, int, int]:
    catalogue = load_catalogue()
    explained = len([e for e in condition.evidences if catalogue.group_of(e).code in affirmed])
    unconfirmed = len(set(catalogue.askable) & condition.groups - affirmed)
    return (-explained, unconfirmed, condition.severity)


@pytest.mark.parametrize("affirmed", [set(), {"E_53"}, {"E_91", "E_66"}])
def test_ranking_follows_the_documented_fit(affirmed: set[str]) -> None:
    found = consistent_conditions(affirmed, set(), load_catalogue())
    keys = [fit_key(c, affirmed) for c in found]
    assert keys == sorted(keys)
    assert [c.name for c in found] != sorted(c.name for c in found)


def test_ties_keep_catalogue_order() -> None:
    catalogue = load_catalogue()
    order = {c.name: i for i, c in enumerate(catalogue.conditions)}
    found = consistent_conditions(set(), set(), catalogue)
    for first, second in itertools.pairwise(found):
        if fit_key(first, set()) == fit_key(second, set()):
            assert order[first.name] < order[second.name]


def only(name: str) -> tuple[set[str], set[str]]:
    """Answers that leave exactly one condition: its groups yes, every other group no."""
    catalogue = load_catalogue()
    held = catalogue.condition(name).groups & set(catalogue.askable)
    return set(held), set(catalogue.askable) - held


def build(
    affirmed: set[str],
    denied: set[str],
    *,
    n: int = 5,
    seed: int = 0,
    revealed: str | None = None,
    memory_secret: str | None = None,
    propose: Callable[[int], Awaitable[list[str]]] | None = None,
) -> CandidateSet:
    return asyncio.run(
        build_candidates(
            affirmed=affirmed,
            denied=denied,
            n=n,
            rng=random.Random(seed),
            revealed=revealed,
            memory_secret=memory_secret,
            propose=propose,
            catalogue=load_catalogue(),
        )
    )


def test_revealed_and_memory_come_first_then_consistent_conditions() -> None:
    catalogue = load_catalogue()
    affirmed, denied = {"E_91"}, {"E_53"}
    result = build(affirmed, denied, revealed="**gerd**", memory_secret="Lyme disease")
    pairs = dict(zip(result.words, result.sources, strict=True))
    assert pairs["GERD"] == "revealed"
    assert pairs["Lyme disease"] == "memory"
    allowed = {c.name for c in consistent_conditions(affirmed, denied, catalogue)}
    catalogue_picks = {w for w, s in pairs.items() if s == "catalogue"}
    assert len(catalogue_picks) == 3 and catalogue_picks <= allowed - {"GERD"}
    assert result.shortfall == 0
    assert result.rejected_proposals == ()


def test_the_memory_secret_is_not_repeated() -> None:
    result = build(set(), set(), revealed="Pneumonia", memory_secret="pneumonia.")
    assert result.words.count("Pneumonia") == 1
    assert "memory" not in result.sources
    assert len(result.words) == 5


def test_distinct_catalogue_conditions_are_never_merged() -> None:
    result = build(set(), set(), n=2, revealed="Stable angina", memory_secret="Unstable angina")
    assert set(result.words) == {"Stable angina", "Unstable angina"}


def test_n_caps_the_set() -> None:
    result = build(set(), set(), n=1, revealed="Croup", memory_secret="Ebola")
    assert result.words == ("Croup",)
    with pytest.raises(ValueError, match="at least 1"):
        build(set(), set(), n=0)


def test_too_few_consistent_conditions_leave_a_shortfall() -> None:
    affirmed, denied = only("Sarcoidosis")
    result = build(affirmed, denied)
    assert result.words == ("Sarcoidosis",)
    assert result.sources == ("catalogue",)
    assert result.shortfall == 4


def test_model_proposals_fill_the_gap() -> None:
    affirmed, denied = only("Sarcoidosis")
    calls: list[int] = []

    async def propose(max_n: int) -> list[str]:
        calls.append(max_n)
        return [
            "Pneumonia",  # a catalogue condition the answers rule out
            "sarcoidosis",  # already there
            "Lyme disease",  # unknown to DDXPlus: accepted as free text
            "Lyme disease.",  # near-duplicate
            "  ",
            "42",
            "Cushing's syndrome",
            "Primary biliary cholangitis",
            "Hemochromatosis",
        ]

    result = build(affirmed, denied, revealed="Sarcoidosis", propose=propose)
    assert calls == [5]
    assert set(result.words) == {
        "Sarcoidosis",
        "Lyme disease",
        "Cushing's syndrome",
        "Primary biliary cholangitis",
        "Hemochromatosis",
    }
    assert dict(zip(result.words, result.sources, strict=True))["Lyme disease"] == "model"
    reasons = {(r.text, r.reason) for r in result.rejected_proposals}
    assert reasons == {
        ("Pneumonia", "inconsistent"),
        ("sarcoidosis", "duplicate"),
        ("Lyme disease.", "duplicate"),
        ("  ", "invalid"),
        ("42", "invalid"),
    }
    assert result.shortfall == 0


def test_a_consistent_catalogue_proposal_takes_its_catalogue_name() -> None:
    catalogue = load_catalogue()
    affirmed, denied = {"E_91", "E_66"}, {"E_53"}
    consistent = consistent_conditions(affirmed, denied, catalogue)
    assert 2 <= len(consistent) < 30
    target = consistent[-1]

    async def propose(max_n: int) -> list[str]:
        return [target.name.upper()]

    result = build(affirmed, denied, n=len(consistent) + 1, propose=propose)
    assert target.name in result.words
    assert result.words.count(target.name) == 1
    assert result.shortfall == 1


def test_proposals_are_not_requested_when_the_catalogue_suffices() -> None:
    async def propose(max_n: int) -> list[str]:
        raise AssertionError("no proposals needed")

    result = build(set(), set(), propose=propose)
    assert len(result.words) == 5


def test_shuffle_is_seeded_and_keeps_sources_aligned() -> None:
    first = build({"E_91"}, set(), revealed="Lyme disease", seed=7)
    again = build({"E_91"}, set(), revealed="Lyme disease", seed=7)
    assert first == again
    orders = {build({"E_91"}, set(), revealed="Lyme disease", seed=s).words for s in range(10)}
    assert len(orders) > 1
    positions = {
        build({"E_91"}, set(), revealed="Lyme disease", seed=s).words.index("Lyme disease")
        for s in range(10)
    }
    assert len(positions) > 1
    for seed in range(5):
        result = build({"E_91"}, set(), revealed="Lyme disease", seed=seed)
        assert dict(zip(result.words, result.sources, strict=True))["Lyme disease"] == "revealed"
