"""Benchmark the model layer's throughput against the same server driven by a plain client.

Run from the repository root (loads the embedded model: about 2 GiB of RAM and all cores)::

    python benchmarks/bench_throughput.py [--requests 16] [--max-tokens 16]
        [--concurrency 1 2 4] [--rounds 3] [--n-ctx 4096] [--threads N]
        [--base-url URL --model NAME]

One embedded llama.cpp server is started with four parallel slots. For each concurrency level
the same ``--requests`` short prompts (temperature 0, a fixed seed per prompt, at most
``--max-tokens`` tokens) are sent twice, each time through ``asyncio.gather`` behind a
semaphore of that size:

- **framework**: a ``Model`` built by ``build_model`` for an ``openai`` provider at the
  server (no cache), so every request goes through AutoGen's client, our retry loop,
  reasoning split and metering;
- **plain**: ``openai.AsyncOpenAI`` calling ``chat.completions.create`` directly.

Before measuring, every prompt is sent once so both paths meet the same warm prompt cache.
Each level runs ``--rounds`` rounds, alternating which path goes first, and the median
requests per second of each path is reported with the ratio framework / plain (target: at
least 0.9 at every level). Mean completion tokens are printed too, to show that both paths
did the same work. ``--base-url`` and ``--model`` point the benchmark at another
OpenAI-compatible endpoint instead of starting the embedded model.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TARGET_RATIO = 0.9
SEED = 1234

Call = Callable[[int], Awaitable[int]]
"""Send prompt ``i``; return the completion tokens of the answer."""


@dataclass(frozen=True)
class Measure:
    seconds: float
    requests: int
    completion_tokens: int

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds


def prompts(n: int) -> list[str]:
    topics = ("a colour", "a fruit", "an animal", "a city", "a metal", "a planet", "a tree")
    return [
        f"Request {i}: name {topics[i % len(topics)]} in one word, then stop." for i in range(n)
    ]


async def measure(call: Call, n: int, concurrency: int) -> Measure:
    gate = asyncio.Semaphore(concurrency)

    async def one(i: int) -> int:
        async with gate:
            return await call(i)

    start = time.perf_counter()
    tokens = await asyncio.gather(*(one(i) for i in range(n)))
    return Measure(time.perf_counter() - start, n, sum(tokens))


async def bench(
    base_url: str,
    model_name: str,
    *,
    requests: int,
    max_tokens: int,
    levels: Sequence[int],
    rounds: int,
) -> list[tuple[int, Measure, Measure]]:
    import openai

    from cogarch.models import Meter, ProviderConfig, user
    from cogarch.models.providers import build_model

    texts = prompts(requests)
    config = ProviderConfig(
        kind="openai",
        base_url=base_url,
        model=model_name,
        temperature=0,
        max_tokens=max_tokens,
        timeout=600,
    )
    model = build_model("bench", config, cache=None)
    plain = openai.AsyncOpenAI(base_url=base_url, api_key="local", max_retries=0, timeout=600)

    async def via_framework(i: int) -> int:
        completion = await model.complete([user(texts[i])], caller="bench", seed=SEED + i)
        return completion.usage.completion_tokens

    async def via_plain(i: int) -> int:
        response = await plain.chat.completions.create(
            model=model_name,
            messages=[{"role": "user", "content": texts[i]}],
            max_tokens=max_tokens,
            temperature=0,
            seed=SEED + i,
        )
        return response.usage.completion_tokens if response.usage else 0

    results: list[tuple[int, Measure, Measure]] = []
    try:
        with Meter().active() as meter:
            await measure(via_plain, requests, max(levels))  # warm the prompt cache
            for level in levels:
                framework: list[Measure] = []
                direct: list[Measure] = []
                for r in range(rounds):
                    pair: list[tuple[list[Measure], Call]] = [
                        (framework, via_framework),
                        (direct, via_plain),
                    ]
                    for sink, call in pair if r % 2 == 0 else reversed(pair):
                        sink.append(await measure(call, requests, level))
                results.append((level, median(framework), median(direct)))
        expected = rounds * len(levels) * requests
        if len(meter.records) != expected:
            raise RuntimeError(f"metered {len(meter.records)} framework calls, expected {expected}")
    finally:
        await model.aclose()
        await plain.close()
    return results


def median(measures: Sequence[Measure]) -> Measure:
    ordered = sorted(measures, key=lambda m: m.per_second)
    return ordered[len(ordered) // 2]


def report(results: Sequence[tuple[int, Measure, Measure]]) -> bool:
    print(
        f"{'conc':>4} | {'framework req/s':>15} | {'plain req/s':>11} | {'ratio':>5} | "
        f"{'tokens/answer (fw / plain)':>26}"
    )
    ok = True
    for level, fw, pl in results:
        ratio = fw.per_second / pl.per_second
        ok &= ratio >= TARGET_RATIO
        fw_tokens, pl_tokens = (
            fw.completion_tokens / fw.requests,
            pl.completion_tokens / pl.requests,
        )
        tokens = f"{fw_tokens:.1f} / {pl_tokens:.1f}"
        print(
            f"{level:>4} | {fw.per_second:>15.2f} | {pl.per_second:>11.2f} | {ratio:>5.2f} | "
            f"{tokens:>26}"
        )
    print(f"target: ratio >= {TARGET_RATIO} at every level: {'met' if ok else 'MISSED'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=16, help="requests per measurement")
    parser.add_argument("--max-tokens", type=int, default=16, help="max tokens per answer")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--rounds", type=int, default=3, help="rounds per level (median kept)")
    parser.add_argument("--n-ctx", type=int, default=4096, help="embedded server context")
    parser.add_argument("--n-parallel", type=int, default=4, help="embedded server slots")
    parser.add_argument("--threads", type=int, help="embedded server CPU threads")
    parser.add_argument("--base-url", help="use this OpenAI-compatible endpoint instead")
    parser.add_argument("--model", help="model name at --base-url")
    args = parser.parse_args(argv)
    if (args.base_url is None) != (args.model is None):
        parser.error("--base-url and --model go together")
    if min(args.requests, args.max_tokens, args.rounds, *args.concurrency) < 1:
        parser.error("--requests, --max-tokens, --rounds and --concurrency must be >= 1")

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    server: Any = None
    if args.base_url is not None:
        base_url, model_name = args.base_url, args.model
    else:
        from cogarch.models.local import LocalServerSettings, get_local_server, stop_local_servers

        fields: dict[str, Any] = {"n_ctx": args.n_ctx, "n_parallel": args.n_parallel}
        if args.threads:
            fields["n_threads"] = args.threads
        started = time.perf_counter()
        server = get_local_server(LocalServerSettings(**fields))
        print(f"embedded server {server.model_name} at {server.base_url}, "
              f"ready in {time.perf_counter() - started:.1f} s")  # fmt: skip
        base_url, model_name = server.base_url, server.model_name
    try:
        results = asyncio.run(
            bench(
                base_url,
                model_name,
                requests=args.requests,
                max_tokens=args.max_tokens,
                levels=args.concurrency,
                rounds=args.rounds,
            )
        )
    finally:
        if server is not None:
            stop_local_servers()
    print(f"{args.requests} requests per measurement, max_tokens {args.max_tokens}, "
          f"median of {args.rounds} rounds")  # fmt: skip
    return 0 if report(results) else 1


if __name__ == "__main__":
    sys.exit(main())
