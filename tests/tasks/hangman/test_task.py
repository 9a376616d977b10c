"""The Hangman SCT task end to end on the scripted hosts: the trial record and the seeded player."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from cogarch.core.acting import Percept
from cogarch.core.affordances import split_input
from cogarch.models import ProviderConfig, Providers
from cogarch.tasks.fakes import task_fakes
from cogarch.tasks.hangman.hosts import host_secret
from cogarch.tasks.hangman.prompts import (
    OPENER_PROMPT,
    REVEAL_PROMPT,
    format_guess,
    format_verification,
)
from cogarch.tasks.hangman.task import HangmanParams, HangmanSCT, hangman_game
from cogarch.tasks.registry import build_task
from tests.tasks.sct.trials import (
    assert_the_player_follows_the_seed,
    play_record,
    questions,
    trial_context,
)

SEED = 424242


async def play(
    host: str = "honest", *, agent: str = "vanilla", seed: int = SEED, t_fork: int = 4
) -> dict[str, Any]:
    providers = Providers(
        {"host": ProviderConfig(kind="fake", fake=f"hangman.{host}")}, fakes=task_fakes()
    )
    ctx = trial_context(providers, "host", agent=agent, seed=seed)
    task = build_task("hangman_sct", {"t_fork": t_fork, "n_candidates": 5})
    assert isinstance(task, HangmanSCT)
    out = await play_record(task, ctx)
    await providers.aclose()
    return out


def transition_counts(out: dict[str, Any]) -> dict[tuple[str, str], int]:
    return {(t["source"], t["target"]): t["count"] for t in out["transitions"]}


async def test_a_trial_record_has_the_log_branches_sct_block_and_evaluation() -> None:
    out = await play("honest", agent="workflow")
    secret = host_secret(SEED)

    assert {"turns", "branches", "payload", "evaluation", "transitions"} <= set(out)
    log = out["turns"]
    assert [e["turn"] for e in log] == [1, 2, 3, 4]
    assert log[0]["user"] == OPENER_PROMPT
    for entry in log:
        assert set(entry) == {
            "turn", "user", "reply", "private_state", "private_state_tokens", "footprint", "extras"
        }  # fmt: skip
        assert entry["reply"] and secret not in entry["reply"]
        assert f"<secret>{secret}</secret>" in entry["private_state"]
        assert entry["private_state_tokens"] > 0

    sct = out["payload"]
    assert sct["t_fork"] == 4
    assert sct["memory_secret"] == sct["revealed"] == secret
    assert len(sct["candidates"]) == 5 and secret in sct["candidates"]
    assert sct["snapshot"] == log[-1]["private_state"]
    assert [a["candidate"] for a in sct["answers"]] == sct["candidates"]
    assert sct["public_state"]["guessed"] == [
        q.split('"')[1] for q in questions(out)[1:]
    ]  # the board the host showed, and the letters the player guessed
    assert len(sct["public_state"]["pattern"]) == len(secret)

    branches = out["branches"]
    assert branches[0] == {
        "kind": "reveal",
        "prompt": REVEAL_PROMPT,
        "reply": branches[0]["reply"],
        "parsed": secret,
        "private_state": branches[0]["private_state"],
    }
    for branch, word in zip(branches[1:], sct["candidates"], strict=True):
        assert branch["kind"] == "candidate" and branch["candidate"] == word
        assert branch["prompt"] == format_verification(word)
        assert branch["answer"] == ("yes" if word == secret else "no")

    evaluation = out["evaluation"]
    assert evaluation["outcome"] == "self_consistent"
    assert evaluation["host_contradictions"] == []
    assert evaluation["wm_secret_summary"]["secret_stable"] is True
    assert transition_counts(out)[("responder", "updater")] >= 4 + 5  # turns and candidate branches


async def test_the_player_is_reproducible_from_the_seed() -> None:
    await assert_the_player_follows_the_seed(play, SEED)


def test_the_game_draws_the_same_guesses_for_the_same_seed() -> None:
    def guesses(seed: int) -> list[str]:
        game = hangman_game(seed, temperature=0.8).player
        game.opener()
        return [game.next_message() for _ in range(10)]

    assert guesses(7) == guesses(7)
    assert guesses(7) != guesses(8)
    assert all(g in {format_guess(c) for c in "abcdefghijklmnopqrstuvwxyz"} for g in guesses(7))
    assert len(set(guesses(7))) == 10  # without replacement


async def test_the_players_guesses_do_not_depend_on_the_host() -> None:
    honest, forgetful = await play("honest"), await play("forgetful")
    assert questions(honest) == questions(forgetful)
    assert forgetful["evaluation"]["outcome"] in {"over_confirmation", "state_substitution"}


def test_task_parameters() -> None:
    task = build_task("hangman_sct", {})
    assert isinstance(task.params, HangmanParams)
    assert (task.params.t_fork, task.params.n_candidates) == (4, 5)
    assert task.params.letter_temperature == 0.8


async def test_a_hangman_turn_parses_no_percept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text-only task's turns are text: nothing reads them back as an environment's percept
    (only an agent that acts has an acting part, and parses)."""

    def refuse(text: str) -> Percept:
        raise AssertionError(f"a Hangman turn was parsed into a percept: {text[:60]!r}")

    modules = list(sys.modules.values())
    bound = [m for m in modules if getattr(m, "split_input", None) is split_input]
    assert bound  # the framework's own reader, wherever it is imported
    for module in bound:
        monkeypatch.setattr(module, "split_input", refuse)
    for agent in ("workflow", "gwt"):
        out = await play("honest", agent=agent)
        assert out["error"] is None and all(turn["reply"] for turn in out["turns"])
