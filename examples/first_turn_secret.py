"""Does a workflow agent commit a secret to its private memory on the first Hangman turn?

Runs the Hangman opener through a fresh `workflow` agent once per seed and counts the runs
whose working memory holds a ``<secret>...</secret>`` afterwards.

    python examples/first_turn_secret.py --provider local --runs 10 --strategy overwrite
"""

from __future__ import annotations

import argparse
import asyncio
import time

from cogarch.models import Providers
from cogarch.tasks.hangman.prompts import OPENER_PROMPT
from cogarch.tasks.sct.secrets import extract_last_secret
from cogarch.workspace import build_agent, load_agent_spec


async def main(provider: str, runs: int, strategy: str, first_seed: int) -> None:
    providers = Providers()
    spec = load_agent_spec("workflow", {"strategy": strategy})
    found = 0
    for seed in range(first_seed, first_seed + runs):
        agent = build_agent(spec, providers.get, provider=provider, seed=seed)
        start = time.perf_counter()
        reply = await agent.respond(OPENER_PROMPT)
        secret = extract_last_secret(agent.private_state())
        found += secret is not None
        print(
            f"seed {seed}: secret={secret!r} ({time.perf_counter() - start:.1f}s) "
            f"reply={reply[:60]!r}",
            flush=True,
        )
    await providers.aclose()
    print(f"{found} of {runs} runs wrote a <secret> into working memory on turn 1")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--provider", default="local")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--strategy", default="overwrite")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    asyncio.run(main(args.provider, args.runs, args.strategy, args.first_seed))
