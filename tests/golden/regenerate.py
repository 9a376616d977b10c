"""Write the golden trial files again, on purpose, from the code as it is now.

    python -m tests.golden.regenerate                  # every case
    python -m tests.golden.regenerate episodex_fakes   # the cases of one config
    python -m tests.golden.regenerate --cache-dir ~/.cache/cogarch/alfworld  # reuse games

Run it from the repository's root (the LoCoMo config names its data file from there) and only
when a change in behaviour is meant, and say in the commit what changed. To add a case, add it
to ``cases.CASES`` and run this for its config: the cases already kept print ``unchanged``.
Check a new file by replaying it twice and once under another BLAS kernel:

    python -m pytest tests/golden -q
    OPENBLAS_CORETYPE=Haswell OPENBLAS_L2_SIZE=512 python -m pytest tests/golden -q

Games are generated afresh in a temporary folder unless ``--cache-dir`` names a game cache;
the games each ALFWorld trial played are kept in ``tests/golden/games/`` (those no case plays
any more are removed when every case is written). The replay's own folders are blanked in the
file written (they are run-specific, see ``cases.IGNORED``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from cogarch.io import atomic_write_text

from .cases import CASES, GAMES, ROOT, GoldenCase, compare, games_played, replay


def regenerate(case: GoldenCase, cache_dir: Path | None) -> list[str]:
    """Write the case's golden file and keep the games it played; the names of those games."""
    with tempfile.TemporaryDirectory(prefix="golden-") as scratch:
        games = cache_dir or Path(scratch) / "games"
        played = replay(case, Path(scratch) / "run", games)
        changed = compare(case, played) if case.golden_path.exists() else "new"
        data = json.loads(played.read_text(encoding="utf-8"))
        names = games_played(played) if case.plays_games else []
        GAMES.mkdir(exist_ok=True)
        for name in names:
            if not _same_game(games / f"{name}.json", GAMES / f"{name}.json"):
                shutil.copyfile(games / f"{name}.json", GAMES / f"{name}.json")
    if changed is not None:  # an unchanged file is left as it is (no new timings to commit)
        config = data["metadata"]["config"]
        config["results_dir"] = None
        if case.plays_games:
            config["task"]["cache_dir"] = None
        case.golden_path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        atomic_write_text(case.golden_path, text)
    status = "unchanged" if changed is None else ("new" if changed == "new" else "changed")
    print(f"{case}: {status} -> {case.golden_path.relative_to(ROOT)}")
    if changed not in (None, "new"):
        print(changed)
    return names


def _same_game(made: Path, kept: Path) -> bool:
    """Whether the kept game is the one made, but for how long its plan took to find."""
    if not kept.is_file():
        return False
    entries = [json.loads(p.read_text(encoding="utf-8")) for p in (made, kept)]
    for entry in entries:
        entry.pop("plan_seconds", None)
    return entries[0] == entries[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden.regenerate", description=__doc__)
    parser.add_argument("configs", nargs="*", help="only the cases of these configs")
    parser.add_argument("--cache-dir", type=Path, help="a game cache to reuse")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not args.configs or c.config in args.configs]
    if not cases:
        known = ", ".join(sorted({c.config for c in CASES}))
        print(f"no golden case for {', '.join(args.configs)}; the configs: {known}")
        return 2
    kept = {name for case in cases for name in regenerate(case, args.cache_dir)}
    if len(cases) == len(CASES):
        for stale in GAMES.glob("*.json"):
            if stale.stem not in kept:
                stale.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
