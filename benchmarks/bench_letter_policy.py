"""Compare the Hangman player's letter policy with a normalised-frequency variant.

Run from the repository root::

    python benchmarks/bench_letter_policy.py [--seeds 3000] [--temperature 0.8]

Two weightings of the same frequency table (percent, e = 12.02), each sampled without
replacement exactly as :class:`~cogarch.tasks.hangman.HangmanPlayer` samples:

- ``percent``: ``(1 - T) + T * percent`` -- the player's policy, as in the authors' player;
- ``normalised``: ``(1 - T) + T * percent / total`` -- frequency normalised to sum to 1, the
  earlier policy, under which frequency carries only about 13 % of the mass at T = 0.8.

For each it prints the share of first guesses that are "e" and "z", the mean number of the
nine most frequent letters (e t a o i n s r h) among the first three guesses, and the values
the weights predict. The ``percent`` column is checked against the player itself, seed by seed.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

from cogarch.tasks.hangman.player import LETTER_FREQUENCY, HangmanPlayer, letter_weights

TOP_NINE = frozenset("etaoinsrh")
GUESSES = 3


def normalised_weights(temperature: float) -> dict[str, float]:
    total = sum(LETTER_FREQUENCY.values())
    return {
        letter: (1.0 - temperature) + temperature * percent / total
        for letter, percent in LETTER_FREQUENCY.items()
    }


def draw(weights: dict[str, float], seed: int, count: int) -> list[str]:
    """``count`` letters without replacement, with the player's own sampling procedure."""
    rng = random.Random(seed)
    guessed: list[str] = []
    for _ in range(count):
        remaining = [letter for letter in weights if letter not in guessed]
        threshold = rng.random() * sum(weights[letter] for letter in remaining)
        choice, cumulative = remaining[-1], 0.0
        for letter in remaining:
            cumulative += weights[letter]
            if threshold < cumulative:
                choice = letter
                break
        guessed.append(choice)
    return guessed


def measure(weights: dict[str, float], seeds: int) -> tuple[float, float, float]:
    """Share of first guesses "e", share "z", mean top-nine letters in the first guesses."""
    games = [draw(weights, seed, GUESSES) for seed in range(seeds)]
    first = [game[0] for game in games]
    top = sum(sum(letter in TOP_NINE for letter in game) for game in games)
    return first.count("e") / seeds, first.count("z") / seeds, top / seeds


def expected_first(weights: dict[str, float]) -> tuple[float, float]:
    total = sum(weights.values())
    return weights["e"] / total, weights["z"] / total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3000, help="games per policy")
    parser.add_argument("--temperature", type=float, default=0.8, help="T in [0, 1]")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error(f"--seeds must be at least 1, got {args.seeds}")
    policies: dict[str, Callable[[float], dict[str, float]]] = {
        "percent": letter_weights,
        "normalised": normalised_weights,
    }
    weights = {name: make(args.temperature) for name, make in policies.items()}
    for seed in range(min(args.seeds, 200)):
        player = HangmanPlayer(seed=seed, temperature=args.temperature)
        for _ in range(GUESSES):
            player.next_guess()
        if player.guessed != draw(weights["percent"], seed, GUESSES):
            print(f"seed {seed}: the sampler disagrees with HangmanPlayer", file=sys.stderr)
            return 1
    print(f"{args.seeds} seeds, T = {args.temperature}, first {GUESSES} guesses")
    print(f"{'':34}" + "".join(f"{name:>12}" for name in policies))
    measured = [measure(w, args.seeds) for w in weights.values()]
    expected = [expected_first(w) for w in weights.values()]
    rows = [
        ("first guess 'e'", [m[0] for m in measured]),
        ("first guess 'e' (expected)", [e[0] for e in expected]),
        ("first guess 'z'", [m[1] for m in measured]),
        ("first guess 'z' (expected)", [e[1] for e in expected]),
    ]
    for label, values in rows:
        print(f"{label:34}" + "".join(f"{value:>12.2%}" for value in values))
    top = "".join(f"{m[2]:>12.2f}" for m in measured)
    print(f"{'mean of etaoinsrh in first 3':34}{top}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
