"""A trial in words: each turn with its private state, the change and the walk; the fork,
the verdict, the task's own sections; text from the trial always fenced."""

from __future__ import annotations

import asyncio

from cogarch.bridges.inspect.params import read_params
from cogarch.bridges.inspect.task import TrialPlayer
from cogarch.bridges.inspect.words import fenced, record_words


def test_a_fence_outlasts_the_backticks_inside() -> None:
    text = "a ``` b\n````"
    block = fenced(text)
    assert block.startswith("`````text\n") and block.endswith("\n`````")
    assert fenced("plain") == "```text\nplain\n```"


def test_an_sct_trial_in_words() -> None:
    args = {"fake": "hangman.honest", "agent": "workflow", "strategy": "overwrite"}
    params = read_params("hangman_sct", {**args, "trials": 1, "cache": False})
    record = asyncio.run(TrialPlayer(params).play(0))
    words = dict(record_words(record, params.task_class))
    titles = list(words)
    assert titles[: len(record.turns)] == [f"Turn {t.turn}" for t in record.turns]
    assert {"Fork", "Verdict", "Usage"} <= set(titles)
    assert "<secret>" in words["Turn 2"] and "**Graph walk:**" in words["Turn 2"]
    assert "```diff" in words["Turn 2"]  # the state changed from turn 1
    assert words["Verdict"] == "The task rated this trial 'self_consistent' (a success)."
    own = [t for t in titles if t not in {"Fork", "Verdict", "Usage"} and "Turn" not in t]
    assert own  # the SCT's own sections
    assert "Branch 1" in words["Fork"]
