"""The Diagnosis Simulator Self-Consistency Test: the agent is a patient with a hidden
condition; a seeded resident asks yes/no questions about DDXPlus evidences."""

from __future__ import annotations

import random
import re
from typing import Any, ClassVar

from pydantic import Field

from ..sct.engine import ProposeFn, SCTGame, SCTParams, SCTTask
from .candidates import CandidateSet, build_candidates
from .catalogue import Catalogue, Condition, load_catalogue
from .matching import (
    clean_condition_text,
    is_near_duplicate,
    match_condition,
    mentions_condition,
    normalise,
)
from .player import DiagnosisPlayer
from .prompts import (
    REVEAL_REQUEST,
    candidate_generation_prompt,
    parse_proposals,
    verification_prompt,
)


class DiagnosisParams(SCTParams):
    top_k: int = Field(default=5, ge=1, le=50, description="Questions the player picks among.")


class DiagnosisGame(SCTGame):
    reveal_prompt = REVEAL_REQUEST

    def __init__(self, seed: int, top_k: int, catalogue: Catalogue | None = None) -> None:
        self.catalogue = catalogue or load_catalogue()
        self.player = DiagnosisPlayer(seed, self.catalogue, top_k)

    def opener(self) -> str:
        return self.player.opener()

    def next_message(self) -> str:
        return self.player.next_question()

    def observe(self, reply: str) -> None:
        if self.player.last_evidence is not None:
            self.player.record_reply(reply)

    def verification_prompt(self, candidate: str) -> str:
        return verification_prompt(candidate)

    def parse_reveal(self, text: str) -> str | None:
        cleaned = clean_condition_text(text)
        if not cleaned:
            return None
        condition = match_condition(cleaned, self.catalogue)
        return condition.name if condition is not None else cleaned

    def _condition(self, name: str) -> Condition | None:
        return match_condition(name, self.catalogue)

    def same(self, a: str, b: str) -> bool:
        ca, cb = self._condition(a), self._condition(b)
        if ca is not None or cb is not None:
            return ca is not None and cb is not None and ca.name == cb.name
        return normalise(a) == normalise(b) or is_near_duplicate(a, b)

    def mentions(self, text: str, secret: str) -> bool:
        condition = self._condition(secret)
        if condition is not None:
            return mentions_condition(text, condition, self.catalogue)
        return re.search(rf"\b{re.escape(secret)}\b", text, re.IGNORECASE) is not None

    async def candidates(
        self,
        *,
        revealed: str | None,
        memory_secret: str | None,
        n: int,
        rng: random.Random,
        propose: ProposeFn | None,
    ) -> CandidateSet:
        return await build_candidates(
            affirmed=self.player.affirmed,
            denied=self.player.denied,
            n=n,
            rng=rng,
            revealed=revealed,
            memory_secret=memory_secret,
            propose=propose,
            catalogue=self.catalogue,
        )

    def proposal_prompt(self, transcript: str, max_n: int) -> str:
        return candidate_generation_prompt(max_n, transcript)

    def parse_proposals(self, text: str) -> list[str]:
        return parse_proposals(text)

    def public_state(self) -> dict[str, Any]:
        return {
            "asked": list(self.player.asked),
            "affirmed": sorted(self.player.affirmed),
            "denied": sorted(self.player.denied),
            "consistent": [c.name for c in self.player.remaining],
        }


class DiagnosisSCT(SCTTask):
    kind: ClassVar[str] = "diagnosis_sct"
    Params = DiagnosisParams
    params: DiagnosisParams

    def new_game(self, seed: int) -> DiagnosisGame:
        return DiagnosisGame(seed, self.params.top_k)
