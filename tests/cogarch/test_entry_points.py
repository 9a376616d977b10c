"""An installed package adds components by short name through setuptools entry points: a tiny
package written here, pip-installed into a folder of its own, adds a memory module, a
specialist, a task, a provider kind and a metric that an agent spec, a run config and the
registries then name;
a name that clashes with a built-in one, or that two packages declare, is refused."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cogarch.core import MemoryModule
from cogarch.errors import UnknownNameError
from cogarch.registry import ENTRY_POINT_GROUPS, Registry

ROOT = Path(__file__).resolve().parents[2]

PYPROJECT = """
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "cogarch-tiny-notes"
version = "0.1.0"

[project.entry-points."cogarch.memories"]
tiny_notes = "tiny_notes:TinyNotes"

[project.entry-points."cogarch.specialists"]
tiny_responder = "tiny_notes:TinyResponder"

[project.entry-points."cogarch.tasks"]
tiny_hangman = "tiny_notes:TinyHangman"

[project.entry-points."cogarch.providers"]
tiny_fake = "tiny_notes:TinyFake"

[project.entry-points."cogarch.metrics"]
tiny_turns = "tiny_notes:tiny_turns"

[tool.setuptools]
py-modules = ["tiny_notes"]
"""

MODULE = '''
"""A memory that keeps the last user message, and other components under new names."""
from typing import Any, ClassVar

from cogarch.core import MemoryModule
from cogarch.metrics import metric
from cogarch.models.provider_kinds import FakeProvider
from cogarch.tasks.hangman.task import HangmanSCT
from cogarch.workspace.specialists.responder import Responder


class TinyNotes(MemoryModule):
    kind: ClassVar[str] = "tiny_notes"

    def __init__(self, params: Any = None) -> None:
        self.last = ""

    async def ingest(self, turn, ctx) -> None:
        self.last = turn.user

    def render(self, budget_tokens=None) -> str:
        return f"Last said: {self.last}" if self.last else ""

    def save_state(self) -> dict:
        return {"kind": self.kind, "last": self.last}

    def load_state(self, state: dict) -> None:
        self.last = str(self.check_state_kind(state)["last"])


class TinyResponder(Responder):
    kind: ClassVar[str] = "tiny_responder"


class TinyHangman(HangmanSCT):
    kind: ClassVar[str] = "tiny_hangman"


class TinyFake(FakeProvider):
    pass


@metric(direction="lower")
def tiny_turns(record):
    """Turns the trial played."""
    return len(record.turns)
'''

CHECK = """
import asyncio, json
from cogarch.experiments.running.run_config import RunConfig
from cogarch.memory import MEMORY_MODULES
from cogarch.metrics import METRICS, resolve_metric
from cogarch.models import FunctionModel, Model, Providers
from cogarch.models.providers import PROVIDER_KINDS
from cogarch.tasks import TASKS
from cogarch.workspace import SPECIALISTS, build_agent
from cogarch.workspace.spec import AgentSpec

spec = AgentSpec.model_validate({
    "name": "tiny",
    "memory": {"notes": {"kind": "tiny_notes"}},
    "specialists": {
        "retrieval": {"kind": "retrieval", "memory": "notes"},
        "responder": {"kind": "tiny_responder", "prompt": "Be brief. {notes}"},
    },
    "edges": ["retrieval -> responder"],
    "entry": "retrieval",
})
seen = []
def model(messages, info):
    seen.append(messages[0].content)
    return "Noted."
providers = Providers()
providers.register("echo", Model(FunctionModel(model), provider="echo", model="e", fake=True))
agent = build_agent(spec, providers.get, provider="echo", seed=1)
async def play():
    for text in ("My cat is Tomasz.", "Hello again."):
        await agent.respond(text)
asyncio.run(play())
print(json.dumps({
    "prompt": seen[-1],
    "memories": MEMORY_MODULES.plugins(),
    "task": TASKS.get("tiny_hangman").kind,
    "specialist": SPECIALISTS.get("tiny_responder").__name__,
    "provider": PROVIDER_KINDS.get("tiny_fake").__name__,
    "metrics": METRICS.plugins(),
    "metric": resolve_metric("tiny_turns").direction,
    "attached": RunConfig.model_validate({
        "name": "x", "task": {"kind": "tiny_hangman"}, "agents": [{"agent": "vanilla"}],
        "metrics": ["tiny_turns"],
    }).metrics,
}))
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The tiny package, built and installed (no network, no dependencies) into a folder."""
    root = tmp_path_factory.mktemp("entry_points")
    source, target = root / "tiny", root / "site"
    source.mkdir()
    (source / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (source / "tiny_notes.py").write_text(textwrap.dedent(MODULE), encoding="utf-8")
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"),
            *("--no-build-isolation", "--disable-pip-version-check", "--target", str(target)),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    yield target
    shutil.rmtree(root)


def test_an_installed_package_adds_a_memory_specialist_task_provider_and_metric_by_name(
    installed: Path,
) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(installed), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["prompt"] == "Be brief. Last said: My cat is Tomasz."
    assert found["memories"] == {"tiny_notes": "cogarch-tiny-notes"}
    assert found["task"] == "tiny_hangman"
    assert found["specialist"] == "TinyResponder"
    assert found["provider"] == "TinyFake"
    assert found["metrics"] == {"tiny_turns": "cogarch-tiny-notes"}
    assert (found["metric"], found["attached"]) == ("lower", ["tiny_turns"])


@dataclass(frozen=True)
class Point:
    """What the registry reads of an ``importlib.metadata.EntryPoint``."""

    name: str
    value: str
    group: str
    dist: Any


def _points(monkeypatch: pytest.MonkeyPatch, *points: tuple[str, str, str]) -> None:
    """Entry points as installed packages would declare them: (package, name, value)."""

    made = [
        Point(name, value, "cogarch.memories", SimpleNamespace(name=package))
        for package, name, value in points
    ]

    def entry_points(group: str) -> list[Point]:
        return [p for p in made if p.group == group]

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)


def _memories() -> Registry[type[MemoryModule]]:
    registry: Registry[type[MemoryModule]] = Registry(
        "memory module", base=MemoryModule, entry_points=ENTRY_POINT_GROUPS["memory module"]
    )
    registry.register("mem0", "cogarch.memory.retrieval.mem0:Mem0Memory")
    return registry


def test_a_name_clashing_with_a_built_in_one_is_refused_naming_the_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _points(monkeypatch, ("cogarch-mine", "mem0", "mine:Mem0"))
    with pytest.raises(UnknownNameError, match=r"cogarch-mine declares the memory module 'mem0'"):
        _memories().get("mem0")


def test_a_name_two_packages_declare_is_refused_naming_both(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _points(monkeypatch, ("pkg-a", "notes", "a:Notes"), ("pkg-b", "notes", "b:Notes"))
    with pytest.raises(UnknownNameError, match="declared by two installed packages, pkg-a and"):
        _memories().names()


def test_an_entry_point_that_is_not_a_memory_module_is_refused_naming_its_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _points(monkeypatch, ("pkg-a", "notes", "cogarch.errors:ConfigError"))
    registry = _memories()
    assert registry.names() == ["mem0", "notes"]
    with pytest.raises(UnknownNameError, match=r"package pkg-a declares.*not a subclass"):
        registry.get("notes")
