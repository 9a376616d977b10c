"""Every public name's docstring has the sections the API pages render as tables, read as
mkdocstrings reads them (Google style):

- a function has an ``Args`` entry for each parameter (and none for a parameter it lacks),
  ``Returns`` when it returns something, and ``Raises`` when its body raises an exception;
- a class documents each argument of its constructor in its own docstring, under ``Args`` or
  ``Attributes``, or, for a dataclass or pydantic field, in the field's docstring (or, for a
  pydantic field, its ``description``, which the config reference pages show); a class whose
  ``__init__`` raises says so under ``Raises``;
- every public name has a docstring (a constant's is the string under it).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import textwrap
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.docsite.pages import PUBLIC_MODULES, public_names

from .snippets import ROOT

EXTRAS = {
    "cogarch.bridges.agent_framework": "agent_framework",
    "cogarch.bridges.inspect": "inspect_ai",
}


def _public_objects() -> list[tuple[str, Any, Any]]:
    """Each public name as ``(dotted name, griffe object, run-time object)``."""
    griffe = pytest.importorskip("griffe")
    package = griffe.load(
        "cogarch", search_paths=[str(ROOT)], resolve_aliases=True, docstring_parser="google"
    )
    found = []
    for module in PUBLIC_MODULES:
        if module in EXTRAS and importlib.util.find_spec(EXTRAS[module]) is None:
            continue  # test_api checks that the bridge's extra is installed where it must be
        loaded = importlib.import_module(module)
        owner = package if module == "cogarch" else package[module.removeprefix("cogarch.")]
        for name in public_names(module):
            obj = owner[name]
            found.append(
                (
                    f"{module}.{name}",
                    obj.final_target if obj.is_alias else obj,
                    getattr(loaded, name),
                )
            )
    return found


PUBLIC = _public_objects()


def _sections(obj: Any) -> dict[str, Any]:
    return {s.kind.value: s for s in obj.docstring.parsed} if obj.docstring else {}


def _documented(sections: dict[str, Any], *kinds: str) -> list[str]:
    return [
        entry.name.lstrip("*")  # ``**options`` documents the parameter ``options``
        for kind in kinds
        for entry in getattr(sections.get(kind), "value", [])
    ]


def _raises(function: Any) -> bool:
    """Whether the function's own body raises an exception (a bare re-raise aside)."""
    source = textwrap.dedent(function.source)
    if not source.strip():  # an __init__ written by @dataclass
        return False
    tree = ast.parse(source).body[0]
    stack = list(ast.iter_child_nodes(tree))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Raise) and node.exc is not None:
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def _parameters(function: Any) -> list[str]:
    return [p.name for p in function.parameters if p.name not in ("self", "cls")]


def _function_problems(name: str, function: Any) -> list[str]:
    problems = []
    sections = _sections(function)
    documented = _documented(sections, "parameters")
    params = _parameters(function)
    if documented != params:
        problems.append(f"{name}: Args lists {documented}, the signature has {params}")
    if str(function.returns) not in ("None", "NoReturn") and "returns" not in sections:
        problems.append(f"{name}: no Returns section")
    if _raises(function) and "raises" not in sections:
        problems.append(f"{name}: raises, but has no Raises section")
    return problems


def _field_documented(cls: Any, runtime: Any, field: str) -> bool:
    member = cls.all_members.get(field)
    if member is not None and not member.is_alias and member.docstring is not None:
        return True
    info = getattr(runtime, "model_fields", {}).get(field)
    return bool(info is not None and info.description)


def _class_problems(name: str, cls: Any, runtime: Any) -> list[str]:
    problems = []
    sections = _sections(cls)
    documented = set(_documented(sections, "parameters", "attributes"))
    fields = getattr(runtime, "model_fields", None)  # a pydantic model's constructor arguments
    params = list(fields) if fields is not None else _parameters(cls)
    missing = [p for p in params if p not in documented and not _field_documented(cls, runtime, p)]
    if missing:
        problems.append(f"{name}: constructor arguments documented nowhere: {missing}")
    stray = sorted(set(_documented(sections, "parameters")) - set(params))
    if stray:
        problems.append(f"{name}: Args lists {stray}, which the constructor does not take")
    init = cls.members.get("__init__")
    if init is not None and not init.is_alias and _raises(init) and "raises" not in sections:
        problems.append(f"{name}: its constructor raises, but it has no Raises section")
    return problems


def test_the_config_renders_google_style_sections_as_tables() -> None:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "docstring_style: google" in text
    assert "docstring_section_style: table" in text


def test_every_kind_of_public_name_is_checked() -> None:
    kinds = {obj.kind.value for _, obj, _ in PUBLIC}
    assert kinds == {"function", "class", "attribute"}


def test_every_public_function_documents_its_parameters_returns_and_raises() -> None:
    problems = []
    for name, obj, _ in PUBLIC:
        if obj.kind.value == "function":
            problems += _function_problems(name, obj)
    assert problems == []


def test_every_public_class_documents_its_constructor() -> None:
    problems = []
    for name, obj, runtime in PUBLIC:
        if obj.kind.value == "class":
            problems += _class_problems(name, obj, runtime)
    assert problems == []


def test_every_public_name_has_a_docstring() -> None:
    undocumented = [name for name, obj, _ in PUBLIC if not obj.docstring]
    assert undocumented == []


def test_the_checks_catch_a_missing_section(tmp_path: Path) -> None:
    griffe = pytest.importorskip("griffe")
    (tmp_path / "probe.py").write_text(
        textwrap.dedent(
            '''
            class Box:
                """A box.

                Args:
                    width: How wide.
                """

                def __init__(self, width: int, depth: int) -> None:
                    if width < 0:
                        raise ValueError("negative")


            def area(width: int, depth: int) -> int:
                """The area.

                Args:
                    width: How wide.
                    depth: How deep.
                """
                if width < 0:
                    raise ValueError("negative")
                return width * depth
            '''
        ),
        encoding="utf-8",
    )
    module = griffe.load("probe", search_paths=[str(tmp_path)], docstring_parser="google")
    assert _function_problems("area", module["area"]) == [
        "area: no Returns section",
        "area: raises, but has no Raises section",
    ]
    assert _class_problems("Box", module["Box"], object) == [
        "Box: constructor arguments documented nowhere: ['depth']",
        "Box: its constructor raises, but it has no Raises section",
    ]
