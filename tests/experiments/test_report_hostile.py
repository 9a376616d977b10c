"""Reports over hostile run content: names with math-text specials draw as written, and no raw
HTML from names, replies or errors reaches the Markdown report."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cogarch.core.records import TrialError, TrialRecord
from cogarch.experiments.reports.page import md_text
from cogarch.experiments.reports.report import build_report
from tests.experiments import make_trial, write_run

DOLLAR_NAMES = ["a$b", "$x$", "50%_$", r"$\frac{1}{$", "^_{}$$"]
SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"


def _write(root: Path, trials: list[TrialRecord], names: list[str]) -> Path:
    write_run(root, trials)
    config = {"name": "hostile", "trials": 3, "agents": [{"name": a} for a in names]}
    (root / "run.json").write_text(json.dumps({"config": config}), encoding="utf-8")
    return root


def test_dollar_signs_in_agent_names_and_secrets_do_not_break_the_figures(tmp_path: Path) -> None:
    trials = [
        make_trial(
            name,
            i,
            outcome=["self_consistent", "all_denial"][i % 2],
            revealed=f"{name}{i}",
            tokens=[10 + i, 20, 40],
            footprint=[5, 6, 7],
            transitions={("resp$onder", "$upd$"): 2},
            base_agent="workflow",
        )
        for name in DOLLAR_NAMES
        for i in range(3)
    ]
    root = _write(tmp_path / "run", trials, DOLLAR_NAMES)
    paths = build_report(root)
    pictures = [p for p in paths if p.suffix == ".png"]
    assert {p.name for p in pictures} >= {"outcomes.png", "private_state.png", "footprint.png"}
    assert "answers.png" in {p.name for p in pictures}
    assert sum(p.name.startswith("transitions_") for p in pictures) == len(DOLLAR_NAMES)
    md = (tmp_path / "run" / "report" / "report.md").read_text("utf-8")
    for name in DOLLAR_NAMES:
        assert f"| {md_text(name)} |" in md


def test_markdown_report_holds_no_raw_html(tmp_path: Path) -> None:
    names = [IMG, "plain"]
    trials = [
        make_trial(IMG, 0, revealed=SCRIPT),
        make_trial("plain", 0, outcome="all_denial", base_agent="vanilla"),
        make_trial(IMG, 1, evaluation={"scenario": SCRIPT, "score": 1.0}, task="revision"),
    ]
    failed = make_trial("plain", 1, failed=True)
    failed.error = TrialError(type="Boom<b>", message=f"reply was {SCRIPT} and [x](javascript:1)")
    trials.append(failed)
    root = _write(tmp_path / "run", trials, names)
    build_report(root)
    md = (root / "report" / "report.md").read_text("utf-8")
    assert not re.search(r"<\s*(script|img|b)\b", md, re.IGNORECASE)
    assert "&lt;script&gt;" in md and "&lt;img src=x onerror=alert(1)&gt;" in md
    assert "\\[x\\](javascript:1)" in md  # shown, not a link
    page = (root / "report" / "report.html").read_text("utf-8")
    assert "<script" not in page.lower() and "<img src=x" not in page


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<b>x</b>", "&lt;b&gt;x&lt;/b&gt;"),
        ("![a](http://x)", "!\\[a\\](http://x)"),
        ("line\nbreak", "line break"),
        ("a & b", "a &amp; b"),
    ],
)
def test_md_text(text: str, expected: str) -> None:
    assert md_text(text) == expected
