"""Agents of other frameworks in a run config: their host builder is found by framework name
or import path, and loaded only then; without the framework's extra, the run is refused
before any trial with the command that installs it."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from pydantic import ValidationError

from cogarch.errors import ConfigError, UnknownNameError
from cogarch.experiments.running import frameworks
from cogarch.experiments.running.framework_hosts import FRAMEWORKS
from cogarch.experiments.running.frameworks import FrameworkAgentSpec, framework_builder
from cogarch.experiments.running.run_config import AgentEntry
from cogarch.registry import Registry

AGENT_FRAMEWORK = "cogarch.bridges.agent_framework.hosting:FrameworkAgentBuilder"


def test_a_framework_agent_without_its_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "cogarch.bridges.agent_framework.hosting", None)
    fresh = Registry("agent framework")  # the run's registry may hold the builder already
    fresh.register("agent-framework", AGENT_FRAMEWORK)
    monkeypatch.setattr(frameworks, "FRAMEWORKS", fresh)
    entry = AgentEntry.model_validate(
        {"name": "mine", "agent": {"framework": "agent-framework", "factory": "pkg.mod:build"}}
    )
    with pytest.raises(ConfigError, match=r"pip install 'cogarch\[agent-framework\]'"):
        framework_builder(entry)


def test_a_framework_agent_is_recorded_with_its_params() -> None:
    entry = AgentEntry.model_validate(
        {
            "agent": {"framework": "agent-framework", "factory": "pkg.mod:build"},
            "params": {"style": "terse"},
        }
    )
    assert FrameworkAgentSpec.of(entry).model_dump() == {
        "framework": "agent-framework",
        "factory": "pkg.mod:build",
        "params": {"style": "terse"},
    }


class EchoBuilder:
    """A host builder of a framework of one's own, named by import path."""

    def __init__(self, factory: str, *, name: str, provider: str | None, params: Any) -> None:
        self.factory, self.name, self.provider, self.params = factory, name, provider, params


def test_a_framework_is_found_by_short_name_or_import_path() -> None:
    entry = AgentEntry.model_validate(
        {
            "agent": {"framework": f"{__name__}:EchoBuilder", "factory": "pkg.mod:build"},
            "provider": "p",
            "params": {"style": "terse"},
        }
    )
    builder = framework_builder(entry)
    assert isinstance(builder, EchoBuilder)
    assert (builder.factory, builder.name, builder.provider) == ("pkg.mod:build", "build", "p")
    assert builder.params == {"style": "terse"}


def test_the_runner_loads_no_bridge_until_a_run_names_a_framework() -> None:
    code = (
        "import sys, cogarch.experiments.running.worker, cogarch.experiments.cli.command; "
        "print(sorted(m for m in sys.modules if m.startswith('cogarch.bridges')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    assert "agent-framework" in FRAMEWORKS


def test_an_unknown_framework_lists_the_known_ones() -> None:
    with pytest.raises(
        ValidationError, match="unknown agent framework 'langchain'; valid names: agent"
    ):
        AgentEntry.model_validate({"agent": {"framework": "langchain", "factory": "pkg.mod:build"}})
    entry = AgentEntry.model_validate(
        {"agent": {"framework": "no_such_pkg.mod:Builder", "factory": "pkg.mod:build"}}
    )
    with pytest.raises(UnknownNameError, match=r"cannot import module 'no_such_pkg\.mod'"):
        framework_builder(entry)
