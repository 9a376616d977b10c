"""A library module whose library is absent, or of a refused version, says which command
brings a working one; the switches that keep the libraries offline are set."""

from __future__ import annotations

import os
import re

import pytest

from cogarch.errors import ConfigError
from cogarch.memory.registry import check_memory
from cogarch.memory.retrieval.libs import offline
from cogarch.memory.retrieval.libs.offline import MEMORYOS, Library, missing


def test_a_missing_library_names_its_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Library, "version", lambda self: None)
    assert missing("mem0") is None  # cogarch's own module needs no library
    assert missing("memoryos_lib") == (
        f"memoryos-pro is not installed; install it with `{MEMORYOS.install}`"
    )
    with pytest.raises(
        ConfigError, match=r"needs the mem0ai library.*pip install -e '\.\[mem0-lib\]'"
    ):
        check_memory("mem0_lib", {})
    with pytest.raises(ConfigError, match=re.escape("--no-deps 'memoryos-pro==0.1.0'")):
        check_memory("memoryos_lib", {})


def test_a_refused_version_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Library, "version", lambda self: "2.2.1")
    assert missing("mem0_lib") == (
        "mem0ai is 2.2.1, unsupported; install it with `pip install -e '.[mem0-lib]'`"
    )
    with pytest.raises(ConfigError, match="tries to download a spaCy model"):
        check_memory("mem0_lib", {})


def test_the_offline_switches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEM0_TELEMETRY", "True")
    home = offline.offline_environment()
    assert os.environ["MEM0_TELEMETRY"] == "False"
    assert os.environ["HF_HUB_OFFLINE"] == "1" and os.environ["ANONYMIZED_TELEMETRY"] == "False"
    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"
    assert home.is_dir()
