"""The ``cogarch`` command: agents, models, chat and run, and its error handling."""

from __future__ import annotations

import builtins
from collections.abc import Iterator
from pathlib import Path

import pytest

from cogarch.experiments.cli.command import build_parser, main
from cogarch.models import providers as providers_module
from cogarch.tasks.hangman.prompts import OPENER_PROMPT
from cogarch.testing import FaultServer, allowing_model_requests
from cogarch.workspace.registry import ready_made_agents

PROVIDERS = """\
providers:
  honest: {kind: fake, fake: hangman.honest}
  remote: {kind: openai, model: gpt-x, base_url: "http://127.0.0.1:9/v1", api_key_env: SOME_KEY}
"""


def providers_file(tmp_path: Path, text: str = PROVIDERS) -> str:
    path = tmp_path / "providers.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def scripted_input(monkeypatch: pytest.MonkeyPatch, *lines: str) -> list[str]:
    """Feed ``lines`` to ``input()``; returns the prompts it was shown."""
    shown: list[str] = []
    feed: Iterator[str] = iter(lines)

    def fake_input(prompt: str = "") -> str:
        shown.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    return shown


def test_agents_lists_every_ready_made_agent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agents"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [line.split()[0] for line in lines]
    assert names == list(ready_made_agents())
    assert {"vanilla", "workflow", "private_cot", "public_cot", "gwt", "acc", "tme"} <= set(names)
    by_name = dict(zip(names, lines, strict=True))
    assert "[params: strategy=overwrite]" in by_name["workflow"]
    assert "[params:" not in by_name["vanilla"]
    assert all(len(line.split(maxsplit=1)) == 2 for line in lines)  # each has a description


def test_models_lists_without_calling_and_says_how_to_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("listing built a model or loaded the tasks' fakes")

    monkeypatch.setattr(providers_module.Providers, "get", never)
    monkeypatch.setattr("cogarch.experiments.running.fakes.run_fakes", never)
    path = providers_file(tmp_path)
    for flags in ([], ["--no-check"]):  # --no-check is what the command does by default
        assert main(["models", *flags, "--config", path]) == 0
        *lines, note = capsys.readouterr().out.splitlines()
        assert [line.split()[0] for line in lines] == ["honest", "local", "remote"]
        rows = {line.split()[0]: line for line in lines}
        assert rows["honest"].split()[1:3] == ["fake", "hangman.honest"]
        assert "embedded llama.cpp" in rows["local"]
        assert "gpt-x (http://127.0.0.1:9/v1)" in rows["remote"]
        assert "SOME_KEY" not in "\n".join(lines)  # the variable's name is not even listed
        assert note.startswith("not checked: ")
        assert f"cogarch models --check --config {path}" in note

    assert main(["models"]) == 0  # without a config: the built-in provider
    out = capsys.readouterr().out
    assert out.split()[:2] == ["local", "local"]
    assert "`cogarch models --check`" in out


def test_models_check_and_no_check_exclude_each_other(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["models", "--check", "--no-check"])
    assert exited.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_models_checks_every_provider_and_fails_if_one_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(providers_module, "BUILTIN_PROVIDERS", {})  # never the embedded model
    monkeypatch.setenv("SOME_KEY", "sk-unused")
    with FaultServer(["400"], content="ready") as server:
        text = f"""\
providers:
  honest: {{kind: fake, fake: hangman.honest}}
  up: {{kind: openai, model: m, base_url: "{server.base_url}", timeout: 2}}
  rejecting: {{kind: openai, model: m, base_url: "{server.base_url}", timeout: 2}}
"""
        with allowing_model_requests():
            code = main(["models", "--check", "--config", providers_file(tmp_path, text)])
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines()}
    assert code == 1
    assert set(rows) == {"honest", "rejecting", "up"}
    assert "ok" in rows["honest"]
    # "rejecting" is asked first (names are sorted) and gets the scripted 400.
    assert "FAILED" in rows["rejecting"] and "400" in rows["rejecting"]
    assert "ok" in rows["up"] and "'ready'" in rows["up"]


def test_chat_with_an_unknown_provider_lists_the_valid_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chat", "--provider", "nope", "--config", providers_file(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: unknown provider 'nope'; valid names: ")
    assert "honest, local, remote" in captured.err
    assert "Traceback" not in captured.err

    assert main(["chat", "--provider", "nope"]) == 2
    assert "valid names: local." in capsys.readouterr().err


def test_chat_talks_to_a_provider_until_an_empty_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = scripted_input(monkeypatch, OPENER_PROMPT, 'My next guess is the letter "e".', "")
    assert main(["chat", "--provider", "honest", "--config", providers_file(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert shown == ["you> "] * 3
    assert out.startswith("chatting with 'honest'")
    replies = out.split("model> ")[1:]
    assert len(replies) == 2
    assert "6" in replies[0]  # the opener's board: six lives
    assert "e" in replies[1].lower()


def test_chat_ends_on_end_of_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_input(monkeypatch)
    assert main(["chat", "--provider", "honest", "--config", providers_file(tmp_path)]) == 0
    assert "model>" not in capsys.readouterr().out


def test_run_on_a_missing_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no_such_run.yaml"
    assert main(["run", str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: config file '{missing}' does not exist; check the path\n"
    assert captured.out == ""


def test_a_providers_file_with_a_bad_block_names_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = providers_file(tmp_path, "providers:\n  x: {kind: fake, fake: a, colour: red}\n")
    assert main(["models", "--no-check", "--config", path]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: invalid configuration")
    assert "  providers.x.colour: unknown key" in err


def test_the_parser_knows_every_command_and_run_option() -> None:
    parser = build_parser()
    args = parser.parse_args(
        ["run", "c.yaml", "--trials", "3", "--results-dir", "d", "--concurrency", "2", "--quiet"]
    )
    assert (args.config, args.trials, args.results_dir, args.concurrency, args.quiet) == (
        "c.yaml",
        3,
        "d",
        2,
        True,
    )
    for command in (["agents"], ["models"], ["chat"], ["report", "d"]):
        assert parser.parse_args(command).command == command[0]


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    assert "usage: cogarch" in capsys.readouterr().err
