"""The ranking a benchmark's retrieval metrics read: everything the memory holds where it can
rank it, otherwise only what the reader was shown, said as such."""

from __future__ import annotations

from cogarch.tasks.memory_bench.retrieved import full_ranking

SHOWN = [["s_1"], ["s_2"]]


class NoRanking:
    async def respond(self, text: str) -> str:
        return text


class Ranking(NoRanking):
    def __init__(self, rankings: dict[str, list[list[str]] | None]) -> None:
        self.rankings = rankings

    async def rank_memory(self) -> dict[str, list[list[str]] | None]:
        return self.rankings


async def test_a_memory_that_ranks_its_whole_store_gives_a_complete_ranking() -> None:
    whole = [["s_2"], ["s_1"], ["s_3"]]
    assert await full_ranking(Ranking({"turns": whole}), SHOWN) == (whole, True)


async def test_otherwise_the_shown_entries_are_read_and_marked_incomplete() -> None:
    assert await full_ranking(NoRanking(), SHOWN) == (SHOWN, False)
    assert await full_ranking(Ranking({"facts": None}), SHOWN) == (SHOWN, False)
    # two retrieving modules: no single ranking of everything the agent holds
    both = Ranking({"a": [["s_1"]], "b": [["s_2"]]})
    assert await full_ranking(both, SHOWN) == (SHOWN, False)
    assert await full_ranking(Ranking({"turns": [["s_1"]]}), None) == (None, False)
