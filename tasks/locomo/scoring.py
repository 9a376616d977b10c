"""LoCoMo's scoring rules, as its official evaluation code applies them.

Answers are normalised (commas removed, lower-cased, punctuation stripped, the articles and
"and" dropped, whitespace collapsed), Porter-stemmed and compared by token F1. Per category:
1 (multi-hop) splits gold and prediction on commas and averages, over the gold parts, the best
F1 of any prediction part; 2 (temporal) and 4 (single-hop) are plain F1; 3 (open-domain)
scores against the gold part before the first ``;``; 5 (adversarial) is 1 when the prediction
says "no information available" or "not mentioned", else 0. Evidence recall is the share of
the question's evidence dialog ids among the retrieved ones (1 when it lists none); when the
retrieved ids are sessions (``S3``), the share of evidence ids whose session was retrieved.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache
from statistics import fmean
from typing import Any

from nltk.stem import PorterStemmer

CATEGORIES = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop", 5: "adversarial"}
ABSTENTIONS = ("no information available", "not mentioned")

_ARTICLES = re.compile(r"\b(a|an|the|and)\b")
_PUNCTUATION = frozenset(string.punctuation)
_STEMMER = PorterStemmer()


def normalize_answer(text: str) -> str:
    text = text.replace(",", "").lower()
    text = "".join(ch for ch in text if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


@cache
def _stem(word: str) -> str:
    return str(_STEMMER.stem(word))


def tokens(text: str) -> list[str]:
    """The normalised, stemmed tokens of ``text``."""
    return [_stem(w) for w in normalize_answer(text).split()]


def token_f1(prediction: str, gold: str) -> float:
    pred, ref = tokens(prediction), tokens(gold)
    same = sum((Counter(pred) & Counter(ref)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


def multi_answer_f1(prediction: str, gold: str) -> float:
    """Mean over the comma-separated gold parts of the best F1 of any prediction part."""
    parts = [p.strip() for p in prediction.split(",")]
    return fmean(max(token_f1(p, g.strip()) for p in parts) for g in gold.split(","))


def gold_answer(qa: Mapping[str, Any]) -> str:
    """The question's gold answer as text (``answer``, else ``adversarial_answer``)."""
    if "answer" in qa:
        return str(qa["answer"])
    if "adversarial_answer" in qa:
        return str(qa["adversarial_answer"])
    raise ValueError(
        f"question {qa.get('question')!r} has neither 'answer' nor 'adversarial_answer'"
    )


def score(prediction: str, qa: Mapping[str, Any]) -> float:
    """The official score in [0, 1] of ``prediction`` for one question object of the file."""
    category = qa.get("category")
    if category == 5:
        said = prediction.lower()
        return 1.0 if any(phrase in said for phrase in ABSTENTIONS) else 0.0
    gold = gold_answer(qa)
    if category == 1:
        return multi_answer_f1(prediction, gold)
    if category == 3:
        gold = gold.split(";")[0].strip()
    if category in (2, 3, 4):
        return token_f1(prediction, gold)
    raise ValueError(f"question {qa.get('question')!r} has category {category!r}; LoCoMo's are 1-5")


def evidence_recall(retrieved_ids: Iterable[str], qa: Mapping[str, Any]) -> float:
    """The share of the question's evidence ids among ``retrieved_ids`` (1.0 without evidence)."""
    evidence = [str(e) for e in qa.get("evidence") or []]
    if not evidence:
        return 1.0
    retrieved = [str(i) for i in retrieved_ids]
    if retrieved and retrieved[0].startswith("S"):
        sessions = {r[1:] for r in retrieved}
        return sum(e.split(":")[0][1:] in sessions for e in evidence) / len(evidence)
    have = set(retrieved)
    return sum(e in have for e in evidence) / len(evidence)
