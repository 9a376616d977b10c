"""Traces of trials played as Ray tasks: the worker's spans join the driver's trace under the
trial's root and come back to the driver's exporter, the same tree a local run records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cogarch.config import read_yaml
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from tests.experiments.backends.conftest import REPO, RayCluster
from tests.spans import Spans, attrs, recording

pytestmark = pytest.mark.ray


def config(results: Path, backend: str) -> RunConfig:
    data = read_yaml(REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml")
    data["agents"] = [
        {"name": "honest_workflow", "agent": "workflow", "provider": "honest"},
        {"name": "leaky_vanilla", "agent": "vanilla", "provider": "leaky"},
    ]
    data.update(trials=1, results_dir=str(results), execution={"backend": backend})
    return RunConfig.model_validate(data)


def shape(spans: Spans) -> list[Any]:
    """Each trial's tree of span names, candidate branches in branch order."""
    trees = []
    for root in sorted(spans.roots(), key=lambda r: str(attrs(r)["cogarch.agent"])):
        trees.append((attrs(root)["cogarch.agent"], attrs(root)["cogarch.trial.outcome"]))
        trees.append(spans.tree(root))
    return trees


async def test_worker_spans_join_the_trial_root_on_the_driver(
    ray_cluster: RayCluster, tmp_path: Path
) -> None:
    results = tmp_path / "run"
    with recording(capture_content=True) as local:
        await Runner(config(results, "local"), progress=False).run()
    shutil.rmtree(results)
    with recording(capture_content=True) as remote:
        report = await Runner(config(results, "ray"), progress=False).run()
    assert report.failed == 0

    assert shape(remote) == shape(local)
    assert len(remote.roots()) == 2
    for root in remote.roots():
        trace_id = root.get_span_context().trace_id  # type: ignore[union-attr]
        below = remote.under(root)
        assert len(below) > 20
        assert {s.get_span_context().trace_id for s in below} == {trace_id}  # type: ignore[union-attr]
        assert {s.resource.attributes["service.name"] for s in below} == {"cogarch"}
        # the driver's switch reaches the worker: its turns carry the opted-in contents
        turn = next(s for s in below if s.name.startswith("invoke_agent"))
        said = json.loads(str(attrs(turn)["gen_ai.input.messages"]))
        assert said[0]["role"] == "user" and said[0]["parts"][0]["content"]
        # the root's children were made in the worker, from the context the driver sent
        assert {c.parent.is_remote for c in remote.children(root) if c.parent} == {True}
    assert {c.parent.is_remote for r in local.roots() for c in local.children(r) if c.parent} == {
        False
    }
