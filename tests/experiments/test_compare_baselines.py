"""compare_baselines: each library beside cogarch's module on the same dialogues, with fakes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogarch.experiments.papers.compare_baselines import (
    compare_dialogue,
    dialogue_of,
    exact_overlap,
    fuzzy_matches,
    hangman_dialogue,
    markdown,
    outcome_rows,
)
from cogarch.memory.retrieval.libs.fakes import with_library_memory
from cogarch.memory.retrieval.libs.offline import MEM0, MEMORYOS
from cogarch.models.fakes import pairs_model
from cogarch.models.model import Model


def never(pairs: object, seed: int, call: object) -> str:
    return "not a memory answer"


def fake() -> Model:
    return Model(pairs_model(with_library_memory(never)), provider="fk", model="fk", fake=True)


def test_overlaps_match_texts_exactly_and_loosely() -> None:
    assert exact_overlap(["A cat.", "b"], ["a cat", "c"]) == pytest.approx(1 / 3)
    assert exact_overlap([], []) == 1.0
    assert fuzzy_matches(["User likes green tea"], ["The user likes green tea a lot"]) == 1
    assert fuzzy_matches(["User likes green tea"], ["Paris is in France"]) == 0
    # each counterpart is used once
    assert fuzzy_matches(["tea", "tea"], ["tea"]) == 1


def test_a_hangman_dialogue_is_the_same_for_everyone() -> None:
    one, two = hangman_dialogue(3, letters="ea"), hangman_dialogue(3, letters="ea")
    assert one == two and len(one.turns) == 3
    assert one.turns[0].user.startswith("Let’s play Hangman")
    assert one.queries[0] == one.turns[1].user and one.queries[-1] == one.turns[-1].user


@pytest.mark.skipif(
    MEM0.version() is None or MEMORYOS.version() is None,
    reason=f"the mem0-lib and memoryos-lib extras are not installed ({MEM0.install}; "
    f"{MEMORYOS.install})",
)
@pytest.mark.parametrize("pair", ["mem0", "memoryos"])
async def test_both_sides_take_the_same_turns(pair: str) -> None:
    said = [
        ("My sister Ada lives in Paris.", "Nice."),
        ("I keep two cats.", "Lovely."),
        ("Where does Ada live?", "In Paris."),
    ]
    dialogue = dialogue_of("toy", said)
    params = {"memoryos_lib": {"short_term_capacity": 2}, "memoryos": {"short_term_capacity": 2}}
    rows, summary = await compare_dialogue(dialogue, pair, fake(), params=params)
    assert [r.turn for r in rows] == [1, 2, 3]
    assert summary.errors == []
    assert summary.lib_memories > 0 and summary.ours_memories > 0
    assert summary.lib_calls == sum(r.lib_calls for r in rows) > 0
    assert summary.ours_calls == sum(r.ours_calls for r in rows) > 0
    if pair == "mem0":
        # the scripted answers make both sides store the same facts
        assert summary.fuzzy_shared == summary.lib_memories
        assert rows[-1].fuzzy_overlap > 0
    assert "| dialogue | pair |" in markdown([summary])


def test_outcomes_of_a_run_side_by_side(tmp_path: Path) -> None:
    for agent, outcome, calls in (("mem0", "leakage", 4), ("mem0_lib", "all_denial", 8)):
        folder = tmp_path / agent
        folder.mkdir()
        usage = {"model_calls": calls + 1, "by_caller": {f"memory:{agent}": {"calls": calls}}}
        trial = {"trial": 0, "evaluation": {"outcome": outcome}, "usage": usage}
        (folder / "trial_0000.json").write_text(json.dumps(trial))
    [row] = outcome_rows(tmp_path, ["mem0", "mem0_lib"])
    assert row == {
        "trial": 0,
        "mem0": "leakage",
        "mem0 memory calls": 4,
        "mem0_lib": "all_denial",
        "mem0_lib memory calls": 8,
    }
