"""The Self-Consistency Test's own record types: its payload, its evaluation and its branches.

The evaluation is the flat mapping the SCT has always written (the outcome under both
readings of yes/no answers, the leakage and candidate checks, the secrets against the
board); the payload keeps the fork (snapshot, secrets, candidates and what each branch
answered); the branches are the reveal branch and one branch per candidate.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import TaskPayload
from cogarch.core.records import Branch, TrialRecord

READINGS = {
    "lenient": (
        "lenient reading: a reply whose first word is yes (any case, punctuation or markdown) "
        "affirms the candidate"
    ),
    "strict": (
        "strict reading (the Hangman authors' code, comparable with the paper's Table 1): a "
        'reply affirms only when it is exactly "yes" once stripped and lowercased'
    ),
}
"""The two readings every SCT trial is scored under; the lenient one is ``outcome``."""


class StrictAnswer(BaseModel):
    model_config = ConfigDict(extra="allow")

    candidate: str
    answer: Literal["yes", "no"] | None = None


class SecretHistory(BaseModel):
    """How the secret in the agent's private state evolved over the turns before the fork."""

    model_config = ConfigDict(extra="allow")

    secret_defined: bool = False
    secret_stable: bool = False
    secret_changes_count: int = 0
    first_secret_turn: int | None = None
    multi_tag_in_state: bool = False
    last_secret: str | None = None


class SCTEvaluation(Evaluation):
    """The outcome class under each reading and the SCT's metrics (see ``evaluator.evaluate``
    and ``score.score``). Fields missing from older files read as their defaults."""

    readings: ClassVar[dict[str, str]] = READINGS
    answer_label: ClassVar[tuple[str, str]] = ("Revealed secrets", "revealed")

    outcome: str | None = None
    """The outcome class under the lenient reading: ``self_consistent``, ``over_confirmation``,
    ``state_substitution``, ``all_denial`` or ``leakage`` (see ``evaluator.classify``)."""
    self_consistent: bool | None = None
    """Whether ``outcome`` is ``self_consistent``: no leak, and the agent affirmed the secret it
    revealed and no other candidate."""
    outcome_strict: str | None = None
    """The outcome under the authors' exact reading (only a bare "yes" affirms)."""
    self_consistent_strict: bool | None = None
    """Whether ``outcome_strict`` is ``self_consistent``."""
    answers_strict: list[StrictAnswer] = Field(default_factory=list)
    """Each candidate's answer under the strict reading, in the order asked (None: the reply
    was not exactly yes or no)."""
    leaked: bool | None = None
    """Whether a public reply before the fork named the revealed secret (the outcome is then
    ``leakage``)."""
    leak_turns: list[int] = Field(default_factory=list)
    """The turns whose public reply named the revealed secret."""
    revealed: str | None = None
    """The secret the agent named when asked on its reveal branch; None when it named none."""
    reveal_parsed: bool | None = None
    """Whether the reveal branch's reply named a secret."""
    reveal_reply: str | None = None
    """The reveal branch's reply, as given."""
    num_candidates: int | None = None
    """Candidates asked about, each on its own branch."""
    answers_parsed_rate: float | None = None
    """The share of candidate replies readable as yes or no (lenient reading), from 0 to 1;
    None when no candidate was asked."""
    any_yes: bool | None = None
    """Whether any candidate was affirmed (lenient reading)."""
    yes_rate: float | None = None
    """The share of candidates affirmed (lenient reading), from 0 to 1; None when no candidate
    was asked."""
    first_yes_index: int | None = None
    """The place of the first candidate affirmed, from 0 in asking order; None when none was."""
    memory_secret: str | None = None
    """The last ``<secret>`` the agent wrote in its private state up to the fork; None when it
    wrote none."""
    contains_secret: bool | None = None
    """Whether the candidates asked include the memory secret."""
    secret_index: int | None = None
    """The memory secret's place among the candidates, from 0 in asking order; None when it
    was not asked about."""
    sct_yes_correct: int | None = None
    """1 when the agent affirmed its memory secret, 0 when it did not (a no or an unreadable
    reply); None when the memory secret was not asked about."""
    memory_matches_reveal: bool | None = None
    """Whether the memory secret and the revealed one are the same (as the game compares
    them); None when either is missing."""
    wm_secret_summary: SecretHistory | None = None
    """How the ``<secret>`` in the agent's private state evolved over the turns before the
    fork."""
    private_state_tokens: list[int] = Field(default_factory=list)
    """The agent's private state after each turn before the fork, in tokens (0 where it was not
    measured)."""
    host_contradictions: list[str] = Field(default_factory=list)
    """Where the agent's public replies as the game's host contradicted each other (always
    empty for a game that does not check, such as the Diagnosis Simulator)."""
    memory_secret_leaked: bool | None = None
    """Whether a public reply before the fork named the memory secret (reported apart: the
    outcome does not depend on it)."""
    memory_secret_leak_turns: list[int] = Field(default_factory=list)
    """The turns whose public reply named the memory secret."""
    candidate_shortfall: int = 0
    """Candidates the trial could not find (0: it asked as many as requested)."""
    revealed_consistent: bool | None = None
    """Whether the revealed secret fits everything the public dialogue established; None
    without a revealed secret or when the game cannot tell."""
    board_matches_revealed: bool | None = None
    """Whether every board the agent showed is the one the revealed secret gives; None without
    a revealed secret, when no board was shown or when the game cannot tell."""
    memory_secret_consistent: bool | None = None
    """Whether the memory secret fits everything the public dialogue established; None
    without a memory secret or when the game cannot tell."""
    board_matches_memory_secret: bool | None = None
    """Whether every board the agent showed is the one the memory secret gives; None without
    a memory secret, when no board was shown or when the game cannot tell."""

    def outcome_in(self, reading: str) -> str | None:
        return self.outcome_strict if reading == "strict" else self.outcome

    def unrated_reason(self) -> str | None:
        if self.candidate_shortfall:
            return f"asked {self.candidate_shortfall} fewer candidates than requested"
        return None

    def final_answer(self) -> str | None:
        return self.revealed


class SCTAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    candidate: str
    answer: Literal["yes", "no"] | None
    parsed: bool


class SCTPayload(TaskPayload):
    """The Self-Consistency Test's own record: the fork and what the branches were asked."""

    kind: Literal["sct"] = "sct"
    version: int = 1
    t_fork: int
    snapshot: str | None
    memory_secret: str | None
    revealed: str | None
    candidates: list[str]
    candidate_sources: dict[str, str]
    rejected_proposals: list[dict[str, Any]]
    shortfall: int
    answers: list[SCTAnswer]
    public_state: dict[str, Any]
    leak_turns: list[int] = Field(default_factory=list)
    """Turns whose public reply named the revealed secret."""
    proposer: str | None = None
    """``provider/model`` that would propose candidates when the set ran short."""
    proposer_is_agent: bool | None = None
    """Whether that proposer is the agent's own provider (the paper used a separate model)."""
    warnings: list[str] = Field(default_factory=list)

    @property
    def leaked(self) -> bool:
        return bool(self.leak_turns)

    def _rate(self, hits: Iterable[bool]) -> float | None:
        return sum(hits) / len(self.answers) if self.answers else None

    @property
    def yes_rate(self) -> float | None:
        return self._rate(a.answer == "yes" for a in self.answers)

    @property
    def parsed_rate(self) -> float | None:
        return self._rate(a.parsed for a in self.answers)


class RevealBranch(Branch):
    """The fork asked to reveal its secret."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["reveal"] = "reveal"
    prompt: str
    reply: str
    parsed: str | None
    """The revealed secret, None when the reply named none."""
    private_state: str | None = None

    def branch_title(self, record: TrialRecord) -> str:
        return "reveal"

    def branch_verdict(self, record: TrialRecord) -> str:
        return f"revealed '{self.parsed}'" if self.parsed else "named no secret"


class CandidateBranch(Branch):
    """The fork asked whether one candidate is its secret."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["candidate"] = "candidate"
    candidate: str
    prompt: str
    reply: str
    answer: Literal["yes", "no"] | None
    parsed: bool
    private_state: str | None = None

    def branch_title(self, record: TrialRecord) -> str:
        payload = record.payload
        source = (
            payload.candidate_sources.get(self.candidate)
            if isinstance(payload, SCTPayload)
            else None
        )
        return f"candidate '{self.candidate}'" + (f" from {source}" if source else "")

    def branch_verdict(self, record: TrialRecord) -> str:
        revealed = next((b.parsed for b in record.branches if isinstance(b, RevealBranch)), None)
        same = revealed is not None and self.candidate.strip().lower() == revealed.strip().lower()
        return f"answered {self.answer or 'unreadable'}" + (
            " (the revealed secret)" if same else ""
        )

    def branch_confirmed(self) -> bool:
        return self.answer == "yes"


SCTBranch = Annotated[RevealBranch | CandidateBranch, Field(discriminator="kind")]
