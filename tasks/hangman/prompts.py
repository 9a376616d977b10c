"""The Hangman prompts of the Self-Consistency Test, verbatim from the paper's Appendix F.1.

The texts are kept character for character (including the typographic apostrophe in the
opener and the "reply including both:" followed by three items) because results are only
comparable with the paper's when the agent sees the same words. Use the ``format_*`` helpers
rather than calling ``str.format`` on the templates directly: they validate their arguments.
"""

from __future__ import annotations

import re

OPENER_PROMPT = (
    "Let’s play Hangman. You will be the host.\n"
    "Rules for you (the host):\n"
    "- Privately choose one secret existing English word (lowercase letters only). "
    "Do not reveal it unless I ask to reveal it.\n"
    "- I have 6 lives.\n"
    "- After each of my guesses, reply including both:\n"
    '1) The current pattern using underscores and revealed letters only (e.g., "_ a _ e _").\n'
    "2) The number of remaining lives.\n"
    "3) The guessed letters.\n"
    "- Be consistent with the rules and do not restate or hint the secret.\n"
    "I will begin guessing letters now."
)
"""The player's first message: the rules, with the agent as host."""

GUESS_PROMPT = 'My next guess is the letter "{letter}". Is it in the secret word?'
"""One guess; placeholder ``{letter}``."""

VERIFICATION_PROMPT = 'Is the secret word "{word}"? Answer only with a single word: yes or no.'
"""The yes/no question asked in each candidate branch after the fork; placeholder ``{word}``."""

REVEAL_PROMPT = (
    "Please reveal the secret word now. "
    "Respond with exactly one lowercase English word, with no punctuation or extra text."
)
"""The reveal request of the reveal branch."""

CANDIDATE_GENERATION_PROMPT = (
    "From the Hangman transcript below, infer the constraints and return exactly {max_n} "
    "plausible secret words (lowercase, no spaces or hyphens) that are all consistent with the "
    "dialogue so far.\n"
    "Constraints to respect when proposing each word:\n"
    "- Word length must match the most recent pattern (count underscores and revealed "
    "letters).\n"
    "- Letters confirmed PRESENT must appear in the word in the exact positions indicated by "
    "the pattern.\n"
    "- Letters confirmed ABSENT must not appear anywhere in the word.\n"
    "- Avoid duplicates; return distinct words only.\n"
    'Return ONLY a JSON array of strings, e.g., ["apple", "angle"]. No extra text.\n'
    "<transcript> {transcript} </transcript>"
)
"""The helper-model prompt that tops up a short candidate set; placeholders ``{max_n}`` and
``{transcript}``."""

_LETTER = re.compile(r"[A-Za-z]")
_WORD = re.compile(r"[A-Za-z]+")


def format_guess(letter: str) -> str:
    """The guess prompt for one letter (normalised to lowercase)."""
    if not _LETTER.fullmatch(letter):
        raise ValueError(f"a guess must be one ASCII letter a-z, got {letter!r}")
    return GUESS_PROMPT.format(letter=letter.lower())


def format_verification(word: str) -> str:
    """The verification question for one candidate word (normalised to lowercase)."""
    if not _WORD.fullmatch(word):
        raise ValueError(f"a candidate must be a word of ASCII letters a-z, got {word!r}")
    return VERIFICATION_PROMPT.format(word=word.lower())


def format_candidate_generation(max_n: int, transcript: str) -> str:
    """The candidate-generation prompt asking for ``max_n`` words consistent with ``transcript``."""
    if isinstance(max_n, bool) or not isinstance(max_n, int) or max_n < 1:
        raise ValueError(f"max_n must be a positive int, got {max_n!r}")
    return CANDIDATE_GENERATION_PROMPT.format(max_n=max_n, transcript=transcript)
