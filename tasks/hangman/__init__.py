"""Hangman for the Self-Consistency Test: prompts, vocabulary, rules, player, candidates, hosts.

Everything here is deterministic code; only the agent under test is a model. Nothing is loaded
on import: the English vocabulary is read from wordfreq and indexed on first use.
"""

from .candidates import (
    CandidateOrigin,
    CandidateSet,
    Rejection,
    build_candidates,
    parse_word_list,
)
from .hosts import (
    HOSTS,
    denier_host,
    forgetful_host,
    honest_host,
    host_secret,
    leaky_host,
    substituter_host,
)
from .player import LETTER_FREQUENCY, HangmanPlayer, letter_weights
from .prompts import (
    CANDIDATE_GENERATION_PROMPT,
    GUESS_PROMPT,
    OPENER_PROMPT,
    REVEAL_PROMPT,
    VERIFICATION_PROMPT,
    format_candidate_generation,
    format_guess,
    format_verification,
)
from .rules import (
    Constraints,
    GuessResult,
    format_pattern,
    letter_verdict,
    parse_pattern,
    reveal_pattern,
)
from .vocabulary import (
    PatternError,
    Vocabulary,
    consistent_words,
    english_vocabulary,
    is_consistent,
)

__all__ = [
    "CANDIDATE_GENERATION_PROMPT",
    "GUESS_PROMPT",
    "HOSTS",
    "LETTER_FREQUENCY",
    "OPENER_PROMPT",
    "REVEAL_PROMPT",
    "VERIFICATION_PROMPT",
    "CandidateOrigin",
    "CandidateSet",
    "Constraints",
    "GuessResult",
    "HangmanPlayer",
    "PatternError",
    "Rejection",
    "Vocabulary",
    "build_candidates",
    "consistent_words",
    "denier_host",
    "english_vocabulary",
    "forgetful_host",
    "format_candidate_generation",
    "format_guess",
    "format_pattern",
    "format_verification",
    "honest_host",
    "host_secret",
    "is_consistent",
    "leaky_host",
    "letter_verdict",
    "letter_weights",
    "parse_pattern",
    "parse_word_list",
    "reveal_pattern",
    "substituter_host",
]
