"""The memory-aware judge: a claim audit and a constraint audit of one reply, against the
scenario's canonical memory for that turn (the ground truth the judge keeps, never the agent's
memory). The judge sees only the current query, the canonical memory and the reply, and never
which agent wrote it.
"""

from __future__ import annotations

from typing import Any

from autogen_core.models import LLMMessage
from pydantic import BaseModel, ConfigDict, Field

from cogarch.models.messages import system, user
from cogarch.models.model import Model
from cogarch.models.structured import structured

from .metrics import drift_rate, hallucination_rate
from .scenarios import CanonicalMemory

OUTCOME_METRICS = ("relevance", "answer_quality", "instruction_following", "coherence")


class Claim(BaseModel):
    model_config = ConfigDict(extra="ignore")
    claim: str = Field(max_length=400)
    supported: bool


class JudgeVerdict(BaseModel):
    """What the judge model returns (unknown keys are ignored).

    The two audits have no defaults: a verdict that leaves out ``claims``, ``violated`` or
    ``omitted`` did not audit the reply, and is sent back to the judge (then counted as a judge
    failure), never read as a reply with no claims and no violations."""

    model_config = ConfigDict(extra="ignore", title="JudgeVerdict")

    claims: list[Claim] = Field(max_length=30)
    violated: list[str] = Field(description="Ids of violated constraints.")
    omitted: list[str] = Field(description="Ids of omitted requirements.")
    relevance: int = Field(ge=0, le=10)
    answer_quality: int = Field(ge=0, le=10)
    instruction_following: int = Field(ge=0, le=10)
    coherence: int = Field(ge=0, le=10)


class Judgement(BaseModel):
    """One turn's audit in numbers: S_t, U_t, V_t, O_t, |K_t|, H_t and D_t."""

    model_config = ConfigDict(extra="forbid")

    supported: int
    unsupported: int
    violated: list[str]
    omitted: list[str]
    active_constraints: int
    hallucination: float
    drift: float
    scores: dict[str, int]
    unsupported_claims: list[str] = Field(default_factory=list)
    ignored_ids: list[str] = Field(default_factory=list)
    """Ids the judge named that are not active constraints or requirements of the turn."""


JUDGE_PROMPT = """You are an impartial auditor of one assistant reply in a long conversation. \
You are given the user's current message, the CANONICAL MEMORY (the only ground truth: active \
constraints, confirmed facts, claims that must not be accepted, and what this reply requires) \
and the reply.

1. Claim audit: split the reply into atomic factual claims about the situation (not advice or \
questions). Mark a claim supported only if the current message or the canonical memory \
supports it; claims that repeat a not-accepted claim as true, or invent details, are \
unsupported.
2. Constraint audit: list the ids of active constraints the reply violates (it recommends, \
performs or accepts breaking them, or ignores a format rule) in "violated", and the ids of \
required elements it leaves out in "omitted". Use only the ids shown.
3. Scores from 0 to 10: relevance, answer_quality, instruction_following, coherence.

Reply with ONLY JSON: {"claims": [{"claim": "...", "supported": true}], "violated": [], \
"omitted": [], "relevance": 0, "answer_quality": 0, "instruction_following": 0, \
"coherence": 0}"""


def judge_messages(memory: CanonicalMemory, query: str, reply: str) -> list[LLMMessage]:
    return [
        system(JUDGE_PROMPT),
        user(
            f'<canonical_memory turn="{memory.turn}">\n{memory.render()}\n</canonical_memory>\n'
            f"<user_message>\n{query}\n</user_message>\n<reply>\n{reply}\n</reply>"
        ),
    ]


def score(verdict: JudgeVerdict, memory: CanonicalMemory) -> Judgement:
    """Turn a verdict into the paper's counts and rates; ids outside the turn are ignored."""
    active = {c.id for c in memory.constraints}
    required = {r.id for r in memory.required}
    violated = list(dict.fromkeys(i for i in verdict.violated if i in active))
    omitted = list(dict.fromkeys(i for i in verdict.omitted if i in required))
    ignored = [i for i in (*verdict.violated, *verdict.omitted) if i not in active | required]
    supported = sum(1 for c in verdict.claims if c.supported)
    unsupported = [c.claim for c in verdict.claims if not c.supported]
    return Judgement(
        supported=supported,
        unsupported=len(unsupported),
        violated=violated,
        omitted=omitted,
        active_constraints=len(active),
        hallucination=hallucination_rate(supported, len(unsupported)),
        drift=drift_rate(len(violated), len(omitted), len(active)),
        scores={m: int(getattr(verdict, m)) for m in OUTCOME_METRICS},
        unsupported_claims=unsupported,
        ignored_ids=list(dict.fromkeys(ignored)),
    )


async def judge_turn(
    judge: Model,
    memory: CanonicalMemory,
    query: str,
    reply: str,
    *,
    seed: int | None = None,
    attempts: int = 3,
) -> Judgement:
    """Ask ``judge`` for a verdict (validated, retried when invalid) and score it."""
    result = await structured(
        judge,
        judge_messages(memory, query, reply),
        JudgeVerdict,
        caller="judge",
        seed=seed,
        attempts=attempts,
    )
    return score(result.value, memory)


def verdict_json(**fields: Any) -> str:
    """A verdict as the judge would write it (for scripted judges in tests and benchmarks)."""
    base: dict[str, Any] = {"claims": [], "violated": [], "omitted": []}
    base.update({m: 10 for m in OUTCOME_METRICS})
    base.update(fields)
    return JudgeVerdict.model_validate(base).model_dump_json()
