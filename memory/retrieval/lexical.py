"""An incremental BM25 index that forks in O(1): the lexical half of a store's search.

Tokens: the text lowercased, words of two or more letters or digits (``\\b\\w\\w+\\b``), the
33 English stopwords of ``bm25s`` (Lucene's list) left out, the rest stemmed by the Snowball
English stemmer (``PyStemmer``), as ``bm25s.tokenize(texts, stopwords="en",
stemmer=Stemmer.Stemmer("english"))`` makes them. Scores: BM25 as Lucene computes it (``bm25s``'s
default method), ``idf = ln(1 + (N - df + 0.5) / (df + 0.5))`` times ``tf / (tf + k1 (1 - b + b
dl / avgdl))`` summed over the query's tokens (a repeated token counts again), with ``k1 = 1.5``
and ``b = 0.75``; ``N``, ``df`` and ``avgdl`` are the index's own at the time of the query, so a
record's score never depends on records another fork added.

``bm25s`` builds its index in one batch; this one takes records one at a time, in time linear in
their tokens. Every record gets a *slot* in arrays that a store shares with its forks and that
only ever grow: its length, its insertion number and its tokens, and for each token a posting
list of ``(slot, count)``. Each index keeps its own map from record id to slot and its own mask of
live slots, copied on its first write after a fork (``CowDict``, and a copy-on-write array), so a
fork sees exactly the records it had, whatever the others write, in any order. An updated record
takes a new slot (keeping its insertion number, so ties stay in insertion order); a deleted one
just leaves the map. An index holding more than twice as many slots as live records rebuilds its
own arrays (amortised, as the in-process vector store does).

Adding a record costs a few list appends per distinct token: the shared arrays are Python lists,
read as numpy arrays that a query brings up to date by converting only what was appended since
the last query. A text's tokens are kept for the latest ``TOKENS_MEMO`` distinct texts, so a turn
that many haystacks share is tokenised once.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any, Final

import numpy as np

from cogarch.core.cow import CowDict

from .records import VectorStoreError

TOKEN_PATTERN = r"(?u)\b\w\w+\b"
TOKENIZER = {"pattern": TOKEN_PATTERN, "stopwords": "bm25s-en", "stemmer": "snowball-english"}
"""What a saved index's tokens were made with; a state made otherwise is re-tokenised."""
K1 = 1.5
B = 0.75
_COMPACT_SLACK = 1024
_TOKEN_RE = re.compile(TOKEN_PATTERN)


@cache
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN)


@cache
def _stemmer() -> Any:
    import Stemmer

    return Stemmer.Stemmer("english")


def tokenize(text: str) -> list[str]:
    """``text``'s BM25 tokens, in order (see the module docstring)."""
    return list(_tokens(text))


TOKENS_MEMO: Final = 8192
"""Distinct texts whose tokens the process keeps (least recently used dropped first): a
benchmark's haystacks share their sessions, and a store that forks re-adds the same turns."""


@lru_cache(maxsize=TOKENS_MEMO)
def _tokens(text: str) -> tuple[str, ...]:
    stop = _stopwords()
    words = [w for w in _TOKEN_RE.findall(text.lower()) if w not in stop]
    return tuple(_stemmer().stemWords(words)) if words else ()


class _Column:
    """Numbers appended to a list, read as a numpy array that a read brings up to date by
    converting only what was appended since the last read (the array doubles when full). An
    array a reader took never changes: its length is fixed, and positions below it are never
    written again."""

    __slots__ = ("_synced", "dtype", "items")

    def __init__(self, dtype: Any) -> None:
        self.items: list[int] = []
        self.dtype = dtype
        self._synced: tuple[np.ndarray, int] = (np.zeros(0, dtype=dtype), 0)

    def array(self) -> np.ndarray:
        items = self.items
        n = len(items)
        array, synced = self._synced
        if synced != n:
            if len(array) < n:
                grown = np.empty(max(2 * len(array), n, 64), dtype=self.dtype)
                grown[:synced] = array[:synced]
                array = grown
            array[synced:n] = items[synced:n]
            self._synced = (array, n)
        return array[:n]


class _Slots:
    """The slots a store shares with its forks: appended to, never changed."""

    __slots__ = ("_synced", "ids", "lengths", "postings", "seqs", "tokens")

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.lengths = _Column(np.float64)
        self.seqs = _Column(np.int64)
        self.tokens: list[tuple[str, ...]] = []
        self.postings: dict[str, tuple[list[int], list[int]]] = {}
        """Token -> (slots, counts); the counts are appended after the slots, so their length
        is the posting list's."""
        self._synced: dict[str, tuple[np.ndarray, np.ndarray, int]] = {}
        """Token -> its posting list as arrays, and how much of it they hold."""

    def append(self, entry_id: str, tokens: tuple[str, ...], seq: int) -> int:
        slot = len(self.tokens)
        self.ids.append(entry_id)
        self.tokens.append(tokens)
        self.lengths.items.append(len(tokens))
        self.seqs.items.append(seq)
        postings = self.postings
        for token, n in Counter(tokens).items():
            posting = postings.get(token)
            if posting is None:
                postings[token] = ([slot], [n])
            else:
                posting[0].append(slot)
                posting[1].append(n)
        return slot

    def posting(self, token: str) -> tuple[np.ndarray, np.ndarray] | None:
        """``token``'s posting list as ``(slots, counts)`` int64 and float64 arrays (None for
        a token no record holds), brought up to date as a ``_Column`` is."""
        posting = self.postings.get(token)
        if posting is None:
            return None
        listed_slots, listed_counts = posting
        n = len(listed_counts)
        slots, counts, synced = self._synced.get(token, (_NO_SLOTS, _NO_COUNTS, 0))
        if synced != n:
            if len(slots) < n:
                size = max(2 * len(slots), n, 4)
                grown_slots, grown_counts = np.empty(size, np.int64), np.empty(size, np.float64)
                grown_slots[:synced], grown_counts[:synced] = slots[:synced], counts[:synced]
                slots, counts = grown_slots, grown_counts
            slots[synced:n] = listed_slots[synced:n]
            counts[synced:n] = listed_counts[synced:n]
            self._synced[token] = (slots, counts, n)
        return slots[:n], counts[:n]


_NO_SLOTS = np.zeros(0, dtype=np.int64)
_NO_COUNTS = np.zeros(0, dtype=np.float64)


class LexicalIndex:
    """Add, update, delete, score, fork and export records' BM25 tokens (see the module)."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._slots = _Slots()
        self._ids: CowDict[str, int] = CowDict()
        self._live = np.zeros(64, dtype=bool)
        self._live_owned = True
        self._total = 0.0
        """Tokens in the live records (for avgdl)."""
        self._next_seq = 1

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._ids

    # -- writing ---------------------------------------------------------------------
    def add(self, ids: Sequence[str], texts: Sequence[str]) -> None:
        """Index new records (the caller checked that their ids are new)."""
        self._put(ids, [_tokens(t) for t in texts])

    def _put(self, ids: Sequence[str], tokens: Sequence[tuple[str, ...]]) -> None:
        for entry_id, toks in zip(ids, tokens, strict=True):
            old = self._ids.get(entry_id)
            if old is None:
                seq, self._next_seq = self._next_seq, self._next_seq + 1
            else:
                seq = self._slots.seqs.items[old]
                self._retire(old)
            slot = self._slots.append(entry_id, toks, seq)
            self._ids[entry_id] = slot
            self._mark(slot, True)
            self._total += len(toks)
        self._maybe_compact()

    def update(self, ids: Sequence[str], texts: Sequence[str]) -> None:
        """Re-index existing records' new texts (they keep their place in insertion order)."""
        self._put(ids, [_tokens(t) for t in texts])

    def delete(self, ids: Iterable[str]) -> None:
        """Forget records; ids not indexed are ignored."""
        for entry_id in ids:
            slot = self._ids.get(entry_id)
            if slot is not None:
                del self._ids[entry_id]
                self._retire(slot)

    def clear(self) -> None:
        self._reset()

    def _retire(self, slot: int) -> None:
        self._mark(slot, False)
        self._total -= self._slots.lengths.items[slot]

    def _mark(self, slot: int, live: bool) -> None:
        """Set a slot's bit in this index's own mask (copied first while a fork shares it)."""
        size = len(self._live)
        if not self._live_owned or slot >= size:
            grown = np.zeros(max(size, 2 * (slot + 1)), dtype=bool)
            grown[:size] = self._live
            self._live, self._live_owned = grown, True
        self._live[slot] = live

    def _maybe_compact(self) -> None:
        if len(self._slots.tokens) > 2 * len(self._ids) + _COMPACT_SLACK:
            self._rebuild(list(self._ids.items()))

    def _rebuild(self, entries: list[tuple[str, int]]) -> None:
        """Own arrays holding just ``entries`` (id, old slot), in insertion order."""
        old = self._slots
        seqs = old.seqs.items
        entries.sort(key=lambda e: seqs[e[1]])
        self._slots, self._ids = _Slots(), CowDict()
        self._live, self._live_owned = np.zeros(max(64, 2 * len(entries)), dtype=bool), True
        for entry_id, slot in entries:
            new = self._slots.append(entry_id, old.tokens[slot], seqs[slot])
            self._ids[entry_id] = new
            self._live[new] = True

    # -- reading ---------------------------------------------------------------------
    def seq(self, entry_id: str) -> int:
        """The record's insertion number (ties rank in this order)."""
        return self._slots.seqs.items[self._ids[entry_id]]

    def seqs(self, ids: Iterable[str]) -> dict[str, int]:
        """Each record's insertion number."""
        slot_of, seqs = self._ids, self._slots.seqs.items
        return {i: seqs[slot_of[i]] for i in ids}

    def tokens(self, entry_id: str) -> tuple[str, ...]:
        return self._slots.tokens[self._ids[entry_id]]

    def scored(self, text: str) -> Scored:
        """``text``'s BM25 score for every record (0 for one sharing no token with it)."""
        slots, scores = self._scores(tokenize(text))
        return Scored(self, slots, scores)

    def ranked(self, text: str, limit: int | None = None) -> list[tuple[str, float]]:
        """The records sharing a token with ``text`` as ``(id, BM25 score)``, best first,
        ties in insertion order (the first ``limit`` of them when given)."""
        return self.scored(text).top(limit)

    def _scores(self, query: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The live slots with a positive score for the query tokens, and their scores."""
        n = len(self._ids)
        if not n or not query:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        live = self._live
        avgdl = self._total / n if self._total > 0 else 1.0
        lengths = self._slots.lengths.array()
        total: np.ndarray | None = None
        for token, times in Counter(query).items():
            posting = self._slots.posting(token)
            if posting is None:
                continue
            slots, counts = posting
            mask = (slots < len(live)) & live[np.minimum(slots, len(live) - 1)]
            slots = slots[mask]
            if not len(slots):
                continue
            df = len(slots)
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            tf = counts[mask]
            norm = K1 * (1 - B + B * lengths[slots] / avgdl)
            part = times * idf * tf / (tf + norm)
            if total is None:
                total = np.zeros(len(self._slots.tokens))
            total[slots] += part
        if total is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        hit = np.flatnonzero(total > 0)  # every part is positive (idf > 0 in Lucene's BM25)
        return hit, total[hit]

    # -- forks and state ---------------------------------------------------------------
    def fork(self) -> LexicalIndex:
        """An independent index with the same records, in O(1)."""
        twin = LexicalIndex.__new__(LexicalIndex)
        twin._slots, twin._ids = self._slots, self._ids.fork()
        twin._live, twin._live_owned, self._live_owned = self._live, False, False
        twin._total, twin._next_seq = self._total, self._next_seq
        return twin

    def save_state(self) -> dict[str, Any]:
        """The tokens of every record in insertion order (JSON values)."""
        seqs = self._slots.seqs.items
        entries = sorted(self._ids.items(), key=lambda e: seqs[e[1]])
        return {
            "tokenizer": dict(TOKENIZER),
            "ids": [i for i, _ in entries],
            "tokens": [" ".join(self._slots.tokens[s]) for _, s in entries],
        }

    @classmethod
    def restored(
        cls, state: Mapping[str, Any] | None, records: Sequence[tuple[str, str]]
    ) -> LexicalIndex:
        """A new index of ``records`` (``(id, text)`` in insertion order): from ``state``'s
        tokens when it was saved for exactly these records with today's tokenizer, else
        tokenised anew; a state that names other records is refused as damaged."""
        index = cls()
        ids = [i for i, _ in records]
        if state is None or state.get("tokenizer") != TOKENIZER:
            index._put(ids, [_tokens(t) for _, t in records])
            return index
        saved, tokens = state.get("ids"), state.get("tokens")
        if (
            not isinstance(saved, list)
            or not isinstance(tokens, list)
            or saved != ids
            or not all(isinstance(t, str) for t in tokens)
            or len(tokens) != len(ids)
        ):
            raise VectorStoreError(
                "the state's lexical index does not match its records (other ids, or a "
                "token list per record missing); it is damaged: drop its 'lexical' part to "
                "have the index rebuilt from the records"
            )
        index._put(ids, [tuple(t.split()) for t in tokens])
        return index


class Scored:
    """One query's BM25 scores over an index (the slots scoring above 0, ascending)."""

    __slots__ = ("_index", "_scores", "_slots")

    def __init__(self, index: LexicalIndex, slots: np.ndarray, scores: np.ndarray) -> None:
        self._index, self._slots, self._scores = index, slots, scores

    def __len__(self) -> int:
        return len(self._slots)

    def top(self, limit: int | None = None) -> list[tuple[str, float]]:
        """``(id, score)`` best first, ties in insertion order; the first ``limit`` only."""
        slots, scores = self._slots, self._scores
        seqs = self._index._slots.seqs.array()
        if limit is not None and limit < len(slots):
            kth = np.partition(scores, len(scores) - limit)[len(scores) - limit]
            keep = scores >= kth
            slots, scores = slots[keep], scores[keep]
        order = np.lexsort((seqs[slots], -scores))[:limit]
        names = self._index._slots.ids
        return [(names[int(slots[i])], float(scores[i])) for i in order]

    def of(self, ids: Sequence[str]) -> dict[str, float]:
        """The score of each of ``ids`` (those indexed)."""
        slot_of = self._index._ids
        known = [i for i in ids if i in slot_of]
        if not known:
            return {}
        wanted = np.fromiter((slot_of[i] for i in known), dtype=np.int64, count=len(known))
        at = np.minimum(np.searchsorted(self._slots, wanted), max(len(self._slots) - 1, 0))
        found = self._scores[at] if len(self._slots) else np.zeros(len(known))
        hit = self._slots[at] == wanted if len(self._slots) else np.zeros(len(known), bool)
        return {i: float(s) if h else 0.0 for i, s, h in zip(known, found, hit, strict=True)}
