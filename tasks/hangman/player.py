"""The scripted Hangman player: the opener, then seeded single-letter guesses.

Letter policy: letters are drawn without replacement; each remaining letter has weight
``(1 - T) + T * percent(letter)``, where ``percent`` is the letter's English frequency in
percent (e = 12.02) and ``T`` (the temperature, 0.8 by default) moves the policy from uniform
exploration (``T = 0``) towards frequency-weighted guessing (``T = 1``). The paper says only
that the policy "balances frequency-weighted sampling ... with exploration" (section 3); the
formula, the table and the percent scale are those of the authors' released player. Because
the frequencies are in percent rather than fractions, frequency carries most of the mass: at
``T = 0.8`` the first guess is "e" about 11.5 % of the time and "z" about 0.3 %.

The table is the one the authors' player uses, the English letter frequencies (in percent, from
a sample of 40,000 words) published on Cornell University's mathematics department
cryptography pages; they sum to 99.99.
"""

from __future__ import annotations

import random

from .prompts import OPENER_PROMPT, format_guess

LETTER_FREQUENCY: dict[str, float] = {
    "a": 8.12, "b": 1.49, "c": 2.71, "d": 4.32, "e": 12.02, "f": 2.30, "g": 2.03,
    "h": 5.92, "i": 7.31, "j": 0.10, "k": 0.69, "l": 3.98, "m": 2.61, "n": 6.95,
    "o": 7.68, "p": 1.82, "q": 0.11, "r": 6.02, "s": 6.28, "t": 9.10, "u": 2.88,
    "v": 1.11, "w": 2.09, "x": 0.17, "y": 2.11, "z": 0.07,
}  # fmt: skip
"""English letter frequencies in percent, as in the authors' player; see the module docstring."""


def letter_weights(temperature: float) -> dict[str, float]:
    """The unnormalised sampling weight of every letter: ``(1 - T) + T * percent``."""
    _check_temperature(temperature)
    return {
        letter: (1.0 - temperature) + temperature * percent
        for letter, percent in LETTER_FREQUENCY.items()
    }


def _check_temperature(temperature: float) -> None:
    if isinstance(temperature, bool) or not isinstance(temperature, int | float):
        raise TypeError(f"temperature must be a number in [0, 1], got {temperature!r}")
    if not 0.0 <= temperature <= 1.0:
        raise ValueError(
            f"temperature must be in [0, 1] (0 = uniform, 1 = letter frequency), got {temperature}"
        )


class HangmanPlayer:
    """A deterministic Hangman player: same seed and temperature, same guesses.

    ``guessed`` lists the letters guessed so far in order; ``last_letter`` is the latest one
    (None before the first guess). Each player owns a ``random.Random(seed)``; no global
    random state is touched.
    """

    def __init__(self, seed: int, temperature: float = 0.8) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, got {seed!r}")
        _check_temperature(temperature)
        self.seed = seed
        self.temperature = float(temperature)
        self._weights = letter_weights(self.temperature)
        self._rng = random.Random(seed)
        self.guessed: list[str] = []
        self.last_letter: str | None = None

    def opener(self) -> str:
        """The first message of the game (Appendix F.1 "Player Opener")."""
        return OPENER_PROMPT

    def next_guess(self) -> str:
        """Draw the next letter and return the guess prompt for it."""
        remaining = [letter for letter in self._weights if letter not in self.guessed]
        if not remaining:
            raise RuntimeError(
                "all 26 letters have been guessed; end the game before asking for another guess"
            )
        threshold = self._rng.random() * sum(self._weights[letter] for letter in remaining)
        choice = remaining[-1]
        cumulative = 0.0
        for letter in remaining:
            cumulative += self._weights[letter]
            if threshold < cumulative:
                choice = letter
                break
        self.guessed.append(choice)
        self.last_letter = choice
        return format_guess(choice)

    def reset(self) -> None:
        """Start over: the same seed gives the same guesses again."""
        self._rng = random.Random(self.seed)
        self.guessed = []
        self.last_letter = None
