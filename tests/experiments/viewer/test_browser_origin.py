"""In headless chromium: a page on another origin (a second local server) can neither play a
turn nor read a trial, a page under a foreign host name rebound to 127.0.0.1 (DNS rebinding)
gets nothing, and the viewer and play pages still work from their own origin."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from cogarch.experiments.viewer.app import create_app
from cogarch.experiments.viewer.index import TrialIndex
from cogarch.experiments.viewer.play import PlaySession
from cogarch.experiments.viewer.play_app import create_play_app
from cogarch.experiments.viewer.serve import serving

from .conftest import launched_chromium
from .test_play import providers

pytestmark = pytest.mark.browser

REBOUND = "rebound.test"
"""A foreign host name the browser resolves to 127.0.0.1, as a rebinding attacker's would."""
TRIAL = "/trial/0/honest_workflow/0"
ATTACK = """<!doctype html>
<html><body>
<form id="form-json" method="post" enctype="text/plain" target="sink1" action="{play}/send">
<input name='{{"text": "pwned by a form", "x": "' value='"}}'></form>
<form id="form-new" method="post" target="sink2" action="{play}/new">
<input name="a" value="b"></form>
<iframe name="sink1"></iframe><iframe name="sink2"></iframe>
<iframe id="framed" src="{viewer}{trial}"></iframe>
<script>
window.results = {{}};
async function attempt(name, fn) {{
  try {{ window.results[name] = String(await fn()); }}
  catch (e) {{ window.results[name] = "blocked: " + e.name; }}
}}
async function run() {{
  const json = JSON.stringify({{ text: "pwned by fetch" }});
  await attempt("send_no_cors", async () => {{
    const r = await fetch("{play}/send", {{ method: "POST", mode: "no-cors",
      headers: {{ "Content-Type": "text/plain" }}, body: json }});
    return "opaque " + (await r.text());
  }});
  await attempt("send_cors", async () => (await fetch("{play}/send", {{ method: "POST",
      headers: {{ "Content-Type": "application/json", "X-Cogarch-Token": "guessed" }},
      body: json }})).text());
  await attempt("fork_no_cors", async () => (await fetch("{play}/fork",
      {{ method: "POST", mode: "no-cors", body: "{{}}" }})).text());
  await attempt("read_play_page", async () => (await fetch("{play}/")).text());
  await attempt("read_trial", async () => (await fetch("{viewer}{trial}")).text());
  await attempt("read_trial_no_cors", async () =>
      "opaque " + (await (await fetch("{viewer}{trial}", {{ mode: "no-cors" }})).text()));
  await attempt("read_frame", async () =>
      document.getElementById("framed").contentDocument.body.innerText);
  document.getElementById("form-json").submit();
  document.getElementById("form-new").submit();
  window.done = true;
}}
run();
</script>
</body></html>
"""


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's chromium, resolving :data:`REBOUND` to 127.0.0.1 (skipped as the other browser
    tests are when it is missing)."""
    yield from launched_chromium(f"--host-resolver-rules=MAP {REBOUND} 127.0.0.1")


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context()
    yield context.new_page()
    context.close()


def hostile_server(viewer: str, play: str) -> Starlette:
    """Another origin: a local server whose page attacks the viewer and the play server."""
    html = ATTACK.format(viewer=viewer, play=play, trial=TRIAL)

    async def attack(request: Request) -> HTMLResponse:
        return HTMLResponse(html)

    return Starlette(routes=[Route("/attack", attack)])


def test_a_page_on_another_origin_can_neither_play_nor_read(run_dir: Path, page: Any) -> None:
    session = PlaySession("hangman", "workflow", "honest", providers(), seed=5)
    statuses: dict[str, list[int]] = {}
    page.on(
        "response",
        lambda r: statuses.setdefault(f"{r.request.method} {r.url}", []).append(r.status),
    )
    with (
        serving(create_app(TrialIndex([run_dir]))) as viewer,
        serving(create_play_app(session)) as play,
        serving(hostile_server(viewer, play)) as hostile,
    ):
        page.goto(hostile + "/attack")
        page.wait_for_function("window.done === true", timeout=20000)
        page.wait_for_timeout(1500)  # the two forms' posts land in their frames
        results = page.evaluate("window.results")
    assert session.turns == [] and session.pending is None  # no turn played, none suggested
    assert len(results) == 7
    for name, found in results.items():  # blocked, or an opaque answer with nothing in it
        assert found.startswith("blocked") or found == "opaque ", (name, found)
    # the server itself refused what the browser let through (not only the browser)
    posts = [s for key, found in statuses.items() if key.startswith("POST") for s in found]
    assert posts and all(s in (403, 415) for s in posts), statuses
    assert f"POST {play}/send" in statuses and f"POST {play}/new" in statuses


def test_a_rebound_host_name_gets_neither_a_trial_nor_a_turn(run_dir: Path, page: Any) -> None:
    session = PlaySession("hangman", "workflow", "honest", providers(), seed=5)
    with (
        serving(create_app(TrialIndex([run_dir]))) as viewer,
        serving(create_play_app(session)) as play,
    ):
        rebound_viewer = viewer.replace("127.0.0.1", REBOUND)
        response = page.goto(rebound_viewer + TRIAL)
        assert response.status == 421
        assert "Fork after turn" not in page.content()
        read = page.evaluate(f"fetch('{TRIAL}').then(r => r.status + ' ' + r.text())")
        assert "Fork after turn" not in str(read)
        rebound_play = play.replace("127.0.0.1", REBOUND)
        assert page.goto(rebound_play + "/").status == 421
        status = page.evaluate(
            """fetch('/send', {method: 'POST', body: JSON.stringify({text: 'rebound'}),
               headers: {'Content-Type': 'application/json', 'X-Cogarch-Token': 'guessed'}})
               .then(r => r.status)"""
        )
        assert status == 421
        assert page.goto(viewer + TRIAL).status == 200  # the same server, by its own name
    assert session.turns == []


def test_the_viewer_and_play_pages_still_work_from_their_own_origin(
    run_dir: Path, page: Any
) -> None:
    session = PlaySession("hangman", "workflow", "honest", providers(), seed=5)
    with (
        serving(create_app(TrialIndex([run_dir]))) as viewer,
        serving(create_play_app(session)) as play,
    ):
        page.goto(viewer + TRIAL)
        assert "Fork after turn 4" in page.content()
        page.goto(play + "/")
        page.click("#send")
        page.wait_for_selector("#turn-1")
        page.click("#fork")
        page.wait_for_selector(".fork-result")
        page.click("#new")
        page.wait_for_load_state("load")
        page.wait_for_function("document.querySelector('#message').value.length > 0")
    assert session.turns == []  # "new game" was played from the page itself
