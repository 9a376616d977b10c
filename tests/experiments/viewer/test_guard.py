"""The local servers answer only their own host names, change state only for their own page
(its token, same origin, a JSON body of bounded size), and refuse bad bodies with a 4xx."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cogarch.experiments.viewer.app import create_app, page_number
from cogarch.experiments.viewer.guard import MAX_BODY_BYTES, TOKEN_HEADER, own_hosts
from cogarch.experiments.viewer.index import TrialIndex
from cogarch.experiments.viewer.play import PlaySession
from cogarch.experiments.viewer.play_app import create_play_app

from .test_play import providers

OWN = "http://127.0.0.1:8123"
TOKEN = "t" * 43


def play_client() -> tuple[TestClient, PlaySession]:
    session = PlaySession("hangman", "vanilla", "honest", providers(), seed=2)
    return TestClient(create_play_app(session, token=TOKEN), base_url=OWN), session


def own(**extra: str) -> dict[str, str]:
    """The headers the play page's own script sends."""
    return {"Content-Type": "application/json", TOKEN_HEADER: TOKEN, "Origin": OWN, **extra}


def test_own_host_names_only() -> None:
    assert own_hosts(8123) == {"127.0.0.1:8123", "localhost:8123", "[::1]:8123"}
    assert "localhost" in own_hosts(80)


@pytest.mark.parametrize("host", ["evil.example:8123", "127.0.0.1:9999", "127.0.0.1.nip.io:8123"])
def test_a_foreign_host_name_gets_no_page_and_no_trial(run_dir: Path, host: str) -> None:
    viewer = TestClient(create_app(TrialIndex([run_dir])), base_url=OWN)
    for path in ("/", "/trial/0/honest_workflow/0", "/live", "/static/viewer.css"):
        response = viewer.get(path, headers={"Host": host})
        assert response.status_code == 421, path
        assert "secret" not in response.text and "turn" not in response.text
    assert viewer.get("/trial/0/honest_workflow/0").status_code == 200
    assert viewer.get("/", headers={"Host": "LOCALHOST:8123"}).status_code == 200
    play, _ = play_client()
    assert play.get("/", headers={"Host": host}).status_code == 421


def test_every_response_forbids_framing_and_cross_origin_reads(run_dir: Path) -> None:
    viewer = TestClient(create_app(TrialIndex([run_dir])), base_url=OWN)
    headers = viewer.get("/trial/0/honest_workflow/0").headers
    assert headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["cross-origin-resource-policy"] == "same-origin"
    assert "access-control-allow-origin" not in headers


def test_the_page_holds_the_token_and_its_own_requests_play() -> None:
    play, session = play_client()
    page = play.get("/").text
    assert f'data-token="{TOKEN}"' in page
    sent = play.post("/send", json={"text": session.suggest()}, headers=own())
    assert sent.status_code == 200 and 'id="turn-1"' in sent.text
    assert play.post("/suggest", json={}, headers=own()).json()["text"]
    assert play.post("/fork", json={}, headers=own(**{"Sec-Fetch-Site": "same-origin"})).is_success
    assert len(session.turns) == 1


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({TOKEN_HEADER: ""}, 403),
        ({TOKEN_HEADER: "x" * 43}, 403),
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Origin": "http://localhost:8123"}, 403),  # another origin, though the same server
        ({"Sec-Fetch-Site": "cross-site"}, 403),
        ({"Sec-Fetch-Site": "same-site"}, 403),
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({"Content-Type": "multipart/form-data; boundary=x"}, 415),
    ],
)
def test_a_change_from_anywhere_else_is_refused(headers: dict[str, str], status: int) -> None:
    play, session = play_client()
    body = json.dumps({"text": "Let's play. My first guess is e."})
    for path in ("/send", "/suggest", "/fork", "/new"):
        response = play.post(path, content=body, headers=own(**headers))
        assert response.status_code == status, (path, response.text)
        assert response.text.startswith("refused: ")
    assert session.turns == [] and session.pending is None  # nothing played or suggested


def test_without_the_token_header_nothing_is_played() -> None:
    play, session = play_client()
    bare = {"Content-Type": "application/json", "Origin": OWN}
    assert play.post("/send", json={"text": "hi"}, headers=bare).status_code == 403
    assert session.turns == []


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b"not json", 400, "not JSON"),
        (b'{"text": "caf\xe9"}', 400, "not UTF-8"),
        (b'{"text": "a\\ud800b"}', 422, "lone surrogate"),
        (b'{"text": null}', 422, "must be a string, not missing"),
        (b'{"text": 5}', 422, "must be a string, not a int"),
        (b"[1, 2]", 422, "must be a JSON object"),
        (b"", 400, "not JSON"),
        (b"[" * 100 + b"]" * 100, 400, "not JSON"),
    ],
)
def test_a_bad_body_is_a_clean_4xx_and_the_game_goes_on(
    body: bytes, status: int, message: str
) -> None:
    play, session = play_client()
    response = play.post("/send", content=body, headers=own())
    assert response.status_code == status and message in response.text
    assert session.turns == []
    assert play.get("/").status_code == 200
    assert play.post("/send", json={"text": session.suggest()}, headers=own()).is_success


def test_bodies_are_bounded() -> None:
    play, session = play_client()
    big = json.dumps({"text": "x" * MAX_BODY_BYTES})
    response = play.post("/send", content=big, headers=own())
    assert response.status_code == 413 and session.turns == []

    def chunks() -> Any:  # no Content-Length: counted as it streams
        for _ in range(MAX_BODY_BYTES // 1000 + 2):
            yield b" " * 1000

    response = play.post("/send", content=chunks(), headers=own())
    assert response.status_code == 413 and session.turns == []


@pytest.mark.parametrize(
    ("value", "page"),
    [("2", 2), ("", 1), ("-1", 1), ("²", 1), ("1.5", 1), ("9" * 5000, 1), ("0x10", 1), ("٣", 1)],
)
def test_page_numbers_that_are_not_small_integers_mean_the_first_page(
    value: str, page: int
) -> None:
    assert page_number(value) == page


def test_odd_page_values_answer_200(run_dir: Path) -> None:
    viewer = TestClient(create_app(TrialIndex([run_dir])), base_url=OWN)
    for value in ("²", "9" * 5000, "-3", "1e9", "999999"):
        response = viewer.get("/", params={"page": value})
        assert response.status_code == 200, value
        assert re.search(r'data-key="0/', response.text)
        assert viewer.get("/live", params={"page": value}).status_code == 200
