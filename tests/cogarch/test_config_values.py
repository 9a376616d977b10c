"""Every float a config takes is finite and bounded whatever text it was read from, a YAML
boolean is never read as a number, and a name YAML read as a boolean is told to be quoted."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from cogarch.config import validate_mapping
from cogarch.errors import ConfigError
from cogarch.experiments.running.run_config import load_run_config
from cogarch.tasks.registry import build_task

RUN = """\
name: {name}
task: {{kind: hangman_sct{task}}}
providers: {{p: {{kind: fake, fake: hangman.honest{provider}}}}}
agents: [{{name: a, agent: vanilla, provider: p}}]
"""


def load(tmp_path: Path, name: str = "r", task: str = "", provider: str = "") -> object:
    path = tmp_path / "r.yaml"
    path.write_text(RUN.format(name=name, task=task, provider=provider), encoding="utf-8")
    return load_run_config(path)


class PluginParams(BaseModel):
    """A plug-in's parameters that bound nothing themselves."""

    weight: float = 1.0
    weights: dict[str, float] = {}


@pytest.mark.parametrize("text", ["Infinity", "-inf", "NaN", "1e300", "1e400", "-2e12"])
def test_a_float_that_is_not_finite_and_bounded_is_refused_by_any_model(text: str) -> None:
    with pytest.raises(ConfigError, match=r"weight: must be a finite number"):
        validate_mapping(PluginParams, {"weight": text})
    with pytest.raises(ConfigError, match=r"weights\.k: must be a finite number"):
        validate_mapping(PluginParams, {"weights": {"k": float(text)}})
    assert validate_mapping(PluginParams, {"weight": "1e11"}).weight == 1e11


@pytest.mark.parametrize("text", ["Infinity", "'-inf'", "'NaN'", "'1e400'"])
def test_a_provider_float_that_is_not_finite_is_refused(tmp_path: Path, text: str) -> None:
    with pytest.raises(ConfigError, match=r"providers\.p\.temperature"):
        load(tmp_path, provider=f", temperature: {text}")


def test_a_boolean_where_a_number_is_expected_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not true or false"):
        build_task("alfworld", {"max_transitions": True})
    with pytest.raises(ConfigError, match=r"temperature.*not true or false"):
        load(tmp_path, provider=", temperature: true")


@pytest.mark.parametrize("word", ["off", "no", "Yes", "ON"])
def test_a_run_named_by_a_yaml_boolean_is_told_to_quote_it(tmp_path: Path, word: str) -> None:
    with pytest.raises(ConfigError, match=r"name: .*quote the text"):
        load(tmp_path, name=word)
    assert load(tmp_path, name=f"'{word}'").name == word  # type: ignore[attr-defined]
