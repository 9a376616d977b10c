"""How LongMemEval's official reader cuts its history, and the token counter it cuts with.

The official generation code (``src/generation/run_generation.py``) renders the history,
counts it with the reader model's tokenizer and, past ``window - answer length - 1000``
tokens, keeps its first tokens (the head): the answer length is 500 tokens, 800 step by
step, and the window is the model's (128,000 for GPT-4o; its table is ``OFFICIAL_WINDOWS``).
It counts GPT-4 and GPT-3.5 models with tiktoken's ``o200k_base``.

Here a reader counts with ``o200k_base`` when the model is one of those, tiktoken is installed
and its ``o200k_base`` file is already on the machine (tiktoken's cache, ``TIKTOKEN_CACHE_DIR``
or ``DATA_GYM_CACHE_DIR``; nothing is downloaded); otherwise with cogarch's offline estimate
(``cogarch.tokens``, within about 15% of common tokenizers). The counter's name says which.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cogarch.tokens import count_tokens

ESTIMATE = "cogarch estimate (cogarch.tokens)"
O200K = "o200k_base (tiktoken)"
_O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
OFFICIAL_WINDOWS: dict[str, int] = {
    "gpt-4o": 128000,
    "gpt-4o-2024-08-06": 128000,
    "gpt-4o-mini-2024-07-18": 128000,
    "meta-llama/Meta-Llama-3.1-8B-Instruct": 128000,
    "meta-llama/Meta-Llama-3.1-70B-Instruct": 128000,
    "microsoft/Phi-3-medium-128k-instruct": 120000,
    "microsoft/Phi-3.5-mini-instruct": 120000,
    "microsoft/phi-4": 16000,
    "mistral-7b-instruct-v0.2": 32000,
    "mistral-7b-instruct-v0.3": 32000,
    "In2Training/FILM-7B": 32000,
}
"""The context windows of the official code's readers, by model name."""
RESERVED = 1000
"""Tokens the official cut leaves free besides the answer's."""


@dataclass(frozen=True)
class TokenCounter:
    """A named way to count tokens and keep the head of a text within a budget."""

    name: str
    count: Callable[[str], int]
    head: Callable[[str, int], str]


def _estimate_head(text: str, budget: int) -> str:
    if count_tokens(text) <= budget:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if count_tokens(text[:mid]) <= budget:
            low = mid
        else:
            high = mid - 1
    return text[:low]


ESTIMATOR = TokenCounter(ESTIMATE, count_tokens, _estimate_head)


def _tiktoken_cache() -> Path:
    for variable in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if variable in os.environ:
            return Path(os.environ[variable])
    return Path(tempfile.gettempdir()) / "data-gym-cache"


@cache
def _o200k(cache_file: Path) -> Any:
    import tiktoken

    return tiktoken.get_encoding("o200k_base")


def o200k_counter() -> TokenCounter | None:
    """``o200k_base`` when tiktoken and its file are on this machine, else None."""
    try:
        import tiktoken  # noqa: F401
    except ImportError:
        return None
    cached = _tiktoken_cache() / hashlib.sha1(_O200K_URL.encode()).hexdigest()
    if not cached.is_file():
        return None
    try:
        encoding = _o200k(cached)
    except Exception:  # a damaged cache file: tiktoken would fetch it again, we do not
        return None

    def count(text: str) -> int:
        return len(encoding.encode(text, disallowed_special=()))

    def head(text: str, budget: int) -> str:
        tokens = encoding.encode(text, disallowed_special=())
        return text if len(tokens) <= budget else str(encoding.decode(tokens[:budget]))

    return TokenCounter(O200K, count, head)


def reader_counter(model: str | None) -> TokenCounter:
    """The counter a reader of ``model`` cuts its history with (see the module docstring)."""
    name = (model or "").lower()
    if "gpt-4" in name or "gpt-3.5" in name:
        return o200k_counter() or ESTIMATOR
    return ESTIMATOR


def official_budget(model: str | None, answer_tokens: int) -> int | None:
    """The official history budget of a reader of ``model`` (its window less the answer's
    length less 1000), None when the official table does not know its window."""
    window = OFFICIAL_WINDOWS.get(model or "")
    return None if window is None else window - answer_tokens - RESERVED
