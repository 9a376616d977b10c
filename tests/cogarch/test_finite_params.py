"""Parameter validation refuses non-finite floats everywhere (``.inf`` and ``.nan`` in YAML,
``float("inf")`` in Python), and out-of-range fusion weights, in one line naming the key."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from cogarch.config import read_yaml
from cogarch.errors import ConfigError
from cogarch.memory.registry import build_memory
from cogarch.memory.retrieval.memoryos import MemoryOSParams
from cogarch.memory.retrieval.search import SearchParams
from cogarch.workspace.spec import load_agent_spec

BAD = [math.inf, -math.inf, math.nan]


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan", ".NaN", "1.0e+999"])
@pytest.mark.parametrize(
    ("text", "key"),
    [("weight: {}\n", "weight"), ("nested: {{a: [1, {}]}}\n", "nested.a.1")],
)
def test_a_yaml_file_with_a_non_finite_float_is_refused_naming_the_key(
    tmp_path: Path, value: str, text: str, key: str
) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(text.format(value), encoding="utf-8")
    with pytest.raises(ConfigError, match="finite") as info:
        read_yaml(path)
    assert f"{key} must be" in str(info.value) and len(str(info.value).splitlines()) == 1


@pytest.mark.parametrize("value", BAD)
@pytest.mark.parametrize(
    "params",
    [
        {"search": {"mode": "hybrid", "entity_boost": "{}"}},
        {"search": {"mode": "hybrid", "dense_weight": "{}"}},
        {"merge_threshold": "{}"},
        {"session_threshold": "{}"},
        {"keyword_weight": "{}"},
        {"heat_threshold": "{}"},
    ],
)
def test_memory_params_refuse_non_finite_weights_and_thresholds(
    value: float, params: dict[str, Any]
) -> None:
    filled = {
        k: (
            {kk: (value if vv == "{}" else vv) for kk, vv in v.items()}
            if isinstance(v, dict)
            else value
        )
        for k, v in params.items()
    }
    with pytest.raises(ConfigError, match=r"finite|greater|less"):
        build_memory("memoryos", {**filled, "embedder": "hash"})


@pytest.mark.parametrize("value", [*BAD, 1e6, -0.5])
def test_fusion_weights_are_finite_and_in_range_from_python_too(value: float) -> None:
    with pytest.raises(ValidationError):
        SearchParams(mode="hybrid", entity_boost=value)
    if not -1 <= value <= 2:
        with pytest.raises(ValidationError):
            SearchParams(mode="hybrid", dense_weight=value)


@pytest.mark.parametrize("value", BAD)
def test_retrieval_params_refuse_non_finite_values_from_python(value: float) -> None:
    with pytest.raises(ValidationError):
        MemoryOSParams(merge_threshold=value)


def test_a_yaml_inf_in_an_agent_spec_parameter_is_refused(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "name: x\nparams: {boost: .inf}\nentry: responder\n"
        "memory: {m: {kind: memoryos, embedder: hash, keyword_weight: '${boost}'}}\n"
        "specialists: {responder: {kind: responder}}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="finite"):
        load_agent_spec(spec)
