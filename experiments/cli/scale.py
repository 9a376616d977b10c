"""The ``scale`` subcommand: ``cogarch scale CONFIG`` runs (or resumes) a scale suite (one
memory benchmark at several history lengths, see ``scale``) and writes its curves beside its
leaderboard; ``cogarch scale report DIR`` rebuilds the curves of a suite's folder."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from cogarch.errors import ConfigError

from ..scale import DEFAULT_RECALL

USAGE = "cogarch scale CONFIG [--recall METRIC] | cogarch scale report DIR [--recall METRIC]"


def _written(root: Path, recall: str) -> None:
    from ..scale.curves import scale_markdown
    from ..scale.files import write_scale

    scale, paths = write_scale(root, recall)
    print(scale_markdown(scale).split("\n\nEach row")[0])
    for path in paths:
        print(path)


def cmd_scale(args: argparse.Namespace) -> int:
    from ..scale.curves import recall_metric

    recall_metric(args.recall)  # a wrong name stops the command before anything runs
    target = list(args.target)
    if target[0] == "report" and len(target) == 2 and not Path("report").is_file():
        from ..results.paths import folder_to_read

        root = folder_to_read(target[1], "suite folder", "give the folder 'cogarch scale' wrote")
        _written(root, args.recall)
        return 0
    if len(target) != 1:
        raise ConfigError(f"'cogarch scale' takes one config, or 'report DIR'; usage: {USAGE}")
    from ..suites.config import load_suite_config
    from ..suites.runner import run_suite
    from .config import overridden

    config = overridden(load_suite_config(target[0]), args, {})
    result = asyncio.run(run_suite(config, progress=not args.quiet, replace=args.replace))
    print(f"\n{config.name}: {result.summary()}")
    _written(result.results_dir, args.recall)
    if (line := result.broken_line()) is not None:
        print(line)
    return 1 if line is not None else 0


def add_scale_command(sub: Any) -> None:
    scale = sub.add_parser(
        "scale",
        help="run a scale suite (one benchmark at several history lengths) and write each "
        "memory's curves (resumes); 'scale report DIR' rebuilds them",
        usage=USAGE,
    )
    scale.add_argument("target", nargs="+", metavar="CONFIG", help="a suite config YAML")
    scale.add_argument(
        "--recall",
        default=DEFAULT_RECALL,
        metavar="METRIC",
        help=f"the retrieval metric of the recall curve (default: '{DEFAULT_RECALL}')",
    )
    scale.add_argument("--results-dir", help="override where the suite's folder goes")
    scale.add_argument(
        "--replace",
        action="store_true",
        help="make the results folder this suite's even when another suite wrote it",
    )
    scale.add_argument(
        "--backend", choices=("local", "ray"), help="where trials run (default: the config's)"
    )
    scale.add_argument("--address", help="with the ray backend: the cluster to join")
    scale.add_argument("--quiet", action="store_true", help="no progress bars")
    scale.set_defaults(fn=cmd_scale)
