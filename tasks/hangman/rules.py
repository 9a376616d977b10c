"""Hangman rules as code: boards, reading a host's reply, and public constraints.

The agent under test is the host, so the only record of the board is what it wrote.
:func:`parse_pattern` finds the displayed pattern in a free-form reply and
:class:`Constraints` accumulates what the public dialogue has established (length, revealed
positions, absent letters), noting every place where the host contradicted itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..sct.parsing import strip_reasoning
from .vocabulary import (
    ALPHABET,
    BLANK,
    Vocabulary,
    english_vocabulary,
    is_consistent,
    make_query,
)

GuessResult = Literal["hit", "miss"]


def reveal_pattern(secret: str, guessed_letters: Iterable[str]) -> str:
    """The compact board for ``secret`` after ``guessed_letters``.

    ``reveal_pattern("apple", "pe")`` is ``"_pp_e"``.
    """
    word = secret.strip().lower()
    if not word or any(ch not in ALPHABET for ch in word):
        raise ValueError(f"a secret must be a word of letters a-z, got {secret!r}")
    guessed = {letter.lower() for letter in guessed_letters}
    return "".join(ch if ch in guessed else BLANK for ch in word)


def format_pattern(pattern: str) -> str:
    """The spaced display form of a board: ``"_a__e"`` -> ``"_ a _ _ e"``."""
    return " ".join(make_query(pattern, ()).pattern)


# -- reading the displayed pattern ---------------------------------------------------------

_EDGE = r"A-Za-z0-9_'’"
_TOKEN = r"(?:_+|[A-Za-z])"
_SEPARATOR = re.compile(r"[ \t\u00a0]+")
_SPACED = re.compile(rf"(?<![{_EDGE}]){_TOKEN}(?:[ \t\u00a0]+{_TOKEN})+(?![{_EDGE}])")
_COMPACT = re.compile(rf"(?<![{_EDGE}])[A-Za-z]*_[A-Za-z_]*(?![{_EDGE}])")
_LABELLED_WORD = re.compile(rf"\bpattern\s*(?:is\s*)?:\s*([A-Za-z]{{2,}})(?![{_EDGE}])", re.I)
_LABEL_BEFORE = re.compile(
    r"\b(?:pattern|word|board|progress|status|now|updated|display)\b"
    r"[^A-Za-z]{0,8}(?:(?:is|looks like|reads)[^A-Za-z]{0,8})?\Z",
    re.IGNORECASE,
)
_WORD_LABEL_BEFORE = re.compile(r"\b(?:pattern|word)\b[^A-Za-z]{0,8}\Z", re.IGNORECASE)
_PROSE_LETTERS = frozenset({"a", "i"})  # one-letter English words that may touch a pattern
_PROSE_BEFORE = re.compile(r"[A-Za-z'’]{2,}[ \t\u00a0]+\Z")  # a word just before, same line
_PROSE_AFTER = re.compile(r"[ \t\u00a0]+[A-Za-z]{2,}")  # a word just after, same line


@dataclass(frozen=True)
class _Sighting:
    pattern: str
    start: int
    labelled: bool
    trimmed: bool
    spaced: bool

    @property
    def complete(self) -> bool:
        return BLANK not in self.pattern


def _clean(text: str) -> str:
    text = strip_reasoning(text).replace("\\_", "_").replace("＿", "_")
    return re.sub(r"[*`]", "", text)


def _labelled(text: str, start: int, *, strict: bool) -> bool:
    prefix = text[max(0, start - 60) : start]
    return (_WORD_LABEL_BEFORE if strict else _LABEL_BEFORE).search(prefix) is not None


def _sightings(text: str) -> list[_Sighting]:
    found: list[_Sighting] = []
    taken: list[tuple[int, int]] = []
    for match in _SPACED.finditer(text):
        tokens = _SEPARATOR.split(match.group(0))
        start = match.start()
        taken.append((start, match.end()))
        if not any(BLANK in token for token in tokens):
            if _labelled(text, start, strict=True):
                found.append(_Sighting("".join(tokens).lower(), start, True, False, True))
            continue
        labelled = _labelled(text, start, strict=False)
        found.append(_Sighting("".join(tokens).lower(), start, labelled, False, True))
        # Variants without an "a" / "I" that belongs to the surrounding prose ("It's a _ _ _"),
        # for the scorer to prefer only when the length or the guessed letters say so.
        max_lead = 0 if labelled or not _PROSE_BEFORE.search(text, 0, start) else 2
        max_tail = 2 if _PROSE_AFTER.match(text, match.end()) else 0
        for lead in range(max_lead + 1):
            for tail in range(max_tail + 1):
                if lead == tail == 0 or lead + tail >= len(tokens):
                    continue
                edges = tokens[:lead] + tokens[len(tokens) - tail :]
                core = tokens[lead : len(tokens) - tail]
                if all(token.lower() in _PROSE_LETTERS for token in edges) and any(
                    BLANK in token for token in core
                ):
                    trimmed = "".join(core).lower()
                    found.append(_Sighting(trimmed, start + 1, labelled, True, True))
    for match in _COMPACT.finditer(text):
        start, end = match.span()
        if len(match.group(0)) < 2 or any(a < end and start < b for a, b in taken):
            continue
        labelled = _labelled(text, start, strict=False)
        found.append(_Sighting(match.group(0).lower(), start, labelled, False, False))
    for match in _LABELLED_WORD.finditer(text):
        found.append(_Sighting(match.group(1).lower(), match.start(1), True, False, False))
    return found


def parse_pattern(
    text: str,
    expected_length: int | None = None,
    *,
    guessed: Iterable[str] | None = None,
) -> str | None:
    """The board a host displayed in ``text``, compact and lowercase (``"_a__e"``), or None.

    Recognised: spaced (``_ a _ _ e``) and compact (``_a__e``) forms, grouped blanks
    (``__ a __ t``), any case, inside bold, backticks or escaped underscores (``\\_``), after a
    label ("Pattern:", "Word:", "The word now looks like:"). A fully revealed board (no
    blank) counts only right after "Pattern"/"Word" and only when ``guessed`` is given and
    holds all its letters. When several boards appear, the most plausible wins: first one of
    ``expected_length`` letters, then one whose letters are all in ``guessed`` (when given),
    then a labelled one, then the last one in the text.
    """
    guessed_set = None if guessed is None else {letter.lower() for letter in guessed}

    def score(sighting: _Sighting) -> tuple[bool, bool, bool, bool, int, bool]:
        letters = set(sighting.pattern) - {BLANK}
        return (
            expected_length is None or len(sighting.pattern) == expected_length,
            guessed_set is None or letters <= guessed_set,
            sighting.labelled,
            not sighting.trimmed,
            sighting.start,
            sighting.spaced,
        )

    sightings = [
        sighting
        for sighting in _sightings(_clean(text))
        if not sighting.complete
        or (guessed_set is not None and set(sighting.pattern) <= guessed_set)
    ]
    if not sightings:
        return None
    return max(sightings, key=score).pattern


# -- reading a verbal yes/no about a guessed letter ----------------------------------------

_MISS_PHRASES = tuple(
    re.compile(phrase, re.IGNORECASE)
    for phrase in (
        r"^\W*(?:no|nope)\b",
        r"(?:^|[.!?]\s+)no\b\s*[,.!]",
        r"\b(?:not|isn't|isn’t)\s+(?:in|part of|present|found|there|contained)\b",
        r"\b(?:does not|doesn't|doesn’t|did not|didn't|didn’t)\s+(?:appear|occur|contain|show)",
        r"\bthere\s+(?:is|are)\s+no\b",
        r"\b(?:incorrect|wrong|miss|missed|sorry|unfortunately)\b",
    )
)
_HIT_PHRASES = tuple(
    re.compile(phrase, re.IGNORECASE)
    for phrase in (
        r"\b(?:yes|yep|yeah)\b",
        r"\bcorrect\b",
        r"\b(?:good|great|nice|excellent)\s+(?:guess|job|pick|choice)\b",
        r"\bis\s+in\s+(?:the|my|your|this)\b",
        r"\b(?:appears|occurs)\b",
        r"\bis\s+present\b",
    )
)


def letter_verdict(text: str) -> GuessResult | None:
    """What a reply says in words about the guessed letter: "hit", "miss" or None if unclear.

    Used only when a reply shows no pattern. A reply with both kinds of phrase ("Good guess,
    but sorry, no") is unclear.
    """
    body = _clean(text)
    miss = any(phrase.search(body) for phrase in _MISS_PHRASES)
    hit = any(phrase.search(body) for phrase in _HIT_PHRASES)
    if miss == hit:
        return None
    return "miss" if miss else "hit"


# -- constraints accumulated over the dialogue ---------------------------------------------


@dataclass
class Constraints:
    """What the public dialogue has established about the secret, turn by turn.

    ``pattern`` is the latest board the host displayed (compact, or None if none was found);
    ``present`` the letters shown in it or said to be in the word; ``absent`` the guessed
    letters judged misses (never a letter the latest board shows); ``length`` the board length.
    ``contradictions`` describes, in order, every place where the host broke the rules;
    ``unresolved`` lists guesses that neither their reply nor a later board settles.
    """

    pattern: str | None = None
    present: set[str] = field(default_factory=set)
    absent: set[str] = field(default_factory=set)
    length: int | None = None
    contradictions: list[str] = field(default_factory=list)
    guessed: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)

    @classmethod
    def from_dialogue(cls, pairs: Sequence[tuple[str, str]]) -> Constraints:
        """Replay ``(guessed letter, host reply)`` pairs in order.

        Use ``""`` as the letter for a reply that answers no guess (the reply to the opener).
        A guess is a hit when the reply's board shows the letter and a miss when it does not;
        only a reply without a board is read for words such as "yes" or "not in the word".
        When those words are unclear too, the next board shown decides, as if it answered it.
        """
        reader = _DialogueReader()
        for turn, (letter, reply) in enumerate(pairs, start=1):
            reader.read(turn, letter, reply)
        return reader.result()

    def admits(self, word: str) -> bool:
        """Whether ``word`` could be the secret given these constraints."""
        candidate = word.strip().lower()
        if not candidate or any(ch not in ALPHABET for ch in candidate):
            return False
        if not self.present <= set(candidate):
            return False
        if self.pattern is None:
            return not self.absent & set(candidate)
        return is_consistent(candidate, self.pattern, self.absent)

    def consistent_words(
        self, limit: int | None = None, *, vocabulary: Vocabulary | None = None
    ) -> list[str]:
        """Vocabulary words admitted by these constraints, most frequent first.

        Empty when no board was ever displayed (the length is then unknown).
        """
        if self.pattern is None:
            return []
        vocab = english_vocabulary() if vocabulary is None else vocabulary
        unplaced = self.present - set(self.pattern)
        if not unplaced:
            return vocab.consistent(self.pattern, self.absent, limit)
        words = [
            word for word in vocab.consistent(self.pattern, self.absent) if unplaced <= set(word)
        ]
        return words if limit is None else words[:limit]


class _DialogueReader:
    """The state machine behind :meth:`Constraints.from_dialogue`."""

    def __init__(self) -> None:
        self.pattern: str | None = None
        self.pattern_turn = 0
        self.outcome: dict[str, GuessResult] = {}
        self.outcome_turn: dict[str, int] = {}
        self.guess_turn: dict[str, int] = {}
        self.guessed: list[str] = []
        self.unresolved: list[str] = []
        self.notes: list[str] = []

    def read(self, turn: int, letter: str, reply: str) -> None:
        if not isinstance(letter, str) or (letter and not re.fullmatch(r"[A-Za-z]", letter)):
            raise ValueError(
                f"turn {turn}: the guessed letter must be one letter a-z, or '' for a reply "
                f"that answers no guess (such as the opener), got {letter!r}"
            )
        letter = letter.lower()
        where = f"turn {turn} (guess '{letter}')" if letter else f"turn {turn}"
        if letter:
            if letter not in self.guess_turn:
                self.guessed.append(letter)
            self.guess_turn[letter] = turn
        length = None if self.pattern is None else len(self.pattern)
        shown = parse_pattern(reply, length, guessed=set(self.guess_turn))
        result: GuessResult | None
        if shown is not None:
            self._check_board(where, letter, shown)
            result = ("hit" if letter in shown else "miss") if letter else None
            said = letter_verdict(reply) if letter else None
            if said is not None and said != result:
                self.notes.append(
                    f"{where}: the reply says the letter is {_phrase(said)} but the pattern "
                    f"{shown!r} shows it {_phrase(result)}"
                )
            self.pattern, self.pattern_turn = shown, turn
            for earlier in [ch for ch in self.unresolved if ch != letter]:  # settled by this board
                self.unresolved.remove(earlier)
                self.outcome[earlier] = "hit" if earlier in shown else "miss"
                self.outcome_turn[earlier] = turn
        else:
            result = letter_verdict(reply) if letter else None
        if not letter:
            return
        if result is None:
            self.unresolved.append(letter)
            return
        if letter in self.unresolved:
            self.unresolved.remove(letter)
        previous = self.outcome.get(letter)
        if previous is not None and previous != result:
            self.notes.append(
                f"{where}: '{letter}' was reported {_phrase(previous)} at turn "
                f"{self.outcome_turn[letter]} and {_phrase(result)} now"
            )
        self.outcome[letter] = result
        self.outcome_turn[letter] = turn

    def _check_board(self, where: str, letter: str, shown: str) -> None:
        old = self.pattern
        for ch in sorted(set(shown) - {BLANK} - set(self.guess_turn)):
            self.notes.append(f"{where}: the pattern {shown!r} reveals '{ch}', never guessed")
        if old is not None and len(old) != len(shown):
            self.notes.append(
                f"{where}: the pattern {shown!r} has {len(shown)} letters; "
                f"it had {len(old)} before ({old!r})"
            )
            return
        fresh = {ch for ch, t in self.guess_turn.items() if t > self.pattern_turn}
        for position, new in enumerate(shown, start=1):
            before = old[position - 1] if old is not None else BLANK
            if before != BLANK and new != before:
                self.notes.append(
                    f"{where}: position {position} showed '{before}' and now shows '{new}'"
                )
            elif before == BLANK and new != BLANK and new in self.guess_turn:
                if old is not None and new in old:
                    self.notes.append(
                        f"{where}: '{new}' appears at new position {position}; Hangman "
                        "reveals every occurrence of a letter when it is guessed"
                    )
                elif new not in fresh and self.outcome.get(new) != "miss":
                    self.notes.append(
                        f"{where}: position {position} newly shows '{new}', guessed at turn "
                        f"{self.guess_turn[new]} before the previous pattern was displayed"
                    )
        for ch, outcome in sorted(self.outcome.items()):
            if ch == letter:
                continue
            if outcome == "miss" and ch in shown:
                self.notes.append(
                    f"{where}: the pattern {shown!r} shows '{ch}', reported absent at turn "
                    f"{self.outcome_turn[ch]}"
                )
            elif outcome == "hit" and ch not in shown and (old is None or ch not in old):
                self.notes.append(
                    f"{where}: the pattern {shown!r} no longer shows '{ch}', reported in the "
                    f"word at turn {self.outcome_turn[ch]}"
                )

    def result(self) -> Constraints:
        shown = set() if self.pattern is None else set(self.pattern) - {BLANK}
        present = shown | {ch for ch, outcome in self.outcome.items() if outcome == "hit"}
        absent = {ch for ch, outcome in self.outcome.items() if outcome == "miss"} - present
        return Constraints(
            pattern=self.pattern,
            present=present,
            absent=absent,
            length=None if self.pattern is None else len(self.pattern),
            contradictions=list(self.notes),
            guessed=list(self.guessed),
            unresolved=list(self.unresolved),
        )


def _phrase(outcome: GuessResult | None) -> str:
    return "in the word" if outcome == "hit" else "not in the word"
