"""The generated reference pages follow the code: every registered task's, memory module's and
specialist's Params, every run-config field, every ready-made agent and every CLI command."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, Field

from cogarch.experiments.cli.command import build_parser
from cogarch.experiments.docsite import pages
from cogarch.experiments.docsite.fields import fields_table, nested_models
from cogarch.experiments.running.run_config import RunConfig
from cogarch.memory.registry import MEMORY_MODULES
from cogarch.tasks.registry import TASKS
from cogarch.workspace.registry import SPECIALISTS, ready_made_agents

ROW = "| `probe_level` | `int` | `3` | ≥ 1, ≤ 9 | Added by the test: {where}. |"


def _with_probe(cls: Any, where: str) -> type[BaseModel]:
    base = getattr(cls, "Params", None) or BaseModel
    return type(
        "ProbeParams",
        (base,),
        {
            "__annotations__": {"probe_level": int},
            "probe_level": Field(default=3, ge=1, le=9, description=f"Added by the test: {where}."),
        },
    )


@pytest.mark.parametrize("kind", TASKS.names())
def test_a_field_added_to_any_task_params_is_listed(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cls = TASKS.get(kind)
    monkeypatch.setattr(cls, "Params", _with_probe(cls, kind))
    section = pages.tasks_page().split(f"## `{kind}`", 1)[1].split("\n## ", 1)[0]
    assert ROW.format(where=kind) in section


@pytest.mark.parametrize(
    ("registry", "page"),
    [(MEMORY_MODULES, pages.memory_page), (SPECIALISTS, pages.specialists_page)],
    ids=["memory", "specialists"],
)
def test_a_field_added_to_any_memory_or_specialist_params_is_listed(
    registry: Any, page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    for kind in registry.names():
        cls = registry.get(kind)
        monkeypatch.setattr(cls, "Params", _with_probe(cls, kind), raising=False)
    text = page()
    for kind in registry.names():
        section = text.split(f"## `{kind}`", 1)[1].split("\n## ", 1)[0]
        assert ROW.format(where=kind) in section, kind


def test_a_newly_registered_task_gets_its_own_section(monkeypatch: pytest.MonkeyPatch) -> None:
    cls = TASKS.get("revision")
    probe = type("ProbeTask", (cls,), {"Params": _with_probe(cls, "a new task")})
    monkeypatch.setitem(TASKS._entries, "probe_task", probe)
    assert "## `probe_task`" in pages.tasks_page()


def test_every_run_config_field_is_in_the_config_reference() -> None:
    text = pages.run_config_page()
    queue: list[type[BaseModel]] = [RunConfig]
    seen: set[type[BaseModel]] = set()
    while queue:
        model = queue.pop()
        if model in seen:
            continue
        seen.add(model)
        assert f"## `{model.__name__}`" in text
        for name, field in model.model_fields.items():
            assert f"| `{field.alias or name}` |" in text, (model.__name__, name)
        queue += nested_models(model)
    assert "| `trials` | `int` | `5` | ≥ 1, ≤ 100000 | Trials per agent. |" in text


def test_a_table_shows_type_default_bounds_and_description() -> None:
    class Sample(BaseModel):
        size: int = Field(default=4, gt=0, lt=10, description="How big | how wide.")
        names: list[str] = Field(default_factory=list, min_length=1)
        mode: str | None = None
        needed: float

    lines = fields_table(Sample).splitlines()
    assert lines[2] == "| `size` | `int` | `4` | > 0, < 10 | How big \\| how wide. |"
    assert lines[3] == "| `names` | `list[str]` | `[]` | length ≥ 1 | — |"
    assert lines[4] == "| `mode` | `str \\| None` | `null` | — | — |"
    assert lines[5] == "| `needed` | `float` | `required` | — | — |"


def test_every_ready_made_agent_has_a_page_with_its_description_and_drawing() -> None:
    for name in ("workflow", "episodex"):
        page, svg = pages.agent_page(name)
        assert f"agent {name}\n  entry:" in page and f"({name}.svg)" in page
        assert svg.startswith("<svg") and "data-node" in svg
    index = pages.agents_index(list(ready_made_agents()))
    assert all(f"[`{name}`]({name}.md)" in index for name in ready_made_agents())


def test_every_command_and_option_of_the_cli_is_listed() -> None:
    text = pages.cli_page()
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices  # type: ignore[union-attr]
    assert commands
    for name, sub in commands.items():
        assert f"## `cogarch {name}`" in text
        for action in sub._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}" in text, (name, flag)
