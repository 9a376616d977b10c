"""The memory cache keeps an ingested agent by haystack and memory, and reads it back as
untrusted input."""

from __future__ import annotations

import json
from pathlib import Path

from cogarch.tasks.longmemeval.memory_cache import MemoryCache


def test_the_key_is_the_haystack_the_memory_and_the_model_not_the_agents_name() -> None:
    fresh = {"type": "cogarch.Agent", "agent": "a", "memory": {"m": {"kind": "raw_turns"}}}
    renamed = {**fresh, "agent": "b"}
    other = {**fresh, "memory": {"m": {"kind": "mem0"}}}
    assert MemoryCache.key("h1", fresh, "m1") == MemoryCache.key("h1", renamed, "m1")
    assert MemoryCache.key("h1", fresh, "m1") != MemoryCache.key("h2", fresh, "m1")
    assert MemoryCache.key("h1", fresh, "m1") != MemoryCache.key("h1", other, "m1")
    assert MemoryCache.key("h1", fresh, "m1") != MemoryCache.key("h1", fresh, "m2")


def test_entries_survive_the_process_and_damaged_ones_are_set_aside(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    MemoryCache(folder).put("k1", {"agent": "a", "x": 1})
    assert MemoryCache(folder).get("k1") == {"agent": "a", "x": 1}
    (folder / "k2.json").write_text('{"cut', encoding="utf-8")
    assert MemoryCache(folder).get("k2") is None
    assert any(folder.glob("k2.json.unusable*"))
    outside = tmp_path / "elsewhere.json"
    outside.write_text(json.dumps({"agent": "planted"}), encoding="utf-8")
    (folder / "k3.json").symlink_to(outside)
    assert MemoryCache(folder).get("k3") is None


def test_a_link_planted_for_the_folder_is_not_written_through(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    folder = tmp_path / "cache"
    folder.symlink_to(target)
    MemoryCache(folder).put("k", {"agent": "a"})
    assert list(target.iterdir()) == []
    assert (folder / "k.json").is_file() and not folder.is_symlink()
