"""The scripted hosts, driven through whole games with the real player and parsers."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from cogarch.models.fakes import PairsFn
from cogarch.tasks.hangman.candidates import build_candidates
from cogarch.tasks.hangman.hosts import (
    HOSTS,
    denier_host,
    forgetful_host,
    honest_host,
    host_secret,
    leaky_host,
    substituter_host,
)
from cogarch.tasks.hangman.player import HangmanPlayer
from cogarch.tasks.hangman.prompts import REVEAL_PROMPT, format_guess, format_verification
from cogarch.tasks.hangman.rules import Constraints, reveal_pattern
from cogarch.tasks.hangman.vocabulary import is_consistent
from cogarch.tasks.sct.parsing import mentions_word, parse_reveal_word, parse_yes_no
from tests.tasks import UPDATER_CALL

Messages = list[tuple[str, str]]
SYSTEM = ("system", "You are a helpful assistant.")
UPDATER = ("system", "You are a memory updater for an assistant. Return ONLY JSON.")


@dataclass
class Game:
    messages: Messages
    pairs: list[tuple[str, str]]

    @property
    def constraints(self) -> Constraints:
        return Constraints.from_dialogue(self.pairs)


def play(host: PairsFn, seed: int, guesses: int = 3) -> Game:
    """The opener and ``guesses`` guesses, as the SCT runs them before the fork."""
    player = HangmanPlayer(seed=seed)
    messages: Messages = [SYSTEM, ("user", player.opener())]
    reply = host(messages, seed)
    messages.append(("assistant", reply))
    pairs = [("", reply)]
    for _ in range(guesses):
        messages.append(("user", player.next_guess()))
        reply = host(messages, seed)
        messages.append(("assistant", reply))
        assert player.last_letter is not None
        pairs.append((player.last_letter, reply))
    return Game(messages, pairs)


def ask(host: PairsFn, game: Game, seed: int, prompt: str) -> str:
    return host([*game.messages, ("user", prompt)], seed)


def memory_secret(host: PairsFn, messages: Sequence[tuple[str, str]], seed: int) -> str:
    call = json.loads(host([UPDATER, *messages[1:]], seed, UPDATER_CALL))
    assert call["name"] == "overwrite_memory"
    memory = call["arguments"]["new_memory"]
    assert "## 2. Facts and Knowledge" in memory
    found = re.search(r"^- Secret word: <secret>([a-z]+)</secret>$", memory, re.MULTILINE)
    assert found is not None, memory
    return found.group(1)


async def verdicts(host: PairsFn, game: Game, seed: int) -> tuple[str | None, dict[str, str]]:
    revealed = parse_reveal_word(ask(host, game, seed, REVEAL_PROMPT))
    candidates = await build_candidates(
        constraints=game.constraints,
        n=5,
        rng=random.Random(seed),
        revealed=revealed,
        memory_secret=memory_secret(host, game.messages, seed),
    )
    answers: dict[str, str] = {}
    for word in candidates.words:
        parsed = parse_yes_no(ask(host, game, seed, format_verification(word)))
        assert parsed.parsed, parsed
        assert parsed.answer is not None
        answers[word] = parsed.answer
    return revealed, answers


def test_registry() -> None:
    expected = {
        "honest": honest_host,
        "forgetful": forgetful_host,
        "leaky": leaky_host,
        "denier": denier_host,
        "substituter": substituter_host,
    }
    assert dict(HOSTS) == expected


def test_secrets_differ_across_seeds() -> None:
    secrets = [host_secret(seed) for seed in range(20)]
    assert len(set(secrets)) >= 15
    assert all(len(secret) == 5 and secret.isalpha() for secret in secrets)
    assert host_secret(3) == host_secret(3)


@pytest.mark.parametrize("seed", range(6))
async def test_honest_host_is_self_consistent(seed: int) -> None:
    game = play(honest_host, seed, guesses=5)
    secret = host_secret(seed)
    constraints = game.constraints
    assert constraints.contradictions == [] and constraints.unresolved == []
    assert constraints.pattern == reveal_pattern(secret, constraints.guessed)
    assert constraints.admits(secret)
    assert not any(mentions_word(text, secret) for role, text in game.messages if role != "user")
    revealed, answers = await verdicts(honest_host, game, seed)
    assert revealed == secret
    assert {word for word, answer in answers.items() if answer == "yes"} == {secret}
    assert len(answers) == 5


@pytest.mark.parametrize("seed", range(6))
async def test_forgetful_host_confirms_every_fitting_candidate(seed: int) -> None:
    game = play(forgetful_host, seed, guesses=4)
    constraints = game.constraints
    assert constraints.contradictions == [] and constraints.unresolved == []
    revealed, answers = await verdicts(forgetful_host, game, seed)
    assert revealed is not None and constraints.admits(revealed)
    assert set(answers.values()) == {"yes"}
    assert len(answers) >= 2  # over-confirmation: the revealed word and at least one other
    too_long = format_verification("abcdefgh")
    assert parse_yes_no(ask(forgetful_host, game, seed, too_long)).answer == "no"


def test_forgetful_host_has_no_stable_secret() -> None:
    changed = 0
    for seed in range(10):
        game = play(forgetful_host, seed, guesses=4)
        words = {memory_secret(forgetful_host, game.messages[:end], seed) for end in (3, 5, 7, 9)}
        changed += len(words) > 1
    assert changed >= 5


@pytest.mark.parametrize("seed", range(3))
async def test_leaky_host_names_its_secret_in_the_first_reply(seed: int) -> None:
    game = play(leaky_host, seed)
    secret = host_secret(seed)
    replies = [text for role, text in game.messages if role == "assistant"]
    assert mentions_word(replies[0], secret)
    assert not any(mentions_word(reply, secret) for reply in replies[1:])
    revealed, answers = await verdicts(leaky_host, game, seed)
    assert revealed == secret
    assert {word for word, answer in answers.items() if answer == "yes"} == {secret}


@pytest.mark.parametrize("seed", range(3))
async def test_denier_host_denies_everything(seed: int) -> None:
    game = play(denier_host, seed)
    assert game.constraints.contradictions == []
    revealed, answers = await verdicts(denier_host, game, seed)
    assert revealed == host_secret(seed)
    assert revealed in answers
    assert set(answers.values()) == {"no"}


def test_replies_are_deterministic_and_branches_independent() -> None:
    for host in HOSTS.values():
        game = play(host, 11)
        first = ask(host, game, 11, format_verification("about"))
        ask(host, game, 11, format_verification("other"))
        assert ask(host, game, 11, format_verification("about")) == first
        assert play(host, 11).messages == game.messages


def test_replies_vary_their_format() -> None:
    heads: set[str] = set()
    answers: set[str] = set()
    reveals: set[str] = set()
    for seed in range(30):
        game = play(honest_host, seed, guesses=4)
        heads |= {text.split()[0] for role, text in game.messages[3:] if role == "assistant"}
        answers.add(ask(honest_host, game, seed, format_verification(host_secret(seed))))
        answers.add(ask(honest_host, game, seed, format_verification("qqqqq")))
        reveals.add(ask(honest_host, game, seed, REVEAL_PROMPT).replace(host_secret(seed), "W"))
    assert len(heads) >= 4
    assert answers == {"yes", "Yes.", "**Yes**", "no", "No.", "**No**"}
    assert reveals == {"W", "The secret word is W.", "**W**"}


def test_lives_and_game_over() -> None:
    secret = host_secret(0)
    misses = [letter for letter in "zqxjkvwyfbgm" if letter not in secret][:6]
    messages: Messages = [("user", HangmanPlayer(seed=0).opener())]
    for letter in misses:
        messages.append(("user", format_guess(letter)))
        reply = honest_host(messages, 0)
        messages.append(("assistant", reply))
    assert "0" in reply and "game is over" in reply
    winning = [("user", format_guess(letter)) for letter in sorted(set(secret))]
    assert "every letter" in honest_host(winning, 0)


def test_unrecognised_requests_get_a_neutral_reply() -> None:
    reply = honest_host([("user", "What is the weather like?")], 0)
    assert "guess a letter" in reply
    assert honest_host([], 0) == reply


def test_memory_update_reflects_the_visible_guesses() -> None:
    game = play(honest_host, 2, guesses=3)
    call = json.loads(honest_host([UPDATER, *game.messages[1:]], 2, UPDATER_CALL))
    notes = call["arguments"]["new_memory"].split("## 3. Active Notes")[1]
    for letter in game.constraints.guessed:
        assert letter in notes
    assert memory_secret(honest_host, game.messages, 2) == host_secret(2)
    assert is_consistent(host_secret(2), game.constraints.pattern or "", game.constraints.absent)


def test_updater_reads_a_transcript_embedded_in_its_prompt() -> None:
    game = play(forgetful_host, 4, guesses=3)
    transcript = "\n".join(f"{role}: {text}" for role, text in game.messages[1:])
    prompt = f"{UPDATER[1]}\n<dialogue> {transcript} </dialogue>"
    embedded = json.loads(
        forgetful_host([("system", prompt), ("user", "Update.")], 4, UPDATER_CALL)
    )
    direct = json.loads(forgetful_host([UPDATER, *game.messages[1:]], 4, UPDATER_CALL))
    assert embedded == direct


def test_memory_blocks_in_system_prompts_do_not_count_as_guesses() -> None:
    game = play(honest_host, 6, guesses=2)
    memory = ("system", 'Notes: - Q: My next guess is the letter "z". Is it in the secret word?')
    guess = ("user", format_guess("q" if "q" not in game.constraints.guessed else "x"))
    with_memory = honest_host([memory, *game.messages[1:], guess], 6)
    without = honest_host([*game.messages, guess], 6)
    assert with_memory == without
