"""Cross-agent judging, as the ACC paper runs it: the replies of every agent to the same turn
are audited together, unlabelled and in random order, in one judge call per turn.

The judge sees the turn's canonical memory, the user's message and the replies as ``Reply A``,
``Reply B``, ... in an order drawn from ``random.Random(f"{seed}:{turn}")`` (the trial seed is
the same for every agent of a trial index, so the order is reproducible and differs from turn
to turn). It never sees agent names. It returns one verdict per reply letter; each is scored
exactly as a per-reply verdict (``judge.score``), and a reply the judge left out gets an error
instead of a judgement.
"""

from __future__ import annotations

import functools
import random
import string
from collections.abc import Sequence
from typing import Any, Literal

from autogen_core.models import LLMMessage
from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator, model_validator

from cogarch.errors import ModelCallError
from cogarch.models.messages import system, user
from cogarch.models.model import Model
from cogarch.models.structured import structured

from .judge import JUDGE_PROMPT, Judgement, JudgeVerdict, score
from .scenarios import CanonicalMemory

JOINT_PROMPT = (
    JUDGE_PROMPT.replace(
        "You are an impartial auditor of one assistant reply in a long conversation.",
        "You are an impartial auditor of several assistant replies to the same message in a long "
        "conversation. The replies come from different assistants, unnamed and in random order; "
        "judge each on its own against the canonical memory, never against the others.",
    )
    .replace(
        'Reply with ONLY JSON: {"claims"',
        'Do this for every reply. Reply with ONLY JSON: {"verdicts": [{"reply": "A", "claims"',
    )
    .replace('"coherence": 0}', '"coherence": 0}, ...]} with one verdict per reply letter.')
)


def _label_first(schema: dict[str, Any]) -> None:
    # The judge names the reply before auditing it, as the prompt's example does.
    properties = schema["properties"]
    schema["properties"] = {"reply": properties.pop("reply"), **properties}


class LabelledVerdict(JudgeVerdict):
    model_config = ConfigDict(
        extra="ignore", title="LabelledVerdict", json_schema_extra=_label_first
    )
    reply: str = Field(min_length=1, max_length=1)

    @field_validator("reply", mode="before")
    @classmethod
    def _bare_letter(cls, value: Any) -> Any:
        return value.strip().strip("()[]").strip().upper() if isinstance(value, str) else value


class JointVerdict(BaseModel):
    model_config = ConfigDict(extra="ignore", title="JointVerdict")
    verdicts: list[LabelledVerdict] = Field(min_length=1, max_length=26)

    @model_validator(mode="after")
    def _each_reply_once(self) -> JointVerdict:
        letters = [v.reply for v in self.verdicts]
        repeated = sorted({x for x in letters if letters.count(x) > 1})
        if repeated:
            raise ValueError(f"give exactly one verdict per reply; repeated: {', '.join(repeated)}")
        return self


@functools.cache
def joint_verdict_for(n: int) -> type[JointVerdict]:
    """The joint verdict for ``n`` replies: exactly ``n`` verdicts, each labelled with one of
    the letters shown, so a server decoding under the schema cannot write any other label."""
    if not 1 <= n <= 26:
        raise ValueError(f"the judge can compare 1 to 26 replies at once, not {n}")
    letter: Any = Literal[tuple(string.ascii_uppercase[:n])]
    labelled = create_model("LabelledVerdict", __base__=LabelledVerdict, reply=(letter, ...))
    return create_model(
        "JointVerdict",
        __base__=JointVerdict,
        verdicts=(list[labelled], Field(min_length=n, max_length=n)),  # type: ignore[valid-type]
    )


def presentation_order(n: int, seed: int | None, turn: int) -> list[int]:
    """The seeded order in which ``n`` replies are shown at ``turn`` (indices into them)."""
    order = list(range(n))
    random.Random(f"{seed}:{turn}").shuffle(order)
    return order


def joint_messages(memory: CanonicalMemory, query: str, replies: Sequence[str]) -> list[LLMMessage]:
    blocks = "\n".join(
        f'<reply id="{string.ascii_uppercase[i]}">\n{text}\n</reply>'
        for i, text in enumerate(replies)
    )
    return [
        system(JOINT_PROMPT),
        user(
            f'<canonical_memory turn="{memory.turn}">\n{memory.render()}\n</canonical_memory>\n'
            f"<user_message>\n{query}\n</user_message>\n{blocks}"
        ),
    ]


async def judge_together(
    judge: Model,
    memory: CanonicalMemory,
    query: str,
    replies: Sequence[str],
    *,
    seed: int | None,
    attempts: int = 3,
) -> list[Judgement | str]:
    """Judge ``replies`` (one per agent, in the caller's order) in one call; each comes back
    as a judgement or, when the judge gave it none, an error message."""
    order = presentation_order(len(replies), seed, memory.turn)
    shown = [replies[i] for i in order]
    try:
        result = await structured(
            judge,
            joint_messages(memory, query, shown),
            joint_verdict_for(len(shown)),
            caller="judge",
            seed=None if seed is None else seed + memory.turn,
            attempts=attempts,
        )
    except ModelCallError as exc:
        return [str(exc)] * len(replies)
    by_letter = {v.reply: v for v in result.value.verdicts}
    out: list[Judgement | str] = [""] * len(replies)
    for position, index in enumerate(order):
        verdict = by_letter.get(string.ascii_uppercase[position])
        out[index] = (
            score(verdict, memory)
            if verdict is not None
            else f"the judge gave no verdict for reply {string.ascii_uppercase[position]}"
        )
    return out
