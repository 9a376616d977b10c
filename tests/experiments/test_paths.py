"""The folders and ports a user names: checked once, one clear line each, nothing written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.cli.command import main
from cogarch.experiments.results.paths import check_port, folder_to_read, folder_to_write


@pytest.mark.parametrize("port", [0, 1, 8765, 65535])
def test_ports_in_range_pass(port: int) -> None:
    assert check_port(port) == port


@pytest.mark.parametrize("port", [-1, 65536, 70000])
def test_ports_out_of_range_say_the_range(port: int) -> None:
    with pytest.raises(ConfigError, match=rf"--port {port} is not a port; use 1-65535, or 0"):
        check_port(port)


def test_folders_to_write(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    assert folder_to_write(tmp_path / "new" / "deeper", "--out") == tmp_path / "new" / "deeper"
    assert folder_to_write(tmp_path, "--out") == tmp_path
    cases = {
        "": "--out is empty; name a folder",
        "a\x00b": "holds a NUL character",
        str(afile): "is a file, not a folder",
        "/dev/null": "is a device, not a folder",
        str(afile / "sub"): f"lies under '{afile}', which is a file",
        str(afile / "sub" / "deeper"): f"lies under '{afile}', which is a file",
    }
    for value, message in cases.items():
        with pytest.raises(ConfigError, match=message):
            folder_to_write(value, "--out")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match=r"is a FIFO \(named pipe\), not a folder"):
        folder_to_write(fifo, "--out")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    with pytest.raises(ConfigError, match="is a link to nothing"):
        folder_to_write(tmp_path / "dangling", "--out")
    assert not (tmp_path / "nowhere").exists()


def test_folders_to_read(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    assert folder_to_read(tmp_path, "RUN_DIR") == tmp_path
    with pytest.raises(ConfigError, match="does not exist; give a run"):
        folder_to_read(tmp_path / "absent", "RUN_DIR", "give a run")
    with pytest.raises(ConfigError, match="is a file, not a folder"):
        folder_to_read(tmp_path / "afile", "RUN_DIR")


def one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if not line.startswith("warning:")]
    assert len(lines) == 1, err
    return lines[0]


def test_the_commands_check_their_paths_and_ports_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    run.mkdir()
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    bad = [
        (["view", str(run), "--port", "70000"], "--port 70000 is not a port"),
        (["play", "hangman", "--port", "70000"], "--port 70000 is not a port"),
        (["view", str(run), "--export", ""], "--export is empty"),
        (["view", str(run), "--export", "/dev/null"], "is a device, not a folder"),
        (["view", str(run), "--export", str(afile)], "is a file, not a folder"),
        (["view", str(run), "--export", str(afile / "sub")], "which is a file, not a folder"),
        (["view", str(afile), "--export", str(tmp_path / "x")], "is a file, not a folder"),
        (["report", str(afile)], "is a file, not a folder"),
        (["report", str(run), "--out", str(afile)], "--out '"),
        (["report", str(run), "--out", ""], "--out is empty"),
    ]
    for argv, message in bad:
        assert main(argv) == 2, argv
        assert message in one_error(capsys), argv
    assert not (tmp_path / "x").exists()
    assert afile.read_text(encoding="utf-8") == "x"
