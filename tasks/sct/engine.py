"""The Self-Consistency Test, independent of the game: play to the fork, snapshot, fork into a
reveal branch and one branch per candidate secret, then score what was played. An empty reply
anywhere (before the fork, to the reveal, on a branch) fails the trial with
:class:`EmptyReplyError` instead of being scored as a behaviour."""

from __future__ import annotations

import asyncio
import random
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cogarch import tracing
from cogarch.core.controls import ControlAgent, ControlRole
from cogarch.core.evaluation import Scalar
from cogarch.core.host import Forking, Host, PrivateState, ReplyReporting, Walking
from cogarch.core.leaderboard import LeaderboardMetric
from cogarch.core.player import Propose
from cogarch.core.records import Scoring, TrialOutput, TrialRecord, Turn, transitions_from
from cogarch.core.task import Task, TrialContext
from cogarch.core.views import Section, Table
from cogarch.errors import CogarchError
from cogarch.models.slots import keeps_slots

from . import views
from .evaluator import OUTCOMES, Answer
from .game import CandidateSetLike, SCTGame, candidate_sources
from .parsing import parse_yes_no
from .proposer import PROPOSER_CALLER, Proposer
from .records import (
    CandidateBranch,
    RevealBranch,
    SCTAnswer,
    SCTBranch,
    SCTEvaluation,
    SCTPayload,
)
from .score import PlayedSCT, leak_turns, score
from .secrets import last_secret_in


class SCTHost(Host, PrivateState, ReplyReporting, Forking, Walking, Protocol):
    """What the SCT asks of an agent: replies, its private state, forks and its walk."""


class EmptyReplyError(CogarchError):
    """The agent answered with nothing (an empty or blank completion, or only private
    blocks): the trial has no behaviour to classify, so it fails instead of being scored."""


def answered(reply: str, where: str) -> str:
    """``reply``, unless it is empty or blank."""
    if not reply.strip():
        raise EmptyReplyError(
            f"the agent's reply {where} was empty: the model wrote nothing, or only text the "
            "reply parser keeps private (a <secret> or memory block, or text before a stray "
            "closing tag); the trial cannot be classified. The trial's usage.calls show how "
            "many tokens the model wrote: none points at the endpoint (a provider fault or a "
            "too small max_tokens), some at the model's output"
        )
    return reply


BranchConcurrency = int | Literal["auto"]


class SCTParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    t_fork: int = Field(default=4, ge=1, le=40, description="Turns before the fork; opener = 1.")
    n_candidates: int = Field(default=5, ge=2, le=50)
    proposals: int = Field(default=20, ge=1, le=100, description="Words asked of the helper.")
    branch_concurrency: BranchConcurrency = Field(
        default="auto",
        description="Candidate branches asked at once, after the reveal branch has warmed the "
        "server's cache with the shared dialogue. auto: one at a time when the agent's model "
        "keeps a trial to one server slot (llama.cpp: one cache per slot), all at once "
        "otherwise (servers whose prefix cache all requests share).",
    )

    @field_validator("branch_concurrency")
    @classmethod
    def _positive(cls, value: BranchConcurrency) -> BranchConcurrency:
        if value != "auto" and value < 1:
            raise ValueError("branch_concurrency is 'auto' or a whole number of at least 1")
        return value


async def play_to_fork(agent: SCTHost, game: SCTGame, turns: int) -> list[Turn]:
    """The scripted dialogue up to the fork, with the agent's private state after each turn."""
    log: list[Turn] = []
    for turn in range(1, turns + 1):
        message = game.player.opener() if turn == 1 else game.player.next_message()
        reply = answered(await agent.respond(message), f"at turn {turn}")
        game.player.observe(reply)
        log.append(
            Turn(
                turn=turn,
                user=message,
                reply=reply,
                private_state=agent.private_state(),
                private_state_tokens=agent.last_reply().state_tokens,
            )
        )
    return log


def branch_span(
    kind: Literal["reveal", "candidate"], index: int, candidate: str | None = None
) -> AbstractContextManager[tracing.Span]:
    """The span of one SCT branch: the reveal (index 0) or a candidate (from 1); the
    candidate word is a part of the branch's prompt, so it is recorded with contents only."""
    attributes: dict[str, tracing.AttributeValue] = {
        "cogarch.sct.branch": kind,
        "cogarch.sct.branch.index": index,
    }
    if candidate is not None and tracing.capture_content():
        attributes["cogarch.sct.candidate"] = candidate
    return tracing.span(f"sct branch {kind}", attributes)


@dataclass
class Fork:
    """The fork of one SCT: the snapshot, the reveal branch and one branch per candidate."""

    snapshot: str
    memory_secret: str | None
    reveal: RevealBranch
    cset: CandidateSetLike
    candidates: list[CandidateBranch]
    hosts: list[SCTHost]
    """The forked hosts, the reveal branch's first."""

    def played(self, turns: list[Turn], game: SCTGame) -> PlayedSCT:
        """What scoring reads: the turns before the fork and what the branches answered."""
        return PlayedSCT(
            turns=turns,
            reveal_reply=self.reveal.reply,
            revealed=self.reveal.parsed,
            memory_secret=self.memory_secret,
            answers=[Answer(b.candidate, b.answer, b.parsed, b.reply) for b in self.candidates],
            contradictions=game.rules.contradictions(),
            candidate_shortfall=self.cset.shortfall,
        )

    def payload(
        self, t_fork: int, played: PlayedSCT, game: SCTGame, proposer: Proposer | None = None
    ) -> SCTPayload:
        """The SCT's own record of this fork."""
        return SCTPayload(
            t_fork=t_fork,
            snapshot=self.snapshot,
            memory_secret=self.memory_secret,
            revealed=self.reveal.parsed,
            candidates=list(self.cset.words),
            candidate_sources=candidate_sources(self.cset),
            rejected_proposals=[vars(r) for r in self.cset.rejected_proposals],
            shortfall=self.cset.shortfall,
            answers=[
                SCTAnswer(candidate=b.candidate, answer=b.answer, parsed=b.parsed)
                for b in self.candidates
            ],
            public_state=game.rules.public_state(),
            leak_turns=leak_turns(played, game.rules),
            proposer=proposer.name if proposer else None,
            proposer_is_agent=proposer.is_agent if proposer else None,
            warnings=[proposer.warning] if proposer and proposer.warning else [],
        )


async def fork_sct(
    agent: SCTHost,
    game: SCTGame,
    turns: Sequence[Turn],
    *,
    n: int,
    seed: int,
    propose: Propose | None = None,
    concurrency: int | None = None,
) -> Fork:
    """Snapshot ``agent``, ask one fork to reveal its secret and one fork per candidate
    whether it is the secret; ``agent`` itself is left as it was.

    The reveal branch is asked first, alone: its prompt is the shared dialogue plus one
    message, so once it is answered the server holds the prefix every candidate branch starts
    with. The candidates follow, ``concurrency`` at a time (None: all at once). The order
    changes only where the work is done, not what a branch is asked or which seed it uses."""
    with tracing.span("sct fork", {"cogarch.sct.turns": len(turns)}) as span:
        fork = await _fork(agent, game, turns, n, seed, propose, concurrency)
        span.set_attribute("cogarch.sct.candidates", len(fork.candidates))
    return fork


async def _fork(
    agent: SCTHost,
    game: SCTGame,
    turns: Sequence[Turn],
    n: int,
    seed: int,
    propose: Propose | None,
    concurrency: int | None,
) -> Fork:
    snapshot = agent.private_state()
    memory_secret = last_secret_in([*(t.private_state for t in turns), snapshot])
    reveal_host = agent.fork()
    reveal_prompt = game.player.reveal_prompt
    with branch_span("reveal", 0) as span:
        reveal_reply = answered(await reveal_host.respond(reveal_prompt), "to the reveal")
        revealed = game.rules.parse_reveal(reveal_reply)
        span.set_attribute("cogarch.sct.revealed", revealed is not None)
    cset = await game.candidates.candidates(
        revealed=revealed,
        memory_secret=memory_secret,
        n=n,
        rng=random.Random(seed ^ 0x5C7),
        propose=propose,
    )

    async def ask(index: int, candidate: str) -> tuple[CandidateBranch, SCTHost]:
        with branch_span("candidate", index, candidate) as span:
            branch = agent.fork()
            prompt = game.player.verification_prompt(candidate)
            reply = await branch.respond(prompt)
            parsed = parse_yes_no(reply)
            span.set_attribute("cogarch.sct.answer", parsed.answer or "unparsed")
        record = CandidateBranch(
            candidate=candidate,
            prompt=prompt,
            reply=reply,
            answer=parsed.answer,
            parsed=parsed.parsed,
            private_state=branch.private_state(),
        )
        return record, branch

    gate = asyncio.Semaphore(concurrency or len(cset.words) or 1)

    async def ask_in_turn(index: int, candidate: str) -> tuple[CandidateBranch, SCTHost]:
        async with gate:
            return await ask(index, candidate)

    asked = await asyncio.gather(*(ask_in_turn(i, c) for i, c in enumerate(cset.words, 1)))
    for b, _ in asked:
        answered(b.reply, f"on the branch of candidate '{b.candidate}'")
    reveal = RevealBranch(
        prompt=reveal_prompt,
        reply=reveal_reply,
        parsed=revealed,
        private_state=reveal_host.private_state(),
    )
    return Fork(
        snapshot=snapshot,
        memory_secret=memory_secret,
        reveal=reveal,
        cset=cset,
        candidates=[b for b, _ in asked],
        hosts=[reveal_host, *(h for _, h in asked)],
    )


class SCTTask(Task):
    """Subclasses build the game; the protocol is the same for every game.

    Args:
        params: The task's parameters, an ``SCTParams`` or a game's subclass of it (a run
            config's ``task:`` keys, validated): the turns before the fork and the candidates
            asked.
    """

    scoring: ClassVar[Scoring] = Scoring(classes=OUTCOMES, success="self_consistent")
    clusters: ClassVar[str | None] = None  # each trial is one game: its own cluster
    leaderboard: ClassVar[tuple[LeaderboardMetric, ...]] = (
        LeaderboardMetric(
            name="sc_rate",
            value="outcome",
            equals="self_consistent",
            interval="wilson",
            description="self-consistent share of rated trials, lenient reading of yes/no",
        ),
        LeaderboardMetric(
            name="sc_rate_strict",
            value="outcome_strict",
            equals="self_consistent",
            interval="wilson",
            description="self-consistent share under the paper's strict reading (Table 1)",
        ),
    )
    controls: ClassVar[Mapping[ControlRole, ControlAgent]] = {
        "lower_bound": ControlAgent(
            agent="vanilla", description="the paper's lower bound: no state kept across turns"
        ),
        "upper_bound": ControlAgent(
            agent="private_cot",
            description="the paper's upper bound: its own earlier reasoning kept privately",
        ),
    }
    Payload = SCTPayload
    Evaluation = SCTEvaluation
    Branch = SCTBranch
    helper_role: ClassVar[str | None] = "candidate proposals"
    params: SCTParams

    @classmethod
    def trial_sections(cls, record: TrialRecord) -> list[Section]:
        return views.trial_sections(record)

    @classmethod
    def tidy_columns(cls, record: TrialRecord) -> dict[str, Scalar]:
        return views.tidy_columns(record)

    @classmethod
    def report_tables(cls, records: Sequence[TrialRecord]) -> list[Table]:
        return views.report_tables(records)

    @abstractmethod
    def new_game(self, seed: int) -> SCTGame: ...

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        p = self.params
        agent = ctx.make_agent()
        game = self.new_game(ctx.seed)
        log = await play_to_fork(agent, game, p.t_fork)
        fork = await fork_sct(
            agent,
            game,
            log,
            n=p.n_candidates,
            seed=ctx.seed,
            propose=self._proposer(ctx, game, log) if ctx.helper_provider else None,
            concurrency=self._branch_concurrency(ctx),
        )
        played = fork.played(log, game)
        transitions = agent.transition_counts()
        for branch in fork.hosts:
            transitions.update(branch.transition_counts() - agent.transition_counts())
        return TrialOutput(
            turns=log,
            branches=[fork.reveal, *fork.candidates],
            evaluation=SCTEvaluation.model_validate(score(played, game.rules, game.rules)),
            transitions=transitions_from(transitions),
            payload=fork.payload(p.t_fork, played, game, Proposer.of(ctx)),
            walk=agent.walk(),
        )

    def _branch_concurrency(self, ctx: TrialContext) -> int | None:
        chosen = self.params.branch_concurrency
        if chosen != "auto":
            return chosen
        if ctx.agent_provider is not None and keeps_slots(ctx.models(ctx.agent_provider)):
            return 1
        return None

    def _proposer(self, ctx: TrialContext, game: SCTGame, log: list[Turn]) -> Propose:
        from cogarch.models.messages import user

        assert ctx.helper_provider is not None
        model = ctx.models(ctx.helper_provider)
        transcript = "\n".join(f"User: {t.user}\nAssistant: {t.reply}" for t in log)

        async def propose(k: int) -> list[str]:
            prompt = game.candidates.proposal_prompt(transcript, max(k, self.params.proposals))
            completion = await model.complete([user(prompt)], caller=PROPOSER_CALLER, seed=ctx.seed)
            return game.candidates.parse_proposals(completion.content)

        return propose
