"""The public API and its reference stay in step: the reference documents exactly the names
each public module's ``__all__`` lists, each has a docstring (as the reference shows it), and
no other module exports anything."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import subprocess
import sys

import pytest
import yaml

from cogarch.experiments.docsite.pages import API_PAGES, PUBLIC_MODULES, api_page, public_names
from tests.test_layers import module_files

from .snippets import ROOT

EXTRAS = {
    "cogarch.bridges.agent_framework": "agent_framework",
    "cogarch.bridges.inspect": "inspect_ai",
}


def _documented(page: str) -> dict[str, list[str]]:
    """Each ``::: module`` directive of a page with the members it lists."""
    out: dict[str, list[str]] = {}
    for block in re.split(r"^(?=::: )", page, flags=re.M)[1:]:
        module = block.split("\n", 1)[0].removeprefix("::: ").strip()
        out[module] = re.findall(r"^ {8}- (\S+)$", block, flags=re.M)
    return out


@pytest.mark.parametrize("key", sorted(API_PAGES))
def test_each_page_documents_its_module_and_exactly_its_public_names(key: str) -> None:
    module, title = API_PAGES[key]
    names = public_names(module)
    assert names, f"{module} lists no public names"
    assert _documented(api_page(module, title)) == {module: names}


def test_the_site_lists_every_api_page_and_no_other() -> None:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = re.sub(r"!!python/\S+", "", text)  # the theme's tags need no loader here
    pages = re.findall(r"reference/api/([\w-]+)\.md", str(yaml.safe_load(text)["nav"]))
    assert sorted(pages) == sorted(API_PAGES)


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_every_public_name_is_there_at_run_time_with_a_docstring(module: str) -> None:
    if module in EXTRAS:
        pytest.importorskip(EXTRAS[module])
    mod = importlib.import_module(module)
    assert list(mod.__all__) == public_names(module)
    for name in mod.__all__:
        value = getattr(mod, name)
        assert not inspect.ismodule(value), f"{module}.{name} is a submodule's name too"
        if inspect.isclass(value) or inspect.isroutine(value):
            assert inspect.getdoc(value), f"{module}.{name} has no docstring"


def test_every_public_name_has_a_docstring_in_the_reference() -> None:
    """What mkdocstrings shows, constants' doc strings included, read as it reads them."""
    griffe = pytest.importorskip("griffe")
    package = griffe.load("cogarch", search_paths=[str(ROOT)], resolve_aliases=True)
    missing = []
    for module in PUBLIC_MODULES:
        owner = package if module == "cogarch" else package[module.removeprefix("cogarch.")]
        for name in public_names(module):
            docstring = owner[name].docstring
            if docstring is None or not docstring.value.strip():
                missing.append(f"{module}.{name}")
    assert missing == []


def _defines_all(source: str) -> bool:
    return any(
        isinstance(name, ast.Name) and name.id == "__all__"
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign)
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        for name in (t.elts if isinstance(t, ast.Tuple) else [t])
    )


def test_no_internal_module_defines_all() -> None:
    exporting = sorted(
        name
        for name, path in module_files().items()
        if _defines_all(path.read_text(encoding="utf-8"))
    )
    assert exporting == sorted(PUBLIC_MODULES)


def test_an_all_is_found_however_it_is_assigned() -> None:
    assert _defines_all('__all__ = ["a"]')
    assert _defines_all("__all__: list[str] = []")
    assert _defines_all("__all__ += ['b']")
    assert _defines_all("__all__, __getattr__ = lazy_module(__name__)")
    assert not _defines_all("def f():\n    __all__ = []\n")


def test_importing_the_public_modules_loads_no_model_layer_or_pydantic() -> None:
    code = (
        "import sys, cogarch, cogarch.core, cogarch.models, cogarch.workspace, "
        "cogarch.memory, cogarch.tasks, cogarch.experiments, cogarch.testing, "
        "cogarch.bridges.inspect\n"
        "heavy = ('pydantic', 'autogen_core', 'numpy', 'inspect_ai', 'cogarch.core.task')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or m in heavy))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_a_lazy_name_is_the_object_its_file_defines() -> None:
    from cogarch.core import Task
    from cogarch.core.task import Task as defined

    assert Task is defined
    with pytest.raises(AttributeError, match="has no attribute 'judge'"):
        importlib.import_module("cogarch.core").judge  # noqa: B018
