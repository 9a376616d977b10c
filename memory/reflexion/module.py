"""Reflexion (Shinn et al., 2023): after a lost episode the agent writes itself a lesson.

When a task says an episode ended and was lost (``end_episode``), the module asks its model
for a short reflection on the episode's trajectory (``EpisodeEnd.trajectory``, else its label
alone): what went wrong and the plan to follow next time, as Reflexion's ALFWorld agent
does. The latest ``max_reflections`` reflections are rendered for the prompt (placeholder
``{reflections}``), so the following episodes carry them; a won episode writes nothing. The
module takes in no turns: everything it keeps comes from the ends of episodes. For the
record of each episode (``episode_activity``) it says which episodes' lessons it carried
during it and the lesson it wrote after it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.cow import CowDict
from cogarch.core.memory import EpisodeEnd, MemoryContext, MemoryItem, MemoryModule
from cogarch.core.state import state_part, state_value
from cogarch.models.messages import system, user

from ..budget import truncate_to_budget
from ..provider_param import ModelCallParams

REFLECT = (
    "You will be given the history of an earlier attempt at a task, in which you acted in an "
    "environment and did not complete the task. Do not describe the environment; think about "
    "the strategy and the path you took. Write a concise new plan that accounts for your "
    "mistake, naming the specific actions you should have taken (for example: if you tried A "
    "and B but forgot C, plan to do C with actions of this environment). You will need it in "
    'later tasks. Give the plan after "Plan:" in at most three sentences.'
)
HEADER = "Lessons from your earlier attempts:"


class ReflexionParams(ModelCallParams):
    model_config = ConfigDict(extra="forbid")

    max_reflections: int = Field(
        default=3, ge=1, description="Reflections kept, latest first out (Reflexion keeps 3)."
    )
    max_tokens: int = Field(default=256, ge=16, description="Length limit of one reflection.")
    trajectory_chars: int = Field(
        default=6000, ge=200, description="The end of the trajectory shown to the model."
    )


class ReflexionMemory(MemoryModule):
    kind: ClassVar[str] = "reflexion"
    prompt_key: ClassVar[str] = "reflections"
    Params: ClassVar[type[ReflexionParams]] = ReflexionParams

    def __init__(self, params: ReflexionParams | None = None) -> None:
        self.params = params or ReflexionParams()
        self.provider: str | None = None
        self.reflections: list[dict[str, Any]] = []
        self.activity: CowDict[int, dict[str, Any]] = CowDict()
        """By episode: the episodes whose lessons were carried during it, and the lesson
        written after it (None when none was)."""

    def use_provider(self, provider: str | None) -> None:
        """Set the fallback provider for the reflections, unless one is already set."""
        if self.provider is None and provider is not None:
            self.provider = provider

    async def end_episode(self, end: EpisodeEnd, ctx: MemoryContext) -> None:
        carried = [r["episode"] for r in self.reflections]
        self.activity[end.episode] = {"carried": carried, "reflection": None}
        if end.won is not False:
            return
        name = self.params.provider_or(
            self.provider,
            missing="memory module 'reflexion' has no provider for its reflections; set "
            "'provider' in its params, or drive it with a retrieval specialist (which lends its "
            "own)",
        )
        lived = end.trajectory.text() if end.trajectory is not None else ""
        trajectory = lived[-self.params.trajectory_chars :]
        attempt = f"Task: {end.label}\n\n{trajectory}".strip()
        completion = await ctx.model(name).complete(
            [system(REFLECT), user(f"{attempt}\n\nThe task was not completed. Reflect.")],
            caller=ctx.caller,
            seed=ctx.seed,
            max_tokens=self.params.max_tokens,
            role=self.kind,
        )
        text = " ".join((completion.content or "").split())
        if not text:
            return
        self.reflections.append({"episode": end.episode, "task": end.label, "text": text})
        del self.reflections[: -self.params.max_reflections]
        self.activity.mutable(end.episode)["reflection"] = text

    def episode_activity(self, episode: int) -> dict[str, Any] | None:
        found = self.activity.get(episode)
        return None if found is None else _copy(found)

    async def retrieve(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        return [
            MemoryItem(f"r{r['episode']}", r["text"], fields={"episode": r["episode"]})
            for r in self.reflections
        ]

    def render(self, budget_tokens: int | None = None) -> str:
        if not self.reflections:
            return ""
        lines = [HEADER] + [f"- ({r['task']}) {r['text']}" for r in self.reflections]
        return truncate_to_budget("\n".join(lines), budget_tokens)

    def save_state(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "provider": self.provider,
            "reflections": [dict(r) for r in self.reflections],
            "activity": {str(e): _copy(a) for e, a in self.activity.items()},
        }

    kindless_states: ClassVar[bool] = True

    def load_state(self, state: dict[str, Any]) -> None:
        """Go on from a saved state, checked whole before anything changes: only the latest
        ``max_reflections`` lessons are kept, as the module keeps them."""
        state = self.check_state_kind(state)
        provider = state_value(state, "provider", (str, type(None)), "reflexion")
        with state_part("reflexion", "reflections"):
            reflections = [
                _Reflection.model_validate(r).model_dump()
                for r in state_value(state, "reflections", list, "reflexion")
            ]
        with state_part("reflexion", "activity"):
            activity = {
                int(e): _Activity.model_validate(a).model_dump()
                for e, a in state_value(state, "activity", dict, "reflexion").items()
            }
        self.provider = provider
        self.reflections = reflections[-self.params.max_reflections :]
        self.activity = CowDict(activity)


class _Reflection(BaseModel):
    """A lesson as saved: the episode it came from, the task and the lesson's text."""

    model_config = ConfigDict(extra="forbid", strict=True)

    episode: int
    task: str
    text: str = Field(min_length=1, pattern=r"\S")


class _Activity(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    carried: list[int]
    reflection: str | None


def _copy(activity: dict[str, Any]) -> dict[str, Any]:
    return {**activity, "carried": list(activity["carried"])}
