"""The response cache writes its entries only into real folders of its own: a link planted as
one of its sub-folders is set aside, never written through."""

from __future__ import annotations

from pathlib import Path

from cogarch.models.cache import CachedCompletion, ResponseCache


def test_a_cache_subfolder_that_links_elsewhere_is_set_aside(tmp_path: Path) -> None:
    root, outside = tmp_path / ".cache", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    cache = ResponseCache(root)
    key = "ab" + "0" * 62
    (root / "ab").symlink_to(outside, target_is_directory=True)
    cache.put(key, CachedCompletion(content="hello", tool_calls=[], finish_reason="stop"))
    assert list(outside.iterdir()) == []
    assert not (root / "ab").is_symlink() and (root / "ab.unusable").is_symlink()
    found = cache.get(key)
    assert found is not None and found.content == "hello"
