"""The ``suite`` subcommand: ``cogarch suite CONFIG`` runs (or resumes) a suite,
``cogarch suite CONFIG --dry-run`` prints its plan, ``cogarch suite report DIR`` rebuilds the
leaderboard of a suite's folder from its files."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from cogarch.errors import ConfigError

USAGE = "cogarch suite CONFIG [--dry-run] [--replace] [--audit-judge] | cogarch suite report DIR"


def _report(folder: str) -> int:
    from ..leaderboard.files import write_leaderboard
    from ..results.paths import folder_to_read

    root = folder_to_read(folder, "suite folder", "give the folder 'cogarch suite' wrote")
    for path in write_leaderboard(root):
        print(path)
    _left_out(root)
    return 0


def _left_out(root: Path) -> None:
    """Say how much the leaderboard left out (each item is named on stderr)."""
    import json

    try:
        left = json.loads((root / "leaderboard.json").read_text(encoding="utf-8"))["left_out"]
    except (OSError, ValueError, KeyError, TypeError):
        return
    if left:
        print(f"left out {len(left)} items the files could not give (see the warnings above)")


def cmd_suite(args: argparse.Namespace) -> int:
    target = list(args.target)
    if target[0] == "report" and len(target) == 2 and not Path("report").is_file():
        return _report(target[1])
    if len(target) != 1:
        raise ConfigError(f"'cogarch suite' takes one config, or 'report DIR'; usage: {USAGE}")
    from ..suites.config import load_suite_config
    from .config import overridden

    config = load_suite_config(target[0])
    updates: dict[str, object] = {}
    if args.audit_judge and config.audit_judge is None:
        updates["audit_judge"] = True
    config = overridden(config, args, updates)
    if args.dry_run:
        from ..suites.dry_run import suite_dry_run

        print(suite_dry_run(config, args.estimate_from or ()))
        return 0
    from ..leaderboard.board import build_leaderboard
    from ..leaderboard.files import SETTINGS_TITLE, to_markdown
    from ..suites.runner import run_suite

    result = asyncio.run(
        run_suite(
            config, progress=not args.quiet, reports=not args.no_reports, replace=args.replace
        )
    )
    print(f"\n{config.name}: {result.summary()}")
    print(to_markdown(build_leaderboard(result.results_dir)).split(f"\n## {SETTINGS_TITLE}")[0])
    for path in result.files:
        print(path)
    if (line := result.broken_line()) is not None:
        print(line)
    return 1 if line is not None else 0


def add_suite_command(sub: Any) -> None:
    suite = sub.add_parser(
        "suite",
        help="run tasks x agents as one suite and write its leaderboard (resumes); "
        "'suite report DIR' rebuilds the leaderboard",
        usage=USAGE,
    )
    suite.add_argument("target", nargs="+", metavar="CONFIG", help="a suite config YAML")
    suite.add_argument("--dry-run", action="store_true", help="print the grid and its cost")
    suite.add_argument(
        "--estimate-from",
        action="append",
        type=Path,
        metavar="RUN_DIR",
        help="with --dry-run: a run folder whose trial files give the expected cost",
    )
    suite.add_argument("--results-dir", help="override where the suite's folder goes")
    suite.add_argument(
        "--replace",
        action="store_true",
        help="make the results folder this suite's even when another suite (or this one "
        "with another config) wrote it",
    )
    suite.add_argument(
        "--backend", choices=("local", "ray"), help="where trials run (default: the config's)"
    )
    suite.add_argument("--address", help="with the ray backend: the cluster to join")
    suite.add_argument(
        "--audit-judge",
        action="store_true",
        help="after the cells, audit the judge of every task column with a judged metric, "
        "written to DIR/judge_audit/TASK/judge_audit.json (settings: the config's audit_judge)",
    )
    suite.add_argument("--no-reports", action="store_true", help="do not write each cell's report")
    suite.add_argument("--quiet", action="store_true", help="no progress bars")
    suite.set_defaults(fn=cmd_suite)
