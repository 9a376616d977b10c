"""The leaderboard page in headless chromium shows each score with its frame: the headroom a
memory captured and the context tokens its reader was shown, inside the memory's cell; the
judge audit's error rates in the judged column's header and in their own section; a control's
row marked and without headroom; the table of every cell's settings with its context-token
columns. Every such text is drawn (a box of some size) within its cell, not clipped away."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.judge_audit.audit import AUDIT_FILE, JudgeAuditResult
from cogarch.experiments.suites.audit import audit_folder
from tests.experiments.suite.framed import write_framed

from .boxes import inside
from .conftest import launched_chromium

pytestmark = pytest.mark.browser
SHOWN = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            width: r.width, height: r.height}; };
  const small = (td, klass) => { const e = td.querySelector('small.' + klass);
    return e ? {text: e.textContent, box: box(e), cell: box(td)} : null; };
  const cells = [...document.querySelectorAll('table.leaderboard td.cell')].map(td => ({
    agent: td.dataset.agent, task: td.dataset.task,
    control: td.parentElement.classList.contains('control'),
    headroom: small(td, 'headroom'), context: small(td, 'context')}));
  const th = document.querySelector('table.leaderboard th[data-task="longmemeval"]');
  const audit = th.querySelector('small.audit');
  const headers = [...document.querySelectorAll('table')].map(
    t => [...t.querySelectorAll('thead th, tr:first-child th')].map(h => h.textContent));
  return {cells, audit: {text: audit.textContent, box: box(audit), cell: box(th)},
          sections: [...document.querySelectorAll('h2')].map(h => h.textContent),
          audits: [...document.querySelectorAll('ul.audits li')].map(li => li.textContent),
          lines: [...document.querySelectorAll('figure.scatter')].map(f =>
            [...f.querySelectorAll('g.control')].map(g => g.dataset.agent)),
          headers};
}"""


@pytest.fixture(scope="module")
def framed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("framed_page")
    out = folder / "out"
    assert main(["suite", str(write_framed(folder, out, audit=True)), "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def page(framed: Path) -> Iterator[Any]:
    for chromium in launched_chromium():
        context = chromium.new_context(viewport={"width": 1300, "height": 1000})
        yield context.new_page()
        context.close()


def _drawn_inside(item: dict[str, Any]) -> bool:
    box = item["box"]
    return box["width"] > 0 and box["height"] > 0 and inside(box, item["cell"])


def test_headroom_context_tokens_and_the_audit_are_drawn_beside_the_scores(
    framed: Path, page: Any
) -> None:
    page.goto((framed / "leaderboard.html").as_uri())
    shown = page.evaluate(SHOWN)
    cells = {c["agent"]: c for c in shown["cells"]}
    assert set(cells) == {"full", "rounds", "no_memory", "oracle"}
    for agent in ("full", "rounds"):
        headroom = cells[agent]["headroom"]
        assert headroom is not None and headroom["text"].startswith("headroom ")
        assert _drawn_inside(headroom), headroom
    for agent in ("no_memory", "oracle"):  # controls frame the others: no headroom, not ranked
        assert cells[agent]["control"] and cells[agent]["headroom"] is None
    for cell in cells.values():
        context = cell["context"]
        assert context is not None and "tokens/question (p95 " in context["text"]
        assert _drawn_inside(context), context
    audit = JudgeAuditResult.model_validate_json(
        (audit_folder(framed, "longmemeval") / AUDIT_FILE).read_text(encoding="utf-8")
    )
    rates = audit.judges[0]
    assert _drawn_inside(shown["audit"]), shown["audit"]
    assert f"false positives {rates.false_positive.text()}" in shown["audit"]["text"]
    assert f"false negatives {rates.false_negative.text()}" in shown["audit"]["text"]
    assert "Judge audit" in shown["sections"]
    (line,) = shown["audits"]
    assert line.startswith("longmemeval: judge audit of accuracy") and "metered apart" in line
    # the controls are reference lines in the column's figure, not points
    assert sorted(shown["lines"][0]) == ["no_memory", "oracle"] and shown["lines"][1] == []
    settings = next(h for h in shown["headers"] if "headroom captured" in h)
    assert "context tokens/question (mean)" in settings
    assert "context tokens/question (p95)" in settings
