"""States saved by episodic and conceptual memory before their per-game log was shared still
load, save back the same JSON, render the same and play on.

``states/saved_before_game_log.json`` was written by the earlier code: for each module, a state
with ended games and one in progress, and what the module showed then (render, private text,
each game's activity).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogarch.core.memory import EpisodeEnd, TurnRecord
from cogarch.memory import build_memory
from cogarch.memory.long_term.conceptual import ConceptualMemory
from cogarch.memory.long_term.episodic import EpisodicMemory
from cogarch.memory.long_term.records import Belief
from tests.memory import FakeLLM, context
from tests.memory.long_term.test_conceptual import concepts_for
from tests.memory.long_term.test_episodic import ctx

SAVED: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "states" / "saved_before_game_log.json").read_text()
)


GROWN: dict[str, Any] = {
    "params": {"show": "representatives", "tokens": None, "in_game": False},
    "games": {"cut": [], "lessons": []},
    "activity": {"shown": "representatives", "cut": [], "lessons": [], "in_game": False},
}
"""What conceptual memory's state and game activity gained since: every concept shown under
its cluster (a state saved before goes on showing representatives), a token cap, the lessons
of the game in progress."""


def grown(name: str) -> dict[str, Any]:
    """The saved state and activity with the fields the module gained since, at their
    values for such a state."""
    saved = json.loads(json.dumps(SAVED[name]))
    if name != "conceptual":
        return saved
    state = saved["state"]
    state["params"] = {**state["params"], **GROWN["params"]}
    state["games"] = [_after(g, "retrieved", GROWN["games"]) for g in state["games"]]
    saved["activity"] = [
        None if a is None else _after(a, "retrieved", GROWN["activity"]) for a in saved["activity"]
    ]
    return saved


def _after(entry: dict[str, Any], key: str, added: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in entry.items():
        out[k] = v
        if k == key:
            out.update(added)
    return out


def loaded(name: str) -> Any:
    saved = SAVED[name]
    state = saved["state"]
    module = build_memory(state["kind"], state["params"])
    module.load_state(json.loads(json.dumps(state)))
    return module


@pytest.mark.parametrize("name", sorted(SAVED))
def test_an_earlier_state_loads_and_saves_back_the_same_json(name: str) -> None:
    saved = grown(name)
    module = loaded(name)
    assert json.dumps(module.save_state()) == json.dumps(saved["state"])
    assert module.private_text() == saved["private_text"]
    games = len(saved["activity"])
    assert [module.episode_activity(e) for e in range(games)] == saved["activity"]
    assert module.render() == saved["render"]
    assert json.dumps(module.save_state()) == json.dumps(saved["state"])


@pytest.mark.parametrize("name", ["episodic_random", "episodic_similar"])
async def test_an_earlier_episodic_state_plays_on(name: str) -> None:
    module = loaded(name)
    assert isinstance(module, EpisodicMemory)
    module.write_belief("belief 1 of game 3", 8)
    await module.ingest(TurnRecord(8, "observation 1", "action 1"), ctx())
    await module.end_episode(EpisodeEnd(3, True, label="apple shelf", steps=2), ctx())
    assert [e.episode for e in module.archive] == [0, 1, 2, 3]
    assert [a.action for a in module.archive[-1].actions] == ["action 0", "action 1"]
    game = module.begin_episode(4, "put some mug on desk", 9, ctx())
    assert len(game.drawn) == 2 and module.game is game


async def test_an_earlier_conceptual_state_plays_on() -> None:
    module = loaded("conceptual")
    assert isinstance(module, ConceptualMemory)
    fake = FakeLLM(ConceptDrafts=concepts_for)
    module.take_belief(Belief(id="ep4.b1", episode=4, step=1, turn=1, text="step 1 pen desk"))
    before = len(module.concepts)
    await module.end_episode(EpisodeEnd(4, True, label="pen desk", steps=2), context(fake, 5))
    assert module.games[-1].stored == [f"c{before + i}" for i in range(3)]
    assert "[step 0] step 0 towards pen desk" in fake.of("ConceptDrafts")[0]
    assert "Lessons noted:\n[step 0] lesson in progress" in fake.of("ConceptDrafts")[0]
    game = module.begin_episode(5, "towel sink", context(fake, 5))
    assert game.concepts == before + 3 and module.game is game
