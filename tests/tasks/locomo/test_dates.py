"""A memory module dates what it stores by the conversation's own dates, not by its clock."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from cogarch.core.memory import TurnRecord
from cogarch.memory.retrieval.embeddings import HashEmbedder
from cogarch.memory.retrieval.lightmem import LightMemMemory
from cogarch.memory.retrieval.mem0 import Mem0Memory
from cogarch.tasks.locomo import ingest
from cogarch.tasks.locomo.data import LocomoDataError, load_locomo
from tests.memory import FakeLLM, context
from tests.tasks.locomo.test_task import DATA, setup
from tests.tasks.locomo.test_task import context as trial_context


def test_each_turn_carries_its_session_date_and_time() -> None:
    conv = load_locomo(DATA)[0]
    assert {t.time for t in conv.sessions[1]} == {"2023-05-03T13:00:00"}
    assert {t.time for t in conv.sessions[2]} == {"2023-06-20T09:30:00"}


def test_a_session_date_in_another_form_is_named_with_the_form_expected(tmp_path: Path) -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    data[0]["conversation"]["session_2_date_time"] = "June 20th"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LocomoDataError, match=r"session_2_date_time 'June 20th'.*25 May, 2023"):
        load_locomo(bad)


def test_a_turn_time_that_is_not_iso_8601_is_refused() -> None:
    with pytest.raises(ValueError, match="turn 3 has the time 'yesterday'"):
        TurnRecord(3, "hi", "", time="yesterday")


async def test_ingested_sessions_set_the_memorys_clock(tmp_path: Path) -> None:
    s = setup(tmp_path, agent="mem0")
    agent = trial_context(s, tmp_path).make_agent()
    conv = s.task.conversation(0)
    await ingest.ingest_turns(agent, conv.sessions[1])
    mem0 = agent.memory["mem0"]
    assert {m.time for m in mem0.messages} == {"2023-05-03T13:00:00"}
    await ingest.ingest_turns(agent, conv.sessions[2])
    assert mem0.now() == datetime(2023, 6, 20, 9, 30)
    restored = Mem0Memory(Mem0Memory.Params(embedder="hash"), embedder=HashEmbedder())
    restored.load_state(mem0.save_state())
    assert restored.now() == datetime(2023, 6, 20, 9, 30)


async def test_stored_facts_and_extraction_prompts_carry_the_turns_dates() -> None:
    llm = FakeLLM(
        FactBatch={"facts": [{"source": 0, "fact": "Ann adopted a cat"}]},
        FactList={"facts": []},
    )
    light = LightMemMemory(
        LightMemMemory.Params(embedder="hash"), provider="f", embedder=HashEmbedder()
    )
    mem0 = Mem0Memory(Mem0Memory.Params(embedder="hash"), provider="f", embedder=HashEmbedder())
    dated = TurnRecord(1, "Ann: I adopted a cat", "", time="2023-05-03T13:00:00")
    for module in (light, mem0):
        await module.ingest(dated, context(llm))
    (fact,) = light.entries()
    assert (fact.fields["timestamp"], fact.fields["weekday"]) == ("2023-05-03T13:00:00", "Wed")
    assert "2023-05-03T13:00:00.000 Wed user: Ann: adopted cat" in llm.of("FactBatch")[0]
    assert "Today's date is 2023-05-03." in llm.of("FactList")[0]
    undated = TurnRecord(2, "Ann: she is grey", "")
    await light.ingest(undated, context(llm))
    assert light.entries()[-1].fields["timestamp"] == "2023-05-03T13:00:00"
