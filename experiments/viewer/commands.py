"""The ``view`` and ``play`` subcommands (their server parts need the ``view`` extra)."""

from __future__ import annotations

import argparse
from typing import Any

from cogarch.errors import ConfigError


def _need_view_extra() -> None:
    try:
        import jinja2  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise ConfigError(
            f"the viewer needs {exc.name}; install it with: pip install 'cogarch[view]'"
        ) from None


def cmd_view(args: argparse.Namespace) -> int:
    _need_view_extra()
    from ..results.paths import check_port, folder_to_read, folder_to_write
    from .index import TrialIndex

    port = check_port(args.port)
    dirs = [
        folder_to_read(d, "results directory", "give a run's folder") for d in args.results_dirs
    ]
    from .suite_pages import suite_of

    suite = suite_of(dirs)
    if suite is not None:
        dirs = suite.run_dirs()
    if args.export is not None:
        from .export import export_static

        out = folder_to_write(args.export, "--export")
        page = export_static(TrialIndex(dirs), out)
        print(suite.export(page.parent) if suite is not None else page)
        return 0
    from .app import create_app
    from .serve import serve

    what = "viewer" if suite is None else "viewer (the suite's leaderboard at /leaderboard)"
    serve(create_app(TrialIndex(dirs), suite), port, what=what)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    _need_view_extra()
    from ..cli.config import providers_from
    from ..results.paths import check_port
    from .play import PlaySession
    from .play_app import create_play_app
    from .serve import serve

    port = check_port(args.port)
    session = PlaySession(
        args.game, args.agent, args.provider, providers_from(args.config), seed=args.seed
    )
    serve(create_play_app(session), port, what=f"{args.game} against {args.agent}")
    return 0


def add_commands(sub: Any) -> None:
    """Add ``view`` and ``play`` to the CLI's subcommands."""
    view = sub.add_parser("view", help="browse trials in the browser (live while a run writes)")
    view.add_argument("results_dirs", nargs="+", metavar="RESULTS_DIR")
    view.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: free)")
    view.add_argument("--export", metavar="DIR", help="write static pages to DIR instead")
    view.set_defaults(fn=cmd_view)

    play = sub.add_parser("play", help="play the player's side of an SCT game against an agent")
    play.add_argument("game", choices=["hangman", "diagnosis"])
    play.add_argument("--agent", default="workflow", help="a ready-made agent or a spec file")
    play.add_argument("--provider", default="local")
    play.add_argument("--config", help="a YAML file with a 'providers:' section")
    play.add_argument("--seed", type=int, default=0, help="seed of the game and the agent")
    play.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: free)")
    play.set_defaults(fn=cmd_play)
