"""Feeding a LoCoMo conversation to an agent.

Each dialog turn becomes one completed turn of the agent (``[date] speaker: text``, carrying
its dialog id as source id), taken in without a reply (the host's ``observe_many``): it joins
the public history the responder sees and every memory module of the agent takes it in,
exactly once, as LongMemEval's haystack turns are.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogarch.core.host import Observation, Observing

from .data import DialogTurn


async def ingest_turns(agent: Observing, turns: Sequence[DialogTurn]) -> None:
    """Let the agent take ``turns`` in, in order, without replying."""
    await agent.observe_many(
        [Observation(t.line(), source_ids=(t.dia_id,), time=t.time) for t in turns]
    )
