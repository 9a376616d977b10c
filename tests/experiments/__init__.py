"""Helpers shared by the experiment tests: synthetic trial files written with the real model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cogarch.experiments.results import TrialError, TrialResult, write_trial

OUTCOMES = ("self_consistent", "over_confirmation", "state_substitution", "all_denial", "leakage")


def make_trial(
    agent: str,
    trial: int,
    *,
    outcome: str = "self_consistent",
    revealed: str | None = "range",
    tokens: list[int] | None = None,
    transitions: dict[str, int] | None = None,
    extra: dict[str, Any] | None = None,
    base_agent: str = "workflow",
    failed: bool = False,
    run: str = "synthetic",
    task: str = "hangman_sct",
    evaluation: dict[str, Any] | None = None,
) -> TrialResult:
    """A trial as the runner would write it (complete, or failed with an error).

    ``evaluation`` replaces the SCT evaluation built from ``outcome`` and friends."""
    header: dict[str, Any] = {
        "run": run,
        "agent": agent,
        "task": task,
        "trial": trial,
        "seed": 1000 + trial,
    }
    metadata: dict[str, Any] = {
        "agent_spec": {"name": base_agent},
        "provider": "fakeprov",
        "provider_settings": {"model": "tiny-model", "fake": None},
        "duration_s": 1.25,
    }
    usage = {
        "model_calls": 4,
        "prompt_tokens": 400,
        "completion_tokens": 40,
        "reasoning_tokens": 7,
        "latency_s": 0.5,
        "calls": [{"caller": "responder", "provider": "fakeprov", "model": "tiny-model"}],
    }
    if failed:
        return TrialResult(
            status="failed",
            metadata=metadata,
            usage=usage,
            error=TrialError(type="ModelCallError", message="provider timed out after 3 tries"),
            **header,
        )
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
    evaluation = sct if evaluation is None else evaluation
    return TrialResult(
        status="complete",
        metadata=metadata,
        interaction_log=[{"turn": i + 1, "user": "u", "assistant": "a"} for i in range(4)],
        evaluation=evaluation,
        usage=usage,
        transitions=transitions or {},
        extra=extra or {},
        **header,
    )


def write_corrupt(run_dir: Path, agent: str, trial: int) -> Path:
    """A truncated trial file, as a crash in the middle of a write would leave it."""
    path = run_dir / agent / f"trial_{trial:04d}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"schema_version": 1, "status": "compl', encoding="utf-8")
    return path


def write_run(run_dir: Path, trials: list[TrialResult]) -> Path:
    for trial in trials:
        write_trial(run_dir, trial)
    return run_dir
