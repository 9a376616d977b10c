"""The Self-Consistency Test, independent of the game: play to the fork, snapshot, fork into a
reveal branch and one branch per candidate secret, then score what was played."""

from __future__ import annotations

import asyncio
import random
from abc import abstractmethod
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.player import ForkableHost, Propose
from cogarch.core.records import (
    CandidateBranch,
    Evaluation,
    RevealBranch,
    Scoring,
    SCTAnswer,
    SCTPayload,
    TrialOutput,
    Turn,
    transitions_from,
)
from cogarch.core.task import Task, TrialContext

from .evaluator import OUTCOMES, Answer
from .game import SCTGame, candidate_sources
from .parsing import parse_yes_no
from .proposer import PROPOSER_CALLER, Proposer
from .score import PlayedSCT, leak_turns, score
from .secrets import last_secret_in


class SCTParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    t_fork: int = Field(default=4, ge=1, le=40, description="Turns before the fork; opener = 1.")
    n_candidates: int = Field(default=5, ge=2, le=50)
    proposals: int = Field(default=20, ge=1, le=100, description="Words asked of the helper.")
    parallel_branches: bool = Field(default=True, description="Ask the branches concurrently.")


async def play_to_fork(agent: ForkableHost, game: SCTGame, turns: int) -> list[Turn]:
    """The scripted dialogue up to the fork, with the agent's private state after each turn."""
    log: list[Turn] = []
    for turn in range(1, turns + 1):
        message = game.player.opener() if turn == 1 else game.player.next_message()
        reply = await agent.respond(message)
        game.player.observe(reply)
        log.append(
            Turn(
                turn=turn,
                user=message,
                reply=reply,
                private_state=agent.private_state(),
                private_state_tokens=agent.state_sizes[-1],
            )
        )
    return log


class SCTTask(Task):
    """Subclasses build the game; the protocol is the same for every game."""

    scoring: ClassVar[Scoring] = Scoring(classes=OUTCOMES, success="self_consistent")
    helper_role: ClassVar[str | None] = "candidate proposals"
    params: SCTParams

    @abstractmethod
    def new_game(self, seed: int) -> SCTGame: ...

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        p = self.params
        agent = ctx.make_agent()
        game = self.new_game(ctx.seed)
        log = await play_to_fork(agent, game, p.t_fork)
        snapshot = agent.private_state()
        memory_secret = last_secret_in([*(t.private_state for t in log), snapshot])

        reveal_branch = agent.fork()
        reveal_prompt = game.player.reveal_prompt
        reveal_reply = await reveal_branch.respond(reveal_prompt)
        revealed = game.rules.parse_reveal(reveal_reply)

        proposer = Proposer.of(ctx)
        propose = self._proposer(ctx, game, log) if ctx.helper_provider else None
        cset = await game.candidates.candidates(
            revealed=revealed,
            memory_secret=memory_secret,
            n=p.n_candidates,
            rng=random.Random(ctx.seed ^ 0x5C7),
            propose=propose,
        )

        async def ask(candidate: str) -> tuple[CandidateBranch, ForkableHost]:
            branch = agent.fork()
            prompt = game.player.verification_prompt(candidate)
            reply = await branch.respond(prompt)
            parsed = parse_yes_no(reply)
            record = CandidateBranch(
                candidate=candidate,
                prompt=prompt,
                reply=reply,
                answer=parsed.answer,
                parsed=parsed.parsed,
                private_state=branch.private_state(),
            )
            return record, branch

        if p.parallel_branches:
            asked = await asyncio.gather(*(ask(c) for c in cset.words))
        else:
            asked = [await ask(c) for c in cset.words]
        played = PlayedSCT(
            turns=log,
            reveal_reply=reveal_reply,
            revealed=revealed,
            memory_secret=memory_secret,
            answers=[Answer(b.candidate, b.answer, b.parsed, b.reply) for b, _ in asked],
            contradictions=game.rules.contradictions(),
            candidate_shortfall=cset.shortfall,
        )
        reveal = RevealBranch(
            prompt=reveal_prompt,
            reply=reveal_reply,
            parsed=revealed,
            private_state=reveal_branch.private_state(),
        )
        transitions = agent.trace.counts()
        for fork in (reveal_branch, *(b for _, b in asked)):
            transitions.update(fork.trace.counts() - agent.trace.counts())
        return TrialOutput(
            turns=log,
            branches=[reveal, *(b for b, _ in asked)],
            evaluation=Evaluation.model_validate(score(played, game.rules, game.rules)),
            transitions=transitions_from(transitions),
            payload=SCTPayload(
                t_fork=p.t_fork,
                snapshot=snapshot,
                memory_secret=memory_secret,
                revealed=revealed,
                candidates=list(cset.words),
                candidate_sources=candidate_sources(cset),
                rejected_proposals=[vars(r) for r in cset.rejected_proposals],
                shortfall=cset.shortfall,
                answers=[
                    SCTAnswer(candidate=b.candidate, answer=b.answer, parsed=b.parsed)
                    for b, _ in asked
                ],
                public_state=game.rules.public_state(),
                leak_turns=leak_turns(played, game.rules),
                proposer=proposer.name,
                proposer_is_agent=proposer.is_agent,
                warnings=[proposer.warning] if proposer.warning else [],
            ),
        )

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
