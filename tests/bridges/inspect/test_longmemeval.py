"""``inspect eval cogarch/longmemeval`` through the Inspect bridge, on Inspect's mock model."""

from __future__ import annotations

from pathlib import Path

from cogarch.bridges.inspect.scoring import RECORD_KEY

from .conftest import INSPECT_WARNINGS, REPO, run_eval

pytestmark = INSPECT_WARNINGS
DATA = REPO / "tests" / "tasks" / "longmemeval" / "data" / "small.json"


def test_longmemeval_runs_under_inspect_with_the_helper_as_judge(tmp_path: Path) -> None:
    args = {
        "data": str(DATA),
        "agent": "longmemeval_rounds",
        "agent.embedder": "hash",
        "fake": "longmemeval.reader",
        "trials": 2,
        "cache": False,
    }
    log = run_eval("cogarch/longmemeval", args, tmp_path, model_roles={"helper": "mockllm/model"})
    assert log.status == "success", log.error
    assert len(log.samples) == 2
    for sample in log.samples:
        record = sample.store[RECORD_KEY]
        payload = record["payload"]
        assert payload["kind"] == "longmemeval" and payload["judge_model"] == "mockllm/model"
        assert payload["ranked"] and payload["retrieval"]["turn"]["recall_any@1"] in (0.0, 1.0)
        calls = {(c["provider"], c["caller"]) for c in record["usage"]["calls"]}
        assert ("helper", "judge") in calls and ("fake", "reader") in calls
        # the mock model never says yes: every answer is judged wrong
        assert sample.scores["trial_outcome"].value == "wrong"
