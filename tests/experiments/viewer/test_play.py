"""Playing an SCT game against a composed agent, and forking it mid-game."""

from __future__ import annotations

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.viewer.play import PlaySession
from cogarch.models.providers import Providers, load_providers_yaml
from cogarch.tasks.fakes import task_fakes


def providers() -> Providers:
    return Providers(
        load_providers_yaml({"honest": {"kind": "fake", "fake": "hangman.honest"}}),
        fakes=task_fakes(),
    )


async def test_play_hangman_and_fork_it() -> None:
    session = PlaySession("hangman", "workflow", "honest", providers(), seed=3)
    first = await session.send(session.suggest())
    assert "secret" in (first.turn.private_state or "")
    assert [s.node for s in first.steps] == ["responder", "updater"]
    second = await session.send('My next guess is the letter "e". Is it in the secret word?')
    assert second.turn.turn == 2 and second.diff
    view = await session.fork()
    assert view.record.evaluation.outcome == "self_consistent"
    assert view.fork is not None and len(view.fork.branches) == 6
    assert len(session.turns) == 2  # the game goes on unchanged after a fork
    third = await session.send(session.suggest())
    assert third.turn.turn == 3


async def test_fork_before_any_turn_and_empty_messages_are_refused() -> None:
    session = PlaySession("hangman", "vanilla", "honest", providers())
    with pytest.raises(ConfigError, match="at least one turn"):
        await session.fork()
    with pytest.raises(ConfigError, match="write a message"):
        await session.send("   ")


def test_unknown_game_or_provider_names_the_valid_ones() -> None:
    with pytest.raises(ConfigError, match="games: hangman, diagnosis"):
        PlaySession("chess", "workflow", "honest", providers())
    with pytest.raises(Exception, match="nope"):
        PlaySession("hangman", "workflow", "nope", providers())


def test_play_reads_providers_from_a_config_file(tmp_path) -> None:
    from cogarch.experiments.cli.config import providers_from

    config = tmp_path / "providers.yaml"
    config.write_text("providers:\n  honest: {kind: fake, fake: hangman.honest}\n")
    session = PlaySession("hangman", "vanilla", "honest", providers_from(str(config)))
    assert session.provider == "honest"
