"""A suite's scores with their frame: headroom captured against the controls (equal to the hand
computation from the trial files), controls never ranked, context tokens per question, and
the judge audit run once per judged column (``--audit-judge``), written in the suite's
folder, resumed from its log and metered apart from the cells."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.cli.command import main
from cogarch.experiments.judge_audit.audit import AUDIT_FILE, JudgeAuditResult
from cogarch.experiments.judge_audit.log import LOG
from cogarch.experiments.leaderboard.board import build_leaderboard
from cogarch.experiments.suites.audit import audit_folder
from cogarch.experiments.suites.config import load_suite_config
from cogarch.experiments.suites.runner import run_suite

from .framed import REPO, verdicts, write_framed


@pytest.fixture(scope="module")
def framed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The suite run once through the command with ``--audit-judge``: its config and its
    folder."""
    folder = tmp_path_factory.mktemp("framed")
    out = folder / "out"
    config = write_framed(folder, out)
    assert main(["suite", str(config), "--audit-judge", "--quiet"]) == 0
    return config, out


def _audit(out: Path) -> JudgeAuditResult:
    path = audit_folder(out, "longmemeval") / AUDIT_FILE
    return JudgeAuditResult.model_validate_json(path.read_text(encoding="utf-8"))


def test_headroom_beside_each_memory_equals_the_hand_computation(
    framed: tuple[Path, Path],
) -> None:
    _, out = framed
    board = build_leaderboard(out)
    none, oracle = verdicts(out, "no_memory"), verdicts(out, "oracle")
    n, o = (sum(v.values()) / 7 for v in (none, oracle))
    assert o > n  # the controls leave a gap to close
    for agent in ("full", "rounds"):
        score = verdicts(out, agent)
        s = sum(score.values()) / 7
        cell = board.cell(agent, "longmemeval")
        assert cell is not None and cell.headroom is not None
        found = cell.headroom
        assert found.value == pytest.approx((s - n) / (o - n))
        assert (found.score, found.no_memory, found.oracle) == pytest.approx((s, n, o))
        assert (found.no_memory_agent, found.oracle_agent) == ("no_memory", "oracle")
        assert found.items == 7 and (found.low, found.high) == (None, None)  # too few to draw
        assert found.interval_note == "7 clusters, fewer than 10"
    rounds = board.cell("rounds", "longmemeval")
    assert rounds is not None and rounds.headroom is not None
    # the best round alone beats the evidence sessions here: headroom may pass 1
    assert rounds.headroom.value == pytest.approx((1 - 1 / 7) / (6 / 7 - 1 / 7))


def test_controls_are_shown_framed_but_never_ranked(framed: tuple[Path, Path]) -> None:
    _, out = framed
    board = build_leaderboard(out)
    (column,) = board.tasks
    assert column.ranked and set(column.best) <= {"full", "rounds"}
    for role in ("no_memory", "oracle"):
        cell = board.cell(role, "longmemeval")
        assert cell is not None and cell.control == role and cell.value is not None
        assert cell.headroom is None and cell.ranked_value is None and not cell.best
        assert cell.p_value is None and cell.significant is None
        row = next(r for r in board.rows if r.agent == role)
        assert row.control == role and row.tasks == [] and row.mean_rank is None
        assert row.mean_win_rate is None and row.normalised_mean is None
    ranks = sorted(r.mean_rank for r in board.rows if r.mean_rank is not None)
    assert len(ranks) == 2 and max(ranks) <= 2  # two ranked agents: the controls take no rank


def test_every_cell_has_its_context_tokens_and_settings_on_record(
    framed: tuple[Path, Path],
) -> None:
    _, out = framed
    board = build_leaderboard(out)
    tokens = {}
    for cell in board.cells:
        assert cell.questions == 7 and cell.settings is not None
        assert cell.settings.judge_model == "fake:longmemeval.judge"
        assert cell.context_tokens_mean is not None and cell.context_tokens_p95 is not None
        tokens[cell.agent] = cell.context_tokens_mean
    # the question alone is shorter than the evidence, which is shorter than every session
    assert tokens["no_memory"] < tokens["oracle"] < tokens["full"]
    (column,) = board.tasks
    (warning,) = column.settings_warnings  # the two memories' budgets; controls are framed
    assert warning.startswith("retrieval budget differs: ") and "(rounds)" in warning
    markdown = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "Settings differ within a column:" in markdown
    assert "context tokens/question (mean)" in markdown and "headroom captured" in markdown


def test_the_audit_runs_once_per_judged_column_and_shows_beside_the_score(
    framed: tuple[Path, Path],
) -> None:
    _, out = framed
    audit = _audit(out)
    assert audit.metric == "accuracy" and audit.task == "longmemeval"
    assert audit.probes and len(audit.judges) == 1
    judged = audit.judges[0]
    assert judged.provider == "judge" and not judged.unjudged
    assert judged.usage["model_calls"] == len(audit.probes)  # once per probe, not per cell
    assert (audit_folder(out, "longmemeval") / LOG).is_file()
    wrong = [p for p in audit.probes if p.expected == "reject"]
    same = [p for p in audit.probes if p.expected == "accept"]
    assert judged.false_positive.n == len(wrong) and judged.false_negative.n == len(same)
    assert judged.false_positive.count == sum(judged.verdicts[p.id] for p in wrong)
    assert judged.false_negative.count == sum(not judged.verdicts[p.id] for p in same)
    board = build_leaderboard(out)
    (column,) = board.tasks
    assert column.audit is not None
    assert column.audit.false_positive == judged.false_positive
    assert column.audit.false_negative == judged.false_negative
    assert column.audit.calls == len(audit.probes)
    assert column.audit.file == "judge_audit/longmemeval/judge_audit.json"
    # metered apart: the cells' costs are the trials' calls alone
    trial_calls = sum(
        json.loads(f.read_text(encoding="utf-8"))["usage"]["model_calls"]
        for f in (out / "longmemeval").glob("*/*/trial_*.json")
    )
    assert sum(c.costs.calls for c in board.cells) == trial_calls
    page = (out / "leaderboard.html").read_text(encoding="utf-8")
    assert 'class="audit"' in page and judged.false_positive.text() in page
    assert 'class="headroom"' in page and 'class="context"' in page
    markdown = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "## Judge audit" in markdown and judged.false_negative.text() in markdown


def test_a_rerun_resumes_the_audit_from_its_log_and_judges_nothing_twice(
    framed: tuple[Path, Path], tmp_path: Path
) -> None:
    config, out = framed
    first = _audit(out)
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    moved = write_framed(tmp_path, copy)
    folder = audit_folder(copy, "longmemeval")
    (folder / AUDIT_FILE).unlink()
    lines = (folder / LOG).read_text(encoding="utf-8").splitlines(keepends=True)
    (folder / LOG).write_text("".join(lines[:4]), encoding="utf-8")  # the header, 3 verdicts
    assert main(["suite", str(moved), "--audit-judge", "--quiet"]) == 0
    again = _audit(copy)
    assert again.judges[0].verdicts == first.judges[0].verdicts
    usage = again.judges[0].usage
    assert (usage["model_calls"], usage["cache_hits"]) == (len(first.probes), 3)
    logged = (folder / LOG).read_text(encoding="utf-8").splitlines()
    assert len(logged) == 1 + len(first.probes)  # the missing verdicts asked once each
    assert main(["suite", str(moved), "--audit-judge", "--quiet"]) == 0
    assert _audit(copy).judges[0].usage["cache_hits"] == len(first.probes)  # none asked again
    assert (folder / LOG).read_text(encoding="utf-8").splitlines() == logged
    assert config.is_file()


def test_the_audit_in_the_config_and_in_the_plan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = load_suite_config(write_framed(tmp_path, tmp_path / "out", audit=True))
    assert config.audit_judge is not None and config.audit_judge.questions == 50
    assert "audit_judge" not in config.model_dump()  # no part of the suite's identity
    plain = load_suite_config(write_framed(tmp_path, tmp_path / "out"))
    assert plain.digest() == config.digest()
    path = write_framed(tmp_path, tmp_path / "out")
    assert main(["suite", str(path), "--dry-run", "--audit-judge"]) == 0
    plan = capsys.readouterr().out
    assert "judge audit, once per judged column after its cells" in plan
    assert "  longmemeval: judge audit: accuracy, on 50 of the judged questions (seed 0)" in plan


def test_a_second_judge_gives_its_rates_and_cohens_kappa_beside_the_first(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    config = write_framed(tmp_path, out, second="tests.experiments.judge_audit.scripted:exact")
    assert main(["suite", str(config), "--quiet"]) == 0
    audit = _audit(out)
    first, second = audit.judges
    assert (first.provider, second.provider) == ("judge", "second")
    assert audit.agreement is not None
    # the exact judge accepts no rephrasing and no wrong answer: every rephrasing is an error
    assert second.false_negative.count == second.false_negative.n > 0
    assert second.false_positive.count == 0
    column = build_leaderboard(out).tasks[0].audit
    assert column is not None and column.second == "second"
    assert column.second_false_negative == second.false_negative
    assert column.kappa == audit.agreement.kappa and column.agreement == audit.agreement.raw
    assert column.calls == 2 * len(audit.probes)
    markdown = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "second judge second: false positives" in markdown and "Cohen's kappa" in markdown


def test_a_second_judge_the_suite_lacks_is_refused_before_any_cell(tmp_path: Path) -> None:
    out = tmp_path / "out"
    path = write_framed(tmp_path, out)
    path.write_text(
        path.read_text(encoding="utf-8") + "audit_judge: {second_judge: nowhere}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="nowhere"):
        asyncio.run(run_suite(load_suite_config(path), progress=False))
    assert not out.exists()


def test_a_suite_without_a_judged_task_refuses_the_audit_before_any_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    out = tmp_path / "out"
    text = f"""\
name: unjudged
trials: 1
results_dir: {out}
providers:
  honest: {{kind: fake, fake: honest}}
tasks:
  - {{kind: hangman_sct, t_fork: 3, n_candidates: 3}}
agents:
  - {{name: plain, agent: vanilla, provider: honest}}
"""
    path = tmp_path / "suite.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["suite", str(path), "--audit-judge", "--quiet"]) == 2
    error = capsys.readouterr().err
    assert "no task of the suite 'unjudged' has a judge of answers to audit" in error
    assert not out.exists()
    with pytest.raises(ConfigError, match="no task of the suite 'unjudged' has a judge"):
        from cogarch.experiments.suites.dry_run import suite_dry_run

        suite_dry_run(load_suite_config(path).model_copy(update={"audit_judge": _on()}))


def _on() -> object:
    from cogarch.experiments.judge_audit.settings import JudgeAuditConfig

    return JudgeAuditConfig()
