"""The documentation site builds strictly from the code, offline, and opens in a browser.

The site is built once for the module, with a field added to a task's ``Params`` beforehand:
the built reference must show it (default, bounds and description) with no edit under docs/.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import Field

from cogarch.tasks.hangman.task import HangmanParams, HangmanSCT

from .snippets import ROOT

CHROMIUM = Path("/usr/bin/chromium")
PROBE_DESCRIPTION = "A probe field added by the docs test."


class ProbeParams(HangmanParams):
    probe_rounds: int = Field(default=17, ge=2, le=99, description=PROBE_DESCRIPTION)


def _needs(module: str, extra: str) -> None:
    try:
        __import__(module)
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must build the docs, but {module} is missing")
        pytest.skip(f"the docs build needs the {extra} extra: pip install -e '.[{extra}]'")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mkdocs build --strict`` of this checkout, with ``ProbeParams`` as Hangman's Params."""
    _needs("mkdocs", "docs")
    _needs("material", "docs")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    out = tmp_path_factory.mktemp("site")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(HangmanSCT, "Params", ProbeParams)
        config = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(out), strict=True)
        build(config)
    return out


def test_a_field_added_to_a_task_params_is_in_the_built_reference(site: Path) -> None:
    html = (site / "reference" / "tasks" / "index.html").read_text(encoding="utf-8")
    row = re.search(r"<tr>\s*<td><code>probe_rounds</code></td>(.*?)</tr>", html, re.S)
    assert row is not None
    cells = row.group(1)
    assert "<code>17</code>" in cells and "≥ 2, ≤ 99" in cells and PROBE_DESCRIPTION in cells


def test_the_built_api_reference_shows_every_public_name(site: Path) -> None:
    from cogarch.experiments.docsite.pages import API_PAGES, public_names

    for key, (module, _) in API_PAGES.items():
        html = (site / "reference" / "api" / key / "index.html").read_text(encoding="utf-8")
        shown = set(re.findall(rf'id="{re.escape(module)}\.(\w+)"', html))
        assert shown == set(public_names(module)), module


def _api_entry(site: Path, page: str, name: str) -> str:
    """The HTML of one documented name on an API page, up to the next name's heading."""
    html = (site / "reference" / "api" / page / "index.html").read_text(encoding="utf-8")
    start = html.index(f'id="{name}"')
    following = re.search(r'<h[23] id="cogarch\.', html[start + 1 :])
    return html[start : start + 1 + following.start()] if following else html[start:]


def _section_table(entry: str, title: str) -> list[list[str]]:
    """The rows of the table under a section title (``Parameters:``...), as cell texts."""
    found = re.search(
        rf'doc-section-title">{title}:</span></p>\s*<table>(.*?)</table>', entry, re.S
    )
    assert found is not None, f"no {title} table"
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", found.group(1), re.S)
    cells = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S) for row in rows]
    return [[re.sub(r"<[^>]+>|\s+", " ", c).strip() for c in row] for row in cells]


def test_the_api_reference_shows_args_returns_and_raises_as_tables(site: Path) -> None:
    entry = _api_entry(site, "experiments", "cogarch.experiments.load_run_config")
    parameters = _section_table(entry, "Parameters")
    assert parameters[0] == ["Name", "Type", "Description", "Default"]
    assert parameters[1][0] == "path" and parameters[1][3] == "required"
    assert _section_table(entry, "Returns")[1][0] == "RunConfig"
    assert _section_table(entry, "Raises")[1][0] == "ConfigError"


def test_a_class_shows_its_constructor_arguments_as_a_table(site: Path) -> None:
    entry = _api_entry(site, "testing", "cogarch.testing.FaultServer")
    names = [row[0] for row in _section_table(entry, "Parameters")[1:]]
    assert names[:3] == ["script", "default", "content"] and "keep_alive" in names


def test_the_built_site_needs_nothing_from_the_network(site: Path) -> None:
    pages = list(site.rglob("*.html"))
    assert len(pages) > 30
    remote = re.compile(r"<(?:script|link|img)\b[^>]*(?:src|href)=\"(?:https?:)?//", re.I)
    for page in pages:
        assert not remote.search(page.read_text(encoding="utf-8")), page
    assert (site / "search" / "search_index.json").is_file()
    assert (site / "reference" / "agents" / "episodex.svg").read_text().startswith("<svg")


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser tests, but /usr/bin/chromium is missing")
        pytest.skip("browser tests need Debian's chromium: apt-get install chromium")
    _needs("playwright", "dev")
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.mark.browser
def test_home_a_guide_and_the_config_reference_open_in_chromium(
    browser: object, served: str
) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    remote: list[str] = []
    page.on(
        "request",
        lambda r: remote.append(r.url) if not r.url.startswith(served) else None,
    )
    try:
        page.goto(f"{served}/")
        assert page.locator("h1").first.inner_text().rstrip("¶") == "cogarch"
        assert page.locator("nav").get_by_text("Compose an agent").count() >= 1
        page.goto(f"{served}/guides/compose-agent/")
        assert page.locator("h1").first.inner_text().rstrip("¶") == "Compose an agent"
        assert page.locator("pre code").count() >= 3
        page.goto(f"{served}/reference/run-config/")
        assert page.locator("h2#runconfig").count() == 1
        # the execution settings and the judge audit each take a concurrency
        assert page.locator("td code", has_text=re.compile(r"^concurrency$")).count() == 2
        page.goto(f"{served}/reference/agents/episodex/")
        image = page.locator("img[alt='transition graph of episodex']")
        assert image.evaluate("img => img.complete && img.naturalWidth > 300")
        page.goto(f"{served}/?q=transition")
        page.locator(".md-search-result__item").first.wait_for(timeout=30_000)
    finally:
        page.close()
    assert remote == []
