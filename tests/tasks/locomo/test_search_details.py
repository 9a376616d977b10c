"""A LoCoMo answer keeps how each retrieved turn was found: its rank and score by the dense and
the lexical search (hybrid or lexical search), and nothing more for a dense search."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tasks.locomo.test_task import context, setup


async def answers(tmp_path: Path, search: str, store: str) -> list:
    if search == "dense":
        s = setup(tmp_path, "raw_turns")
    else:
        s = setup(tmp_path, "raw_turns_hybrid", {"embedder": "hash", "search": search})
    spec = s.specs["raw"]
    spec.memory["turns"] = spec.memory["turns"].model_validate(
        {**spec.memory["turns"].model_dump(), "store": store}
    )
    out = await s.task.run_trial(context(s, tmp_path))
    return out.payload.answers


@pytest.mark.parametrize("store", ["memory", "chroma"])
async def test_hybrid_answers_keep_each_turns_ranks_and_scores(tmp_path: Path, store: str) -> None:
    found = await answers(tmp_path, "hybrid", store)
    assert found and all(a.search for a in found)
    for answer in found:
        assert answer.search is not None
        ids = [i for entry in answer.search for i in entry["source_ids"]]
        assert list(dict.fromkeys(ids)) == answer.retrieved_ids
        for entry in answer.search:
            assert entry["module"] == "turns" and entry["mode"] == "hybrid"
            assert entry["dense_score"] is not None and entry["lexical_score"] is not None
            assert {"dense_rank", "lexical_rank", "score", "id"} <= set(entry)
        scores = [entry["score"] for entry in answer.search]
        assert scores == sorted(scores, reverse=True)
        assert "search" in answer.model_dump(mode="json")


async def test_dense_answers_are_written_as_before(tmp_path: Path) -> None:
    found = await answers(tmp_path, "dense", "memory")
    assert found and all(a.search is None for a in found)
    assert all("search" not in a.model_dump(mode="json") for a in found)
    assert all(a.recall is not None for a in found)
