"""Odd trial folders and records, served and exported: folder names with URL specials, file
names that would collide, a spec edge to an unknown node, a lone surrogate; and an export that
never overwrites someone else's ``index.html``."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.cli.command import main
from cogarch.experiments.results.trial_files import read_trial, trial_path, write_trial
from cogarch.experiments.viewer.app import create_app
from cogarch.experiments.viewer.export import export_static
from cogarch.experiments.viewer.index import TrialIndex
from cogarch.experiments.viewer.serve import serving

ODD_FOLDERS = ["what?", "hash#tag", "100%", "a b", "Caps", "caps", "%3F"]


@pytest.fixture
def odd_run(run_dir: Path) -> Path:
    """The fake run plus copies of one trial under odd folder and file names, and two trials
    whose records a page could trip on."""
    source = trial_path(run_dir, "honest_workflow", 0)
    for folder in ODD_FOLDERS:
        (run_dir / folder).mkdir()
        shutil.copy(source, run_dir / folder / "trial_0000.json")
    shutil.copy(source, run_dir / "honest_workflow" / "trial_0.json")
    shutil.copy(source, run_dir / "honest_workflow" / "trial_00000.json")
    shutil.copy(source, run_dir / "honest_workflow" / "trial_x?.json")
    record = read_trial(source)
    spec = dict(record.metadata.agent_spec or {})
    spec["edges"] = [*spec["edges"], {"source": "updater", "target": "ghost", "when": None}]
    spec["entry"] = "nowhere"
    meta = record.metadata.model_copy(update={"agent_spec": spec})
    write_trial(run_dir, record.model_copy(update={"agent": "ghostly", "metadata": meta}))
    turns = [t.model_copy(update={"reply": "half \ud800 a surrogate"}) for t in record.turns]
    write_trial(run_dir, record.model_copy(update={"agent": "surrogate", "turns": turns}))
    return run_dir


def hrefs(html: str) -> list[str]:
    return re.findall(r'<a href="([^"]*trial[^"]*)"', html)


def test_every_listed_trial_opens_in_the_live_viewer(odd_run: Path) -> None:
    index = TrialIndex([odd_run])
    keys = [row.key for row in index.rows()]
    assert len(keys) == len(set(keys)) == len(list(odd_run.glob("*/trial_*.json")))
    with serving(create_app(index)) as url, httpx.Client(base_url=url) as http:
        links = hrefs(http.get("/").text)
        assert len(links) == len(keys)
        for link in links:
            page = http.get(link)
            assert page.status_code == 200, link
            assert "No trial at" not in page.text, link
        assert "\ufffd" in http.get("/trial/0/surrogate/0").text
        ghostly = http.get("/trial/0/ghostly/0").text
        assert "ghost" in ghostly and "Fork after turn 4" in ghostly


def test_every_exported_page_exists_once_and_every_link_opens(
    odd_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "export"
    page = export_static(TrialIndex([odd_run]), out)
    pages = list((out / "trials").iterdir())
    assert len(pages) == len(list(odd_run.glob("*/trial_*.json")))
    assert len({p.name.lower() for p in pages}) == len(pages)  # distinct on any file system
    assert all(re.fullmatch(r"[a-z0-9_.-]+\.html", p.name) for p in pages)
    links = hrefs(page.read_text(encoding="utf-8"))
    assert len(links) == len(pages)
    for link in links:
        assert (out / unquote(link)).is_file(), link
    surrogate = next(p for p in pages if "surrogate" in p.name).read_text(encoding="utf-8")
    assert "half \ufffd a surrogate" in surrogate
    ghostly = next(p for p in pages if "ghostly" in p.name).read_text(encoding="utf-8")
    assert "Fork after turn 4" in ghostly


def test_an_export_never_overwrites_what_it_did_not_write(
    run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    theirs = tmp_path / "site"
    theirs.mkdir()
    (theirs / "index.html").write_text("<h1>my page</h1>", encoding="utf-8")
    assert main(["view", str(run_dir), "--export", str(theirs)]) == 2
    err = capsys.readouterr().err
    assert "already holds files (index.html) and no earlier export" in err
    assert "export to a new or empty folder" in err
    assert (theirs / "index.html").read_text(encoding="utf-8") == "<h1>my page</h1>"
    assert sorted(p.name for p in theirs.iterdir()) == ["index.html"]


def test_an_earlier_export_is_replaced_in_place(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "export"
    export_static(TrialIndex([run_dir]), out)
    before = {p.name for p in (out / "trials").iterdir()}
    trial_path(run_dir, "honest_vanilla", 1).unlink()
    export_static(TrialIndex([run_dir]), out)
    after = {p.name for p in (out / "trials").iterdir()}
    assert after == before - {"0__honest_vanilla__1.html"}
    with pytest.raises(ConfigError, match="already holds files"):
        export_static(TrialIndex([run_dir]), run_dir)
