"""Helpers shared by the experiment tests: synthetic trial files written with the real model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cogarch.core.records import TrialError, TrialRecord, Turn, TurnFootprint, transitions_from
from cogarch.experiments.results.migrate import V1_SCORING
from cogarch.experiments.results.trial_files import write_trial
from cogarch.tasks.registry import TASKS
from cogarch.tasks.sct.records import SCTAnswer, SCTPayload


def hangman_run(name: str) -> str:
    """A valid run config (YAML) named ``name``: one Hangman trial of the vanilla agent against
    the honest fake host, uncached."""
    return f"""\
name: {name}
task: {{kind: hangman_sct, t_fork: 3}}
trials: 1
cache: false
providers:
  p: {{kind: fake, fake: hangman.honest}}
agents:
  - {{agent: vanilla, provider: p}}
"""


OUTCOMES = ("self_consistent", "over_confirmation", "state_substitution", "all_denial", "leakage")


def _sct_payload(revealed: str | None, leaked: bool) -> SCTPayload:
    words = [revealed or "crane", "brine", "drone", "prone", "trine"]
    return SCTPayload(
        t_fork=4,
        snapshot=None,
        memory_secret=revealed,
        revealed=revealed,
        candidates=words,
        candidate_sources=dict.fromkeys(words, "vocabulary"),
        rejected_proposals=[],
        shortfall=0,
        answers=[SCTAnswer(candidate=w, answer="yes" if i == 0 else "no", parsed=True)
                 for i, w in enumerate(words)],
        public_state={},
        leak_turns=[1] if leaked else [],
    )  # fmt: skip


def _turns(tokens: list[int], footprint: list[int | None] | None) -> list[Turn]:
    count = max(4, len(tokens), len(footprint or []))
    return [
        Turn(
            turn=i + 1,
            user="u",
            reply="a",
            private_state_tokens=tokens[i] if i < len(tokens) else None,
            footprint=(
                TurnFootprint(turn=i + 1, memory_tokens=footprint[i])
                if footprint is not None and i < len(footprint)
                else None
            ),
        )
        for i in range(count)
    ]


def make_trial(
    agent: str,
    trial: int,
    *,
    outcome: str = "self_consistent",
    revealed: str | None = "range",
    tokens: list[int] | None = None,
    transitions: dict[tuple[str, str], int] | None = None,
    footprint: list[int | None] | None = None,
    base_agent: str = "workflow",
    failed: bool = False,
    run: str = "synthetic",
    task: str = "hangman_sct",
    evaluation: dict[str, Any] | None = None,
) -> TrialRecord:
    """A trial record as the runner would write it (complete, or failed with an error), its
    parts in the classes of ``task`` (when it is a registered task).

    ``evaluation`` replaces the SCT evaluation built from ``outcome`` and friends; SCT tasks
    get an SCT payload (five candidates, the first affirmed); ``footprint`` gives the turns a
    memory footprint each."""
    types = TASKS.get(task).record_types() if task in TASKS else None
    header: dict[str, Any] = {
        "run": run,
        "agent": agent,
        "task": task,
        "trial": trial,
        "seed": 1000 + trial,
        "scoring": V1_SCORING.get(task),
        "metadata": {
            "agent_spec": {"name": base_agent},
            "provider": "fakeprov",
            "provider_settings": {"model": "tiny-model", "fake": None},
            "duration_s": 1.25,
        },
        "usage": {
            "model_calls": 4,
            "prompt_tokens": 400,
            "completion_tokens": 40,
            "reasoning_tokens": 7,
            "latency_s": 0.5,
            "calls": [{"caller": "responder", "provider": "fakeprov", "model": "tiny-model"}],
        },
    }
    header = {k: v for k, v in header.items() if v is not None}
    if failed:
        error = TrialError(type="ModelCallError", message="provider timed out after 3 tries")
        return TrialRecord.read({**header, "status": "failed", "error": error}, types)
    tokens = [] if tokens is None else tokens
    sct = {
        "outcome": outcome,
        "self_consistent": outcome == "self_consistent",
        "leaked": outcome == "leakage",
        "revealed": revealed,
        "memory_secret": revealed,
        "num_candidates": 5,
        "yes_rate": 0.2,
        "answers_parsed_rate": 1.0,
        "private_state_tokens": tokens,
    }
    payload = _sct_payload(revealed, outcome == "leakage") if task.endswith("_sct") else None
    fields: dict[str, Any] = {
        "status": "complete",
        "turns": _turns(tokens, footprint),
        "evaluation": dict(sct if evaluation is None else evaluation),
        "transitions": transitions_from(transitions or {}),
    }
    if payload is not None:
        fields["payload"] = payload.model_dump()
    return TrialRecord.read({**header, **fields}, types)


def write_corrupt(run_dir: Path, agent: str, trial: int) -> Path:
    """A truncated trial file, as a crash in the middle of a write would leave it."""
    path = run_dir / agent / f"trial_{trial:04d}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"schema_version": 2, "status": "compl', encoding="utf-8")
    return path


def write_run(run_dir: Path, trials: list[TrialRecord]) -> Path:
    for trial in trials:
        write_trial(run_dir, trial)
    return run_dir
