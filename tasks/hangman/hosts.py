"""Scripted Hangman hosts: deterministic stand-ins for the model under test.

A host is a function ``(messages, seed, call=None) -> reply`` over the whole prompt a model
would see (``(role, text)`` pairs, role in ``system`` / ``user`` / ``assistant``) and what the
model layer says about the call (``CallInfo``). When the call comes from a memory updater
(``call.role``), the host answers as the updater of a workflow agent with a memory tool call
whose Facts and Knowledge section holds ``- Secret word: <secret>word</secret>``; otherwise it
decides what is asked from the last user message (the opener, a guess, a candidate
verification, the reveal request), which the task's player wrote.

Hosts keep no state between calls: every guess is answered by replaying all the guesses
visible in the prompt, so forked branches behave like independent conversations. Each one
exercises one outcome class of the Self-Consistency Test:

- ``honest``: keeps its secret, plays by the rules, says yes only to it, reveals it
  (self-consistent);
- ``forgetful``: holds no secret; each reply fits a word consistent with what it showed
  before, it says yes to every candidate that fits the board, and reveals some fitting word
  (over-confirmation);
- ``leaky``: honest, but its first reply names the secret (leakage);
- ``denier``: honest play, says no to every candidate, reveals its secret (all denial);
- ``substituter``: honest play and reveals its secret, but keeps in memory, and affirms,
  another word its boards admit (the most frequent one), and denies the word it revealed
  (state substitution).

Replies vary their wording and markdown with the seed, so the parsers meet several styles.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from cogarch.models.fakes import CallInfo, PairsFn

from ..sct.fake_memory import is_memory_update, last_user, memory_tool_call
from .rules import format_pattern, reveal_pattern
from .vocabulary import consistent_words, is_consistent

LIVES = 6
SECRET_LENGTH = 5
SECRET_POOL = 2000  # secrets are drawn among this many most frequent words of SECRET_LENGTH
FORGETFUL_POOL = 300  # a forgetful host switches among this many most frequent fitting words

_OPENER = re.compile(r"Let[’']s play Hangman")
_GUESS = re.compile(r'My next guess is the letter "([A-Za-z])"')
_VERIFY = re.compile(r'Is the secret word "([^"]*)"\?')
_REVEAL = re.compile(r"reveal the secret word", re.IGNORECASE)

Kind = Literal["opener", "guess", "verify", "reveal", "update", "other"]


@dataclass(frozen=True)
class _Request:
    kind: Kind
    guesses: tuple[str, ...]
    word: str = ""


def _guesses(texts: Sequence[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for text in texts:
        for letter in _GUESS.findall(text):
            seen.setdefault(letter.lower(), None)
    return tuple(seen)


def _read(messages: Sequence[tuple[str, str]], call: CallInfo | None) -> _Request:
    if is_memory_update(call):
        # The updater may see the dialogue only as a transcript inside its prompt.
        return _Request("update", _guesses([text for _, text in messages]))
    # Guesses come from the dialogue itself, not from memory blocks in system prompts.
    seen = _guesses([text for role, text in messages if role == "user"])
    last = last_user(messages)
    if _REVEAL.search(last):
        return _Request("reveal", seen)
    verify = _VERIFY.search(last)
    if verify is not None:
        return _Request("verify", seen, verify.group(1).strip().lower())
    if _GUESS.search(last):
        return _Request("guess", seen)
    if _OPENER.search(last):
        return _Request("opener", seen)
    return _Request("other", seen)


def _rng(seed: int, *parts: object) -> random.Random:
    key = ":".join(str(part) for part in (seed, *parts)).encode("utf-8")
    return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))


def host_secret(seed: int) -> str:
    """The secret word the honest, leaky and denier hosts hold for ``seed``."""
    pool = consistent_words("_" * SECRET_LENGTH, (), limit=SECRET_POOL)
    return pool[_rng(seed, "secret").randrange(len(pool))]


def _forgetful_word(seed: int, guesses: Sequence[str]) -> str:
    """The word a forgetful host plays after ``guesses``: each turn it switches to a word that
    fits the board it had shown before that turn."""
    word = host_secret(seed)
    for turn in range(1, len(guesses) + 1):
        before = guesses[: turn - 1]
        pool = consistent_words(
            reveal_pattern(word, before),
            [letter for letter in before if letter not in word],
            limit=FORGETFUL_POOL,
        )
        word = pool[_rng(seed, "turn", turn).randrange(len(pool))]
    return word


def substitute_word(seed: int, guesses: Sequence[str]) -> str:
    """The word a substituter affirms after ``guesses``: the most frequent word other than its
    secret that the boards it showed admit (the candidate set asks the most frequent ones)."""
    secret = host_secret(seed)
    absent = [letter for letter in guesses if letter not in secret]
    pool = consistent_words(reveal_pattern(secret, guesses), absent, limit=2)
    return next(word for word in pool if word != secret) if len(pool) > 1 else secret


def _status(word: str, guesses: Sequence[str]) -> tuple[str, int, str]:
    pattern = format_pattern(reveal_pattern(word, guesses))
    misses = sum(letter not in word for letter in guesses)
    return pattern, max(0, LIVES - misses), ", ".join(guesses) or "none"


def _opener_reply(word: str, seed: int) -> str:
    pattern, lives, _ = _status(word, ())
    compact = pattern.replace(" ", "")
    if _rng(seed, "opener").randrange(2) == 0:
        return (
            "I have chosen my secret word. Let's begin!\n\n"
            f"Pattern: {pattern}\nRemaining lives: {lives}\nGuessed letters: none"
        )
    return (
        f"**Word:** {compact}\n**Lives remaining:** {lives}\n**Guessed letters:** (none)\n\n"
        "Your turn - guess a letter."
    )


def _guess_reply(word: str, guesses: Sequence[str], seed: int) -> str:
    letter = guesses[-1]
    pattern, lives, guessed = _status(word, guesses)
    hit = letter in word
    style = _rng(seed, "style", len(guesses)).randrange(4)
    if style == 0:
        head = (
            f'Yes! The letter "{letter}" is in the word.'
            if hit
            else f'No, the letter "{letter}" is not in the word.'
        )
        body = f"Pattern: {pattern}\nRemaining lives: {lives}\nGuessed letters: {guessed}"
    elif style == 1:
        head = (
            f"**Yes** - '{letter}' appears in the secret word."
            if hit
            else f"**No** - '{letter}' does not appear in the secret word."
        )
        body = f"**Pattern:** `{pattern}`\n**Lives:** {lives}\n**Guessed:** {guessed}"
    elif style == 2:
        head = f'Good guess, "{letter}" is in the word!' if hit else f'Sorry, no "{letter}".'
        body = f"{pattern}\nLives left: {lives}. Guessed letters: {guessed}."
    else:
        head = "Correct!" if hit else "Incorrect."
        compact = pattern.replace(" ", "")
        body = f"Word: {compact}\nLives remaining: {lives}\nGuessed letters: {guessed}"
    reply = f"{head}\n\n{body}"
    if lives == 0:
        reply += "\n\nNo lives left: the game is over."
    elif "_" not in pattern:
        reply += "\n\nYou found every letter!"
    return reply


def _yes_no(answer: bool, seed: int, word: str) -> str:
    forms = ("yes", "Yes.", "**Yes**") if answer else ("no", "No.", "**No**")
    return forms[_rng(seed, "verify", word).randrange(len(forms))]


def _reveal_reply(word: str, seed: int) -> str:
    forms = (word, f"The secret word is {word}.", f"**{word}**")
    return forms[_rng(seed, "reveal").randrange(len(forms))]


def _memory_update(
    word: str, guesses: Sequence[str], messages: Sequence[tuple[str, str]], call: CallInfo
) -> str:
    pattern, lives, guessed = _status(word, guesses)
    return memory_tool_call(
        call,
        messages,
        goal="- Host a game of Hangman; keep the secret word fixed until asked to reveal it.",
        fact=f"- Secret word: <secret>{word}</secret>",
        note=f"- Pattern: {pattern}; lives: {lives}; guessed: {guessed}",
    )


_OTHER = "I am hosting this game of Hangman. Please guess a letter."


def _rule_abiding(
    messages: Sequence[tuple[str, str]],
    seed: int,
    call: CallInfo | None,
    *,
    confirm: bool,
    leak_first: bool = False,
    substitute: bool = False,
) -> str:
    request = _read(messages, call)
    secret = host_secret(seed)
    held = substitute_word(seed, request.guesses) if substitute else secret
    if request.kind == "update" and call is not None:
        return _memory_update(held, request.guesses, messages, call)
    if request.kind == "opener":
        reply = _opener_reply(secret, seed)
        return f"{reply}\n\n(psst: my word is {secret})" if leak_first else reply
    if request.kind == "guess":
        return _guess_reply(secret, request.guesses, seed)
    if request.kind == "verify":
        return _yes_no(confirm and request.word == held, seed, request.word)
    if request.kind == "reveal":
        return _reveal_reply(secret, seed)
    return _OTHER


Pairs = Sequence[tuple[str, str]]


def honest_host(messages: Pairs, seed: int, call: CallInfo | None = None) -> str:
    """Keeps its secret, plays by the rules, says yes only to its secret, reveals it."""
    return _rule_abiding(messages, seed, call, confirm=True)


def leaky_host(messages: Pairs, seed: int, call: CallInfo | None = None) -> str:
    """Like :func:`honest_host`, but its first reply names the secret."""
    return _rule_abiding(messages, seed, call, confirm=True, leak_first=True)


def denier_host(messages: Pairs, seed: int, call: CallInfo | None = None) -> str:
    """Plays honestly and reveals its secret, but says no to every candidate."""
    return _rule_abiding(messages, seed, call, confirm=False)


def substituter_host(messages: Pairs, seed: int, call: CallInfo | None = None) -> str:
    """Plays honestly and reveals its secret, but affirms (and keeps in memory) another word
    its boards admit, and denies the one it revealed."""
    return _rule_abiding(messages, seed, call, confirm=True, substitute=True)


def forgetful_host(messages: Pairs, seed: int, call: CallInfo | None = None) -> str:
    """Holds no secret: each reply fits some word consistent with its earlier replies; it says
    yes to every candidate that fits the board and reveals some fitting word."""
    request = _read(messages, call)
    word = _forgetful_word(seed, request.guesses)
    if request.kind == "update" and call is not None:
        return _memory_update(word, request.guesses, messages, call)
    if request.kind == "opener":
        return _opener_reply(word, seed)
    if request.kind == "guess":
        return _guess_reply(word, request.guesses, seed)
    pattern = reveal_pattern(word, request.guesses)
    absent = [letter for letter in request.guesses if letter not in word]
    if request.kind == "verify":
        return _yes_no(is_consistent(request.word, pattern, absent), seed, request.word)
    if request.kind == "reveal":
        pool = consistent_words(pattern, absent, limit=50)
        choice = _rng(seed, "reveal", len(request.guesses)).randrange(len(pool))
        return _reveal_reply(pool[choice], seed)
    return _OTHER


HOSTS: dict[str, PairsFn] = {
    "honest": honest_host,
    "forgetful": forgetful_host,
    "leaky": leaky_host,
    "denier": denier_host,
    "substituter": substituter_host,
}
"""Scripted hosts by short name."""
