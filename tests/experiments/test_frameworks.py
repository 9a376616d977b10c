"""Agents of other frameworks in a run config: without the framework's extra, the run is
refused before any trial with the command that installs it."""

from __future__ import annotations

import sys

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.frameworks import FrameworkAgentSpec, framework_builder
from cogarch.experiments.run_config import AgentEntry


def test_a_framework_agent_without_its_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "cogarch.bridges.agent_framework.hosting", None)
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
