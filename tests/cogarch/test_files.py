"""Guarded reads: only regular files, links judged by their target and kept inside the folder,
bounded size and nesting, never a blocked read on a FIFO, one clear error each."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from cogarch.files import FileRefusedError, read_bytes, read_json, set_aside
from tests.deadline import deadline


@pytest.fixture(autouse=True)
def never_hangs() -> Iterator[None]:
    with deadline(10):
        yield


def test_a_regular_file_and_a_link_to_one_inside_the_folder_are_read(tmp_path: Path) -> None:
    data = tmp_path / "a.json"
    data.write_text('{"x": [1, 2]}', encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "link.json").symlink_to(data)
    assert read_json(data, within=tmp_path) == {"x": [1, 2]}
    assert read_json(tmp_path / "sub" / "link.json", within=tmp_path) == {"x": [1, 2]}


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "trial_0000.json"
    os.mkfifo(fifo)
    with pytest.raises(FileRefusedError, match=r"is a FIFO \(named pipe\), not a regular file"):
        read_bytes(fifo, within=tmp_path)


def test_folders_and_sockets_are_refused(tmp_path: Path) -> None:
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(FileRefusedError, match="is a folder, not a regular file"):
        read_bytes(tmp_path / "folder.json", within=tmp_path)
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(tmp_path / "socket.json"))
        with pytest.raises(FileRefusedError, match="socket"):
            read_bytes(tmp_path / "socket.json", within=tmp_path)


def test_a_device_is_refused_and_a_link_out_of_the_folder_is_never_followed(
    tmp_path: Path,
) -> None:
    with pytest.raises(FileRefusedError, match="is a device, not a regular file"):
        read_bytes("/dev/zero")
    link = tmp_path / "trial_0001.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(FileRefusedError, match="links to '/dev/zero', outside"):
        read_bytes(link, within=tmp_path)
    secret = tmp_path.parent / f"{tmp_path.name}-secret.json"
    secret.write_text("{}", encoding="utf-8")
    outside = tmp_path / "secret.json"
    outside.symlink_to(secret)
    with pytest.raises(FileRefusedError, match="outside"):
        read_json(outside, within=tmp_path)


def test_missing_and_dangling_paths_say_which(tmp_path: Path) -> None:
    with pytest.raises(FileRefusedError, match="does not exist"):
        read_bytes(tmp_path / "absent.json")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "gone")
    with pytest.raises(FileRefusedError, match="is a link to nothing"):
        read_bytes(tmp_path / "dangling.json")


def test_size_is_bounded(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b"[" + b"1," * 1000 + b"1]")
    assert len(read_bytes(big, max_bytes=10_000)) == 2003
    with pytest.raises(FileRefusedError, match="2,003 bytes, larger than the 100 bytes"):
        read_bytes(big, max_bytes=100)


@pytest.mark.parametrize(
    "text", ["[" * 200_000 + "]" * 200_000, '{"a": ' * 150 + "1" + "}" * 150, "\xff\xfe{"]
)
def test_hostile_json_is_refused_never_a_recursion_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(FileRefusedError, match="unreadable as JSON"):
        read_json(path)


def test_set_aside_never_overwrites_an_earlier_one(tmp_path: Path) -> None:
    for n in range(3):
        (tmp_path / "entry.json").write_text(json.dumps(n), encoding="utf-8")
        set_aside(tmp_path / "entry.json")
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == ["entry.json.unusable", "entry.json.unusable.1", "entry.json.unusable.2"]
    assert (tmp_path / "entry.json.unusable.2").read_text(encoding="utf-8") == "2"
