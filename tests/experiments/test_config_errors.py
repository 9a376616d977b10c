"""Configuration mistakes give one clear line per problem, naming the key; the CLI says
``error: ...`` and exits 2 without a traceback."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.cli.command import main
from cogarch.experiments.running.run_config import load_run_config
from cogarch.experiments.running.runner import Runner
from tests.experiments import hangman_run

REPO = Path(__file__).resolve().parents[2]

GOOD_RUN = hangman_run("cfg_test")


def write(tmp_path: Path, text: str, name: str = "run.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problem_lines(message: str) -> dict[str, str]:
    """``key -> message`` for every indented ``key: message`` line of a ConfigError."""
    found = {}
    for line in message.splitlines()[1:]:
        match = re.fullmatch(r"  (\S+): (.+)", line)
        assert match is not None, f"not a 'key: problem' line: {line!r}"
        found[match[1]] = match[2]
    return found


def config_error(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        Runner(load_run_config(path), progress=False)
    return str(info.value)


def cli_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ")
    assert "Traceback" not in captured.err
    return captured.err


# -- YAML syntax ---------------------------------------------------------------------------


def test_invalid_yaml_names_the_line_and_column(tmp_path: Path) -> None:
    message = config_error(tmp_path, GOOD_RUN.replace("hangman.honest}", "hangman.honest"))
    assert re.search(r"'.*run\.yaml' is not valid YAML at line \d+, column \d+: ", message)
    assert "expected ',' or '}'" in message


def test_invalid_yaml_position_is_the_one_yaml_reports(tmp_path: Path) -> None:
    message = config_error(tmp_path, "name: x\ntask:\n  kind: [hangman\n  t_fork: 3\n")
    line, column = map(int, re.findall(r"line (\d+), column (\d+)", message)[0])
    assert (line, column) == (4, 9)


def test_a_top_level_list_is_refused(tmp_path: Path) -> None:
    assert "must hold a mapping of keys at the top level" in config_error(tmp_path, "- a\n- b\n")


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist; check the path"):
        load_run_config(tmp_path / "nope.yaml")


# -- the run config --------------------------------------------------------------------------


def test_every_problem_of_a_run_config_gets_its_own_line(tmp_path: Path) -> None:
    text = """\
name: cfg_test
task: {kind: hangman_sct}
trials: many
seed: -1
concurency: 3
concurrency: 0
agents:
  - {agent: vanilla, provider: p, colour: red}
"""
    message = config_error(tmp_path, text)
    assert message.splitlines()[0].startswith("invalid configuration in ")
    assert "run.yaml" in message.splitlines()[0]
    problems = problem_lines(message)
    assert set(problems) == {"trials", "seed", "concurency", "concurrency", "agents.0.colour"}
    assert "valid integer" in problems["trials"] and "'many'" in problems["trials"]
    assert "greater than or equal to 0" in problems["seed"]
    assert "greater than or equal to 1" in problems["concurrency"]
    assert problems["concurency"].startswith("unknown key")
    assert problems["agents.0.colour"].startswith("unknown key")


def test_missing_required_keys_are_named(tmp_path: Path) -> None:
    problems = problem_lines(config_error(tmp_path, "trials: 2\n"))
    assert problems == {
        "name": "required key is missing",
        "task": "required key is missing",
        "agents": "required key is missing",
    }


def test_an_empty_agent_list_and_repeated_names_are_refused(tmp_path: Path) -> None:
    problems = problem_lines(config_error(tmp_path, GOOD_RUN.split("agents:")[0] + "agents: []\n"))
    assert set(problems) == {"agents"}
    text = GOOD_RUN + "  - {agent: workflow, name: vanilla, provider: p}\n"
    assert "agent names must be unique; repeated: vanilla" in config_error(tmp_path, text)


def test_task_parameters_are_checked(tmp_path: Path) -> None:
    text = GOOD_RUN.replace("t_fork: 3}", "t_fork: 0, n_candidates: 1, bogus: 1}")
    problems = problem_lines(config_error(tmp_path, text))
    assert set(problems) == {"task.t_fork", "task.n_candidates", "task.bogus"}
    assert problems["task.bogus"].startswith("unknown key")
    message = config_error(tmp_path, GOOD_RUN.replace("kind: hangman_sct", "kind: hangmann"))
    assert message.startswith("unknown task 'hangmann'; valid names: ")
    assert "hangman_sct" in message and "diagnosis_sct" in message


# -- provider blocks ------------------------------------------------------------------------


def test_every_problem_of_a_provider_block_gets_its_own_line(tmp_path: Path) -> None:
    providers = """\
providers:
  p: {kind: fake, fake: hangman.honest, temperature: 5, timeout: fast, unknown_field: 1,
      retry: {max_attempts: 0, base_delay_s: -1}}
  q: {kind: openai}
  r: {kind: banana}
  s: {kind: fake}
  t: {kind: local, n_ctx: 16, n_parallel: 99}
"""
    text = GOOD_RUN.replace("providers:\n  p: {kind: fake, fake: hangman.honest}\n", providers)
    problems = problem_lines(config_error(tmp_path, text))
    assert set(problems) == {
        "providers.p.temperature",
        "providers.p.timeout",
        "providers.p.unknown_field",
        "providers.p.retry.max_attempts",
        "providers.p.retry.base_delay_s",
        "providers.q",
        "providers.r.kind",
        "providers.s",
        "providers.t.n_ctx",
        "providers.t.n_parallel",
    }
    assert "less than or equal to 2" in problems["providers.p.temperature"]
    assert "needs 'model'" in problems["providers.q"]
    assert (
        "unknown provider kind 'banana'; valid names: fake, local, openai"
        in problems["providers.r.kind"]
    )
    unknown = problems["providers.p.unknown_field"]
    assert unknown.startswith("unknown key (remove it or check its spelling); valid keys of ")
    assert "provider kind 'fake': api_key_env, base_url, " in unknown and "temperature" in unknown
    assert "needs 'fake'" in problems["providers.s"] and "hangman.honest" in problems["providers.s"]


def test_an_unknown_provider_name_lists_the_valid_ones(tmp_path: Path) -> None:
    message = config_error(tmp_path, GOOD_RUN.replace("provider: p}", "provider: nope}"))
    assert message.startswith("unknown provider 'nope'; valid names: local, p.")
    text = GOOD_RUN.replace("cache: false\n", "cache: false\nhelper_provider: helper\n")
    assert "unknown provider 'helper'" in config_error(tmp_path, text)


def test_an_unknown_fake_name_is_found_before_any_trial(tmp_path: Path) -> None:
    message = config_error(tmp_path, GOOD_RUN.replace("hangman.honest", "hangman.honnest"))
    assert "unknown fake model 'hangman.honnest'" in message


def test_an_unset_api_key_variable_is_found_before_any_trial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COGARCH_TEST_UNSET_KEY", raising=False)
    provider = "{kind: openai, model: m, base_url: 'http://127.0.0.1:9/v1', "
    provider += "api_key_env: COGARCH_TEST_UNSET_KEY}"
    text = GOOD_RUN.replace("{kind: fake, fake: hangman.honest}", provider)
    assert "COGARCH_TEST_UNSET_KEY" in config_error(tmp_path, text)


# -- agent specs ----------------------------------------------------------------------------


def spec_run(tmp_path: Path, spec: str) -> str:
    write(tmp_path, spec, "agent.yaml")
    return GOOD_RUN.replace("agent: vanilla", f"agent: {tmp_path / 'agent.yaml'}")


def test_agent_spec_keys_are_checked(tmp_path: Path) -> None:
    spec = "name: mine\nspecialists:\n  responder: {kind: responder}\nentry: responder\n"
    bad = spec + "step_budget: 0\nextra_key: 1\nedges: 3\n"
    message = config_error(tmp_path, spec_run(tmp_path, bad))
    assert "agent.yaml" in message.splitlines()[0]
    problems = problem_lines(message)
    assert set(problems) == {"step_budget", "extra_key", "edges"}
    missing = problem_lines(config_error(tmp_path, spec_run(tmp_path, "name: mine\n")))
    assert missing == {
        "specialists": "required key is missing",
        "entry": "required key is missing",
    }


def test_specialist_parameters_are_checked_one_line_each(tmp_path: Path) -> None:
    spec = """\
name: mine
specialists:
  responder: {kind: responder, reasoning: loud, history: -1, colour: 1}
entry: responder
"""
    problems = problem_lines(config_error(tmp_path, spec_run(tmp_path, spec)))
    assert set(problems) == {
        "specialists.responder.reasoning",
        "specialists.responder.history",
        "specialists.responder.colour",
    }
    assert "'discard', 'private' or 'public'" in problems["specialists.responder.reasoning"]


def test_invalid_agent_yaml_names_the_line_and_column(tmp_path: Path) -> None:
    spec = "name: mine\nspecialists:\n  responder: {kind: responder\nentry: responder\n"
    message = config_error(tmp_path, spec_run(tmp_path, spec))
    assert re.search(r"agent\.yaml' is not valid YAML at line 4, column \d+", message)


def test_bad_edges_kinds_and_names_in_agent_specs(tmp_path: Path) -> None:
    spec = "name: mine\nspecialists:\n  responder: {kind: teleporter}\nentry: responder\n"
    message = config_error(tmp_path, spec_run(tmp_path, spec))
    assert message.startswith("unknown specialist 'teleporter'; valid names: ")
    assert "responder" in message
    arrow = (
        "name: mine\nspecialists:\n  responder: {kind: responder}\nentry: responder\n"
        "edges: ['responder => responder']\n"
    )
    message = config_error(tmp_path, spec_run(tmp_path, arrow))
    assert "edges" in message and "must look like 'a -> b'" in message
    message = config_error(tmp_path, GOOD_RUN.replace("agent: vanilla", "agent: vanila"))
    assert message.startswith("unknown agent 'vanila'; ready-made agents: ")
    assert "workflow" in message


def test_a_spec_and_its_own_code_are_found_beside_the_file_that_names_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "configs"
    folder.mkdir()
    spec = "name: mine\nspecialists:\n  responder: {kind: guard.py:Guard}\nentry: responder\n"
    write(folder, spec, "agent.yaml")
    write(folder, GOOD_RUN.replace("agent: vanilla", "agent: agent.yaml"))
    monkeypatch.chdir(tmp_path)  # elsewhere than the config: found beside it all the same
    config = load_run_config("configs/run.yaml")
    assert [(a.agent, a.label) for a in config.agents] == [("configs/agent.yaml", "agent.yaml")]
    with pytest.raises(ConfigError) as info:
        Runner(config, progress=False)
    assert str(info.value).startswith(
        "specialists.responder.kind in 'configs/agent.yaml' names the file 'guard.py', which "
        "is not there"
    )
    write(folder, GOOD_RUN.replace("agent: vanilla", "agent: other.yaml"))
    with pytest.raises(ConfigError) as refused:
        load_run_config("configs/run.yaml")
    assert str(refused.value).startswith("agent 'other.yaml' in 'configs/run.yaml' names")


def test_agent_parameters_are_checked(tmp_path: Path) -> None:
    text = GOOD_RUN.replace(
        "{agent: vanilla, provider: p}",
        "{agent: workflow, provider: p, params: {strategy: overwrite, colour: 2}}",
    )
    message = config_error(tmp_path, text)
    assert message == "agent 'workflow' has no parameter(s) colour; its parameters: strategy"
    text = GOOD_RUN.replace(
        "{agent: vanilla, provider: p}", "{agent: workflow, provider: p, params: {strategy: x}}"
    )
    problems = problem_lines(config_error(tmp_path, text))
    assert set(problems) == {"memory.working_memory.strategy"}


# -- through the command line ---------------------------------------------------------------


def test_the_cli_prints_error_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, GOOD_RUN.replace("trials: 1", "trials: -3"))
    err = cli_error(capsys, "run", str(bad), "--results-dir", str(tmp_path / "out"))
    assert "  trials: Input should be greater than or equal to 1" in err
    err = cli_error(capsys, "run", str(tmp_path / "missing.yaml"))
    assert "does not exist" in err
    broken = write(tmp_path, "name: [x\n", "broken.yaml")
    assert "is not valid YAML at line" in cli_error(capsys, "run", str(broken))
    assert not (tmp_path / "out").exists()  # nothing ran


def test_out_of_range_overrides_are_config_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, GOOD_RUN)
    err = cli_error(capsys, "run", str(good), "--trials", "0", "--results-dir", str(tmp_path / "o"))
    assert "trials" in err
    assert "concurrency" in cli_error(capsys, "run", str(good), "--concurrency", "0")


def test_the_installed_entry_point_gives_no_traceback(tmp_path: Path) -> None:
    bad = write(tmp_path, GOOD_RUN + "bogus: 1\n")
    done = subprocess.run(
        [sys.executable, "-m", "cogarch.experiments", "run", str(bad)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: invalid configuration in ")
    assert "  bogus: unknown key (remove it or check its spelling)" in done.stderr
    assert "Traceback" not in done.stderr
