"""The public functions' docstrings have the sections the API pages render as tables: an
``Args`` entry for each parameter (and none for a parameter the function lacks) and
``Returns`` when the function returns something, read as mkdocstrings reads them (Google
style)."""

from __future__ import annotations

from typing import Any

import pytest

from cogarch.experiments.docsite.pages import PUBLIC_MODULES, public_names

from .snippets import ROOT


def _functions() -> list[tuple[str, Any]]:
    griffe = pytest.importorskip("griffe")
    package = griffe.load(
        "cogarch", search_paths=[str(ROOT)], resolve_aliases=True, docstring_parser="google"
    )
    found = []
    for module in PUBLIC_MODULES:
        owner = package if module == "cogarch" else package[module.removeprefix("cogarch.")]
        for name in public_names(module):
            obj = owner[name]
            obj = obj.final_target if obj.is_alias else obj
            if obj.kind.value == "function":
                found.append((f"{module}.{name}", obj))
    return found


def test_the_config_reads_google_style_sections() -> None:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "docstring_style: google" in text


def test_every_public_function_documents_its_parameters_and_what_it_returns() -> None:
    problems = []
    for name, function in _functions():
        sections = {s.kind.value: s for s in function.docstring.parsed}
        params = [p.name for p in function.parameters if p.name not in ("self", "cls")]
        documented = [p.name for p in getattr(sections.get("parameters"), "value", [])]
        if documented != params:
            problems.append(f"{name}: Args lists {documented}, the signature has {params}")
        if str(function.returns) != "None" and "returns" not in sections:
            problems.append(f"{name}: no Returns section")
    assert problems == []
