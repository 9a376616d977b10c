"""What an agent's memory retrieved for its last reply, read from the reply's report."""

from __future__ import annotations

from typing import Any

from cogarch.core.host import Host, MemoryRanking, ReplyReport
from cogarch.memory.retrieval.search import DETAIL_KEY


def search_details(report: ReplyReport) -> list[dict[str, Any]] | None:
    """How each retrieved entry was found (rank and score by each search), in rank order;
    None when no entry carries such details (a dense search)."""
    found = report.retrieved or ()
    if not any(DETAIL_KEY in r.item.fields for r in found):
        return None
    return [
        {
            "module": r.module,
            "id": r.item.id,
            "source_ids": list(r.source_ids),
            **(r.item.fields.get(DETAIL_KEY) or {"score": r.item.score}),
        }
        for r in found
    ]


def retrieved_ids(report: ReplyReport) -> list[list[str]] | None:
    """Source ids of each entry the agent's memory retrieved for its reply, in rank order
    (None: none of its modules retrieves)."""
    if report.retrieved is None:
        return None
    return [list(r.source_ids) for r in report.retrieved]


async def full_ranking(
    agent: Host, shown: list[list[str]] | None
) -> tuple[list[list[str]] | None, bool]:
    """The ranking retrieval metrics read and whether it is complete: everything the agent's
    one retrieving memory module holds, ranked (``MemoryRanking``), where it can rank its
    whole store; otherwise what the reply was shown (``shown``), only the first entries."""
    if shown is None:
        return None, False
    if isinstance(agent, MemoryRanking):
        rankings = await agent.rank_memory()
        if len(rankings) == 1:
            [whole] = rankings.values()
            if whole is not None:
                return whole, True
    return shown, False
