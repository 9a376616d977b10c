"""The English vocabulary and the fast query "which words fit this Hangman board?".

The vocabulary is wordfreq's 300,000 most frequent English words, kept when they consist of
ASCII letters a-z only, deduplicated, in frequency rank order (rank 0 is the most frequent).

Hangman rules, as applied by :func:`is_consistent` and :func:`consistent_words`:

- the word has the pattern's length;
- a revealed letter occupies exactly the positions where the pattern shows it and no other
  position (a real host reveals every occurrence of a guessed letter);
- an absent letter appears nowhere in the word;
- a blank (``_``) holds a letter that is neither revealed nor absent.

Index. Words are grouped by length. For each length, a bitset (a Python ``int`` whose bit ``k``
stands for the ``k``-th word of that length in rank order) is kept for "letter L at position i"
and for "letter L anywhere". A query is a handful of ANDs over these bitsets, and the surviving
bits are decoded in rank order, so results come out most frequent first. Each length's index is
built on its first query, once, under a lock; nothing is loaded on import.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

VOCABULARY_LANGUAGE = "en"
VOCABULARY_SIZE = 300_000
"""How many of wordfreq's top words are read before keeping the a-z-only ones."""

ALPHABET = "abcdefghijklmnopqrstuvwxyz"
BLANK = "_"
_WORD = re.compile(r"[a-z]+")
_SPACES = re.compile(r"\s+")


class PatternError(ValueError):
    """A Hangman pattern or letter set that cannot describe any board."""


@dataclass(frozen=True)
class BoardQuery:
    """A validated Hangman board: lowercase pattern, absent letters, revealed letters."""

    pattern: str
    absent: frozenset[str]
    revealed: frozenset[str]


def make_query(pattern: str, absent: Iterable[str]) -> BoardQuery:
    """Validate and normalise a board.

    ``pattern`` uses ``_`` for unknown letters, compact (``"_a__e"``) or spaced
    (``"_ a _ _ e"``), any case. ``absent`` is an iterable of single letters (a string such as
    ``"xyz"`` works too). Raises :class:`PatternError` on an empty pattern, a character that is
    neither a letter a-z nor ``_``, a malformed absent letter, or a letter both revealed and absent.
    """
    if isinstance(absent, str):
        absent = tuple(absent)
    return _make_query(pattern, frozenset(absent))


@lru_cache(maxsize=4096)
def _make_query(pattern: str, absent: frozenset[str]) -> BoardQuery:
    if not isinstance(pattern, str):
        raise PatternError(f"pattern must be a string such as '_a__e', got {pattern!r}")
    compact = _SPACES.sub("", pattern).lower()
    if not compact:
        raise PatternError("pattern is empty: give one '_' or letter per position, e.g. '_a__e'")
    bad = sorted({ch for ch in compact if ch != BLANK and ch not in ALPHABET})
    if bad:
        raise PatternError(
            f"pattern {pattern!r} contains {bad}: use only letters a-z for revealed positions "
            "and '_' for unknown ones"
        )
    letters: set[str] = set()
    for item in absent:
        if not isinstance(item, str) or len(item) != 1 or item.lower() not in ALPHABET:
            raise PatternError(
                f"absent letters must be single letters a-z, got {item!r} "
                "(pass a set such as {'x', 'z'} or the string 'xz')"
            )
        letters.add(item.lower())
    revealed = frozenset(compact) - {BLANK}
    both = sorted(revealed & letters)
    if both:
        raise PatternError(
            f"letters {both} are both revealed in {pattern!r} and listed as absent; "
            "a letter is either in the word or not"
        )
    return BoardQuery(pattern=compact, absent=frozenset(letters), revealed=revealed)


def is_consistent(word: str, pattern: str, absent: Iterable[str]) -> bool:
    """Whether ``word`` fits the board under Hangman rules (the plain rule, letter by letter).

    ``word`` is compared in lowercase; a word with characters other than a-z never fits.
    Pattern and absent letters are validated as in :func:`make_query`.
    """
    query = make_query(pattern, absent)
    candidate = word.lower()
    if len(candidate) != len(query.pattern):
        return False
    for have, shown in zip(candidate, query.pattern, strict=True):
        if shown == BLANK:
            if have not in ALPHABET or have in query.revealed or have in query.absent:
                return False
        elif have != shown:
            return False
    return True


@dataclass(frozen=True)
class _LengthIndex:
    """Bitsets over the words of one length; bit k is the k-th such word in rank order."""

    words: tuple[str, ...]
    at: tuple[tuple[int, ...], ...]  # at[position][letter index]
    anywhere: tuple[int, ...]  # anywhere[letter index]
    full: int
    nbytes: int


def _bits(flags: np.ndarray) -> int:
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


def _set_bits(mask: int, nbytes: int, limit: int | None) -> list[int]:
    """Positions of the set bits of ``mask``, ascending, at most ``limit`` of them."""
    raw = np.frombuffer(mask.to_bytes(nbytes, "little"), dtype=np.uint8)
    busy = np.flatnonzero(raw)  # every non-zero byte holds at least one hit
    if limit is not None:
        busy = busy[:limit]
    rows, columns = np.nonzero(np.unpackbits(raw[busy], bitorder="little").reshape(-1, 8))
    hits = busy[rows] * 8 + columns
    return hits[:limit].tolist() if limit is not None else hits.tolist()


def _build_index(words: tuple[str, ...]) -> _LengthIndex:
    length = len(words[0])
    codes = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8)
    codes = codes.reshape(len(words), length) - ord("a")
    at = tuple(
        tuple(_bits(codes[:, position] == letter) for letter in range(len(ALPHABET)))
        for position in range(length)
    )
    anywhere = []
    for letter in range(len(ALPHABET)):
        union = 0
        for position in range(length):
            union |= at[position][letter]
        anywhere.append(union)
    return _LengthIndex(
        words=words,
        at=at,
        anywhere=tuple(anywhere),
        full=(1 << len(words)) - 1,
        nbytes=(len(words) + 7) // 8,
    )


class Vocabulary:
    """An ordered word list (most frequent first) with a lazily built Hangman index.

    ``Vocabulary(words)`` takes lowercase a-z words in rank order; duplicates keep their first
    rank. Use :func:`english_vocabulary` for the shared English list.
    """

    def __init__(self, words: Iterable[str]) -> None:
        ranks: dict[str, int] = {}
        for word in words:
            if not isinstance(word, str) or not _WORD.fullmatch(word):
                raise ValueError(
                    f"vocabulary words must be lowercase ASCII letters a-z, got {word!r}; "
                    "filter or lowercase the list first (see Vocabulary.from_wordfreq)"
                )
            ranks.setdefault(word, len(ranks))
        self._ranks = ranks
        self._words = tuple(ranks)
        self._lock = threading.Lock()
        self._by_length: dict[int, tuple[str, ...]] | None = None
        self._indexes: dict[int, _LengthIndex] = {}

    @classmethod
    def from_wordfreq(
        cls, language: str = VOCABULARY_LANGUAGE, size: int = VOCABULARY_SIZE
    ) -> Vocabulary:
        """wordfreq's top ``size`` words of ``language``, keeping lowercase a-z words only."""
        import wordfreq  # deferred: loading the list takes a noticeable fraction of a second

        return cls(word for word in wordfreq.top_n_list(language, size) if _WORD.fullmatch(word))

    @property
    def words(self) -> tuple[str, ...]:
        """All words, most frequent first."""
        return self._words

    def rank(self, word: str) -> int:
        """The 0-based frequency rank of ``word`` (0 is the most frequent)."""
        try:
            return self._ranks[word.lower()]
        except KeyError:
            raise KeyError(f"{word!r} is not in the vocabulary") from None

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.lower() in self._ranks

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __repr__(self) -> str:
        return f"Vocabulary({len(self._words)} words)"

    def warm(self) -> None:
        """Build the index for every word length now instead of on first use."""
        for length in self._lengths():
            self._index(length)

    def consistent(
        self, pattern: str, absent: Iterable[str], limit: int | None = None
    ) -> list[str]:
        """Words that fit the board, most frequent first; see :func:`consistent_words`."""
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
            raise TypeError(f"limit must be an int or None, got {limit!r}")
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0 or None, got {limit}")
        query = make_query(pattern, absent)
        index = self._index(len(query.pattern))
        if index is None or limit == 0:
            return []
        mask = index.full
        for letter in query.absent:
            mask &= ~index.anywhere[ord(letter) - 97]
        revealed = [ord(letter) - 97 for letter in query.revealed]
        for position, shown in enumerate(query.pattern):
            bits = index.at[position]
            if shown == BLANK:
                for code in revealed:
                    mask &= ~bits[code]
            else:
                mask &= bits[ord(shown) - 97]
            if not mask:
                return []
        return [index.words[k] for k in _set_bits(mask, index.nbytes, limit)]

    def _lengths(self) -> list[int]:
        with self._lock:
            return sorted(self._group())

    def _group(self) -> dict[int, tuple[str, ...]]:
        # Caller holds self._lock.
        if self._by_length is None:
            groups: dict[int, list[str]] = {}
            for word in self._words:
                groups.setdefault(len(word), []).append(word)
            self._by_length = {length: tuple(ws) for length, ws in groups.items()}
        return self._by_length

    def _index(self, length: int) -> _LengthIndex | None:
        index = self._indexes.get(length)
        if index is not None:
            return index
        with self._lock:
            index = self._indexes.get(length)
            if index is None:
                words = self._group().get(length)
                if not words:
                    return None
                index = _build_index(words)
                self._indexes[length] = index
            return index


_ENGLISH: Vocabulary | None = None
_ENGLISH_LOCK = threading.Lock()


def english_vocabulary() -> Vocabulary:
    """The shared English vocabulary, loaded from wordfreq on first call (thread-safe)."""
    global _ENGLISH
    if _ENGLISH is None:
        with _ENGLISH_LOCK:
            if _ENGLISH is None:
                _ENGLISH = Vocabulary.from_wordfreq()
    return _ENGLISH


def consistent_words(
    pattern: str,
    absent: Iterable[str],
    limit: int | None = None,
    *,
    vocabulary: Vocabulary | None = None,
) -> list[str]:
    """Vocabulary words that fit a Hangman board, most frequent first.

    ``pattern`` uses ``_`` for unknown letters (``"_a__e"`` or ``"_ a _ _ e"``, any case);
    ``absent`` holds the letters known not to be in the word. At most ``limit`` words are
    returned (all when ``None``). ``vocabulary`` defaults to :func:`english_vocabulary`.

    >>> consistent_words("_ppl_", {"s"}, limit=1)  # doctest: +SKIP
    ['apple']
    """
    vocab = english_vocabulary() if vocabulary is None else vocabulary
    return vocab.consistent(pattern, absent, limit)
