"""YAML loading and validation: one line per problem, naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field

from cogarch.config import read_yaml, validate_mapping
from cogarch.errors import ConfigError


class Inner(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: int = Field(ge=1)


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    seed: int = 0
    inner: Inner = Field(default_factory=lambda: Inner(size=1))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_valid_file_loads(tmp_path: Path) -> None:
    path = write(tmp_path, "name: demo\nseed: 7\ninner:\n  size: 3\n")
    loaded = validate_mapping(Settings, read_yaml(path), source=str(path))
    assert loaded == Settings(name="demo", seed=7, inner=Inner(size=3))


def test_each_problem_is_one_line_naming_its_key(tmp_path: Path) -> None:
    path = write(tmp_path, "seed: many\nsede: 1\ninner:\n  size: 0\n")
    with pytest.raises(ConfigError) as info:
        validate_mapping(Settings, read_yaml(path), source=str(path))
    head, *lines = str(info.value).splitlines()
    assert head == f"invalid configuration in {path}:"
    assert sorted(line.strip().split(":", 1)[0] for line in lines) == [
        "inner.size",
        "name",
        "sede",
        "seed",
    ]
    text = "\n".join(lines)
    assert "name: required key is missing" in text
    assert "sede: unknown key" in text
    assert "(got 'many')" in text
    assert "(got 0)" in text


def test_validate_mapping_prefixes_the_location() -> None:
    with pytest.raises(ConfigError, match=r"agents\.a1\.inner\.size: .*greater than"):
        validate_mapping(Settings, {"name": "x", "inner": {"size": -1}}, where="agents.a1")


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        read_yaml(tmp_path / "nope.yaml")


def test_invalid_yaml_reports_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "name: demo\ninner: [1, 2\nseed: 3\n")
    with pytest.raises(ConfigError, match=r"is not valid YAML at line \d+, column \d+"):
        read_yaml(path)


def test_config_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        validate_mapping(Settings, {})
