"""YAML loading and validation with one clear line per problem, naming the key."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from cogarch.errors import ConfigError

M = TypeVar("M", bound=BaseModel)


def format_validation_error(exc: ValidationError, where: str = "") -> str:
    lines = []
    for err in exc.errors():
        key = ".".join(str(p) for p in (where, *err["loc"]) if p != "")
        kind = err["type"]
        if kind == "extra_forbidden":
            message = "unknown key (remove it or check its spelling)"
        elif kind == "missing":
            message = "required key is missing"
        else:
            message = err["msg"]
            if "input" in err and kind not in ("model_type", "dict_type"):
                message += f" (got {err['input']!r})"[:200]
        lines.append(f"  {key or '(top level)'}: {message}")
    return "\n".join(lines)


def validate_mapping(model: type[M], data: Any, *, where: str = "", source: str = "") -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        head = f"invalid configuration{f' in {source}' if source else ''}:"
        raise ConfigError(f"{head}\n{format_validation_error(exc, where)}") from None


def read_yaml(path: str | os.PathLike[str]) -> Any:
    file = Path(path)
    if not file.is_file():
        raise ConfigError(f"config file '{file}' does not exist; check the path")
    try:
        return yaml.safe_load(file.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"'{file}' is not valid YAML{at}: {problem}") from None


def load_yaml_model(model: type[M], path: str | os.PathLike[str]) -> M:
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise ConfigError(f"'{path}' must hold a mapping of keys at the top level")
    return validate_mapping(model, data, source=str(path))
