"""Draftless n-gram speculative decoding on the embedded model: generation speed, paired.

Run from the repository root (needs the ``local`` extra and about 2 GiB of RAM per setting)::

    python benchmarks/bench_speculative.py [--settings none ngram_simple ngram_mod]
        [--rounds 3] [--max-tokens 256]

One embedded llama.cpp server per setting (one slot each) is started, then the same prompts
go to every server in turn, round after round, the order rotating each round, so a machine
whose load drifts slows every setting alike. Temperature 0 and a fixed seed: the text must come
out the same under every setting (speculative decoding only checks guessed tokens in batches),
and the benchmark says when it does not. Two kinds of prompt: rewriting a working memory with
one note added (the answer repeats most of the prompt, which n-gram guesses thrive on) and
writing new prose (nothing to copy). Printed per kind and setting: the median generation
speed in tokens per second, as llama.cpp reports it, and its ratio to ``none``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MEMORY = "\n".join(
    [
        "## 1. Goals and Plans",
        "- Host a game of Hangman; keep the secret word private until the player asks.",
        "- Answer each guess with the updated pattern and the number of lives left.",
        "## 2. Secret",
        "- The secret word is: lantern (7 letters).",
        "## 3. Active Notes",
        *[
            f"- Turn {n}: the player guessed '{c}'; it is {'in' if c in 'lantern' else 'not in'} "
            f"the word; pattern and lives updated."
            for n, c in enumerate("eatsrio", 1)
        ],
    ]
)
PROMPTS = {
    "memory rewrite": [
        {
            "role": "system",
            "content": "You maintain a private working memory. Reply with the whole memory "
            "rewritten, every line kept as it is, with one new line added at the end of "
            "'Active Notes' for the latest turn. Reply with the memory only.",
        },
        {
            "role": "user",
            "content": f"Memory:\n{MEMORY}\n\nLatest turn: the player guessed 'n'; it is in "
            "the word twice.",
        },
    ],
    "new prose": [
        {
            "role": "user",
            "content": "Write a short, original story (about 200 words) about a lighthouse "
            "keeper who finds a map in a bottle.",
        }
    ],
}


def _ask(base_url: str, model: str, messages: list[dict[str, str]], max_tokens: int) -> Any:
    body = json.dumps(
        {
            "model": model,
            "messages": messages,
            "temperature": 0.0,
            "seed": 7,
            "max_tokens": max_tokens,
            "cache_prompt": False,
        }
    ).encode()
    request = urllib.request.Request(
        f"{base_url}/chat/completions", body, {"Content-Type": "application/json"}
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=600) as response:
        return json.loads(response.read())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--settings", nargs="+", default=["none", "ngram_simple", "ngram_mod"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=256)
    args = parser.parse_args(argv)

    from cogarch.models.local import LocalServer, LocalServerSettings

    servers = {
        s: LocalServer(LocalServerSettings(n_ctx=4096, n_parallel=1, speculative=s)).start()
        for s in args.settings
    }
    speeds: dict[tuple[str, str], list[float]] = {}
    texts: dict[tuple[str, str], set[str]] = {}
    try:
        for r in range(args.rounds):
            order = (
                args.settings[r % len(args.settings) :] + args.settings[: r % len(args.settings)]
            )
            for kind, messages in PROMPTS.items():
                for setting in order:
                    server = servers[setting]
                    answer = _ask(server.base_url, server.model_name, messages, args.max_tokens)
                    timings = answer.get("timings", {})
                    speeds.setdefault((kind, setting), []).append(
                        float(timings.get("predicted_per_second", 0.0))
                    )
                    texts.setdefault((kind, "all"), set()).add(
                        answer["choices"][0]["message"]["content"]
                    )
    finally:
        for server in servers.values():
            server.stop()
    print(
        f"{args.rounds} rounds, temperature 0, up to {args.max_tokens} tokens; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(f"{'prompt':<16} {'setting':<14} {'tok/s (median)':>15} {'vs none':>8}")
    for kind in PROMPTS:
        base = statistics.median(speeds[(kind, args.settings[0])])
        for setting in args.settings:
            median = statistics.median(speeds[(kind, setting)])
            print(f"{kind:<16} {setting:<14} {median:>15.2f} {median / base:>7.2f}x")
        same = len(texts[(kind, "all")]) == 1
        print(f"{'':<16} the same text under every setting: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
