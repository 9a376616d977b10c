"""Saved states of the real-library memory modules are validated before use: what the library
itself would refuse, or silently read as an empty memory, is refused as a ``StateError`` that
names the problem (never a raw database or vector-store error), the module stays as it was,
and no temporary folder is left behind; the libraries' working folder is the run's own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cogarch.core.memory import MemoryContext
from cogarch.core.state import StateError
from cogarch.memory.registry import build_memory
from cogarch.memory.retrieval.libs.offline import AMEM, MEM0, MEMORYOS
from tests.memory.libs.lib_checks import needs, turn

REPO = Path(__file__).resolve().parents[3]


async def saved(kind: str, ctx: MemoryContext, **params: Any) -> tuple[Any, dict[str, Any]]:
    module = build_memory(kind, {"provider": "scripted", **params})
    for n, said in enumerate(["I play the cello.", "My sister Ada lives in Paris."], start=1):
        await module.ingest(turn(n, said), ctx)
    return module, json.loads(json.dumps(module.save_state()))


def refused(module: Any, state: dict[str, Any], problem: str) -> None:
    kept = module.private_text()
    with pytest.raises(StateError, match=problem) as info:
        module.load_state(state)
    assert len(str(info.value).splitlines()) == 1
    assert module.private_text() == kept


def history_columns(data: dict[str, Any]) -> None:
    data["history_columns"] = [*data["history_columns"][:-1], 'x") VALUES (1); --']


def history_row_short(data: dict[str, Any]) -> None:
    data["history_rows"][0] = data["history_rows"][0][:2]


def history_row_list(data: dict[str, Any]) -> None:
    data["history_rows"][0][0] = [1, 2]


def history_repeated_column(data: dict[str, Any]) -> None:
    data["history_columns"][1] = data["history_columns"][0]


@needs(MEM0)
@pytest.mark.parametrize(
    "spoil", [history_columns, history_row_short, history_row_list, history_repeated_column]
)
async def test_a_damaged_mem0_history_is_refused_by_name(
    offline: list[str], ctx: MemoryContext, spoil: Callable[[dict[str, Any]], None]
) -> None:
    module, state = await saved("mem0_lib", ctx)
    assert state["data"]["history_rows"]
    spoil(state["data"])
    refused(module, state, "history")


@needs(AMEM)
async def test_repeated_amem_ids_are_refused_by_name(
    offline: list[str], ctx: MemoryContext
) -> None:
    module, state = await saved("amem_lib", ctx)
    collection = state["data"]["collection"]
    for key in ("ids", "documents", "metadatas", "embeddings"):
        collection[key] = [*collection[key], collection[key][0]]
    refused(module, state, "more than once")


def short_term_object(files: dict[str, Any]) -> None:
    files[next(k for k in files if k.endswith("short_term.json"))] = {"pages": []}


def mid_term_list(files: dict[str, Any]) -> None:
    files[next(k for k in files if k.endswith("mid_term.json"))] = [1, 2]


def session_without_heat(files: dict[str, Any]) -> None:
    mid = files[next(k for k in files if k.endswith("mid_term.json"))]
    mid["sessions"] = {"s1": {"details": []}}


def unknown_file(files: dict[str, Any]) -> None:
    files["users/user/other.json"] = {}


@needs(MEMORYOS)
@pytest.mark.parametrize(
    "spoil", [short_term_object, mid_term_list, session_without_heat, unknown_file]
)
async def test_memoryos_files_of_another_shape_are_refused_not_read_as_empty(
    offline: list[str],
    ctx: MemoryContext,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    spoil: Callable[[dict[str, Any]], None],
) -> None:
    module, state = await saved("memoryos_lib", ctx, short_term_capacity=1)
    spoil(state["data"]["files"])
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    refused(module, state, "memoryos_lib")
    assert not list(tmp_path.glob("cogarch-memoryos-*")), "a refused state left its folder"


@needs(MEMORYOS)
async def test_a_state_memoryos_itself_refuses_leaves_no_folder(
    offline: list[str], ctx: MemoryContext, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    module, state = await saved("memoryos_lib", ctx)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    def failing(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the library cannot open this store")

    monkeypatch.setattr(module.require().Memoryos, "__init__", failing)
    refused(module, state, "RuntimeError: the library cannot open this store")
    assert not list(tmp_path.glob("cogarch-memoryos-*"))


WORKING = """
import os, sys
from pathlib import Path
from cogarch.memory.retrieval.libs.offline import offline_environment
home = offline_environment()
info = os.lstat(home)
print(home, oct(info.st_mode & 0o777), info.st_uid == os.getuid(), home.is_symlink())
print(os.environ["MEM0_DIR"])
"""


@pytest.mark.skipif(sys.platform == "win32", reason="needs links and file modes")
def test_the_working_folder_is_private_to_the_run_and_never_a_planted_link(
    tmp_path: Path,
) -> None:
    temp, elsewhere = tmp_path / "tmp", tmp_path / "elsewhere"
    temp.mkdir()
    elsewhere.mkdir()
    (temp / f"cogarch-libs-{os.getuid()}").symlink_to(elsewhere)  # the old fixed name
    env = {**os.environ, "TMPDIR": str(temp), "PYTHONPATH": str(REPO)}
    env.pop("MEM0_DIR", None)
    runs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", WORKING], env=env, capture_output=True, text=True, check=True
        )
        runs.append(done.stdout.split())
    for home, mode, owned, link, mem0_dir in runs:
        assert Path(home).parent == temp and Path(home).name != f"cogarch-libs-{os.getuid()}"
        assert (mode, owned, link) == ("0o700", "True", "False")
        assert mem0_dir.startswith(home)
        assert not Path(home).exists(), "the working folder outlived its process"
    assert runs[0][0] != runs[1][0]
    assert list(elsewhere.iterdir()) == []
