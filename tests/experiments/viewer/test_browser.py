"""The viewer in headless chromium: browse a fake run, read a trial, play and fork a game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.results.trial_files import read_trial, trial_path, write_trial
from cogarch.experiments.viewer.app import create_app
from cogarch.experiments.viewer.index import TrialIndex
from cogarch.experiments.viewer.play import PlaySession
from cogarch.experiments.viewer.play_app import create_play_app
from cogarch.experiments.viewer.serve import serving

from .conftest import HOSTILE, trial_count
from .test_play import providers

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


def test_browse_filter_open_trial_see_diff_and_branches(run_dir: Path, page: Any) -> None:
    with serving(create_app(TrialIndex([run_dir]))) as url:
        page.goto(url + "/")
        assert page.locator("tr.trial").count() == trial_count(run_dir)
        page.select_option("select[name=outcome]", "self_consistent")
        page.click("#filters button[type=submit]")
        page.wait_for_url("**outcome=self_consistent**")
        assert page.locator("tr.trial").count() == 5  # the hostile copy too
        assert set(page.locator("tr.trial td.outcome").all_inner_texts()) == {"self_consistent"}
        page.click('tr.trial[data-key="0/honest_workflow/1"] a')
        page.wait_for_url("**/trial/0/honest_workflow/1")
        assert "self_consistent" in page.locator("#verdict").inner_text()
        assert "self-consistent" in page.locator("section.task-section").first.inner_text()
        added = page.locator("#turn-2 pre.diff .dadd").all_inner_texts()
        assert any("lives" in line for line in added)
        branches = page.locator(".branch")
        assert branches.count() == 6
        confirmed = page.locator(".branch.confirmed")
        assert confirmed.count() == 1
        assert "answered yes (the revealed secret)" in confirmed.inner_text()


def test_new_trials_appear_without_reload(run_dir: Path, page: Any) -> None:
    with serving(create_app(TrialIndex([run_dir]))) as url:
        page.goto(url + "/?agent=honest_vanilla")
        assert page.locator("tr.trial").count() == 2
        page.evaluate("window.notReloaded = true")
        record = read_trial(trial_path(run_dir, "honest_vanilla", 0))
        write_trial(run_dir, record.model_copy(update={"trial": 9}))
        page.wait_for_selector('tr.trial[data-key="0/honest_vanilla/9"]', timeout=15000)
        assert page.evaluate("window.notReloaded") is True


def test_a_script_in_a_reply_shows_as_text(run_dir: Path, page: Any) -> None:
    with serving(create_app(TrialIndex([run_dir]))) as url:
        page.goto(url + "/trial/0/hostile_agent/0")
        assert page.evaluate("window.PWNED === undefined")
        assert HOSTILE in page.locator("#turn-2 pre.reply").inner_text()
        assert page.locator("#fork .branch pre.reply").first.inner_text() == HOSTILE


def test_exported_pages_open_from_disk(run_dir: Path, tmp_path: Path, page: Any) -> None:
    from cogarch.experiments.viewer.export import export_static

    index_page = export_static(TrialIndex([run_dir]), tmp_path / "out")
    page.goto(index_page.as_uri())
    page.select_option("select[name=agent]", "leaky_vanilla")
    page.click("#filters button[type=submit]")
    assert page.locator("tr.trial:visible").count() == 2
    page.fill("input[name=q]", "pwned")
    page.select_option("select[name=agent]", "")
    page.click("#filters button[type=submit]")
    assert page.locator("tr.trial:visible").count() == 1
    page.click("tr.trial:visible a")
    assert page.evaluate("window.PWNED === undefined")
    assert "Fork after turn 4" in page.content()


def test_play_hangman_against_a_fake_agent_and_fork(page: Any) -> None:
    session = PlaySession("hangman", "workflow", "honest", providers(), seed=5)
    with serving(create_play_app(session)) as url:
        page.goto(url + "/")
        assert "Let" in page.input_value("#message")
        for turn in (1, 2, 3):
            page.click("#send")
            page.wait_for_selector(f"#turn-{turn}")
            page.wait_for_function("document.querySelector('#message').value.length > 0")
        assert "secret" in page.locator("#turn-1 .private").inner_text()
        assert page.locator("#turn-2 svg .edge.visited").count() == 1
        page.uncheck("#show-private")
        assert not page.locator("#turn-2 .private").is_visible()
        page.check("#show-private")
        assert page.locator("#turn-2 .private").is_visible()
        page.click("#fork")
        page.wait_for_selector(".fork-result")
        result = page.locator(".fork-result")
        assert "self_consistent" in result.locator("h2").first.inner_text()
        assert result.locator(".branch").count() == 6
        assert result.locator(".branch.confirmed").count() == 1
