"""Hostile configs, JSON, registry import paths and retry settings fail with one clear error."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from cogarch.config import read_yaml, shown, validate_mapping
from cogarch.errors import ConfigError, UnknownNameError
from cogarch.io import loads_json
from cogarch.models import Model, user
from cogarch.models.cache import ResponseCache
from cogarch.models.fakes import pairs_model
from cogarch.models.providers import ProviderConfig, no_fakes
from cogarch.models.retry import RetryPolicy
from cogarch.registry import Registry

LEVELS = "abcdefg"


def bomb(levels: int = 7) -> str:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for prev, cur in itertools.pairwise(LEVELS[:levels]):
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + f"\nname: [*{LEVELS[levels - 1]}]\n"


def write(tmp_path: Path, data: str | bytes) -> Path:
    path = tmp_path / "c.yaml"
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (bomb(), "values once aliases are expanded"),
        ("x: &a 1\n" + "".join(f"k{i}: *a\n" for i in range(101)), "more than 100 aliases"),
        ("a: " + "[" * 100_000, "nested deeper than 50 levels"),
        ("name: a\nname: b\n", "key 'name' appears twice"),
        ("x: {a: 1, a: 2}\n", "key 'a' appears twice"),
    ],
)
def test_hostile_yaml_is_refused_in_one_line(tmp_path: Path, text: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem) as info:
        read_yaml(write(tmp_path, text))
    assert len(str(info.value).splitlines()) == 1


def test_small_aliases_and_merge_keys_still_load(tmp_path: Path) -> None:
    text = "base: &b {x: 1, y: 2}\nuse: {<<: *b, y: 3}\nlist: [*b, *b]\n"
    assert read_yaml(write(tmp_path, text))["use"] == {"x": 1, "y": 3}


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ("name: x\n".encode("utf-16"), "UTF-16"),
        ("name: caf\xe9\n".encode("latin-1"), "not UTF-8 text"),
    ],
)
def test_text_that_is_not_utf8_is_named(tmp_path: Path, data: bytes, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        read_yaml(write(tmp_path, data))


def test_a_directory_is_called_a_directory(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a directory, not a config file"):
        read_yaml(tmp_path)


def test_messages_quote_values_in_bounded_size() -> None:
    shared: list[object] = ["x" * 1000]
    for _ in range(40):  # 2**40 leaves once expanded; the message must not expand them
        shared = [shared, shared]

    class Named(BaseModel):
        name: str

    with pytest.raises(ConfigError) as info:
        validate_mapping(Named, {"name": shared})
    assert len(str(info.value)) < 400
    assert len(shown("y" * 10_000)) < 100


@pytest.mark.parametrize(
    "text",
    ["[" * 200_000, '{"a": ' * 100_000, "[" * 150 + "]" * 150],
    ids=["lists", "objects", "closed"],
)
def test_deep_json_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="nests deeper"):
        loads_json(text)


def test_import_paths_must_give_what_the_registry_holds() -> None:
    classes: Registry[type[ValueError]] = Registry("error", base=ValueError)
    assert classes.get("builtins:UnicodeError") is UnicodeError
    with pytest.raises(UnknownNameError, match="not a subclass of ValueError"):
        classes.get("os:getcwd")
    with pytest.raises(UnknownNameError, match="does not take 3 positional arguments"):
        no_fakes().get("os:getcwd")


@pytest.mark.parametrize(
    "retry",
    [
        {"max_attemps": 3},
        {"base_delay_s": float("inf")},
        {"max_delay_s": 1e9},
        {"max_delay_s": float("nan")},
        {"base_delay_s": -1},
        {"max_attempts": True},
    ],
)
def test_retry_settings_are_bounded_and_checked(retry: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        RetryPolicy.model_validate(retry)


@pytest.mark.parametrize("timeout", [float("inf"), 1e9, float("nan"), -1, 0])
def test_timeouts_are_bounded(timeout: float) -> None:
    with pytest.raises(ValidationError):
        ProviderConfig(kind="fake", fake="x", timeout=timeout)


@pytest.mark.parametrize(
    "entry", ["[" * 200_000, '{"content": 5}', "{}", "[1]"], ids=["deep", "typed", "empty", "list"]
)
def test_a_corrupt_cache_entry_is_a_miss(tmp_path: Path, entry: str) -> None:
    calls: list[int] = []

    def host(pairs: object, seed: int, call: object) -> str:
        calls.append(seed)
        return "fresh"

    cache = ResponseCache(tmp_path)
    model = Model(pairs_model(host), provider="p", model="m", fake=True, cache=cache)
    assert asyncio.run(model.complete([user("hi")], caller="t", seed=3)).content == "fresh"
    [path] = list(tmp_path.glob("*/*.json"))
    path.write_text(entry, encoding="utf-8")
    again = Model(pairs_model(host), provider="p", model="m", fake=True, cache=cache)
    assert asyncio.run(again.complete([user("hi")], caller="t", seed=3)).content == "fresh"
    assert len(calls) == 2
