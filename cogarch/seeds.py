"""How trial seeds derive from the run seed.

``trial_seed(run_seed, i)`` is the first 8 bytes of SHA-256 of ``"{run_seed}:{i}"`` read as a
big-endian unsigned integer, masked to 63 bits. It is stable across processes, platforms and
Python versions, and a failed trial never shifts the seeds of the others. Every agent gets the
same seed for the same trial index, so agents face the same player.
"""

from __future__ import annotations

import hashlib


def trial_seed(run_seed: int, trial_index: int) -> int:
    if isinstance(run_seed, bool) or not isinstance(run_seed, int):
        raise TypeError(f"run_seed must be an int, got {run_seed!r}")
    if isinstance(trial_index, bool) or not isinstance(trial_index, int) or trial_index < 0:
        raise ValueError(f"trial_index must be an int >= 0, got {trial_index!r}")
    digest = hashlib.sha256(f"{run_seed}:{trial_index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & ((1 << 63) - 1)
