"""Episodes: an agent told that a game ended passes it to its memory and starts a new dialogue."""

from __future__ import annotations

from typing import Any

from cogarch.core.memory import EpisodeEnd, MemoryContext, MemoryModule
from tests.workspace import Brain, make_agent


class EpisodeLog(MemoryModule):
    """Keeps the label and outcome of every episode it is told about."""

    kind = "episode_log"

    def __init__(self) -> None:
        self.ended: list[tuple[int, str, bool | None]] = []

    async def end_episode(self, end: EpisodeEnd, ctx: MemoryContext) -> None:
        self.ended.append((end.episode, end.label, end.won))

    def render(self, budget_tokens: int | None = None) -> str:
        return "\n".join(f"{i} {label} {won}" for i, label, won in self.ended)

    def save_state(self) -> dict[str, Any]:
        return {"ended": [list(e) for e in self.ended]}

    def load_state(self, state: dict[str, Any]) -> None:
        self.ended = [(int(i), str(label), won) for i, label, won in state["ended"]]


async def test_the_end_of_an_episode_reaches_memory_and_clears_the_dialogue() -> None:
    agent = make_agent("workflow", Brain())
    log = EpisodeLog()
    agent.memory["log"] = log
    await agent.respond("Shall we play a game?")
    kept = agent.private_state()
    await agent.end_episode(EpisodeEnd(episode=0, won=True, label="find the mug", steps=1))

    assert log.ended == [(0, "find the mug", True)]
    assert agent.workspace.dialogue == [] and agent.workspace.episode == 1
    assert len(agent.workspace.turns) == 1  # the record of completed turns stays
    assert kept.split("\n\n")[0] in agent.private_state()  # working memory carries over

    await agent.respond("A new game begins.")
    assert agent.workspace.dialogue[0].content == "A new game begins."


async def test_a_module_without_episodes_ignores_their_end() -> None:
    agent = make_agent("workflow", Brain())
    await agent.respond("Shall we play a game?")
    before = agent.private_state()
    await agent.end_episode(EpisodeEnd(episode=0, won=None))
    assert agent.private_state() == before


class Archive(EpisodeLog):
    """Also says what it did for each episode."""

    kind = "archive"

    def episode_activity(self, episode: int) -> dict[str, Any] | None:
        return {"stored": [f"ep{i}" for i, _, _ in self.ended if i == episode]}


async def test_the_end_of_an_episode_reports_what_memory_did_for_it() -> None:
    agent = make_agent("workflow", Brain())
    agent.memory["archive"] = Archive()
    agent.memory["log"] = EpisodeLog()
    await agent.respond("Shall we play a game?")
    report = await agent.end_episode(EpisodeEnd(episode=0, won=False, label="find the mug"))
    assert report.memory == {"archive": {"stored": ["ep0"]}}  # the log keeps no such record
    assert report.focus == []
