"""``controls: true`` on the generated benchmark adds its three controls, each reading as its
role says: the oracle only the evidence turns, the reader with no memory nothing, the full
history every session."""

from __future__ import annotations

import json
from pathlib import Path

from cogarch.experiments.running.run_config import load_run_config
from cogarch.experiments.running.runner import Runner

CONFIG = """\
name: genmem_controls
task: {kind: genmem, seed: 3, target_tokens: 4000, questions: 4}
trials: 4
seed: 5
cache: false
controls: true
providers:
  reader: {kind: fake, fake: genmem.reader}
agents:
  - {name: turns, agent: raw_turns, provider: reader, params: {embedder: hash, store: memory}}
"""


async def test_controls_true_adds_the_three_controls_reading_as_their_roles(
    tmp_path: Path,
) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    config = load_run_config(path).model_copy(update={"results_dir": str(tmp_path / "runs")})
    report = await Runner(config, progress=False).run()
    assert report.failed == 0
    folder = Path(config.output_dir())
    readings = {}
    for agent in ("turns", "no_memory", "full_history", "oracle"):
        record = json.loads((folder / agent / "trial_0000.json").read_text(encoding="utf-8"))
        assert record["status"] == "complete"
        assert record["metadata"].get("control") == (None if agent == "turns" else agent)
        readings[agent] = (record["payload"]["reading"], record["payload"]["turns_ingested"])
    assert readings["no_memory"] == ("none", 0)
    assert readings["oracle"][0] == "oracle"
    assert readings["full_history"][0] == readings["turns"][0] == "memory"
    assert 0 < readings["oracle"][1] < readings["full_history"][1]
