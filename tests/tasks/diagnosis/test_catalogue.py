"""The DDXPlus catalogue: conditions, evidences and the question groups the player asks."""

from __future__ import annotations

import ast
import csv
import io
from collections import Counter

import pytest

from cogarch.tasks.diagnosis.catalogue import Catalogue, load_catalogue, read_data_file

# Group codes that are not keys of release_evidences.json; the paper's CSV leaves them out.
UNKEYED_GROUPS = {"E_36", "E_68", "E_85", "E_117", "E_122"}


def test_counts_match_the_ddxplus_release() -> None:
    catalogue = load_catalogue()
    assert len(catalogue.conditions) == 49
    assert len(catalogue.evidences) == 223
    assert len(catalogue.groups) == 209
    types = Counter(e.data_type for e in catalogue.evidences.values())
    assert types == {"B": 208, "C": 10, "M": 5}
    antecedents = sum(e.is_antecedent for e in catalogue.evidences.values())
    assert antecedents == 113
    severities = Counter(c.severity for c in catalogue.conditions)
    assert severities == {1: 5, 2: 12, 3: 17, 4: 12, 5: 3}


def test_askable_groups_are_binary_and_leave_out_travel() -> None:
    catalogue = load_catalogue()
    assert len(catalogue.askable) == 208
    assert "E_204" not in catalogue.askable
    groups = [catalogue.groups[code] for code in catalogue.askable]
    assert all(group.is_binary and group.question.endswith("?") for group in groups)
    numbers = [int(code.removeprefix("E_")) for code in catalogue.askable]
    assert numbers == sorted(numbers)


def test_options_can_ask_non_binary_groups_by_their_root_question() -> None:
    everything = load_catalogue(include_non_binary=True, excluded_groups=())
    assert len(everything.askable) == 209
    travel = everything.groups["E_204"]
    assert not travel.is_binary
    assert travel.question == "Have you traveled out of the country in the last 4 weeks?"
    # Binary only, but nothing excluded: travel is categorical, so it is still not asked.
    assert "E_204" not in load_catalogue(excluded_groups=()).askable


def test_load_catalogue_is_cached() -> None:
    assert load_catalogue() is load_catalogue()


def test_groups_reproduce_the_papers_processed_conditions_csv() -> None:
    catalogue = load_catalogue()
    rows = list(
        csv.DictReader(io.StringIO(read_data_file("hangman_diagnosis_simulator_conditions.csv")))
    )
    assert [row["condition_name"] for row in rows] == [c.name for c in catalogue.conditions]
    for row, condition in zip(rows, catalogue.conditions, strict=True):
        related = set(ast.literal_eval(row["related"]))
        assert related == set(condition.groups) - {"E_204"} - UNKEYED_GROUPS, condition.name


def test_group_questions_match_the_papers_evidences_csv() -> None:
    catalogue = load_catalogue()
    rows = list(
        csv.DictReader(io.StringIO(read_data_file("hangman_diagnosis_simulator_evidences.csv")))
    )
    questions = {row["code_question"]: row["question_en"] for row in rows}
    assert set(questions) == set(catalogue.askable)
    for code, question in questions.items():
        assert catalogue.groups[code].question == question.strip()


def test_every_condition_has_its_own_set_of_askable_groups() -> None:
    catalogue = load_catalogue()
    askable = set(catalogue.askable)
    signatures = {frozenset(c.groups & askable) for c in catalogue.conditions}
    assert len(signatures) == len(catalogue.conditions)


def test_condition_fields() -> None:
    catalogue = load_catalogue()
    gravis = catalogue.condition("myasthenia GRAVIS")
    assert gravis.name == "Myasthenia gravis"
    assert gravis.icd10 == "G70.0"
    assert gravis.severity == 3
    assert gravis.antecedents == {"E_28", "E_204"}
    assert "E_65" in gravis.symptoms
    assert gravis.evidences == gravis.symptoms | gravis.antecedents
    assert catalogue.condition("Pneumonia").icd10 == "j17, j18"
    with pytest.raises(KeyError, match="match_condition"):
        catalogue.condition("Lyme disease")


def test_sub_evidences_belong_to_their_root_group() -> None:
    catalogue = load_catalogue()
    pain = catalogue.group_of("E_55")
    assert pain.code == "E_53"
    assert pain.question.startswith("Do you have pain somewhere")
    assert set(pain.members) == {"E_53", "E_54", "E_55", "E_56", "E_57", "E_58", "E_59"}
    diabetes = catalogue.group_of("E_69")
    assert diabetes.code == "E_68"
    assert diabetes.question == "Do you have diabetes?"
    assert catalogue.group_of("E_68") is diabetes
    with pytest.raises(KeyError, match="E_91"):
        catalogue.group_of("fever")


def test_group_for_question_ignores_case_and_spacing() -> None:
    catalogue = load_catalogue()
    text = "do you have  a fever (either felt or measured with a thermometer)?"
    group = catalogue.group_for_question(text)
    assert group is not None
    assert group.code == "E_91"
    assert catalogue.group_for_question("Do you like tea?") is None


def _toy_evidences() -> dict[str, dict[str, object]]:
    def evidence(code: str, group: str, data_type: str = "B") -> dict[str, object]:
        return {
            "question_en": f"Question {code}?",
            "code_question": group,
            "is_antecedent": False,
            "data_type": data_type,
        }

    return {
        "E_1": evidence("E_1", "E_1"),
        "E_2": evidence("E_2", "E_2", "C"),
        "E_3": evidence("E_3", "E_1", "M"),
    }


def test_from_ddxplus_builds_a_small_catalogue() -> None:
    conditions = {"Alpha": {"symptoms": {"E_3": {}}, "antecedents": {}, "severity": 2}}
    catalogue = Catalogue.from_ddxplus(conditions, _toy_evidences(), excluded_groups=())
    assert catalogue.askable == ("E_1",)
    assert catalogue.condition("alpha").groups == {"E_1"}
    wider = Catalogue.from_ddxplus(conditions, _toy_evidences(), include_non_binary=True)
    assert wider.askable == ("E_1", "E_2")


@pytest.mark.parametrize(
    ("conditions", "kwargs", "message"),
    [
        ({"A": {"symptoms": {"E_9": {}}, "severity": 1}}, {}, "unknown evidences"),
        ({"A": {"symptoms": {}, "severity": 7}}, {}, "severity 7"),
        ({"A": {"symptoms": {}, "severity": 1}}, {"excluded_groups": ("E_99",)}, "E_204"),
        ({}, {}, "at least one condition"),
    ],
)
def test_from_ddxplus_rejects_bad_records(
    conditions: dict[str, dict[str, object]], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Catalogue.from_ddxplus(conditions, _toy_evidences(), **kwargs)  # type: ignore[arg-type]
