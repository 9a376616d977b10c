"""The scripted player: determinism, sampling without replacement, the letter policy."""

from __future__ import annotations

from collections import Counter

import pytest

from cogarch.tasks.hangman.player import (
    LETTER_FREQUENCY,
    HangmanPlayer,
    letter_weights,
)
from cogarch.tasks.hangman.prompts import GUESS_PROMPT, OPENER_PROMPT


def _letters(player: HangmanPlayer, count: int) -> list[str]:
    prompts = [player.next_guess() for _ in range(count)]
    assert prompts == [GUESS_PROMPT.format(letter=letter) for letter in player.guessed]
    return list(player.guessed)


def test_opener_is_the_paper_prompt() -> None:
    assert HangmanPlayer(seed=1).opener() == OPENER_PROMPT


def test_same_seed_same_guesses() -> None:
    assert _letters(HangmanPlayer(seed=7), 10) == _letters(HangmanPlayer(seed=7), 10)
    assert _letters(HangmanPlayer(seed=7), 10) != _letters(HangmanPlayer(seed=8), 10)
    # Pinned so that an accidental change of the policy is noticed.
    assert "".join(_letters(HangmanPlayer(seed=1337), 6)) == "olgndt"


def test_guesses_are_drawn_without_replacement() -> None:
    for seed in range(30):
        player = HangmanPlayer(seed=seed, temperature=0.8)
        letters = _letters(player, 26)
        assert sorted(letters) == sorted(LETTER_FREQUENCY)
        assert player.last_letter == letters[-1]
        with pytest.raises(RuntimeError, match="all 26 letters"):
            player.next_guess()


def test_last_letter_and_reset() -> None:
    player = HangmanPlayer(seed=3)
    assert player.last_letter is None and player.guessed == []
    first = _letters(player, 4)
    player.reset()
    assert player.guessed == [] and player.last_letter is None
    assert _letters(player, 4) == first


def test_weights_follow_the_formula() -> None:
    # The authors' player: (1 - T) + T * frequency, the frequency in percent (not normalised).
    assert sum(LETTER_FREQUENCY.values()) == pytest.approx(99.99)
    assert LETTER_FREQUENCY["e"] == 12.02 and LETTER_FREQUENCY["z"] == 0.07
    weights = letter_weights(0.8)
    assert weights["e"] == pytest.approx(0.2 + 0.8 * 12.02)
    assert weights["z"] == pytest.approx(0.2 + 0.8 * 0.07)
    assert letter_weights(0.0) == dict.fromkeys(LETTER_FREQUENCY, 1.0)
    assert letter_weights(1.0) == LETTER_FREQUENCY


def _first_guesses(temperature: float) -> Counter[str]:
    return Counter(
        _letters(HangmanPlayer(seed=seed, temperature=temperature), 1)[0] for seed in range(3000)
    )


def test_frequency_dominates_first_guesses_at_the_default_temperature() -> None:
    # At T = 0.8 the first guess is "e" with probability 9.816 / 85.192 = 11.5 % (about 346
    # of 3,000) and "z" with 0.256 / 85.192 = 0.3 % (about 9); a normalised frequency would
    # give about 5 % and 3 %.
    first = _first_guesses(0.8)
    assert 290 < first["e"] < 400 and first["z"] < 30
    top_nine = sum(first[letter] for letter in "etaoinsrh")
    assert top_nine > 0.6 * 3000  # 67.3 % expected (about 2,019)


def test_frequency_weighting_shows_in_first_guesses() -> None:
    # With T = 1 the first guess follows the letter frequency: "e" (12.0 %) far above "z".
    frequent = _first_guesses(1.0)
    assert frequent["e"] > 300 and frequent["t"] > 200 and frequent["z"] < 15
    # With T = 0 it is uniform: about 115 each.
    uniform = _first_guesses(0.0)
    assert len(uniform) == 26 and max(uniform.values()) < 180 and min(uniform.values()) > 60


@pytest.mark.parametrize("temperature", [-0.1, 1.5, float("nan")])
def test_temperature_is_validated(temperature: float) -> None:
    with pytest.raises(ValueError, match=r"temperature must be in \[0, 1\]"):
        HangmanPlayer(seed=1, temperature=temperature)


def test_seed_must_be_an_int() -> None:
    with pytest.raises(TypeError, match="seed must be an int"):
        HangmanPlayer(seed="1")  # type: ignore[arg-type]
