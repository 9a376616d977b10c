"""How a suite names a task's fakes and the task itself: a behaviour mapped to one of the
task's fakes by its full name (``hangman.honest``) as well as by its short one, and a task
named by file or import path shown by the ``kind`` its class declares, not its class's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.suites.config import load_suite_config

TASK = """\
from typing import ClassVar

from cogarch.tasks.hangman.task import HangmanSCT


class BriefHangman(HangmanSCT):
    kind: ClassVar[str] = "brief_hangman"
"""

SUITE = """\
name: brief
seed: 3
trials: 1
providers:
  honest: {kind: fake, fake: honest}
tasks:
  - {kind: brief.py:BriefHangman, t_fork: 3, n_candidates: 3, fakes: FAKES}
agents:
  - {name: plain, agent: vanilla, provider: honest}
"""


def _suite(tmp_path: Path, fakes: str, extra: str = "") -> Path:
    (tmp_path / "brief.py").write_text(TASK, encoding="utf-8")
    path = tmp_path / "suite.yaml"
    text = SUITE.replace("FAKES", fakes).replace("fakes: {}}", "}")
    path.write_text(text.replace("n_candidates: 3", f"n_candidates: 3{extra}"), encoding="utf-8")
    return path


@pytest.mark.parametrize("played", ["honest", "hangman.honest"])
def test_a_behaviour_maps_to_a_fake_by_its_short_or_full_name(tmp_path: Path, played: str) -> None:
    config = load_suite_config(_suite(tmp_path, f"{{honest: {played}}}"))
    run = config.cell_config(*config.cells()[0])
    assert run.providers["honest"].fake == "hangman.honest"


def test_a_fake_the_task_lacks_is_still_refused_naming_its_fakes(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"has no fake 'diagnosis\.honest'.*hangman\.honest"):
        load_suite_config(_suite(tmp_path, "{honest: diagnosis.honest}"))


def test_a_task_named_by_file_goes_by_its_kind_or_its_name(tmp_path: Path) -> None:
    config = load_suite_config(_suite(tmp_path, "{}"))
    assert [task.label for task in config.tasks] == ["brief_hangman"]
    assert config.cell_config(*config.cells()[0]).name == "brief.brief_hangman.plain"
    named = load_suite_config(_suite(tmp_path, "{}", ", name: short"))
    assert [task.label for task in named.tasks] == ["short"]


def test_a_task_named_by_import_path_goes_by_its_kind(tmp_path: Path) -> None:
    path = _suite(tmp_path, "{}")
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("brief.py:BriefHangman", "cogarch.tasks.hangman.task:HangmanSCT"),
        encoding="utf-8",
    )
    assert [task.label for task in load_suite_config(path).tasks] == ["hangman_sct"]
