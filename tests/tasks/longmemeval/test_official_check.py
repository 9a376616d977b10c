"""The standalone check (benchmarks/check_longmemeval_retrieval.py), which recomputes every
retrieval metric of a run from its trial files with the official definitions written apart
from the package, agrees with a run on every question, and catches a number that is off."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cogarch.tasks.longmemeval.synthetic import synthetic_longmemeval

from .test_task import REPO, config, payloads

SCRIPT = REPO / "benchmarks" / "check_longmemeval_retrieval.py"


def hard_data(path: Path) -> Path:
    """Longer haystacks, a second user turn of each evidence session that is no evidence, and
    one question whose evidence is only what the assistant said."""
    data = synthetic_longmemeval(1, sessions=9, turns_per_session=6, abstention=1, seed=11)
    for entry in data:
        for sid, turns in zip(
            entry["haystack_session_ids"], entry["haystack_sessions"], strict=True
        ):
            if sid in entry["answer_session_ids"]:
                turns[2]["content"] = entry["question"].replace("?", " again, tell me.")
    assistant_only = data[2]
    for sid, turns in zip(
        assistant_only["haystack_session_ids"], assistant_only["haystack_sessions"], strict=True
    ):
        if sid in assistant_only["answer_session_ids"]:
            turns[0]["has_answer"] = False
            turns[1]["has_answer"] = True
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def check(results: Path, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(results), "--data", str(data)],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )


async def test_the_official_check_agrees_on_every_question_and_catches_a_change(
    tmp_path: Path,
) -> None:
    data = hard_data(tmp_path / "hard.json")
    agents = [
        {"name": name, "agent": agent, "provider": "reader", "params": params}
        for name, agent, params in [
            ("rounds", "longmemeval_rounds", {"embedder": "hash", "top_k": 2}),
            ("sessions", "longmemeval_sessions", {"embedder": "hash", "top_k": 2}),
            ("dense", "raw_turns_hybrid", {"embedder": "hash", "top_k": 3, "search": "dense"}),
            ("lexical", "raw_turns_hybrid", {"embedder": "hash", "top_k": 3, "search": "lexical"}),
        ]
    ]
    cfg = config(tmp_path, data, agents)
    found = await payloads(cfg)
    left = [p for p in found["rounds"] if p.retrieval_left_out == "no user-side evidence"]
    assert len(left) == 1 and left[0].retrieval is None
    # not every number is 1: the non-evidence turn of the evidence session competes
    scores = [v for p in found["dense"] if p.retrieval for v in p.retrieval["session"].values()]
    assert min(scores) < 1.0
    done = check(cfg.output_dir(), data)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "agreement on every question" in done.stdout
    assert "rounds | 7 | 7 | 2 | 0" in done.stdout  # the abstention and the assistant-only one

    trial = next(cfg.output_dir().glob("dense/trial_*.json"))
    record = json.loads(trial.read_text(encoding="utf-8"))
    if record["payload"]["retrieval"] is None:
        trial = next(
            t
            for t in sorted(cfg.output_dir().glob("dense/trial_*.json"))
            if json.loads(t.read_text(encoding="utf-8"))["payload"]["retrieval"]
        )
        record = json.loads(trial.read_text(encoding="utf-8"))
    record["payload"]["retrieval"]["session"]["ndcg_any@3"] = 0.5
    trial.write_text(json.dumps(record), encoding="utf-8")
    done = check(cfg.output_dir(), data)
    assert done.returncode == 1
    assert "DISAGREES" in done.stdout and "session ndcg_any@3" in done.stdout
