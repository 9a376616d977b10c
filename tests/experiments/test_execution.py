"""The ``execution`` section and ``--backend``/``--address``: validated with one clear line,
left out of what trials record, and the Ray backend asked for only when chosen."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.running.run_config import load_run_config
from cogarch.experiments.running.runner import Runner
from tests.experiments import hangman_run

RUN = hangman_run("exec_test")


def write(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(RUN + extra, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("section", "problem"),
    [
        ("execution: {backend: local, address: auto}", "execution: Value error, 'address' applies"),
        ("execution: {backend: ray, address: 'http://h:1'}", "is not a Ray address"),
        ("execution: {backend: slurm}", "execution.backend: Input should be 'local' or 'ray'"),
        ("execution: {backend: ray, retries: 2}", "execution.retries: unknown key"),
        ("execution: {backend: ray, max_retries: -1}", "execution.max_retries"),
        ("execution: {backend: ray, cpus_per_trial: 0}", "execution.cpus_per_trial"),
    ],
)
def test_a_bad_execution_section_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], section: str, problem: str
) -> None:
    assert main(["run", str(write(tmp_path, section + "\n"))]) == 2
    err = capsys.readouterr().err
    assert problem in err and "Traceback" not in err


def test_good_addresses_are_accepted(tmp_path: Path) -> None:
    for address in ("auto", "ray://head:10001", "10.0.0.5:6379"):
        section = f"execution: {{backend: ray, address: '{address}'}}\n"
        config = load_run_config(write(tmp_path, section))
        assert config.execution.address == address


def test_where_trials_run_is_not_part_of_what_they_record(tmp_path: Path) -> None:
    local = load_run_config(write(tmp_path))
    remote = load_run_config(write(tmp_path, "execution: {backend: ray, address: auto}\n"))
    assert local.execution.backend == "local" and remote.execution.backend == "ray"
    assert "execution" not in remote.model_dump(mode="json")
    assert remote.digest() == local.digest()
    assert Runner(remote, progress=False).metadata() == Runner(local, progress=False).metadata()


def without_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` now fails


@pytest.mark.parametrize(
    ("extra", "args"),
    [
        ("", ["--backend", "ray"]),
        ("", ["--address", "auto"]),
        ("execution: {backend: ray}\n", ["--trials", "2", "--concurrency", "1"]),
    ],
)
def test_choosing_ray_without_it_installed_says_how_to_install_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    extra: str,
    args: list[str],
) -> None:
    without_ray(monkeypatch)
    results = tmp_path / "results"
    code = main(["run", str(write(tmp_path, extra)), "--results-dir", str(results), *args])
    assert code == 2
    assert "the ray backend needs Ray: pip install 'cogarch[ray]'" in capsys.readouterr().err
    assert not list(results.glob("*/trial_*.json"))


def test_the_local_backend_needs_no_ray(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    without_ray(monkeypatch)
    config = write(tmp_path, "execution: {backend: ray, address: auto}\n")
    argv = ["run", str(config), "--backend", "local", "--results-dir", str(tmp_path / "r")]
    assert main([*argv, "--quiet"]) == 0
    assert "1 trials run" in capsys.readouterr().out


def test_an_address_with_the_local_backend_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", str(write(tmp_path)), "--backend", "local", "--address", "auto"]
    assert main(argv) == 2
    assert "'address' applies to 'backend: ray' only" in capsys.readouterr().err
