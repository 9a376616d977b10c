"""Matching free-text condition names to the catalogue, and spotting mentions of a condition.

Two lists of names per condition:

- *forms* (:func:`condition_forms`) name the condition unambiguously: its catalogue name, the part
  outside parentheses, its parts around " / ", the name without a leading "acute" or "possible"
  (unless another condition's name contains the rest, as "rhinosinusitis" is in "Chronic
  rhinosinusitis"), and standard abbreviations and expansions ("GERD", "gastroesophageal reflux
  disease"). Leakage detection looks for these.
- *aliases* are broader names accepted only when matching a revealed or proposed name ("asthma",
  "COPD", "heart attack", "lung cancer", "flu"). They are kept out of the leakage forms because
  they are the subject of DDXPlus questions themselves ("Have you ever had a heart attack or do
  you have angina?", "Do you have family members who have had lung cancer?"), so an agent that
  merely echoes a question would otherwise be counted as leaking.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from functools import cache

from rapidfuzz import fuzz

from .catalogue import Catalogue, Condition, load_catalogue

_EXTRA_FORMS: Mapping[str, tuple[str, ...]] = {
    "Spontaneous pneumothorax": ("pneumothorax",),
    "Cluster headache": ("cluster headaches",),
    "Boerhaave": (
        "Boerhaave syndrome",
        "Boerhaave's syndrome",
        "esophageal rupture",
        "oesophageal rupture",
        "spontaneous esophageal rupture",
    ),
    "GERD": (
        "GORD",
        "gastroesophageal reflux disease",
        "gastro-oesophageal reflux disease",
        "gastro-esophageal reflux disease",
    ),
    "HIV (initial infection)": (
        "acute HIV infection",
        "acute HIV",
        "primary HIV infection",
        "acute retroviral syndrome",
        "HIV infection",
    ),
    "Anemia": ("anaemia",),
    "Whooping cough": ("pertussis",),
    "Anaphylaxis": ("anaphylactic shock", "anaphylactic reaction"),
    "Guillain-Barré syndrome": ("Guillain-Barré", "GBS"),
    "PSVT": ("paroxysmal supraventricular tachycardia", "supraventricular tachycardia", "SVT"),
    "Atrial fibrillation": ("AFib", "A-fib"),
    "Allergic sinusitis": ("allergic rhinitis", "allergic rhinosinusitis", "hay fever"),
    "Chagas": ("Chagas disease", "Chagas' disease", "American trypanosomiasis"),
    "Scombroid food poisoning": (
        "scombroid poisoning",
        "scombroid",
        "histamine fish poisoning",
        "scombrotoxin fish poisoning",
    ),
    "Larygospasm": ("laryngospasm",),
    "Acute dystonic reactions": ("acute dystonic reaction", "dystonic reaction", "acute dystonia"),
    "Localized edema": ("localised edema", "localized oedema", "localised oedema"),
    "SLE": ("systemic lupus erythematosus", "lupus"),
    "Tuberculosis": ("TB",),
    "Stable angina": ("stable angina pectoris",),
    "Ebola": ("Ebola virus disease", "Ebola hemorrhagic fever", "EVD"),
    "Acute otitis media": ("AOM",),
    "Panic attack": ("panic attacks", "panic disorder"),
    "Bronchospasm / acute asthma exacerbation": (
        "bronchospasm",
        "acute asthma exacerbation",
        "asthma exacerbation",
        "acute asthma",
    ),
    "Bronchitis": ("acute bronchitis",),
    "Acute COPD exacerbation / infection": (
        "acute COPD exacerbation",
        "COPD exacerbation",
        "AECOPD",
        "exacerbation of COPD",
        "acute exacerbation of COPD",
        "acute exacerbation of chronic obstructive pulmonary disease",
    ),
    "Pulmonary embolism": ("pulmonary embolus",),
    "URTI": (
        "upper respiratory tract infection",
        "upper respiratory infection",
        "URI",
        "common cold",
    ),
    "Acute rhinosinusitis": ("acute sinusitis",),
    "Pulmonary neoplasm": ("lung neoplasm", "lung carcinoma", "bronchogenic carcinoma"),
    "Possible NSTEMI / STEMI": (
        "NSTEMI / STEMI",
        "NSTEMI",
        "STEMI",
        "myocardial infarction",
        "acute myocardial infarction",
    ),
    "Pancreatic neoplasm": ("pancreatic carcinoma", "pancreatic adenocarcinoma"),
    "Acute pulmonary edema": ("acute pulmonary oedema", "pulmonary oedema"),
    "Pericarditis": ("acute pericarditis",),
}

_ALIASES: Mapping[str, tuple[str, ...]] = {
    "Spontaneous pneumothorax": ("collapsed lung",),
    "GERD": ("acid reflux", "gastroesophageal reflux", "reflux disease"),
    "HIV (initial infection)": ("human immunodeficiency virus",),
    "Viral pharyngitis": ("pharyngitis",),
    "Croup": ("laryngotracheobronchitis",),
    "SLE": ("systemic lupus",),
    "Bronchospasm / acute asthma exacerbation": ("asthma", "asthma attack"),
    "Acute COPD exacerbation / infection": ("COPD", "chronic obstructive pulmonary disease"),
    "Influenza": ("flu",),
    "Acute otitis media": ("middle ear infection", "ear infection"),
    "Acute rhinosinusitis": ("sinus infection",),
    "Chronic rhinosinusitis": ("chronic sinusitis",),
    "Pulmonary neoplasm": ("lung cancer",),
    "Pancreatic neoplasm": ("pancreatic cancer",),
    "Possible NSTEMI / STEMI": ("heart attack",),
}

_STRIPPABLE_PREFIXES = ("acute ", "possible ")

QUALIFIERS: frozenset[str] = frozenset(
    {
        "acute", "chronic", "stable", "unstable", "allergic", "viral", "bacterial", "fungal",
        "primary", "secondary", "pulmonary", "pancreatic", "localized", "localised",
        "generalized", "generalised", "spontaneous", "traumatic", "left", "right", "upper",
        "lower", "benign", "malignant", "type", "stage", "early", "late", "non", "nstemi",
        "stemi", "juvenile", "adult", "congenital", "acquired", "central", "peripheral",
    }
)  # fmt: skip
"""Words that set two otherwise similar names apart ("stable" / "unstable angina")."""

_LEAD_INS = re.compile(
    r"^(?:the\s+)?(?:(?:hidden|medical)\s+)?(?:condition|diagnosis|answer|secret)\s*(?:is|:)\s*"
    r"|^(?:it\s+is|it's|i\s+have|my\s+condition\s+is)\s+",
    re.IGNORECASE,
)


def normalise(text: str) -> str:
    """Lower case, accents and apostrophes removed, other punctuation turned into spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = re.sub(r"['’`]", "", plain.casefold()).replace("&", " and ")
    return " ".join(re.sub(r"[^0-9a-z]+", " ", plain).split())


def _outside_parentheses(text: str) -> str:
    return " ".join(re.sub(r"\([^)]*\)", " ", text).split())


def _generic_forms(name: str) -> list[str]:
    forms = [name]
    outside = _outside_parentheses(name)
    if outside and outside != name:
        forms.append(outside)
    for form in list(forms):
        for prefix in _STRIPPABLE_PREFIXES:
            if form.casefold().startswith(prefix):
                forms.append(form[len(prefix) :])
    return forms


def condition_forms(condition: Condition, catalogue: Catalogue | None = None) -> list[str]:
    """Names that identify ``condition`` (for leakage detection), the catalogue name first.

    ``catalogue`` (default: the packaged one) supplies the other conditions' names, so that a
    shortened form such as "rhinosinusitis" is dropped when another condition's name holds it.
    """
    return list(_forms_for_names(_names(catalogue, condition.name))[condition.name])


def _names(catalogue: Catalogue | None, *extra: str) -> tuple[str, ...]:
    cat = catalogue if catalogue is not None else load_catalogue()
    return tuple(dict.fromkeys((*(c.name for c in cat.conditions), *extra)))


@cache
def _forms_for_names(names: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    normalised_names = {name: normalise(name) for name in names}
    table: dict[str, tuple[str, ...]] = {}
    for name in names:
        forms: list[str] = []
        seen: set[str] = set()
        extra = _EXTRA_FORMS.get(name, ())
        for form in (*_generic_forms(name), *extra):
            key = normalise(form)
            if not key or key in seen:
                continue
            clash = (
                form != name
                and form not in extra
                and any(
                    _contains_words(other, key)
                    for other_name, other in normalised_names.items()
                    if other_name != name
                )
            )
            if clash:
                continue
            seen.add(key)
            forms.append(form)
        table[name] = tuple(forms)
    return table


def _contains_words(haystack: str, needle: str) -> bool:
    return f" {needle} " in f" {haystack} "


def mentions_condition(text: str, condition: Condition, catalogue: Catalogue | None = None) -> bool:
    """Whether ``text`` names ``condition`` by any of its forms (case-insensitive, whole words)."""
    haystack = normalise(text)
    forms = condition_forms(condition, catalogue)
    return any(_contains_words(haystack, normalise(form)) for form in forms)


@cache
def _index(catalogue: Catalogue) -> tuple[tuple[str, Condition], ...]:
    table = _forms_for_names(_names(catalogue))
    entries: list[tuple[str, Condition]] = []
    for condition in catalogue.conditions:
        names = (*table[condition.name], *_ALIASES.get(condition.name, ()))
        keys = dict.fromkeys(normalise(name) for name in names)
        entries.extend((key, condition) for key in keys if key)
    return tuple(entries)


def clean_condition_text(text: str) -> str:
    """The name in a reply such as ``**Hidden condition: Sarcoidosis.**`` (first line only)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    line = re.sub(r"</?[a-z_]+>", " ", lines[0], flags=re.IGNORECASE)
    line = line.strip().strip("*_`#>\"'“”‘’ ").strip()
    line = _LEAD_INS.sub("", line).strip()
    return line.strip("*_`\"'“”‘’ ").rstrip(".!;:,").strip()


def _conflicting_qualifiers(a: str, b: str) -> bool:
    """Both names carry words the other lacks, and one of those words sets them apart."""
    tokens_a, tokens_b = set(a.split()), set(b.split())
    only_a, only_b = tokens_a - tokens_b, tokens_b - tokens_a
    if not only_a or not only_b:
        return False
    return any(t in QUALIFIERS or any(ch.isdigit() for ch in t) for t in only_a | only_b)


def match_condition(
    text: str, catalogue: Catalogue, *, threshold: float = 88.0
) -> Condition | None:
    """The catalogue condition that ``text`` names, or None when nothing is close enough.

    In order: an exact match of the normalised text (also without its parenthesised part) with
    a form or alias; then the best fuzzy match (``max(ratio, token_sort_ratio)`` from rapidfuzz,
    at least ``threshold``, forms under five characters excluded, names with conflicting
    qualifiers such as "stable" / "unstable" never matched) provided one condition is best; then
    a unique condition whose form appears as whole words and covers more than half of the text's
    words ("unstable angina pectoris").
    """
    cleaned = clean_condition_text(text)
    variants = [
        v
        for v in dict.fromkeys((normalise(cleaned), normalise(_outside_parentheses(cleaned))))
        if v
    ]
    if not variants:
        return None
    index = _index(catalogue)
    for variant in variants:
        exact = {id(cond): cond for key, cond in index if key == variant}
        if len(exact) == 1:
            return next(iter(exact.values()))
    fuzzy = _best_fuzzy(variants, index, threshold)
    if fuzzy is not None:
        return fuzzy
    return _by_containment(variants, index)


def _best_fuzzy(
    variants: list[str], index: tuple[tuple[str, Condition], ...], threshold: float
) -> Condition | None:
    best: dict[str, float] = {}
    by_name: dict[str, Condition] = {}
    for variant in variants:
        for key, condition in index:
            if len(key) < 5 or _conflicting_qualifiers(variant, key):
                continue
            score = max(fuzz.ratio(variant, key), fuzz.token_sort_ratio(variant, key))
            if score >= threshold and score > best.get(condition.name, -1.0):
                best[condition.name] = score
                by_name[condition.name] = condition
    if not best:
        return None
    ranked = sorted(best.values(), reverse=True)
    if len(ranked) > 1 and ranked[0] == ranked[1]:
        return None
    top = max(best, key=lambda name: best[name])
    return by_name[top]


def _by_containment(
    variants: list[str], index: tuple[tuple[str, Condition], ...]
) -> Condition | None:
    for variant in variants:
        words = len(variant.split())
        hits = [
            (key, cond)
            for key, cond in index
            if _contains_words(variant, key) and 2 * len(key.split()) > words
        ]
        # A hit inside a longer hit of another condition does not count.
        kept = {
            cond.name: cond
            for key, cond in hits
            if not any(
                other is not cond and key != other_key and _contains_words(other_key, key)
                for other_key, other in hits
            )
        }
        if len(kept) == 1:
            return next(iter(kept.values()))
    return None


def is_near_duplicate(a: str, b: str, *, threshold: float = 90.0) -> bool:
    """Whether two condition names say the same thing.

    Equal after :func:`normalise`, or rapidfuzz ``token_set_ratio`` at least ``threshold`` —
    except when the names carry conflicting qualifiers ("Stable angina" / "Unstable angina",
    "Type 1 ..." / "Type 2 ...").
    """
    na, nb = normalise(a), normalise(b)
    if not na or not nb:
        return na == nb
    if na == nb:
        return True
    if _conflicting_qualifiers(na, nb):
        return False
    return fuzz.token_set_ratio(na, nb) >= threshold
