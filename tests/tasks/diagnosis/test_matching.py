"""Matching names to the catalogue, the forms used for leakage, and near-duplicates."""

from __future__ import annotations

import pytest

from cogarch.tasks.diagnosis.catalogue import load_catalogue
from cogarch.tasks.diagnosis.matching import (
    _ALIASES,
    _EXTRA_FORMS,
    condition_forms,
    is_near_duplicate,
    match_condition,
    mentions_condition,
    normalise,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("GERD", "GERD"),
        ("gastro-oesophageal reflux disease", "GERD"),
        ("acid reflux", "GERD"),
        ("URTI", "URTI"),
        ("Upper respiratory tract infection", "URTI"),
        ("COPD", "Acute COPD exacerbation / infection"),
        ("COPD exacerbation", "Acute COPD exacerbation / infection"),
        ("HIV", "HIV (initial infection)"),
        ("Acute HIV infection", "HIV (initial infection)"),
        ("PSVT", "PSVT"),
        ("Paroxysmal supraventricular tachycardia", "PSVT"),
        ("SLE", "SLE"),
        ("Systemic lupus erythematosus", "SLE"),
        ("**Sarcoidosis.**", "Sarcoidosis"),
        ("Hidden condition: Pneumonia", "Pneumonia"),
        ("The hidden condition is Ebola", "Ebola"),
        ("<secret>Croup</secret>", "Croup"),
        ('"Tuberculosis (TB)"', "Tuberculosis"),
        ("Pnuemonia", "Pneumonia"),
        ("guillain barre syndrome", "Guillain-Barré syndrome"),
        ("laryngitis", "Acute laryngitis"),
        ("Laryngospasm", "Larygospasm"),
        ("otitis media", "Acute otitis media"),
        ("stable angina", "Stable angina"),
        ("Unstable Angina.", "Unstable angina"),
        ("unstable angina pectoris", "Unstable angina"),
        ("asthma", "Bronchospasm / acute asthma exacerbation"),
        ("acute asthma exacerbation", "Bronchospasm / acute asthma exacerbation"),
        ("lung cancer", "Pulmonary neoplasm"),
        ("Myocardial infarction (STEMI)", "Possible NSTEMI / STEMI"),
        ("chronic sinusitis", "Chronic rhinosinusitis"),
        ("acute sinusitis", "Acute rhinosinusitis"),
        ("influenza A", "Influenza"),
    ],
)
def test_match_condition_finds_the_catalogue_condition(text: str, expected: str) -> None:
    match = match_condition(text, load_catalogue())
    assert match is not None, text
    assert match.name == expected


@pytest.mark.parametrize(
    "text",
    ["", "   ", "Lyme disease", "cancer", "sinusitis", "rhinosinusitis", "angina", "I don't know"],
)
def test_match_condition_returns_none_when_nothing_is_close(text: str) -> None:
    assert match_condition(text, load_catalogue()) is None


def test_every_form_and_every_name_matches_its_own_condition() -> None:
    catalogue = load_catalogue()
    for condition in catalogue.conditions:
        for form in condition_forms(condition):
            assert match_condition(form, catalogue) is condition, form
            assert match_condition(form.upper(), catalogue) is condition, form


def test_no_name_is_shared_by_two_conditions() -> None:
    catalogue = load_catalogue()
    owners: dict[str, set[str]] = {}
    for condition in catalogue.conditions:
        names = [*condition_forms(condition), *_ALIASES.get(condition.name, ())]
        for name in names:
            owners.setdefault(normalise(name), set()).add(condition.name)
    shared = {name: who for name, who in owners.items() if len(who) > 1}
    assert shared == {}


def test_the_tables_name_real_conditions() -> None:
    names = {c.name for c in load_catalogue().conditions}
    assert set(_EXTRA_FORMS) <= names
    assert set(_ALIASES) <= names


def test_condition_forms() -> None:
    catalogue = load_catalogue()
    hiv = condition_forms(catalogue.condition("HIV (initial infection)"))
    assert hiv[:2] == ["HIV (initial infection)", "HIV"]
    gerd = condition_forms(catalogue.condition("GERD"))
    assert "gastroesophageal reflux disease" in gerd
    laryngitis = condition_forms(catalogue.condition("Acute laryngitis"))
    assert "laryngitis" in laryngitis
    # "rhinosinusitis" alone would also name the chronic form.
    acute = [normalise(f) for f in condition_forms(catalogue.condition("Acute rhinosinusitis"))]
    assert "rhinosinusitis" not in acute
    # Names that DDXPlus questions use themselves are not leakage forms.
    nstemi = [normalise(f) for f in condition_forms(catalogue.condition("Possible NSTEMI / STEMI"))]
    assert "nstemi" in nstemi
    assert "heart attack" not in nstemi


def test_mentions_condition_uses_whole_words_and_ignores_case() -> None:
    catalogue = load_catalogue()
    stable = catalogue.condition("Stable angina")
    unstable = catalogue.condition("Unstable angina")
    assert mentions_condition("I think it is UNSTABLE ANGINA.", unstable)
    assert not mentions_condition("I think it is unstable angina.", stable)
    hiv = catalogue.condition("HIV (initial infection)")
    assert mentions_condition("My secret: hiv!", hiv)
    assert not mentions_condition("Archival notes", hiv)
    pneumonia = catalogue.condition("Pneumonia")
    assert not mentions_condition("bronchopneumonias are common", pneumonia)
    gbs = catalogue.condition("Guillain-Barré syndrome")
    assert mentions_condition("It could be Guillain Barre.", gbs)
    assert not mentions_condition("Yes. **No** Answer: yes", pneumonia)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Lyme disease", "lyme Disease.", True),
        ("Acute laryngitis", "laryngitis", True),
        ("Guillain-Barré syndrome", "Guillain Barre syndrome", True),
        ("Lyme disease", "Lymes disease", True),
        ("Stable angina", "Unstable angina", False),
        ("Acute rhinosinusitis", "Chronic rhinosinusitis", False),
        ("Type 1 diabetes", "Type 2 diabetes", False),
        ("Pulmonary neoplasm", "Pancreatic neoplasm", False),
        ("Sarcoidosis", "Lupus", False),
        ("", "", True),
        ("", "Croup", False),
    ],
)
def test_is_near_duplicate(a: str, b: str, same: bool) -> None:
    assert is_near_duplicate(a, b) is same
    assert is_near_duplicate(b, a) is same
