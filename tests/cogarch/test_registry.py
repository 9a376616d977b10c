"""Registries: short names, lazy import paths, and errors that list the valid names."""

from __future__ import annotations

import json

import pytest

from cogarch.errors import ConfigError, UnknownNameError
from cogarch.registry import Registry, import_object


def test_registered_objects_come_back() -> None:
    registry: Registry[object] = Registry("widget")
    registry.register("b", 2)
    registry.register("a", 1)
    assert registry.get("a") == 1
    assert "a" in registry and "c" not in registry
    assert registry.names() == ["a", "b"] == list(registry)


def test_import_paths_resolve_lazily_and_once() -> None:
    registry: Registry[object] = Registry("codec")
    registry.register("dumps", "json:dumps")
    registry.register("loads", "json.loads")
    assert registry.get("dumps") is json.dumps
    assert registry.get("loads") is json.loads
    assert registry.get("json:JSONDecoder") is json.JSONDecoder  # unregistered path


def test_eager_registries_keep_strings() -> None:
    registry: Registry[str] = Registry("label", lazy=False)
    registry.register("x", "json:dumps")
    assert registry.get("x") == "json:dumps"
    with pytest.raises(UnknownNameError):
        registry.get("json:dumps")


def test_an_unknown_name_lists_the_valid_ones() -> None:
    registry: Registry[int] = Registry("memory module")
    registry.register("vector", 1)
    registry.register("ccs", 2)
    with pytest.raises(UnknownNameError) as info:
        registry.get("vectr")
    assert str(info.value) == (
        "unknown memory module 'vectr'; valid names: ccs, vector (or an import path "
        "'module:name', or 'file.py:name')"
    )
    assert isinstance(info.value, ConfigError) and isinstance(info.value, KeyError)


def test_an_empty_registry_says_so() -> None:
    with pytest.raises(UnknownNameError, match=r"\(none registered\)"):
        Registry[int]("thing").get("x")


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("nodots", "is not an import path"),
        ("no_such_module_xyz:thing", "cannot import module 'no_such_module_xyz'"),
        ("json:no_such_name", "module 'json' has no attribute 'no_such_name'"),
    ],
)
def test_bad_import_paths_say_what_is_wrong(path: str, message: str) -> None:
    with pytest.raises(UnknownNameError, match=message):
        import_object(path)
