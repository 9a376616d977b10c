"""MkDocs hook: the reference pages, written from the code at every build.

``cogarch.experiments.docsite.pages.reference_pages`` reads the run-config models, the
registered tasks, memory modules and specialists, the ready-made agents, the CLI parser and
the public modules' names; each page is added to the build as a generated file, so nothing
under ``docs/reference`` is kept in git.
The repository root comes first on ``sys.path``, so a checkout documents its own code.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def on_config(config: Any) -> Any:
    """List every ready-made agent's page under the nav's ready-made agents entry."""
    from cogarch.workspace.registry import ready_made_agents

    index = "reference/agents/index.md"
    pages = [index, *(f"reference/agents/{name}.md" for name in ready_made_agents())]
    _replace(config["nav"] or [], index, pages)
    return config


def _replace(nav: list[Any], target: str, pages: list[str]) -> bool:
    for i, item in enumerate(nav):
        if isinstance(item, dict):
            for title, value in item.items():
                if value == target:
                    nav[i] = {title: pages}
                    return True
                if isinstance(value, list) and _replace(value, target, pages):
                    return True
    return False


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    from cogarch.experiments.docsite.pages import reference_pages

    for path, text in reference_pages().items():
        files.append(File.generated(config, path, content=text))
    return files
