"""The Hangman host's boards against a secret: the paper's consistency check, turn by turn.

A host is consistent with a secret when every board it showed is the board that secret gives
for the letters guessed so far. The check reads each reply's board as the rules do
(:func:`~tasks.hangman.rules.parse_pattern`); a reply that shows no board is skipped.
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import parse_pattern, reveal_pattern
from .vocabulary import ALPHABET


def boards_match(word: str, pairs: Sequence[tuple[str, str]]) -> bool | None:
    """Whether every board shown in the ``(guessed letter, reply)`` pairs matches ``word``.

    The letter is ``""`` for the reply to the opener. None when ``word`` is not a word of
    letters or no reply showed a board (there is nothing to compare).
    """
    secret = word.strip().lower()
    if not secret or any(ch not in ALPHABET for ch in secret):
        return None
    guessed: list[str] = []
    compared = False
    for letter, reply in pairs:
        if letter:
            guessed.append(letter.lower())
        shown = parse_pattern(reply, len(secret), guessed=guessed)
        if shown is None:
            continue
        compared = True
        if shown != reveal_pattern(secret, guessed):
            return False
    return True if compared else None
