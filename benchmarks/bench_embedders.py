"""Embedding throughput: LongMemEval-length turns per second by embedder, precision and batch.

Run from the repository root::

    python benchmarks/bench_embedders.py [--repeats 3] [--batch-sizes 16 32 64]
        [--precisions float32 bfloat16] [--max-lengths 256 128] [--threads N]
        [--embedders minilm static hash]

The texts are the 500 turns of one synthetic LongMemEval-S-sized haystack (50 sessions of 10
turns, about 115k tokens, as ``bench_longmemeval.py`` makes it), every one distinct, embedded
as raw-turn memory embeds them (dated lines, one call for the whole haystack). Each setting is
timed ``--repeats`` times with the process's vector memo emptied before each, so every turn is
really embedded; printed: turns per second (best and the spread of the repeats), the CPU
seconds of the best repeat and per turn, the share of padding tokens in the batches
(sentence-transformers sorts a call's texts by length before it cuts them into batches), and
the least and mean cosine between a vector and the float32 one at full length (what the
setting costs in fidelity). ``--max-lengths`` caps the tokens a turn keeps
(MiniLM's default is 256; the haystack's longest turns are about 220). The static embedder
(word-piece vectors distilled from MiniLM, its table loaded before timing) and the hash
embedder are timed beside them; their vectors live in other spaces, so they have no cosine
to MiniLM's (``same`` says whether every repeat gave identical vectors). On a machine shared
with other work, compare the CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def haystack_texts() -> list[str]:
    from cogarch.tasks.longmemeval.data import load_longmemeval
    from cogarch.tasks.longmemeval.synthetic import synthetic_longmemeval
    from cogarch.tasks.longmemeval.task import haystack_observations

    data = synthetic_longmemeval(
        1, sessions=50, turns_per_session=10, abstention=0, pool=2000, turn_words=45, seed=7
    )[:1]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "one.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        [question] = load_longmemeval(path)
    return [o.text for o in haystack_observations(question)]


def timed(embed: Any, texts: list[str], repeats: int) -> tuple[list[float], float, Any]:
    """Seconds of each repeat, CPU seconds of the best, and the vectors."""
    from cogarch.memory.retrieval import embeddings

    walls, cpus, vectors = [], [], None
    for _ in range(repeats):
        embeddings._MINILM.memo.clear()
        cpu, start = time.process_time(), time.perf_counter()
        vectors = embed(texts)
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return walls, cpus[walls.index(min(walls))], vectors


def padding_share(texts: list[str], batch: int, length: int) -> float:
    """Padding tokens over all tokens when ``texts`` are cut into batches of ``batch`` in the
    order sentence-transformers uses (longest text first), each padded to its longest turn."""
    from cogarch.memory.retrieval.embeddings import minilm_model

    tokenizer = minilm_model().tokenizer
    order = sorted(texts, key=len, reverse=True)
    sizes = [min(len(ids), length) for ids in tokenizer(order)["input_ids"]]
    padded = sum(
        max(sizes[i : i + batch]) * len(sizes[i : i + batch]) for i in range(0, len(sizes), batch)
    )
    return 1 - sum(sizes) / padded


def main(argv: list[str] | None = None) -> None:
    import torch

    from cogarch.memory.retrieval.embeddings import HashEmbedder, MiniLMEmbedder, fast_bfloat16
    from cogarch.memory.retrieval.embeddings_static import StaticEmbedder

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[16, 32, 64])
    parser.add_argument("--precisions", nargs="+", default=["float32", "bfloat16"])
    parser.add_argument("--max-lengths", type=int, nargs="+", default=[256])
    parser.add_argument("--threads", type=int, default=None, help="torch threads (default: its)")
    parser.add_argument(
        "--embedders", nargs="+", default=["minilm", "static", "hash"], help="which to time"
    )
    args = parser.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    texts = haystack_texts()
    print(
        f"{len(texts)} distinct turns; torch threads {torch.get_num_threads()}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
        f"default precision {MiniLMEmbedder().precision} (fast bfloat16: {fast_bfloat16()})"
    )
    print(
        f"{'embedder':<22} {'batch':>5} {'max len':>7} {'turns/s best':>12} {'spread':>13} "
        f"{'cpu s':>6} {'cpu ms/turn':>11} {'padding':>7} {'min cos':>8} {'mean cos':>8}"
    )
    if "minilm" in args.embedders:
        time_minilm(texts, args)
    for name in [n for n in args.embedders if n != "minilm"]:
        embedder = StaticEmbedder() if name == "static" else HashEmbedder()
        if name == "static":
            embedder.load()
        walls, cpu, _ = timed(embedder.embed, texts, args.repeats)
        same = all(embedder.embed(texts) == embedder.embed(texts) for _ in range(2))
        rates = sorted(len(texts) / w for w in walls)
        print(
            f"{name:<22} {'-':>5} {'-':>7} {rates[-1]:>12.1f} "
            f"{rates[0]:>6.1f}-{rates[-1]:<6.1f} {cpu:>6.2f} "
            f"{1000 * cpu / len(texts):>11.2f} {'-':>7} {'same' if same else 'DIFFER':>8} {'':>8}",
            flush=True,
        )


def time_minilm(texts: list[str], args: argparse.Namespace) -> None:
    """Every precision, length cap and batch size of MiniLM, against float32 at full length."""
    import numpy as np

    from cogarch.memory.retrieval import embeddings
    from cogarch.memory.retrieval.embeddings import MiniLMEmbedder, minilm_model

    model = minilm_model()
    embeddings._MINILM.memo.clear()
    reference = np.asarray(MiniLMEmbedder(precision="float32").embed(texts))  # also a warm-up
    for precision in args.precisions:
        for length in args.max_lengths:
            model.max_seq_length = length
            for batch in args.batch_sizes:
                embedder = MiniLMEmbedder(batch_size=batch, precision=precision)
                walls, cpu, vectors = timed(embedder.embed, texts, args.repeats)
                cosines = (np.asarray(vectors) * reference).sum(1)
                rates = sorted(len(texts) / w for w in walls)
                pad = padding_share(texts, batch, length)
                print(
                    f"{'minilm ' + precision:<22} {batch:>5} {length:>7} {rates[-1]:>12.1f} "
                    f"{rates[0]:>6.1f}-{rates[-1]:<6.1f} {cpu:>6.2f} "
                    f"{1000 * cpu / len(texts):>11.1f} {pad:>7.1%} {cosines.min():>8.5f} "
                    f"{cosines.mean():>8.5f}",
                    flush=True,
                )
    model.max_seq_length = 256


if __name__ == "__main__":
    main()
