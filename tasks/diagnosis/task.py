"""The Diagnosis Simulator Self-Consistency Test: the agent is a patient with a hidden
condition; a seeded resident asks yes/no questions about DDXPlus evidences."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field

from cogarch.models.fakes import PairsFn

from ..sct.engine import SCTParams, SCTTask
from ..sct.game import SCTGame
from .candidates import CandidateSet, build_candidates
from .catalogue import Catalogue, Condition, load_catalogue
from .matching import (
    clean_condition_text,
    is_near_duplicate,
    match_condition,
    mentions_condition,
    normalise,
)
from .patients import PATIENTS
from .player import DiagnosisPlayer
from .prompts import (
    REVEAL_REQUEST,
    candidate_generation_prompt,
    parse_proposals,
    verification_prompt,
)


class DiagnosisParams(SCTParams):
    top_k: int = Field(default=5, ge=1, le=50, description="Questions the player picks among.")


class DiagnosisDialogue:
    """The player's side: the seeded resident's questions, and the answers it recorded."""

    reveal_prompt = REVEAL_REQUEST
    verification_prompt = staticmethod(verification_prompt)

    def __init__(self, player: DiagnosisPlayer) -> None:
        self.player = player

    def opener(self) -> str:
        return self.player.opener()

    def next_message(self) -> str:
        return self.player.next_question()

    def observe(self, reply: str) -> None:
        if self.player.last_evidence is not None:
            self.player.record_reply(reply)


class DiagnosisRules:
    """Conditions are the same when they match one catalogue entry (else by near-equal text)."""

    def __init__(self, player: DiagnosisPlayer, catalogue: Catalogue) -> None:
        self.player = player
        self.catalogue = catalogue

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

    def fits(self, secret: str) -> bool | None:
        """Whether the condition has every affirmed group and no denied one; None for a name
        the catalogue does not know (its evidences are unknown)."""
        condition = self._condition(secret)
        if condition is None:
            return None
        return self.player.affirmed <= condition.groups and not (
            self.player.denied & condition.groups
        )

    def boards_match(self, secret: str) -> bool | None:
        """The Diagnosis "board" is the answers given about evidences: each must agree with
        the condition's evidences. That is the same test as :meth:`fits`, answer by answer."""
        return self.fits(secret)

    def public_state(self) -> dict[str, Any]:
        return {
            "asked": list(self.player.asked),
            "affirmed": sorted(self.player.affirmed),
            "denied": sorted(self.player.denied),
            "consistent": [c.name for c in self.player.remaining],
        }

    def contradictions(self) -> list[str]:
        return []


class DiagnosisCandidates:
    """Conditions the answers leave possible, topped up by the helper's proposals."""

    parse_proposals = staticmethod(parse_proposals)

    def __init__(self, player: DiagnosisPlayer, catalogue: Catalogue) -> None:
        self.player = player
        self.catalogue = catalogue

    async def candidates(self, **request: Any) -> CandidateSet:
        """The fork's request (``CandidateSource.candidates``), on the answers so far."""
        return await build_candidates(
            affirmed=self.player.affirmed,
            denied=self.player.denied,
            catalogue=self.catalogue,
            **request,
        )

    def proposal_prompt(self, transcript: str, max_n: int) -> str:
        return candidate_generation_prompt(max_n, transcript)


def diagnosis_game(seed: int, top_k: int, catalogue: Catalogue | None = None) -> SCTGame:
    cat = catalogue or load_catalogue()
    player = DiagnosisPlayer(seed, cat, top_k)
    return SCTGame(
        DiagnosisDialogue(player),
        DiagnosisRules(player, cat),
        DiagnosisCandidates(player, cat),
    )


class DiagnosisSCT(SCTTask):
    """The Self-Consistency Test on the Diagnosis Simulator: the agent plays a patient with a
    hidden DDXPlus condition, and is forked after ``t_fork`` turns to be asked about
    candidates.

    Args:
        params: The task's parameters, a ``DiagnosisParams`` (a run config's ``task:`` keys,
            validated): the SCT's, and how many questions the player picks among.
    """

    kind: ClassVar[str] = "diagnosis_sct"
    fakes: ClassVar[Mapping[str, PairsFn]] = {f"diagnosis.{k}": fn for k, fn in PATIENTS.items()}
    """The scripted patients, one per SCT outcome class, as ``diagnosis.<kind>``."""
    Params = DiagnosisParams
    params: DiagnosisParams

    def new_game(self, seed: int) -> SCTGame:
        return diagnosis_game(seed, self.params.top_k)
