"""The ALFWorld task's parameters: which games a trial plays, and the rules it plays them by.

``source`` says where the games come from: ``generated`` (the default) draws games the
generator makes from what the ``alfworld`` wheel ships; ``official`` plays ALFWorld's own games,
from the folder ``official`` names, else ``$ALFWORLD_DATA``, else ALFWorld's default location
(``~/.cache/alfworld``), and refuses to start when none holds them (see ``official.py``).
Naming a folder in ``official`` plays the official games whatever ``source`` says.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .curriculum import Part, Settings, TaskMix
from .games import Split
from .official import locate_official
from .session import DEFAULT_MAX_STEPS, InadmissibleReply
from .wheel import TASK_TYPES

GameSource = Literal["generated", "official"]


class CurriculumPart(BaseModel):
    model_config = ConfigDict(extra="forbid")

    split: Split = Field(
        description="train: ALFRED's seen rooms; id: the same rooms, held-out seeds; ood: "
        "its unseen rooms."
    )
    games: int = Field(ge=1, le=10_000, description="Games of this split, played in order.")


class AlfworldParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    curriculum: list[CurriculumPart] = Field(
        default_factory=lambda: [
            CurriculumPart(split="train", games=4),
            CurriculumPart(split="ood", games=2),
        ],
        min_length=1,
        description="The games a trial plays, part after part, with one agent.",
    )
    task_types: list[str] | Literal["all"] = Field(
        default="all", description=f"Task types to draw from: all, or some of {TASK_TYPES}."
    )
    rooms: list[int] | None = Field(
        default=None,
        description="Only these rooms (FloorPlan numbers); each split keeps to its own.",
    )
    max_receptacles: int | None = Field(
        default=None, ge=1, description="Only rooms with at most this many receptacles."
    )
    max_steps: int = Field(
        default=DEFAULT_MAX_STEPS, ge=1, le=1000, description="Agent turns per game."
    )
    max_transitions: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="Specialist transitions per game: each turn's walk is capped at what "
        "is left, and the game ends when they are spent (None: no limit; an agent without a "
        "graph has none).",
    )
    announce_limit: bool = Field(
        default=True,
        description="Tell the agent each turn how many of its max_steps actions remain.",
    )
    inadmissible_reply: InadmissibleReply = Field(
        default="nothing_happens",
        description="What a command the game does not admit is answered: ALFWorld's "
        '"Nothing happens." (nothing_happens) or the Episodex paper\'s "The action X is not '
        'in the list of admissible actions for the current timestep." (admissible_list).',
    )
    task_mix: TaskMix = Field(
        default="uniform",
        description="How task types are drawn: uniform (they take turns) or alfworld "
        "(ALFWorld's valid_unseen proportions).",
    )
    source: GameSource = Field(
        default="generated",
        description="generated: games the generator makes; official: ALFWorld's own games "
        "(from 'official', else $ALFWORLD_DATA, else ~/.cache/alfworld), refused when "
        "missing.",
    )
    official: str | None = Field(
        default=None,
        description="Play the official games under this folder (alfworld-download's "
        "$ALFWORLD_DATA) instead of generated ones.",
    )
    cache_dir: str | None = Field(
        default=None,
        description="Where generated games are cached (default: the user cache directory's "
        "alfworld/, under $COGARCH_CACHE_DIR when set).",
    )
    plan_timeout_s: float = Field(
        default=600.0, gt=0, le=3600, description="Time the planner may take per game."
    )

    @field_validator("task_types")
    @classmethod
    def _known_types(cls, value: list[str] | str) -> list[str] | str:
        if isinstance(value, list):
            unknown = [t for t in value if t not in TASK_TYPES]
            if unknown or not value:
                raise ValueError(
                    f"unknown task types {unknown}; choose among {', '.join(TASK_TYPES)} or "
                    "write 'all'"
                )
        return value

    def official_root(self) -> str | None:
        """The folder the official games are read from (None: generated games); refuses
        (``MissingDataError``) official games that are nowhere to be found."""
        if self.official is not None:
            return self.official
        if self.source == "official":
            splits = tuple(dict.fromkeys(p.split for p in self.curriculum))
            return locate_official(splits)
        return None

    def settings(self) -> Settings:
        return Settings(
            parts=tuple(Part(p.split, p.games) for p in self.curriculum),
            task_types=tuple(TASK_TYPES if self.task_types == "all" else self.task_types),
            task_mix=self.task_mix,
            rooms=tuple(self.rooms) if self.rooms is not None else None,
            max_receptacles=self.max_receptacles,
            official=self.official_root(),
            cache_dir=self.cache_dir,
            plan_timeout_s=self.plan_timeout_s,
        )
