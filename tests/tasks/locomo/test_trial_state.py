"""The LoCoMo trial's sidecar: an append-only log and an agent snapshot, readable after a kill
at any point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cogarch.tasks.locomo import trial_state
from cogarch.tasks.locomo.trial_state import LOG, SNAPSHOT, TrialState
from cogarch.workspace import Agent, build_agent, load_agent_spec
from tests.workspace import Brain, providers

FINGERPRINT = {"sample_id": "syn-1", "sessions": [1, 2], "seed": 5}
CALL = {"caller": "memory:mem0", "provider": "p", "model": "m", "prompt_tokens": 10}


def answer(text: str) -> dict[str, Any]:
    """A saved answer whose prediction is ``text``."""
    return {"question": "q?", "category": 1, "gold": "g", "prediction": text, "f1": 0.0}


def agent() -> Agent:
    found, _ = providers(Brain())
    return build_agent(load_agent_spec("workflow"), found.get, provider="fake", seed=1)


async def played(directory: Path, answers: int = 2) -> tuple[TrialState, Agent]:
    """Two sessions and ``answers`` answers, recorded as a trial records them."""
    state, trunk = TrialState(directory, FINGERPRINT), agent()
    await state.restore(trunk)
    for done in (1, 2):
        await trunk.respond(f"session {done}")
        cost = {"model_calls": 1, "seconds": 0.5}
        await state.session_done(trunk, done, cost, [CALL], last=done == 2)
    await state.settle()
    for n in range(answers):
        state.answered(f"{n}:q{n}", answer(f"a{n}"), [{**CALL, "caller": "responder"}])
    await state.close()
    return state, trunk


async def test_a_rerun_gets_back_the_agent_the_sessions_and_every_answer(tmp_path: Path) -> None:
    _, trunk = await played(tmp_path)
    again = agent()
    progress = await TrialState(tmp_path, FINGERPRINT).restore(again)
    assert again.save_state() == trunk.save_state()
    assert progress.resumed and progress.sessions_done == 2
    assert progress.cost == {"model_calls": 2, "seconds": 1.0}
    assert progress.answers == {"0:q0": answer("a0"), "1:q1": answer("a1")}
    assert [c["caller"] for c in progress.calls] == ["memory:mem0"] * 2 + ["responder"] * 2
    assert (await TrialState(tmp_path / "none", FINGERPRINT).restore(agent())).resumed is False


async def test_the_log_only_grows_an_answer_at_a_time(tmp_path: Path) -> None:
    state, _ = await played(tmp_path, answers=1)
    before = (tmp_path / LOG).read_bytes()
    await state.restore(agent())
    state.answered("1:q1", answer("a1"), [])
    state.answered("2:q2", answer("a2"), [])
    await state.close()
    after = (tmp_path / LOG).read_bytes()
    assert after.startswith(before)
    assert [json.loads(line).get("answer") for line in after.splitlines()[-2:]] == ["1:q1", "2:q2"]


async def test_a_line_cut_short_by_a_kill_is_dropped_and_the_log_goes_on(tmp_path: Path) -> None:
    await played(tmp_path)
    log = tmp_path / LOG
    whole = log.read_bytes()
    log.write_bytes(whole + b'{"answer": "2:q2", "value": {"predic')
    state = TrialState(tmp_path, FINGERPRINT)
    progress = await state.restore(agent())
    assert sorted(progress.answers) == ["0:q0", "1:q1"]
    assert log.read_bytes() == whole
    state.answered("2:q2", answer("a2"), [])
    await state.close()
    assert sorted((await TrialState(tmp_path, FINGERPRINT).restore(agent())).answers) == [
        "0:q0",
        "1:q1",
        "2:q2",
    ]


async def test_sessions_past_the_snapshot_are_ingested_again(tmp_path: Path) -> None:
    state, trunk = TrialState(tmp_path, FINGERPRINT), agent()
    await trunk.respond("session 1")
    await state.session_done(trunk, 1, {"model_calls": 1}, [CALL])
    await state.settle()
    snapshot = (tmp_path / SNAPSHOT).read_bytes()
    await trunk.respond("session 2")
    await state.session_done(trunk, 2, {"model_calls": 3}, [CALL] * 3, last=True)
    await state.close()
    (tmp_path / SNAPSHOT).write_bytes(snapshot)  # killed before the second snapshot landed
    progress = await TrialState(tmp_path, FINGERPRINT).restore(again := agent())
    assert progress.sessions_done == 1 and progress.cost == {"model_calls": 1}
    assert len(progress.calls) == 1 and len(again.workspace.dialogue) == 2
    redo = TrialState(tmp_path, FINGERPRINT)
    await redo.restore(agent())
    await redo.session_done(trunk, 2, {"model_calls": 2}, [CALL] * 2, last=True)  # redone
    await redo.close()
    progress = await TrialState(tmp_path, FINGERPRINT).restore(agent())
    assert progress.sessions_done == 2 and progress.cost == {"model_calls": 3}
    assert len(progress.calls) == 3  # the last line of a session counts


async def test_files_of_another_trial_are_set_aside_not_mixed_in(tmp_path: Path) -> None:
    await played(tmp_path)
    other = {**FINGERPRINT, "seed": 6}
    progress = await TrialState(tmp_path, other).restore(fresh := agent())
    assert not progress.resumed and progress.answers == {} and fresh.workspace.dialogue == []
    assert (tmp_path / (LOG + ".stale")).exists()


async def test_snapshots_are_skipped_while_they_would_cost_more_than_a_fifth_of_ingestion(
    tmp_path: Path, monkeypatch: Any
) -> None:
    state, trunk = TrialState(tmp_path, FINGERPRINT), agent()
    await state.session_done(trunk, 1, {"model_calls": 1}, [CALL])
    await state.settle()
    clock = iter([100.0, 101.0, 104.0, 106.0])  # session ends, and a snapshot's start and end
    monkeypatch.setattr(trial_state.time, "perf_counter", lambda: next(clock, 200.0))
    state._last_snapshot_end, state._snapshot_cost = 99.5, 1.0  # the last one took 1 s
    await state.session_done(trunk, 2, {"model_calls": 1}, [CALL])  # 0.5 s after: skipped
    await state.settle()
    assert json.loads((tmp_path / SNAPSHOT).read_text())["sessions_done"] == 1
    await state.session_done(trunk, 3, {"model_calls": 1}, [CALL], last=True)  # always
    await state.close()
    assert json.loads((tmp_path / SNAPSHOT).read_text())["sessions_done"] == 3
    progress = await TrialState(tmp_path, FINGERPRINT).restore(agent())
    assert progress.sessions_done == 3 and progress.cost == {"model_calls": 3}
