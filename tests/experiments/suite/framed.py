"""A small suite whose scores come with their frame: LongMemEval's seven questions read by two
memories and by the no-memory and oracle controls, judged by the task's scripted judge (it
accepts a response holding the gold answer or all its content words)."""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
JUDGE = "longmemeval.judge"
SUITE = """\
name: framed
trials: 7
cache: false
controls: [no_memory, oracle]
results_dir: {out}
providers:
  reader: {{kind: fake, fake: longmemeval.reader}}
  judge: {{kind: fake, fake: "{judge}"}}
helper_provider: judge
tasks:
  - {{kind: longmemeval, data: {data}}}
agents:
  - {{name: full, agent: longmemeval_full, provider: reader}}
  - {{name: rounds, agent: longmemeval_rounds, provider: reader,
      params: {{embedder: hash, top_k: 1}}}}
"""


def write_framed(folder: Path, out: Path, audit: bool = False, second: str | None = None) -> Path:
    """The suite's config in ``folder``, its results going to ``out``; ``audit`` turns the
    judge audit on in the config (otherwise ``--audit-judge`` does); ``second`` names a fake
    (``module:function``) the audit's second judge plays, as the provider ``second``."""
    data = REPO / "tests" / "tasks" / "longmemeval" / "data" / "small.json"
    text = SUITE.format(out=out, judge=JUDGE, data=data)
    if second is not None:
        entry = f'  second: {{kind: fake, fake: "{second}"}}\n'
        text = text.replace("providers:\n", "providers:\n" + entry)
        text += "audit_judge: {second_judge: second}\n"
    elif audit:
        text += "audit_judge: true\n"
    path = folder / "framed.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def verdicts(out: Path, agent: str) -> dict[str, float]:
    """The judge's verdict on each question the cell of ``agent`` asked, from its files."""
    folder = out / "longmemeval" / agent / agent
    found = {}
    for file in sorted(folder.glob("trial_*.json")):
        payload = json.loads(file.read_text(encoding="utf-8"))["payload"]
        found[payload["question_id"]] = float(payload["verdict"])
    return found
