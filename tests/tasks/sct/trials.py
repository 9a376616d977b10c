"""Playing one SCT trial in a test: the trial's context, its record as JSON, and the player's
reproducibility from the seed."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from cogarch.core.task import TrialContext
from cogarch.models import Providers
from cogarch.tasks.sct.engine import SCTTask
from cogarch.workspace import build_agent, load_agent_spec

Record = dict[str, Any]


def trial_context(
    providers: Providers, provider: str, *, agent: str, seed: int, agent_provider: str | None = None
) -> TrialContext:
    """Trial 0 of ready-made ``agent`` on ``provider``, every model from ``providers``."""
    spec = load_agent_spec(agent)
    return TrialContext(
        agent_name=agent,
        trial=0,
        seed=seed,
        agent_factory=lambda: build_agent(spec, providers.get, provider=provider, seed=seed),
        models=providers.get,
        helper_provider=None,
        agent_provider=agent_provider,
    )


async def play_record(task: SCTTask, ctx: TrialContext) -> Record:
    """What the trial file will hold of one trial of ``task``."""
    out = await task.run_trial(ctx)
    return dict(json.loads(out.model_dump_json()))


def questions(out: Record) -> list[str]:
    return [entry["user"] for entry in out["turns"]]


async def assert_the_player_follows_the_seed(
    play: Callable[..., Awaitable[Record]], seed: int
) -> None:
    """The same seed plays the same questions, candidates and evaluation; three other seeds
    each ask other questions."""
    first = await play(seed=seed)
    again = await play(seed=seed)
    assert questions(first) == questions(again)
    assert first["payload"]["candidates"] == again["payload"]["candidates"]
    assert first["evaluation"] == again["evaluation"]

    others = [questions(await play(seed=other)) for other in (1, 2, 3)]
    assert all(q != questions(first) for q in others)
    assert len({tuple(q) for q in others}) == 3
