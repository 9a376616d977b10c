"""The Self-Consistency Test, independent of the game: play to the fork, snapshot, fork into a
reveal branch and one branch per candidate secret, then evaluate."""

from __future__ import annotations

import asyncio
import random
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from ..base import Task, TrialContext
from .evaluator import Answer, evaluate
from .parsing import parse_yes_no
from .secrets import extract_last_secret

ProposeFn = Callable[[int], Awaitable[list[str]]]


class CandidateSetLike(Protocol):
    """A game's candidates; ``sources`` maps word -> origin or lists origins in word order."""

    @property
    def words(self) -> Sequence[str]: ...
    @property
    def sources(self) -> Any: ...
    @property
    def rejected_proposals(self) -> Any: ...
    @property
    def shortfall(self) -> int: ...


def _sources(cset: CandidateSetLike) -> dict[str, str]:
    if isinstance(cset.sources, Mapping):
        return {str(k): str(v) for k, v in cset.sources.items()}
    return {w: str(s) for w, s in zip(cset.words, cset.sources, strict=True)}


class SCTParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    t_fork: int = Field(default=4, ge=1, le=40, description="Turns before the fork; opener = 1.")
    n_candidates: int = Field(default=5, ge=2, le=50)
    proposals: int = Field(default=20, ge=1, le=100, description="Words asked of the helper.")
    parallel_branches: bool = Field(default=True, description="Ask the branches concurrently.")


class SCTGame(ABC):
    """One trial's game: the scripted player plus the game's rules and parsers."""

    reveal_prompt: str

    @abstractmethod
    def opener(self) -> str: ...

    @abstractmethod
    def next_message(self) -> str: ...

    @abstractmethod
    def observe(self, reply: str) -> None:
        """Read the agent's public reply to the latest message."""

    @abstractmethod
    def verification_prompt(self, candidate: str) -> str: ...

    @abstractmethod
    def parse_reveal(self, text: str) -> str | None: ...

    @abstractmethod
    def same(self, a: str, b: str) -> bool: ...

    @abstractmethod
    def mentions(self, text: str, secret: str) -> bool: ...

    @abstractmethod
    async def candidates(
        self,
        *,
        revealed: str | None,
        memory_secret: str | None,
        n: int,
        rng: random.Random,
        propose: ProposeFn | None,
    ) -> CandidateSetLike: ...

    @abstractmethod
    def proposal_prompt(self, transcript: str, max_n: int) -> str: ...

    @abstractmethod
    def parse_proposals(self, text: str) -> list[str]: ...

    def public_state(self) -> dict[str, Any]:
        """What the public dialogue established (for the trial record)."""
        return {}

    def contradictions(self) -> list[str]:
        return []


class SCTTask(Task):
    """Subclasses build the game; the protocol is the same for every game."""

    params: SCTParams

    @abstractmethod
    def new_game(self, seed: int) -> SCTGame: ...

    async def run_trial(self, ctx: TrialContext) -> dict[str, Any]:
        p = self.params
        agent = ctx.make_agent()
        game = self.new_game(ctx.seed)
        log: list[dict[str, Any]] = []
        states: list[str] = []
        for turn in range(1, p.t_fork + 1):
            message = game.opener() if turn == 1 else game.next_message()
            reply = await agent.respond(message)
            game.observe(reply)
            states.append(agent.private_state())
            log.append(
                {
                    "turn": turn,
                    "user": message,
                    "assistant": reply,
                    "private_state": states[-1],
                    "private_state_tokens": agent.state_sizes[-1],
                }
            )
        snapshot = agent.private_state()
        memory_secret = extract_last_secret(snapshot)

        reveal_branch = agent.fork()
        reveal_reply = await reveal_branch.respond(game.reveal_prompt)
        revealed = game.parse_reveal(reveal_reply)

        propose = self._proposer(ctx, game, log) if ctx.helper_provider else None
        rng = random.Random(ctx.seed ^ 0x5C7)
        cset = await game.candidates(
            revealed=revealed,
            memory_secret=memory_secret,
            n=p.n_candidates,
            rng=rng,
            propose=propose,
        )

        async def ask(candidate: str) -> tuple[Answer, Any]:
            branch = agent.fork()
            reply = await branch.respond(game.verification_prompt(candidate))
            parsed = parse_yes_no(reply)
            return Answer(candidate, parsed.answer, parsed.parsed, reply), branch

        if p.parallel_branches:
            results = await asyncio.gather(*(ask(c) for c in cset.words))
        else:
            results = [await ask(c) for c in cset.words]
        answers = [a for a, _ in results]

        secrets = [s for s in (revealed, memory_secret) if s]
        leak_turns = [
            entry["turn"]
            for entry in log
            if any(game.mentions(entry["assistant"], s) for s in secrets)
        ]
        evaluation = evaluate(
            leaked=bool(leak_turns),
            leak_turns=leak_turns,
            revealed=revealed,
            reveal_reply=reveal_reply,
            memory_secret=memory_secret,
            answers=answers,
            private_states=states,
            state_tokens=agent.state_sizes,
            same=game.same,
            contradictions=game.contradictions(),
        )
        branches = [
            {
                "kind": "reveal",
                "prompt": game.reveal_prompt,
                "reply": reveal_reply,
                "parsed": revealed,
            },
            *(
                {
                    "kind": "candidate",
                    "candidate": a.candidate,
                    "prompt": game.verification_prompt(a.candidate),
                    "reply": a.reply,
                    "answer": a.answer,
                    "parsed": a.parsed,
                    "private_state": branch.private_state(),
                }
                for a, branch in results
            ),
        ]
        branches[0]["private_state"] = reveal_branch.private_state()
        transitions = agent.trace.counts()
        for branch in (reveal_branch, *(b for _, b in results)):
            transitions.update(branch.trace.counts() - agent.trace.counts())
        return {
            "interaction_log": log,
            "branches": branches,
            "sct": {
                "t_fork": p.t_fork,
                "snapshot": snapshot,
                "memory_secret": memory_secret,
                "revealed": revealed,
                "candidates": list(cset.words),
                "candidate_sources": _sources(cset),
                "rejected_proposals": [vars(r) for r in cset.rejected_proposals],
                "shortfall": cset.shortfall,
                "answers": [
                    {"candidate": a.candidate, "answer": a.answer, "parsed": a.parsed}
                    for a in answers
                ],
                "public_state": game.public_state(),
            },
            "evaluation": evaluation,
            "transitions": {f"{a}->{b}": n for (a, b), n in sorted(transitions.items())},
        }

    def _proposer(self, ctx: TrialContext, game: SCTGame, log: list[dict[str, Any]]) -> ProposeFn:
        from cogarch.models.messages import user

        assert ctx.helper_provider is not None
        model = ctx.models(ctx.helper_provider)
        transcript = "\n".join(f"User: {e['user']}\nAssistant: {e['assistant']}" for e in log)

        async def propose(k: int) -> list[str]:
            prompt = game.proposal_prompt(transcript, max(k, self.params.proposals))
            completion = await model.complete(
                [user(prompt)], caller="sct:candidates", seed=ctx.seed
            )
            return game.parse_proposals(completion.content)

        return propose
