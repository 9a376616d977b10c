"""What a game brings to the Self-Consistency Test, in three small parts.

- the player (:class:`SCTPlayer`): the scripted dialogue up to the fork, and the two questions
  asked after it (the reveal request, the verification of one candidate);
- the rules (:class:`SCTRules`): reading a reveal, telling two secrets apart, spotting a secret
  in public text, and what the public dialogue established;
- the candidates (:class:`CandidateSource`): the secrets asked about after the fork, with the
  prompt and the parser for the helper model's proposals.

The parts of one game share the game's state (the rules and candidates read what the player
heard), so a game builds them together as an :class:`SCTGame`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cogarch.core.player import Player, Propose


class SCTPlayer(Player, Protocol):
    """The scripted player, plus the questions asked of the forks."""

    @property
    def reveal_prompt(self) -> str: ...

    def verification_prompt(self, candidate: str) -> str: ...


class SCTJudge(Protocol):
    """What scoring needs of the rules: equality of secrets and mentions in public text."""

    def same(self, a: str, b: str) -> bool: ...

    def mentions(self, text: str, secret: str) -> bool: ...


class SCTBoard(Protocol):
    """What the public dialogue says about a secret (None: the game cannot tell)."""

    def fits(self, secret: str) -> bool | None:
        """Whether ``secret`` satisfies every constraint the public dialogue established."""
        ...

    def boards_match(self, secret: str) -> bool | None:
        """Whether every board the host showed is the one ``secret`` gives for the questions
        asked so far; None when no board was shown or the game cannot read ``secret``."""
        ...


class SCTRules(SCTJudge, SCTBoard, Protocol):
    """The game's rules: the judge, the board checks, reveal parsing and the public record of
    the dialogue."""

    def parse_reveal(self, text: str) -> str | None: ...

    def public_state(self) -> dict[str, Any]:
        """What the public dialogue established (for the trial record)."""
        ...

    def contradictions(self) -> list[str]:
        """Where the host's public replies contradicted each other."""
        ...


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


class CandidateSource(Protocol):
    """The candidate secrets of the fork, topped up by the helper model's proposals."""

    async def candidates(
        self,
        *,
        revealed: str | None,
        memory_secret: str | None,
        n: int,
        rng: random.Random,
        propose: Propose | None,
    ) -> CandidateSetLike: ...

    def proposal_prompt(self, transcript: str, max_n: int) -> str: ...

    def parse_proposals(self, text: str) -> list[str]: ...


@dataclass(frozen=True)
class SCTGame:
    """One trial's game, as its three parts."""

    player: SCTPlayer
    rules: SCTRules
    candidates: CandidateSource


def candidate_sources(cset: CandidateSetLike) -> dict[str, str]:
    """Where each candidate came from, as ``{word: origin}``."""
    if isinstance(cset.sources, Mapping):
        return {str(k): str(v) for k, v in cset.sources.items()}
    return {w: str(s) for w, s in zip(cset.words, cset.sources, strict=True)}
