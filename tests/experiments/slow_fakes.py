"""Fake providers for the run tests, loaded by import path.

A config names one as ``fake: tests.experiments.slow_fakes:NAME``.

Each one is a scripted host ``(pairs, seed, call) -> reply`` in the sense of
:data:`cogarch.models.fakes.PairsFn`. An ``async`` host is awaited by the fake client, so a
slow host sleeps without blocking the event loop and concurrent trials overlap as they would
against a real endpoint.

- ``slow_honest``: the honest Hangman host, ``COGARCH_TEST_FAKE_DELAY_S`` seconds (default 0.2)
  per call; the resume-after-kill test runs it in a subprocess.
- ``traced_honest``: ``slow_honest`` that also appends a line to a file named after its
  process id in the folder ``COGARCH_TEST_PID_DIR``, so a test can find (and kill) a worker
  process in the middle of a trial.
- ``broken_host``: raises on every call (a trial that fails for a model reason), appending a
  line to ``COGARCH_TEST_PID_DIR``/``broken`` first when that folder is set.
- ``flaky_honest``: the honest host, except that it raises for every seed in
  :data:`FAIL_SEEDS` (tests add trial seeds there and remove them to let a rerun succeed).
- ``decorated_host``: the honest host whose every reply also carries private blocks
  (reasoning, a ``<secret>`` and a working-memory block) that must never become public.
- ``terse_with_judge``: answers every turn with a short acknowledgement and, as the
  constraint task's judge, returns a verdict with no claims and middling scores.
- ``prefix_cached_honest``: the honest host behind a server that reports its prompt cache:
  every message but the last counts as served from the cache; memory updates report nothing
  (as a second server would that does not report it).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Sequence

from cogarch.models.fakes import CallInfo, FakeReply
from cogarch.tasks.hangman.hosts import honest_host
from cogarch.tasks.sct.fake_memory import is_memory_update
from cogarch.tokens import count_tokens

DELAY_ENV = "COGARCH_TEST_FAKE_DELAY_S"
PID_DIR_ENV = "COGARCH_TEST_PID_DIR"

FAIL_SEEDS: set[int] = set()
"""Trial seeds for which :func:`flaky_honest` raises."""

SECRET_MARK = "zebra"
"""The word hidden in :func:`decorated_host`'s ``<secret>`` block."""
REASONING_MARK = "PRIVATE-REASONING-7f3a"
MEMORY_MARK = "PRIVATE-MEMORY-91c2"


class ScriptedFailure(RuntimeError):
    """What :func:`flaky_honest` raises."""


Pairs = Sequence[tuple[str, str]]


async def slow_honest(pairs: Pairs, seed: int, call: CallInfo) -> str:
    await asyncio.sleep(float(os.environ.get(DELAY_ENV, "0.2")))
    return honest_host(pairs, seed, call)


async def traced_honest(pairs: Pairs, seed: int, call: CallInfo) -> str:
    folder = os.environ.get(PID_DIR_ENV)
    if folder:
        with open(os.path.join(folder, str(os.getpid())), "a", encoding="utf-8") as out:
            out.write(f"{seed}\n")
    return await slow_honest(pairs, seed, call)


def broken_host(pairs: Pairs, seed: int, call: CallInfo) -> str:
    folder = os.environ.get(PID_DIR_ENV)
    if folder:
        with open(os.path.join(folder, "broken"), "a", encoding="utf-8") as out:
            out.write(f"{seed}\n")
    raise ScriptedFailure("the scripted host is broken")


def flaky_honest(pairs: Pairs, seed: int, call: CallInfo) -> str:
    if seed in FAIL_SEEDS:
        raise ScriptedFailure(f"scripted failure for seed {seed}")
    return honest_host(pairs, seed, call)


def decorated_host(pairs: Pairs, seed: int, call: CallInfo) -> str:
    reply = honest_host(pairs, seed, call)
    if is_memory_update(call):
        return reply  # the updater's tool call: private by construction
    return (
        f"<think>{REASONING_MARK} I hold <secret>{SECRET_MARK}</secret></think>\n"
        f"{reply}\n<secret>{SECRET_MARK}</secret>\n"
        f"<working_memory>{MEMORY_MARK}: the word is {SECRET_MARK}</working_memory>"
    )


def terse_with_judge(pairs: Pairs, seed: int, call: CallInfo) -> str:
    if any("impartial auditor" in text for _, text in pairs):
        scores = dict.fromkeys(
            ("relevance", "answer_quality", "instruction_following", "coherence"), 7
        )
        return json.dumps({"claims": [], "violated": [], "omitted": [], **scores})
    return "Noted; I will keep to the rules you set."


def prefix_cached_honest(pairs: Pairs, seed: int, call: CallInfo) -> FakeReply:
    reply = honest_host(pairs, seed, call)
    if is_memory_update(call):
        return FakeReply(content=reply)
    prefix = sum(count_tokens(text) for _, text in pairs[:-1])
    return FakeReply(content=reply, cached_prompt_tokens=prefix)
