"""Every YAML file a user gives (run configs, agent specs, provider files) is read by one
loader, which refuses a recursive alias, or aliases nested past the depth limit once
expanded, in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.config import read_yaml
from cogarch.errors import ConfigError
from cogarch.experiments.cli.command import main
from cogarch.experiments.running.run_config import load_run_config
from cogarch.workspace.spec import load_agent_spec

RECURSIVE = [
    "name: &x [*x]\n",
    "name: &x {a: *x}\n",
    "a: &x {b: [1, {c: *x}]}\n",
    "a: &x {<<: *x, b: 1}\n",
    "name: &x [[[[*x]]]]\n",
]


def deep_by_aliases(levels: int = 30) -> str:
    """Each anchor nests the one before two levels deeper: shallow as written, deep expanded."""
    lines = ["a0: &a0 [1]"]
    lines += [f"a{i}: &a{i} [[*a{i - 1}]]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def write(tmp_path: Path, text: str, name: str = "c.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text", RECURSIVE)
def test_a_recursive_alias_is_refused_in_one_line(tmp_path: Path, text: str) -> None:
    with pytest.raises(ConfigError, match="recursive alias") as info:
        read_yaml(write(tmp_path, text))
    assert len(str(info.value).splitlines()) == 1
    assert "line 1" in str(info.value)


def test_aliases_nested_past_the_limit_once_expanded_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="deeper than 50 levels once aliases") as info:
        read_yaml(write(tmp_path, deep_by_aliases()))
    assert len(str(info.value).splitlines()) == 1


def test_shared_aliases_that_do_not_loop_still_load(tmp_path: Path) -> None:
    text = "a: &a {x: [1, 2]}\nb: &b [*a, *a]\nc: [*b, *b, {<<: *a, y: 3}]\n"
    data = read_yaml(write(tmp_path, text))
    assert data["c"][0][1] == {"x": [1, 2]} and data["c"][2] == {"x": [1, 2], "y": 3}


@pytest.mark.parametrize("text", RECURSIVE[:2])
def test_run_configs_agent_specs_and_provider_files_refuse_it(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, text)
    spec = write(tmp_path, "description: &d [*d]\n", "spec.yaml")
    for load in (load_run_config, load_agent_spec):
        with pytest.raises(ConfigError, match="recursive alias"):
            load(spec if load is load_agent_spec else path)


@pytest.mark.parametrize(
    "command",
    [["run", "{}"], ["run", "{}", "--dry-run"], ["models", "--config", "{}", "--no-check"]],
)
def test_the_commands_answer_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    path = write(tmp_path, RECURSIVE[0])
    assert main([part.format(path) for part in command]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "recursive alias" in err
