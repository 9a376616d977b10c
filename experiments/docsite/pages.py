"""Every generated reference page, as ``{path under docs/: Markdown}``.

Read from the code each time: the run-config models, the registered tasks', memory modules'
and specialists' ``Params``, the ready-made agent specs (described and drawn as ``cogarch
agents NAME`` and ``agent.draw()`` do), the ``cogarch`` command's parser and the Python API
(mkdocstrings directives). A field added to a model, or a task registered, shows up in the
next build with no edit under ``docs/``.
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from cogarch import lazy

from .fields import fields_table, nested_models

PREFIX = "reference"
GENERATED_NOTE = (
    "<!-- Generated from the code when the site is built "
    "(cogarch.experiments.docsite); do not edit. -->\n\n"
)

API_PAGES: dict[str, tuple[str, str]] = {
    "cogarch": ("cogarch", "Errors, the version, and the model layer's main names"),
    "core": ("cogarch.core", "Tasks, hosts and memory modules"),
    "models": ("cogarch.models", "Models and providers"),
    "workspace": ("cogarch.workspace", "Agents and specialists"),
    "memory": ("cogarch.memory", "Memory modules by kind"),
    "tasks": ("cogarch.tasks", "Tasks by kind"),
    "metrics": ("cogarch.metrics", "Metrics by name"),
    "experiments": ("cogarch.experiments", "Runs, suites and reports"),
    "testing": ("cogarch.testing", "Test servers"),
    "agent-framework": ("cogarch.bridges.agent_framework", "Microsoft Agent Framework"),
    "inspect": ("cogarch.bridges.inspect", "Inspect AI"),
}
"""The public modules, by their page under ``reference/api``: what a user may rely on is what
their ``__all__`` lists; every other module is internal and exports nothing."""
PUBLIC_MODULES = tuple(module for module, _ in API_PAGES.values())


def _models_section(roots: Iterable[type[BaseModel]], level: str = "##") -> str:
    """Each model and every model its fields hold, one table each."""
    queue, seen, out = list(roots), [], []
    while queue:
        model = queue.pop(0)
        if model in seen:
            continue
        seen.append(model)
        doc = (model.__doc__ or "").strip()
        if doc.startswith("!!! abstract") or "BaseModel" in doc.split("\n", 1)[0]:
            doc = ""
        out.append(f"{level} `{model.__name__}`\n\n" + (f"{doc}\n\n" if doc else ""))
        out.append(fields_table(model) + "\n")
        queue += [m for m in nested_models(model) if m not in seen]
    return "".join(out)


def run_config_page() -> str:
    from cogarch.experiments.running.run_config import RunConfig
    from cogarch.models.providers import ProviderConfig

    return (
        GENERATED_NOTE
        + "# Run config\n\nThe file `cogarch run CONFIG` reads: one `RunConfig`, validated "
        "before any trial runs (unknown keys, wrong types and values out of bounds are one "
        "line each, naming the key). The task's own keys sit beside `kind` in `task:`; "
        "they are listed per task under [Task parameters](tasks.md). A provider entry is "
        "validated by its kind's own `Params`: `ProviderConfig` for the built-in kinds "
        "(`openai`, `local`, `fake`), a `ProviderSettings` subclass for a kind of your own "
        "([A model provider of your own](../guides/custom-provider.md)).\n\n"
        + _models_section([RunConfig, ProviderConfig])
    )


def suite_config_page() -> str:
    from cogarch.core.leaderboard import LeaderboardMetric
    from cogarch.experiments.suites.config import SuiteConfig

    return (
        GENERATED_NOTE
        + "# Suite config\n\nThe file `cogarch suite CONFIG` reads: one `SuiteConfig`, "
        "validated, with every cell's run config and every behaviour-named fake checked, "
        "before any cell runs. Agents and providers take the entries of a "
        "[run config](run-config.md); each task is a run config's `task:` entry with a "
        "`name`, its own `trials`, `helper_provider` and `fakes` beside its parameters "
        "([Compare memory architectures](../guides/compare-memory.md)). A task's "
        "leaderboard metrics are declared on its class as `LeaderboardMetric`s.\n\n"
        + _models_section([SuiteConfig, LeaderboardMetric])
    )


def _params_of(cls: Any) -> type[BaseModel] | None:
    params = getattr(cls, "Params", None)
    return params if isinstance(params, type) and issubclass(params, BaseModel) else None


def _doc_line(cls: Any) -> str:
    doc = (cls.__doc__ or "").strip()
    return " ".join(doc.split("\n\n", 1)[0].split()) if doc else ""


def _registry_page(title: str, intro: str, entries: dict[str, Any], where: str) -> str:
    out = [GENERATED_NOTE, f"# {title}\n\n{intro}\n\n"]
    for name, cls in entries.items():
        out.append(f"## `{name}`\n\n")
        line = _doc_line(cls)
        out.append(
            f"`{cls.__module__}.{cls.__qualname__}`" + (f": {line}" if line else "") + "\n\n"
        )
        params = _params_of(cls)
        if params is None:
            out.append(f"No parameters beyond `{where}`.\n\n")
        else:
            out.append(_models_section([params], level="###").replace("### `Params`\n\n", ""))
    return "".join(out)


def tasks_page() -> str:
    from cogarch.tasks.registry import TASKS

    return _registry_page(
        "Task parameters",
        "Each registered task by its `kind`, with the keys it takes in a run config's `task:` "
        "section (its `Params`). A task of your own is named by import path or file instead "
        "(see [Your own task](../guides/extending.md)).",
        {name: TASKS.get(name) for name in TASKS.names()},
        "kind",
    )


def memory_page() -> str:
    from cogarch.memory.registry import MEMORY_MODULES

    return _registry_page(
        "Memory modules",
        "Each registered memory module by its `kind`, with the parameters an agent spec's "
        "`memory:` entry takes (its `Params`).",
        {name: MEMORY_MODULES.get(name) for name in MEMORY_MODULES.names()},
        "kind",
    )


def specialists_page() -> str:
    from cogarch.workspace.registry import SPECIALISTS

    return _registry_page(
        "Specialists",
        "Each registered specialist by its `kind`, with the parameters an agent spec's "
        "`specialists:` entry takes (its `Params`; `provider` names the model it calls).",
        {name: SPECIALISTS.get(name) for name in SPECIALISTS.names()},
        "kind and provider",
    )


def agent_page(name: str) -> tuple[str, str]:
    """A ready-made agent's page and its drawing (SVG)."""
    from cogarch.workspace.describe import format_description, layout_from_description
    from cogarch.workspace.layout import to_svg
    from cogarch.workspace.spec import describe_spec, load_agent_spec

    spec = load_agent_spec(name)
    desc = describe_spec(spec)
    params = ", ".join(f"`{k}: {v}`" for k, v in spec.params.items()) or "none"
    text = (
        f"# `{name}`\n\n{' '.join((spec.description or '').split())}\n\n"
        f"**Parameters** (`params:` in a run config's agent entry): {params}\n\n"
        f"![transition graph of {name}]({name}.svg)\n\n"
        f"What `cogarch agents {name}` prints:\n\n"
        f"```text\n{format_description(desc)}\n```\n"
    )
    return GENERATED_NOTE + text, to_svg(layout_from_description(desc))


def agents_index(names: list[str]) -> str:
    from cogarch.workspace.spec import load_agent_spec

    rows = ["| agent | what it is | parameters |", "| --- | --- | --- |"]
    for name in names:
        spec = load_agent_spec(name)
        first = " ".join((spec.description or "").split()).split(". ")[0]
        params = ", ".join(f"`{k}`" for k in spec.params) or "—"
        rows.append(f"| [`{name}`]({name}.md) | {first.rstrip('.')}. | {params} |")
    return (
        GENERATED_NOTE
        + "# Ready-made agents\n\nThe specs shipped in `workspace/agents/*.yaml`; name one in "
        "a run config's `agent:` or pass it to `load_agent_spec`.\n\n" + "\n".join(rows) + "\n"
    )


def cli_page() -> str:
    from cogarch.experiments.cli.command import build_parser

    parser = build_parser()
    out = [
        GENERATED_NOTE,
        "# The `cogarch` command\n\n",
        "`cogarch COMMAND ...` (or `python -m cogarch.experiments COMMAND ...`).\n\n",
    ]
    for action in parser._subparsers._group_actions if parser._subparsers else []:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {a.dest: a.help or "" for a in action._choices_actions}
        for name, sub in action.choices.items():
            out.append(f"## `cogarch {name}`\n\n{helps.get(name, '')}\n\n")
            out.append(f"```text\n{sub.format_usage().strip()}\n```\n\n")
            rows = ["| argument | default | help |", "| --- | --- | --- |"]
            for arg in sub._actions:
                if isinstance(arg, argparse._HelpAction):
                    continue
                flag = ", ".join(arg.option_strings) or arg.dest
                if arg.choices:
                    flag += " {" + ",".join(map(str, arg.choices)) + "}"
                default = "" if arg.default in (None, False) else f"`{arg.default}`"
                text = " ".join((arg.help or "").split()).replace("|", "\\|")
                rows.append(f"| `{flag}` | {default} | {text} |")
            out.append("\n".join(rows) + "\n\n")
    return "".join(out)


def public_names(module: str) -> list[str]:
    """The names a public module exports, read from its source as its ``__all__`` is
    (:func:`cogarch.lazy.public_names`; importing it would need a bridge's extra)."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise ValueError(f"public module '{module}' is not found")
    names, _ = lazy.public_names(Path(spec.origin).read_text(encoding="utf-8"))
    if not names:
        raise ValueError(f"public module '{module}' exports no names")
    return names


def api_page(module: str, title: str) -> str:
    """The module's public names, rendered by mkdocstrings, and nothing else."""
    members = "".join(f"        - {name}\n" for name in public_names(module))
    return (
        GENERATED_NOTE
        + f"# `{module}`: {title}\n\n::: {module}\n    options:\n      members:\n{members}"
    )


def reference_pages() -> dict[str, str]:
    """Every generated page by its path under ``docs/`` (text: Markdown or SVG)."""
    from cogarch.workspace.registry import ready_made_agents

    pages = {
        f"{PREFIX}/run-config.md": run_config_page(),
        f"{PREFIX}/suite-config.md": suite_config_page(),
        f"{PREFIX}/tasks.md": tasks_page(),
        f"{PREFIX}/memory.md": memory_page(),
        f"{PREFIX}/specialists.md": specialists_page(),
        f"{PREFIX}/cli.md": cli_page(),
    }
    names = list(ready_made_agents())
    pages[f"{PREFIX}/agents/index.md"] = agents_index(names)
    for name in names:
        page, svg = agent_page(name)
        pages[f"{PREFIX}/agents/{name}.md"] = page
        pages[f"{PREFIX}/agents/{name}.svg"] = svg
    for key, (module, title) in API_PAGES.items():
        pages[f"{PREFIX}/api/{key}.md"] = api_page(module, title)
    return pages
