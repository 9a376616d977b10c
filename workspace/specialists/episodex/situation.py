"""What an Episodex specialist is shown: the task, the step with the action limit and the
actions remaining (when the input gives them), the belief state, memory, the game so far, the
current observation with its admissible actions, and what this turn has brought.

Past episodes are shown in full by default, as the paper puts them in context; a cap is the
episodic memory's (``episode_tokens``, ``context_tokens``) or, for one specialist,
``memory_budget``.

In a turn-based task the environment's percept is the turn's input (the workspace keeps it
typed: ``Workspace.acting.percept``) and the agent's reply is its action, so the game so far is
the public dialogue since the game began: each earlier reply is an action, and the next
observation is what it led to. What the percept and the game so far give (the goal, the
observation, the admissible actions, the actions left, the history) is the turn's
:class:`Scene`, built once a turn by the first specialist that asks (:func:`scene`); each
specialist adds its memory and this turn's notes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from cogarch.memory.long_term.conceptual import ConceptualMemory
from cogarch.memory.long_term.episodic import EpisodicMemory
from cogarch.memory.retrieval.messages import clip

from ...specialist import StepContext
from ...workspace import Workspace

_TASK = re.compile(r"^\s*(?:your\s+)?task\s*(?:is\s*)?(?:to\s*)?:\s*(.+?)\s*$", re.I | re.M)


def read_task(observation: str) -> str:
    """The task an observation states (``Your task is to: ...`` or ``Task: ...``), or the
    observation itself, cut to 300 characters, when it states none."""
    found = _TASK.search(observation)
    if found:
        return found.group(1).rstrip(".").strip()
    return clip(" ".join(observation.split()), 300)


class SituationParams(BaseModel):
    """Where an Episodex specialist finds its memory, and how much of the game it is shown."""

    model_config = ConfigDict(extra="forbid")

    memory: str = Field(default="episodic", description="The agent's episodic memory module.")
    concepts: str | None = Field(
        default="conceptual", description="The agent's conceptual memory module (None: none)."
    )
    history: int = Field(default=8, ge=0, description="Earlier actions of the game shown.")
    observation_chars: int = Field(
        default=200, ge=20, description="Cut each earlier observation shown to this length."
    )
    memory_budget: int | None = Field(
        default=None,
        ge=1,
        description="Cap the past episodes shown at this many tokens, shared among them "
        "(None: the episodic memory's own caps, in full by default).",
    )


@dataclass(frozen=True)
class Scene:
    """What the turn's percept and the game so far say, the same for every specialist."""

    goal: str
    """The percept's goal, else the task its observation states (``read_task``)."""
    observation: str
    admissible: tuple[str, ...] | None
    remaining: int | None
    limit: int | None
    history: tuple[tuple[str, str], ...]
    """(action, the observation that followed, blanks collapsed) for the game's earlier
    actions, oldest first."""


def scene(ws: Workspace) -> Scene:
    """The turn's scene, built on the first call of the turn and kept for the others."""
    acting = ws.acting_part()
    if isinstance(acting.scene, Scene):
        return acting.scene
    percept = ws.percept()
    inputs = [m.content for m in ws.dialogue if m.role == "user"]
    actions = [m.content for m in ws.dialogue if m.role == "assistant"]
    history = tuple(
        (action, " ".join(after.split())) for action, after in acting.history(actions, inputs)
    )
    built = Scene(
        goal=percept.goal or read_task(percept.observation),
        observation=percept.observation,
        admissible=percept.actions,
        remaining=percept.remaining,
        limit=percept.limit,
        history=history,
    )
    acting.scene = built
    return built


@dataclass(frozen=True)
class Situation:
    """A specialist's view of the game; ``text`` lays it out for a prompt."""

    task: str
    step: int
    belief: str | None
    observation: str
    admissible: tuple[str, ...] | None
    history: tuple[tuple[str, str], ...]
    """(action, what followed) for the game's earlier actions, oldest first."""
    episodes: str | None
    concepts: str | None
    notes: tuple[tuple[str, str], ...]
    """(node, text) of this turn's broadcasts, in order."""
    remaining: int | None = None
    """Actions left before the environment's limit (None: the input does not say)."""
    limit: int | None = None
    """The environment's action limit (None: the input does not say)."""

    def text(self, *, memory: bool = True) -> str:
        step = f"Step: {self.step} (actions taken in this game)"
        if self.remaining is not None and self.limit is not None:
            step += (
                f"\nAction limit: {self.limit} actions per game; actions remaining: "
                f"{self.remaining}"
            )
        parts = [f"Task: {self.task}", step]
        parts.append(f"Belief state: {self.belief or '(none yet)'}")
        if memory and self.episodes is not None:
            parts.append(f"Past episodes:\n{self.episodes}")
        if memory and self.concepts is not None:
            parts.append(f"Concepts:\n{self.concepts}")
        if self.history:
            lines = "\n".join(f"- {action} -> {result}" for action, result in self.history)
            parts.append(f"Actions so far in this game (latest last):\n{lines}")
        parts.append(f"Current observation:\n{self.observation}")
        if self.admissible is not None:
            listed = "\n".join(f"- {a}" for a in self.admissible) or "(none)"
            parts.append(f"Admissible actions:\n{listed}")
        if self.notes:
            parts.append("This turn:\n" + "\n".join(f"[{k}] {v}" for k, v in self.notes))
        return "\n\n".join(parts)


def episodic_of(ctx: StepContext, params: SituationParams, user: str) -> EpisodicMemory:
    return ctx.memory_of(params.memory, EpisodicMemory, user)


def conceptual_of(ctx: StepContext, params: SituationParams, user: str) -> ConceptualMemory | None:
    if params.concepts is None:
        return None
    return ctx.memory_of(params.concepts, ConceptualMemory, user)


def situation(ws: Workspace, ctx: StepContext, params: SituationParams, user: str) -> Situation:
    """The view of the game ``user`` (a node name) is shown; its own broadcast is left out."""
    episodic = episodic_of(ctx, params, user)
    conceptual = conceptual_of(ctx, params, user)
    now = scene(ws)
    game = episodic.game
    belief = episodic.belief
    history = [(action, clip(after, params.observation_chars)) for action, after in now.history]
    shown = history[-params.history :] if params.history else []
    notes = tuple(
        (key, value)
        for key, value in ws.broadcasts.items()
        if isinstance(value, str) and key != user and (belief is None or value != belief.text)
    )
    return Situation(
        task=game.task if game is not None else now.goal,
        step=episodic.step_of(ws.turn),
        belief=belief.text if belief is not None else None,
        observation=now.observation,
        admissible=now.admissible,
        history=tuple(shown),
        episodes=episodic.render(params.memory_budget) if episodic.params.max_episodes else None,
        concepts=conceptual.render() if conceptual and conceptual.params.enabled else None,
        notes=notes,
        remaining=now.remaining,
        limit=now.limit,
    )
