"""The metrics a run or suite config attaches by name: found beside the config, checked when
it is loaded with errors that name the entry and the fix, left out of what identifies the run,
and loaded by readers only when they are code this user ran."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.running.user_code import user_code
from cogarch.experiments.suites.config import load_suite_config
from cogarch.experiments.tables.attached_metrics import read_metrics
from tests.experiments import hangman_run

METRIC_FILE = '''
from cogarch.metrics import metric


@metric(direction="lower")
def affirmed(record):
    """Candidates affirmed at the fork."""
    return sum(a["answer"] == "yes" for a in record.payload.model_dump()["answers"])
'''

SUITE = """\
name: small
trials: 1
metrics: [{metrics}]
providers:
  honest: {{kind: fake, fake: honest}}
tasks:
  - {{kind: hangman_sct, t_fork: 3, n_candidates: 3}}
agents:
  - {{name: plain, agent: vanilla, provider: honest}}
"""


def run_config(tmp_path: Path, metrics: str) -> Path:
    folder = tmp_path / "configs"
    folder.mkdir(exist_ok=True)
    (folder / "mine.py").write_text(METRIC_FILE, encoding="utf-8")
    path = folder / "run.yaml"
    path.write_text(hangman_run("attached") + f"metrics: [{metrics}]\n", encoding="utf-8")
    return path


def suite_config(tmp_path: Path, metrics: str) -> Path:
    (tmp_path / "mine.py").write_text(METRIC_FILE, encoding="utf-8")
    path = tmp_path / "suite.yaml"
    path.write_text(SUITE.format(metrics=metrics), encoding="utf-8")
    return path


def test_a_metric_file_is_found_beside_the_config_and_recorded_by_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = load_run_config(run_config(tmp_path, "mine.py:affirmed, tokens"))
    mine = (tmp_path / "configs" / "mine.py").resolve()
    assert config.metrics == [f"{mine}:affirmed", "tokens"]
    assert user_code(config, {}) == [f"metric {mine}:affirmed"]


@pytest.mark.parametrize(
    ("metrics", "message"),
    [
        ("tokenz", r"unknown metric 'tokenz'; known metrics: .*prompt_tokens.*tokens"),
        ("tokens, tokens", "metrics are named once each; repeated: tokens"),
        ("''", "a metric's name is empty"),
        ("gone.py:affirmed", r"metrics\[0\] in '.*run.yaml' names the file 'gone.py', which"),
        ("mine.py:afirmed", r"metrics\[0\] in .*defines no 'afirmed'.*it defines: affirmed"),
    ],
)
def test_a_run_configs_metric_that_names_nothing_is_refused_naming_it(
    tmp_path: Path, metrics: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        load_run_config(run_config(tmp_path, metrics))


@pytest.mark.parametrize(
    ("metrics", "message"),
    [
        ("nope", r"unknown metric 'nope'; known metrics: "),
        ("mine.py:missing", r"metrics\[0\] in '.*suite.yaml': the file .* defines no 'missing'"),
    ],
)
def test_a_suite_configs_metric_that_names_nothing_is_refused_naming_it(
    tmp_path: Path, metrics: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        load_suite_config(suite_config(tmp_path, metrics))


def test_a_suite_attaches_its_metrics_to_every_cell_and_not_to_its_identity(
    tmp_path: Path,
) -> None:
    suite = load_suite_config(suite_config(tmp_path, "mine.py:affirmed"))
    bare = load_suite_config(suite_config(tmp_path, ""))
    assert suite.digest() == bare.digest()
    (cell,) = [suite.cell_config(t, a) for t, a in suite.cells()]
    assert cell.metrics == [f"{(tmp_path / 'mine.py').resolve()}:affirmed"]


def test_metrics_change_no_trial_so_the_run_keeps_its_identity_and_its_record() -> None:
    base = {"name": "x", "task": {"kind": "hangman_sct"}, "agents": [{"agent": "vanilla"}]}
    plain = RunConfig.model_validate(base)
    measured = RunConfig.model_validate({**base, "metrics": ["tokens"]})
    assert plain.digest() == measured.digest()
    assert "metrics" not in plain.model_dump(mode="json")  # old trial files stay the same
    assert measured.model_dump(mode="json")["metrics"] == ["tokens"]


def test_a_reader_loads_only_metric_code_this_user_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "cache"))
    file = tmp_path / "never_run.py"
    file.write_text(METRIC_FILE, encoding="utf-8")
    found, notes = read_metrics(["tokens", f"{file}:affirmed"], within=tmp_path / "results")
    assert [m.name for m in found] == ["tokens"]
    assert notes == [
        f"metric '{file}:affirmed' left out: it is not code you ran here (run the config again "
        "to attach it)"
    ]
    gone, notes = read_metrics(["no_longer_known"], within=None)
    assert gone == [] and "unknown metric 'no_longer_known'" in notes[0]


def test_a_run_trusts_its_metric_code_for_its_readers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "cache"))
    path = run_config(tmp_path, "mine.py:affirmed")
    config = load_run_config(path)
    config = config.model_copy(update={"results_dir": tmp_path / "results"})
    Runner(config, progress=False)
    found, notes = read_metrics(config.metrics, within=tmp_path / "results")
    assert [m.name for m in found] == ["affirmed"] and notes == []
    assert json.dumps(found[0].model_dump())  # the declaration serialises, never the code
