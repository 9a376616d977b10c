"""A suite in headless chromium: the leaderboard page, a cell's trials and its report, served
live and exported to disk."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.leaderboard.board import build_leaderboard
from cogarch.experiments.suites.runner import run_suite
from cogarch.experiments.viewer.app import create_app
from cogarch.experiments.viewer.export import export_static
from cogarch.experiments.viewer.index import TrialIndex
from cogarch.experiments.viewer.serve import serving
from cogarch.experiments.viewer.suite_pages import SuitePages
from tests.experiments.suite.conftest import known_suite

from .conftest import launched_chromium

pytestmark = pytest.mark.browser
CELL = '.cell[data-agent="lost"][data-task="hangman_sct"]'


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    config = known_suite(tmp_path_factory.mktemp("suite"))
    return asyncio.run(run_suite(config, progress=False)).results_dir


@pytest.fixture(scope="module")
def page(suite: Path) -> Iterator[Any]:
    """A chromium page, launched after the suite ran (Playwright holds an event loop)."""
    for chromium in launched_chromium():
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        yield context.new_page()
        context.close()


def test_the_leaderboard_links_each_cell_to_its_trials_and_report(suite: Path, page: Any) -> None:
    pages = SuitePages(suite)
    board = build_leaderboard(suite)
    with serving(create_app(TrialIndex(pages.run_dirs()), pages)) as url:
        page.goto(url + "/leaderboard")
        assert page.locator("table.leaderboard td.cell").count() == len(board.cells)
        assert page.locator(CELL).inner_text().startswith("0 (0-")
        page.click(f"{CELL} a.trials")
        page.wait_for_url("**/?run=known.hangman_sct.lost")
        rows = page.locator("tr.trial")
        assert rows.count() == 3
        assert set(page.locator("tr.trial td:first-child").all_inner_texts()) == {"lost"}
        rows.first.locator("a").click()
        page.wait_for_url("**/trial/*/lost/*")
        assert "Verdict" in page.locator("#verdict").inner_text()
        page.goto(url + "/leaderboard")
        page.click(f"{CELL} a.report")
        page.wait_for_url("**/report/*/report.html")
        assert "known.hangman_sct.lost" in page.content()
        page.goto(url + "/?run=known.revision.plain")
        page.click("#to-leaderboard")
        page.wait_for_url("**/leaderboard")
        assert page.locator("table.leaderboard").count() == 1


def test_the_exported_leaderboard_opens_from_disk(suite: Path, tmp_path: Path, page: Any) -> None:
    pages = SuitePages(suite)
    index = export_static(TrialIndex(pages.run_dirs()), tmp_path / "site")
    leaderboard = pages.export(index.parent)
    page.goto(leaderboard.as_uri())
    page.click(f"{CELL} a.trials")
    page.wait_for_url("**/index.html?run=known.hangman_sct.lost")
    visible = page.locator("tr.trial:visible")
    assert visible.count() == 3
    assert set(visible.locator("td:first-child").all_inner_texts()) == {"lost"}
    page.goto(leaderboard.as_uri())
    page.click(f"{CELL} a.report")
    assert page.url.endswith("report.html") and "known.hangman_sct.lost" in page.content()
