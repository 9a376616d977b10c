"""LoCoMo's official scoring rules against hand-computed values."""

from __future__ import annotations

import pytest

from cogarch.tasks.locomo.scoring import evidence_recall, normalize_answer, score, tokens


def test_normalisation_drops_case_punctuation_commas_articles_and_and() -> None:
    assert normalize_answer("The Cat, and a Dog's bowl!") == "cat dogs bowl"
    assert tokens("Running adoptions") == ["run", "adopt"]


def test_plain_f1_for_single_hop_and_temporal() -> None:
    # pred {pixel, cat}, gold {pixel}: P = 1/2, R = 1 -> F1 = 2/3
    assert score("the cat Pixel", {"category": 4, "answer": "Pixel"}) == pytest.approx(2 / 3)
    # stemming: "adopted" and "adopting" agree; 2 of 3 pred tokens, 2 of 2 gold -> 0.8
    qa = {"category": 2, "answer": "adopted May"}
    assert score("adopting in May", qa) == pytest.approx(0.8)
    assert score("June", {"category": 2, "answer": 2022}) == 0.0
    assert score("2022", {"category": 2, "answer": 2022}) == 1.0


def test_multi_hop_averages_best_f1_over_gold_parts() -> None:
    qa = {"category": 1, "answer": "violin, piano"}
    assert score("piano, violin", qa) == 1.0
    # gold "violin": best 1.0 ("violin"); gold "piano": 0 -> mean 0.5
    assert score("violin, drums", qa) == 0.5
    # without a comma split the prediction "violin piano" is one part: F1 2/3 against each
    assert score("violin piano", qa) == pytest.approx(2 / 3)


def test_open_domain_scores_against_the_part_before_the_semicolon() -> None:
    qa = {"category": 3, "answer": "Yes; she went hiking in Colorado"}
    assert score("yes", qa) == 1.0
    assert score("she went hiking", qa) == 0.0


def test_adversarial_counts_only_an_abstention() -> None:
    qa = {"category": 5, "adversarial_answer": "Rex"}
    assert score("Not mentioned in the conversation", qa) == 1.0
    assert score("No information available.", qa) == 1.0
    assert score("Rex", qa) == 0.0


def test_unknown_category_and_missing_gold_are_named() -> None:
    with pytest.raises(ValueError, match="category 7"):
        score("x", {"category": 7, "answer": "x", "question": "q"})
    with pytest.raises(ValueError, match="neither 'answer'"):
        score("x", {"category": 4, "question": "q"})


def test_evidence_recall_dialog_and_session_ids() -> None:
    qa = {"evidence": ["D1:1", "D2:2"]}
    assert evidence_recall(["D2:2", "D9:9"], qa) == 0.5
    assert evidence_recall([], qa) == 0.0
    assert evidence_recall(["S1"], qa) == 0.5
    assert evidence_recall(["x"], {"evidence": []}) == 1.0
