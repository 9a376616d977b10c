"""What each agent's model calls cost over a run: calls, cache hits and prompt reuse.

One row per agent, summed over its trial files that could be read (complete and failed): the
calls the trials consumed, how many of them the response cache served, the prompt tokens sent,
and how those split into tokens the server served from its prompt cache and tokens it
evaluated. The split covers the calls whose server reported it; ``n/a`` when none did (a
server that says nothing is never shown as 0), and ``(k of n calls)`` when only some did.
Response-cache hits count with the original call's numbers, so a resumed or replayed run shows
the same table as the run it replays, but for its ``cache hits``. The end-of-run table and the
report both print this table.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogarch.core.views import Table

from .tidy_table import TidyRow

USAGE_TITLE = "model usage per agent (sums over its trial files)"

USAGE_NOTE = (
    "Model calls count every call the trials consumed, response-cache hits included (with the "
    "original call's tokens, so a resumed or replayed run reports what the original did); "
    "cache hits: how many of them the response cache served. Prompt tokens sent split into "
    "those the server served from its prompt cache and those it evaluated, with the share "
    "served; n/a: the server reported no cache use; (k of n calls): only k calls reported it, "
    "and both numbers cover those calls only."
)

HEADER = [
    "agent",
    "trials",
    "model calls",
    "cache hits",
    "prompt tokens sent",
    "served from cache",
    "evaluated",
    "completion tokens",
]


def _split(served: int, evaluated: int, reports: int, calls: int) -> tuple[str, str]:
    if not reports:
        return "n/a", "n/a"
    reporting = served + evaluated
    share = f" ({100 * served / reporting:.0f}%)" if reporting else ""
    partial = f" ({reports} of {calls} calls)" if reports < calls else ""
    return f"{served}{share}{partial}", f"{evaluated}{partial}"


def usage_table(rows: Sequence[TidyRow]) -> Table | None:
    """The usage of each agent's readable trials (corrupt files have none), in the order the
    agents first appear; None when there is no such trial."""
    metered = [r for r in rows if r.status != "corrupt" and r.model_calls is not None]
    if not metered:
        return None
    body = []
    for agent in dict.fromkeys(r.agent for r in metered):
        mine = [r for r in metered if r.agent == agent]
        calls = sum(r.model_calls or 0 for r in mine)
        reports = sum(r.prompt_cache_reports or 0 for r in mine)
        served = sum(r.cached_prompt_tokens or 0 for r in mine)
        evaluated = sum(r.evaluated_prompt_tokens or 0 for r in mine)
        body.append(
            [
                agent,
                str(len(mine)),
                str(calls),
                str(sum(r.cache_hits or 0 for r in mine)),
                str(sum(r.prompt_tokens or 0 for r in mine)),
                *_split(served, evaluated, reports, calls),
                str(sum(r.completion_tokens or 0 for r in mine)),
            ]
        )
    return Table(USAGE_TITLE, list(HEADER), body)
