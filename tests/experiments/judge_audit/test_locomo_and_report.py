"""The judge audit of LoCoMo's J, from the command line to the run report, and the settings
it refuses."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from cogarch.errors import ConfigError, UnknownNameError
from cogarch.experiments.cli.command import main
from cogarch.experiments.judge_audit.audit import AUDIT_FILE, JudgeAuditResult
from cogarch.experiments.reports.report import build_report
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner

from .scripted import shares_a_word
from .test_scripted_judges import audited, config

REPO = Path(__file__).resolve().parents[3]
LOCOMO = REPO / "tests" / "tasks" / "locomo" / "data" / "synthetic.json"
SCRIPTED = "tests.experiments.judge_audit.scripted"


def locomo(results: Path, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "audited_locomo",
        "task": {"kind": "locomo", "data": str(LOCOMO), "judge": True},
        "trials": 1,
        "cache": False,
        "results_dir": str(results),
        "providers": {
            "reader": {"kind": "fake", "fake": "locomo.reader"},
            "judge": {"kind": "fake", "fake": f"{SCRIPTED}:overlap"},
            "strict": {"kind": "fake", "fake": f"{SCRIPTED}:exact"},
        },
        "helper_provider": "judge",
        "agents": [{"name": "transcript", "agent": "transcript", "provider": "reader"}],
    }
    data.update(changes)
    return data


def write_config(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_the_command_line_audits_locomo_j_and_the_report_shows_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "run"
    cfg = write_config(
        tmp_path / "run.yaml", locomo(results, audit_judge={"second_judge": "strict"})
    )
    assert main(["run", str(cfg), "--quiet", "--results-dir", str(results)]) == 0
    printed = capsys.readouterr().out
    assert "Judge audit:" in printed and "primary judge" in printed
    audit = JudgeAuditResult.model_validate_json((results / AUDIT_FILE).read_text())
    assert (audit.task, audit.metric) == ("locomo", "j")
    kinds = {p.kind for p in audit.probes}
    assert {"other_name", "date", "negation", "list_order", "casing", "sentence"} <= kinds
    assert {p.question_key.split("#")[0] for p in audit.probes} == {"syn-1"}  # trial 0 played it
    overlap = audit.judges[0]
    for probe in audit.probes:  # the scripted rule, applied to the items as written
        assert overlap.verdicts[probe.id] is shares_a_word(probe.gold, probe.answer)
    wrong = [p for p in audit.probes if p.expected == "reject"]
    accepted = sum(shares_a_word(p.gold, p.answer) for p in wrong)
    assert (overlap.false_positive.count, overlap.false_positive.n) == (accepted, len(wrong))
    strict = audit.judges[1]
    assert strict.false_positive.count == 0
    assert strict.false_negative.count == strict.false_negative.n > 0

    md, page = build_report(results)[:2]
    text, html = md.read_text(), page.read_text()
    assert text.index("## Judge audit") < text.index("## Model usage")
    assert overlap.false_positive.text() in text and overlap.false_positive.text() in html
    assert "### items the two judges disagree on" in text and "<h2>Judge audit</h2>" in html
    assert audit.agreement is not None and audit.agreement.disagreements
    for item in audit.agreement.disagreements:
        assert item in text


def test_the_config_key_turns_the_audit_on_and_survives_overrides(tmp_path: Path) -> None:
    results = tmp_path / "run"
    cfg = write_config(tmp_path / "run.yaml", locomo(results, audit_judge={"questions": 2}))
    assert main(["run", str(cfg), "--quiet", "--trials", "1"]) == 0
    audit = json.loads((results / AUDIT_FILE).read_text())
    assert audit["settings"]["questions"] == 2 and len(audit["questions"]) == 2
    recorded = json.loads((results / "run.json").read_text())["config"]
    assert "audit_judge" not in recorded  # no part of the run's identity


def test_a_task_without_a_judge_refuses_the_audit_before_any_trial(tmp_path: Path) -> None:
    data = locomo(tmp_path / "run", audit_judge=True)
    data["task"] = {**data["task"], "judge": False}
    with pytest.raises(ConfigError, match=r"no judge of answers to audit.*judge: true"):
        Runner(RunConfig.model_validate(data), progress=False)
    hangman = REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml"
    code = main(["run", str(hangman), "--audit-judge", "--results-dir", str(tmp_path / "h")])
    assert code == 2
    assert not (tmp_path / "h").exists()


def test_an_unknown_second_judge_is_named_with_the_valid_ones(tmp_path: Path) -> None:
    data = locomo(tmp_path / "run", audit_judge={"second_judge": "nobody"})
    with pytest.raises(UnknownNameError, match=r"unknown provider 'nobody'.*strict"):
        Runner(RunConfig.model_validate(data), progress=False)


@pytest.mark.parametrize(
    ("setting", "problem"),
    [
        ({"questions": 0}, "greater than or equal to 1"),
        ({"second_judge": " "}, "second_judge is empty"),
        ({"sample": 3}, "Extra inputs are not permitted"),
        ("yes please", "valid dictionary"),
    ],
)
def test_bad_audit_settings_are_refused_by_name(setting: Any, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        RunConfig.model_validate(locomo(Path("unused"), audit_judge=setting))


async def test_an_audit_with_nothing_to_perturb_says_so(tmp_path: Path) -> None:
    cfg = config(tmp_path, "overlap", task={"types": ["single-session-preference"]})
    report = await Runner(cfg, progress=False).run()
    assert report.audit is not None and report.audit.probes == []
    assert report.audit.judges[0].false_positive.rate is None
    text = build_report(cfg.output_dir())[0].read_text()
    assert "was not audited" in text and "made no item" in text


def test_a_damaged_audit_file_is_named_in_the_report(tmp_path: Path) -> None:
    cfg = config(tmp_path, "overlap")
    asyncio.run(audited(cfg))
    (cfg.output_dir() / AUDIT_FILE).write_text('{"version": 1, "task": 3}', encoding="utf-8")
    text = build_report(cfg.output_dir())[0].read_text()
    assert "## Judge audit" in text and f"{AUDIT_FILE} cannot be read" in text
    assert "## Summary" in text  # the rest of the report is whole


def test_the_dry_run_plans_the_audit_and_refuses_what_the_run_would(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "run"
    audit = {"questions": 7, "second_judge": "strict"}
    cfg = write_config(tmp_path / "run.yaml", locomo(results, audit_judge=audit))
    assert main(["run", str(cfg), "--dry-run"]) == 0
    plan = capsys.readouterr().out
    assert "judge audit: j, on 7 of the judged questions (seed 0)" in plan
    assert "then by strict" in plan and "  strict: fake" in plan
    data = locomo(results, audit_judge=True)
    data["task"] = {**data["task"], "judge": False}
    assert main(["run", str(write_config(tmp_path / "off.yaml", data)), "--dry-run"]) == 2
    assert "no judge of answers to audit" in capsys.readouterr().err
    assert not results.exists()
