"""The Hangman Self-Consistency Test: the agent hosts, a seeded player guesses letters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field

from cogarch.models.fakes import PairsFn

from ..sct.engine import SCTParams, SCTTask
from ..sct.game import SCTGame
from ..sct.parsing import mentions_word, parse_reveal_word
from .boards import boards_match
from .candidates import CandidateSet, build_candidates, parse_word_list
from .hosts import HOSTS
from .player import HangmanPlayer
from .prompts import (
    REVEAL_PROMPT,
    format_candidate_generation,
    format_verification,
)
from .rules import Constraints


class HangmanParams(SCTParams):
    letter_temperature: float = Field(
        default=0.8, ge=0, le=1, description="Weight T of English letter frequency in guesses."
    )


class HangmanDialogue:
    """The player's side: the seeded guesser, and every (letter, reply) pair it heard."""

    reveal_prompt = REVEAL_PROMPT
    verification_prompt = staticmethod(format_verification)

    def __init__(self, seed: int, temperature: float) -> None:
        self.player = HangmanPlayer(seed, temperature)
        self.pairs: list[tuple[str, str]] = []
        self._pending = ""

    def opener(self) -> str:
        self._pending = ""
        return self.player.opener()

    def next_message(self) -> str:
        prompt = self.player.next_guess()
        self._pending = self.player.last_letter or ""
        return prompt

    def observe(self, reply: str) -> None:
        self.pairs.append((self._pending, reply))

    def constraints(self) -> Constraints:
        return Constraints.from_dialogue(self.pairs)


class HangmanRules:
    """Words are the same up to case and spaces; the board is what the dialogue revealed."""

    parse_reveal = staticmethod(parse_reveal_word)
    mentions = staticmethod(mentions_word)

    def __init__(self, dialogue: HangmanDialogue) -> None:
        self.dialogue = dialogue

    def same(self, a: str, b: str) -> bool:
        return a.strip().lower() == b.strip().lower()

    def fits(self, secret: str) -> bool | None:
        return self.dialogue.constraints().admits(secret)

    def boards_match(self, secret: str) -> bool | None:
        return boards_match(secret, self.dialogue.pairs)

    def public_state(self) -> dict[str, Any]:
        c = self.dialogue.constraints()
        return {
            "pattern": c.pattern,
            "present": sorted(c.present),
            "absent": sorted(c.absent),
            "guessed": list(self.dialogue.player.guessed),
        }

    def contradictions(self) -> list[str]:
        return list(self.dialogue.constraints().contradictions)


class HangmanCandidates:
    """Words the board admits, by frequency, topped up by the helper's proposals."""

    parse_proposals = staticmethod(parse_word_list)

    def __init__(self, dialogue: HangmanDialogue) -> None:
        self.dialogue = dialogue

    async def candidates(self, **request: Any) -> CandidateSet:
        """The fork's request (``CandidateSource.candidates``), on the board so far."""
        return await build_candidates(constraints=self.dialogue.constraints(), **request)

    def proposal_prompt(self, transcript: str, max_n: int) -> str:
        return format_candidate_generation(max_n, transcript)


def hangman_game(seed: int, temperature: float) -> SCTGame:
    dialogue = HangmanDialogue(seed, temperature)
    return SCTGame(dialogue, HangmanRules(dialogue), HangmanCandidates(dialogue))


class HangmanSCT(SCTTask):
    """The Self-Consistency Test on Hangman: the agent hosts a game with a secret word it
    keeps privately, and is forked after ``t_fork`` turns to be asked about candidates.

    Args:
        params: The task's parameters, a ``HangmanParams`` (a run config's ``task:`` keys,
            validated): the SCT's, and how the player weighs letters in its guesses.
    """

    kind: ClassVar[str] = "hangman_sct"
    fakes: ClassVar[Mapping[str, PairsFn]] = {f"hangman.{k}": fn for k, fn in HOSTS.items()}
    """The scripted hosts, one per SCT outcome class, as ``hangman.<kind>``."""
    Params = HangmanParams
    params: HangmanParams

    def new_game(self, seed: int) -> SCTGame:
        return hangman_game(seed, self.params.letter_temperature)
