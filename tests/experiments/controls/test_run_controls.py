"""Controls added to a run by ``controls:``: the task's own control agents, on the agents'
reader, judge and seed, marked as controls in every trial file and in run.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.reports.report import build_report
from cogarch.experiments.results.trial_files import read_trial
from cogarch.experiments.running.dry_run import dry_run
from cogarch.experiments.running.run_config import load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.locomo.data import load_locomo
from cogarch.tasks.locomo.questions import NOT_MENTIONED
from cogarch.tasks.locomo.task import LocomoTask

REPO = Path(__file__).resolve().parents[3]
LONGMEMEVAL = """\
name: lme
task: {kind: longmemeval, data: tests/tasks/longmemeval/data/small.json}
trials: 7
seed: 11
cache: false
providers:
  reader: {kind: fake, fake: longmemeval.reader}
  judge: {kind: fake, fake: longmemeval.judge}
helper_provider: judge
agents:
  - {name: rounds, agent: longmemeval_rounds, provider: reader, params: {embedder: hash, top_k: 2}}
"""
LOCOMO = """\
name: locomo
task: {kind: locomo, data: tests/tasks/locomo/data/synthetic.json}
trials: 2
cache: false
providers:
  reader: {kind: fake, fake: locomo.reader}
agents:
  - {name: turns, agent: raw_turns, provider: reader, params: {embedder: hash}}
"""


def config_at(tmp_path: Path, text: str, extra: str) -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(text.replace("agents:", extra + "\nagents:"), encoding="utf-8")
    return path


def trial(folder: Path, agent: str, index: int) -> dict:
    return json.loads((folder / agent / f"trial_{index:04d}.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _at_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # the configs name their data relative to the checkout


async def test_controls_true_adds_every_control_of_longmemeval_marked_as_such(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    config = load_run_config(
        config_at(tmp_path, LONGMEMEVAL, f"controls: true\nresults_dir: {out}")
    )
    report = await Runner(config, progress=False).run()
    assert report.ran == 28 and report.failed == 0
    assert [r.agent for r in report.rows] == ["rounds", "no_memory", "full_history", "oracle"]
    meta = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert {a: m["control"] for a, m in meta["agents"].items()} == {
        "rounds": None,
        "no_memory": "no_memory",
        "full_history": "full_history",
        "oracle": "oracle",
    }
    for i in range(7):
        played = {a: trial(out, a, i) for a in ("rounds", "no_memory", "full_history", "oracle")}
        assert {t["metadata"].get("control") for t in played.values()} == {
            None,
            "no_memory",
            "full_history",
            "oracle",
        }
        # the same question, seed, reader and judge for every agent of a trial index
        assert len({(t["seed"], t["payload"]["question_id"]) for t in played.values()}) == 1
        assert {t["metadata"]["settings"]["reader_model"] for t in played.values()} == {
            "fake:longmemeval.reader"
        }
        assert {t["metadata"]["settings"]["judge_model"] for t in played.values()} == {
            "fake:longmemeval.judge"
        }
        oracle, full = played["oracle"]["payload"], played["full_history"]["payload"]
        assert oracle["haystack"] == "oracle" and full["haystack"] == "full"
        assert oracle["sessions_ingested"] == len(oracle["answer_session_ids"])
        assert full["sessions_ingested"] > oracle["sessions_ingested"]
        assert played["no_memory"]["payload"]["memory_tokens"] == 0  # the question alone
    again = await Runner(load_run_config(tmp_path / "run.yaml"), progress=False).run()
    assert again.ran == 0 and again.skipped == 28  # the expanded run resumes as itself


async def test_a_list_of_roles_adds_only_those(tmp_path: Path) -> None:
    out = tmp_path / "out"
    text = f"controls: [oracle]\nresults_dir: {out}"
    config = load_run_config(config_at(tmp_path, LONGMEMEVAL, text))
    report = await Runner(config, progress=False).run()
    assert [r.agent for r in report.rows] == ["rounds", "oracle"]


async def test_the_run_report_shows_each_control_by_its_role(tmp_path: Path) -> None:
    out = tmp_path / "out"
    config = load_run_config(
        config_at(tmp_path, LONGMEMEVAL, f"controls: true\nresults_dir: {out}")
    )
    await Runner(config, progress=False).run()
    markdown = build_report(out)[0].read_text(encoding="utf-8")
    roles = {
        cells[1]: cells[3]
        for line in markdown.splitlines()
        if line.startswith("| ")
        and len(cells := [c.strip() for c in line.split("|")]) > 4
        and " / " in cells[2]  # the summary's rows: agent | task / model | role | ...
    }
    assert roles["no_memory"] == "control: no_memory"
    assert roles["full_history"] == "control: full_history"
    assert roles["oracle"] == "control: oracle"
    assert roles["rounds"] == "method"


async def test_locomo_oracle_is_shown_only_each_questions_evidence(tmp_path: Path) -> None:
    out = tmp_path / "out"
    config = load_run_config(config_at(tmp_path, LOCOMO, f"controls: true\nresults_dir: {out}"))
    report = await Runner(config, progress=False).run()
    assert report.failed == 0
    data = load_locomo(REPO / "tests/tasks/locomo/data/synthetic.json")
    types = LocomoTask.record_types()
    text = {(c.sample_id, t.dia_id): t.line() for c in data for t in c.turns()}
    for i in range(2):
        oracle = trial(out, "oracle", i)
        full = trial(out, "full_history", i)
        assert oracle["metadata"]["control"] == "oracle"
        record = read_trial(out / "oracle" / f"trial_{i:04d}.json", types=types)
        asked = [a["prompt_tokens"] for a in oracle["payload"]["answers"]]
        assert LocomoTask.context_tokens(record) == asked and all(asked)
        pairs = zip(oracle["payload"]["answers"], full["payload"]["answers"], strict=True)
        for mine, whole in pairs:
            assert mine["memory_tokens"] < whole["memory_tokens"]
            shown = [text[oracle["payload"]["sample_id"], e] for e in mine["evidence"]]
            answer = mine["prediction"]
            assert answer == NOT_MENTIONED or any(answer in line for line in shown)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            "controls: [lower_bound]",
            "task 'longmemeval' declares no control 'lower_bound'; the controls declared are "
            "no_memory, full_history, oracle",
        ),
        ("controls: [nonsense]", "controls"),
    ],
)
async def test_a_role_the_task_does_not_declare_is_refused(
    tmp_path: Path, extra: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        Runner(load_run_config(config_at(tmp_path, LONGMEMEVAL, extra)), progress=False)


def test_controls_on_a_task_without_controls_is_refused(tmp_path: Path) -> None:
    text = """\
name: rev
task: {kind: revision, scenario: [trip]}
trials: 1
controls: true
providers:
  honest: {kind: fake, fake: revision.honest}
agents:
  - {agent: vanilla, provider: honest}
"""
    path = tmp_path / "run.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="declares no controls; leave 'controls' out"):
        Runner(load_run_config(path), progress=False)


def test_a_control_named_like_an_agent_is_refused(tmp_path: Path) -> None:
    text = LONGMEMEVAL.replace("name: rounds", "name: oracle")
    with pytest.raises(ConfigError, match="control 'oracle' would share its name"):
        Runner(load_run_config(config_at(tmp_path, text, "controls: true")), progress=False)


def test_an_agent_marked_as_a_control_its_task_does_not_declare_is_refused(
    tmp_path: Path,
) -> None:
    text = LONGMEMEVAL.replace(
        "provider: reader, params", "control: upper_bound, provider: reader, params"
    )
    with pytest.raises(ConfigError, match="agent 'rounds' is marked as the control 'upper_bound'"):
        Runner(load_run_config(config_at(tmp_path, text, "")), progress=False)


def test_a_dry_run_lists_the_controls_and_the_budget(tmp_path: Path) -> None:
    extra = "controls: [no_memory, oracle]\nbudget: {top_k: 4}"
    plan = dry_run(load_run_config(config_at(tmp_path, LONGMEMEVAL, extra))).text()
    assert "rounds: longmemeval_rounds (1 nodes) on reader" in plan
    assert "[embedder=hash, top_k=2] (budget: top_k=4)" in plan
    assert "  no_memory: no_memory (1 nodes) on reader (control: no_memory)" in plan
    assert "  oracle: longmemeval_full (1 nodes) on reader (control: oracle)" in plan
    assert "trials: 7 per agent x 3 agents = 21" in plan
