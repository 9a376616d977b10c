"""The ACC paper's memory-driven metrics, and how a turn's memory footprint is measured.

Hallucination (claim audit): with S_t supported and U_t unsupported atomic claims in the reply,
``H_t = U_t / max(1, S_t + U_t)`` and ``H_u = (1/T) * sum_t H_t`` over all T turns.

Drift (constraint audit): with V_t violated active constraints, O_t omitted required elements
and K_t the active constraints, ``D_t = (V_t + O_t) / max(1, |K_t|)``; drift is undefined at
t = 1, so ``D_r = (1/(T-1)) * sum_{t=2..T} D_t``.

Memory footprint M_t: the memory the agent carries into its reply, in tokens: the replayed
transcript, the retrieved block, the rendered state or the task subgraph (whatever filled the
answering prompt besides its fixed instructions and the current input). A composed agent
reports it per reply (``last_reply().memory_tokens``, see ``Workspace.memory_tokens``), so a
longer system prompt leaves it unchanged; a host that does not report it falls back on its
private state tokens (``last_reply().state_tokens``), else None. The answering specialist's
prompt and every metered call's prompt are recorded beside it (``responder_prompt_tokens``,
``prompt_tokens``), with the number of metered calls; response-cache hits count, with their
original tokens, so a replayed turn measures what the original one did.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean
from typing import Protocol

from cogarch.core.host import Host, ReplyReporting
from cogarch.core.records import TurnFootprint
from cogarch.models.metering import Meter
from cogarch.tokens import count_tokens


class MeasuredHost(Host, ReplyReporting, Protocol):
    """A host that says what each reply carried."""


async def respond_measured(agent: MeasuredHost, text: str, turn: int) -> tuple[str, TurnFootprint]:
    """Send ``text`` to the agent while metering every model call it makes."""
    meter = Meter()
    with meter.active():
        reply = await agent.respond(text)
    records = meter.records
    report = agent.last_reply()
    state = report.state_tokens
    total = sum(r.prompt_tokens for r in records) if records else None
    prompt = report.answer_prompt_tokens
    if prompt is None:  # the host does not say which calls answered: all of them
        prompt = total
    memory = report.memory_tokens if report.memory_tokens is not None else state
    return reply, TurnFootprint(
        turn=turn,
        memory_tokens=memory,
        responder_prompt_tokens=prompt,
        prompt_tokens=total,
        model_calls=len(records),
        state_tokens=state,
        reply_tokens=count_tokens(reply),
    )


def hallucination_rate(supported: int, unsupported: int) -> float:
    """H_t = U_t / max(1, S_t + U_t)."""
    if supported < 0 or unsupported < 0:
        raise ValueError("claim counts cannot be negative")
    return unsupported / max(1, supported + unsupported)


def drift_rate(violations: int, omissions: int, active_constraints: int) -> float:
    """D_t = (V_t + O_t) / max(1, |K_t|)."""
    if min(violations, omissions, active_constraints) < 0:
        raise ValueError("violation, omission and constraint counts cannot be negative")
    return (violations + omissions) / max(1, active_constraints)


def mean_hallucination(rates: Sequence[float]) -> float | None:
    """H_u: the mean of H_t over the judged turns; None when no turn was judged (nothing
    measured is never a perfect score)."""
    return fmean(rates) if rates else None


def mean_drift(rates: Sequence[float | None]) -> float | None:
    """D_r: the mean of D_t over turns 2..T; None when there is no second turn."""
    later = [r for r in rates[1:] if r is not None]
    return fmean(later) if later else None


def footprint_summary(footprints: Sequence[TurnFootprint]) -> dict[str, float | int | None]:
    """Mean footprint M-bar, final footprint M_T and the maximum, over measured turns."""
    values = [f.memory_tokens for f in footprints if f.memory_tokens is not None]
    if not values:
        return {"mean": None, "final": None, "max": None}
    return {"mean": round(fmean(values), 2), "final": values[-1], "max": max(values)}
