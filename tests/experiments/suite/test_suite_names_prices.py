"""Names that would collide with the results folder's own files are refused at load, and
prices are finite, bounded and for providers the suite has."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.results.names import RESERVED
from cogarch.experiments.running.run_config import load_run_config
from cogarch.experiments.suites.config import load_suite_config

SUITE = """\
name: {suite}
providers:
  honest: {{kind: fake, fake: honest}}
{prices}
tasks: [{{kind: hangman_sct, name: {task}}}]
agents: [{{name: {agent}, agent: vanilla, provider: honest}}]
"""


def suite(tmp_path: Path, suite: str = "s", task: str = "t", agent: str = "a", prices: str = ""):
    path = tmp_path / "s.yaml"
    text = SUITE.format(suite=suite, task=task, agent=agent, prices=prices)
    path.write_text(text, encoding="utf-8")
    return load_suite_config(path)


@pytest.mark.parametrize(
    ("field", "name"),
    [
        ("task", "leaderboard.md"),
        ("task", "suite.json"),
        ("task", "Leaderboard.HTML"),
        ("agent", "run.json"),
        ("agent", "leaderboard.csv"),
        ("agent", "plain.unusable"),
        ("suite", "report"),
    ],
)
def test_a_name_of_the_folders_own_files_is_refused_listing_them(
    tmp_path: Path, field: str, name: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        suite(tmp_path, **{field: f"'{name}'"})
    assert name in str(caught.value)
    assert all(reserved in str(caught.value) for reserved in RESERVED)


def test_a_run_agent_named_like_the_run_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(
        "name: r\ntask: {kind: hangman_sct}\nproviders: {p: {kind: fake, fake: hangman.honest}}\n"
        "agents: [{name: run.json, agent: vanilla, provider: p}]\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match=r"run\.json, suite\.json"):
        load_run_config(path)


@pytest.mark.parametrize("price", ["1e308", "Infinity", "'Infinity'", "'nan'", "2000000", "true"])
def test_a_price_that_is_not_finite_and_bounded_is_refused(tmp_path: Path, price: str) -> None:
    prices = f"prices: {{honest: {{prompt: {price}, completion: 1}}}}"
    with pytest.raises(ConfigError, match="prompt"):
        suite(tmp_path, prices=prices)


def test_a_price_for_an_unknown_provider_names_the_known_ones(tmp_path: Path) -> None:
    prices = "prices: {honset: {prompt: 1, completion: 2}}"
    with pytest.raises(ConfigError, match=r"'honset'.*honest, local"):
        suite(tmp_path, prices=prices)


@pytest.mark.parametrize("word", ["off", "no", "yes", "on"])
def test_a_suite_named_by_a_yaml_boolean_is_told_to_quote_it(tmp_path: Path, word: str) -> None:
    with pytest.raises(ConfigError, match="quote"):
        suite(tmp_path, suite=word)
