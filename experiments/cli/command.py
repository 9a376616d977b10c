"""The ``cogarch`` command: run experiments, check providers, chat with a model, build reports."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from cogarch.errors import DEBUG_ENV, CogarchError, ConfigError, debug_enabled, one_line

from .config import overridden, own_kinds, providers_from


def cmd_run(args: argparse.Namespace) -> int:
    from ..running.run_config import load_run_config
    from ..running.runner import Runner

    updates: dict[str, object] = {}
    if args.trials is not None:
        updates["trials"] = args.trials
    if args.concurrency is not None:
        updates["concurrency"] = args.concurrency
    config = load_run_config(args.config)
    if args.audit_judge and config.audit_judge is None:
        updates["audit_judge"] = True
    config = overridden(config, args, updates)
    if args.dry_run:
        from ..running.dry_run import dry_run

        print(dry_run(config, args.estimate_from or ()).text())
        return 0
    runner = Runner(config, progress=not args.quiet, trace=args.trace)
    report = asyncio.run(runner.run())
    print(
        f"\n{config.name}: {report.ran} trials run, {report.skipped} already complete, "
        f"{report.failed} failed; results in {report.results_dir}"
    )
    if args.trace == "file":
        print(f"traces in {report.results_dir / 'traces.jsonl'}")
    for problem in report.corrupt:
        print(f"corrupt: {problem}")
    print(report.table())
    if report.audit is not None:
        from ..judge_audit.section import audit_lines

        print("\n" + "\n".join(audit_lines(report.audit)))
    if report.failed:
        first = " ".join(report.errors[0].split())[:300] if report.errors else "?"
        if report.failed == report.ran:
            print(
                f"error: every trial this run played failed ({report.failed}); the first: "
                f"{first}. Fix the cause, then rerun the same command",
                file=sys.stderr,
            )
            return 1
        print(
            f"warning: {report.failed} of {report.ran} trials failed (the first: {first}); "
            "rerun the same command to retry them",
            file=sys.stderr,
        )
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    """List the providers at once; with ``--check``, send each a one-word request."""
    if not args.check:
        return list_models(args.config)
    from cogarch.models.messages import user

    providers = providers_from(args.config)
    failures = 0
    for name in providers.names():
        provider = providers.provider(name)
        line = f"{name:<20} {provider.config.kind:<7} {provider.served} ({provider.where})"
        start = time.perf_counter()
        try:
            completion = asyncio.run(
                providers.get(name).complete(
                    [user("Reply with the single word: ready")], caller="cli:models", max_tokens=8
                )
            )
            answer = completion.content.strip().replace("\n", " ")[:40]
            print(f"{line}  ok {time.perf_counter() - start:.1f}s: {answer!r}")
        except Exception as exc:  # report every provider, then fail
            failures += 1
            print(f"{line}  FAILED: {exc}")
    return 1 if failures else 0


def list_models(config: str | None) -> int:
    """Each provider's name, kind, model and where it answers, without calling any, starting
    the embedded model or importing a provider kind of the user's own."""
    providers = providers_from(config, own=False, fakes=False)
    if config is not None:
        from cogarch.config import read_yaml

        data = read_yaml(config)
        section = data.get("providers", data) if isinstance(data, dict) else {}
        for name, kind in own_kinds(section if isinstance(section, dict) else {}).items():
            print(f"{name:<20} {kind} (your own provider kind; not imported without --check)")
    for name in providers.names():
        provider = providers.provider(name)
        print(f"{name:<20} {provider.config.kind:<7} {provider.served} ({provider.where})")
    again = "cogarch models --check" + (f" --config {config}" if config else "")
    print(
        f"not checked: `{again}` sends each provider a one-word request (it starts the "
        "embedded model for a 'local' provider and imports provider kinds of your own)"
    )
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    from autogen_core.models import LLMMessage

    from cogarch.models.messages import assistant, system, user

    model = providers_from(args.config).get(args.provider)
    history: list[LLMMessage] = [system(args.system)]
    print(f"chatting with '{args.provider}' (empty line or Ctrl-D to quit)")
    while True:
        try:
            text = input("you> ").strip()
        except EOFError:
            break
        if not text:
            break
        history.append(user(text))
        completion = asyncio.run(model.complete(history, caller="cli:chat"))
        if completion.thought and args.show_thought:
            print(f"(thought) {completion.thought}")
        print(f"model> {completion.content}")
        history.append(assistant(completion.content))
    return 0


def cmd_agents(args: argparse.Namespace) -> int:
    from cogarch.workspace.describe import format_description
    from cogarch.workspace.registry import ready_made_agents
    from cogarch.workspace.spec import describe_spec, load_agent_spec

    if args.name is not None:
        print(format_description(describe_spec(load_agent_spec(args.name))))
        return 0
    for name in ready_made_agents():
        spec = load_agent_spec(name)
        params = ", ".join(f"{k}={v}" for k, v in spec.params.items())
        print(
            f"{name:<14} {spec.description.strip().splitlines()[0] if spec.description else ''}"
            + (f" [params: {params}]" if params else "")
        )
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from ..reports.report import build_report
    from ..results.paths import folder_to_read, folder_to_write
    from ..tables.tidy import RUN_DIR_HINT

    baselines = None
    if args.baselines is not None:
        baselines = [b.strip() for b in args.baselines.split(",") if b.strip()]
        if not baselines:
            raise ConfigError(
                "--baselines names no agent; give agent names separated by commas, "
                "e.g. --baselines vanilla,mem0"
            )
    out = folder_to_write(args.out, "--out") if args.out is not None else None
    run_dir = folder_to_read(args.run_dir, "run directory", RUN_DIR_HINT)
    paths = build_report(run_dir, out, baselines=baselines, reading=args.reading)
    for path in paths:
        print(path)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cogarch",
        description="Run experiments, check providers, chat with a model, build reports.",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help="show the traceback behind an error (also COGARCH_DEBUG=1); without it every "
        "error is one line",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser(
        "run",
        help="run an experiment config (resumes where it stopped)",
        description="Run an experiment config; a rerun resumes where it stopped. The run (and "
        "its --dry-run) imports, and so runs, the Python code of your own the config names: "
        "a task, provider kinds and agent factories given by import path or file "
        "(file.py:Class), and memory modules and specialists so named in its agent specs; "
        "the dry run's plan lists them.",
    )
    run.add_argument(
        "config", help="a run config YAML, e.g. experiments/configs/hangman_sct_fakes.yaml"
    )
    run.add_argument("--trials", type=int, help="override the number of trials")
    run.add_argument(
        "--dry-run",
        action="store_true",
        help="check the config and print the plan (trials, games, agents, providers, the "
        "expected cost per trial where an earlier run tells it, and the code of your own it "
        "imported to check it); no model is called",
    )
    run.add_argument(
        "--estimate-from",
        action="append",
        type=Path,
        metavar="RUN_DIR",
        help="with --dry-run: a run folder whose trial files give the expected cost "
        "(repeatable; the config's own folder and runs/* are looked at too)",
    )
    run.add_argument("--results-dir", help="override where trial files go")
    run.add_argument("--concurrency", type=int, help="override the number of trials at once")
    run.add_argument(
        "--backend", choices=("local", "ray"), help="where trials run (default: the config's)"
    )
    run.add_argument(
        "--address",
        help="with the ray backend: the cluster to join (auto, ray://HOST:10001); "
        "without it a local Ray instance is started",
    )
    run.add_argument(
        "--trace",
        choices=("otlp", "file"),
        help="record OpenTelemetry GenAI spans: otlp sends them to the endpoint the "
        "OTEL_EXPORTER_OTLP_* variables name, file writes RESULTS_DIR/traces.jsonl "
        "(needs the otel extra; off by default)",
    )
    run.add_argument(
        "--audit-judge",
        action="store_true",
        help="after the trials, audit the judge of the task's judged metric: its false "
        "positive and false negative rates on wrong answers and rephrasings made from the gold "
        "answers, written to RESULTS_DIR/judge_audit.json (settings: the config's audit_judge)",
    )
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(fn=cmd_run)

    models = sub.add_parser(
        "models",
        help="list providers at once; with --check, send each a one-word request and report "
        "whether it answered",
    )
    models.add_argument(
        "--config",
        help="a YAML file with a 'providers:' section (a provider kind of your own, named by "
        "import path or file, is imported only with --check)",
    )
    checking = models.add_mutually_exclusive_group()
    checking.add_argument(
        "--check",
        action="store_true",
        help="call each provider once (starting the embedded model for a 'local' provider, "
        "importing a provider kind of your own) and fail if any does not answer",
    )
    checking.add_argument(
        "--no-check",
        action="store_true",
        help="list without calling a model or importing a provider kind of your own (what "
        "the command does without --check)",
    )
    models.set_defaults(fn=cmd_models)

    chat = sub.add_parser("chat", help="talk to a model")
    chat.add_argument("--provider", default="local")
    chat.add_argument("--config", help="a YAML file with a 'providers:' section")
    chat.add_argument("--system", default="You are a helpful assistant.")
    chat.add_argument("--show-thought", action="store_true")
    chat.set_defaults(fn=cmd_chat)

    agents = sub.add_parser("agents", help="list the ready-made agents, or describe one")
    agents.add_argument("name", nargs="?", help="an agent name or spec file to describe in full")
    agents.set_defaults(fn=cmd_agents)

    report = sub.add_parser("report", help="write an HTML and Markdown report of a run")
    report.add_argument("run_dir")
    report.add_argument("--out", help="output folder (default: RUN_DIR/report)")
    report.add_argument(
        "--baselines",
        help="agents to test the others against, comma-separated (default: the run config's "
        "baselines, else the agents built on the default baseline specs)",
    )
    report.add_argument(
        "--reading",
        default=None,
        help="which of the task's readings the outcome table and tests use; for the SCT's "
        'yes/no answers lenient (default) or strict (the authors\' exact "yes", comparable '
        "with the paper's Table 1)",
    )
    report.set_defaults(fn=cmd_report)

    from ..viewer.commands import add_commands
    from .scale import add_scale_command
    from .suite import add_suite_command

    add_suite_command(sub)
    add_scale_command(sub)
    add_commands(sub)
    return parser


@contextmanager
def _debugging(on: bool) -> Iterator[None]:
    """``COGARCH_DEBUG`` set while the command runs, when ``--debug`` asks for it (the code
    the command runs, plug-ins and bridges included, then lets tracebacks through)."""
    before = os.environ.get(DEBUG_ENV)
    if on:
        os.environ[DEBUG_ENV] = "1"
    try:
        yield
    finally:
        if on and before is None:
            os.environ.pop(DEBUG_ENV, None)
        elif on and before is not None:
            os.environ[DEBUG_ENV] = before


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    with _debugging(args.debug):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """The command ``args`` names; every error is one line on stderr (with its traceback
    too only under ``--debug`` / ``COGARCH_DEBUG=1``)."""
    try:
        return int(args.fn(args))
    except CogarchError as exc:
        if debug_enabled():
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; rerun the same command to resume", file=sys.stderr)
        return 130
    except OSError as exc:  # a file or folder the checks could not foresee (a race, a disk)
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # not foreseen by any check: one line, the traceback on demand
        if debug_enabled():
            raise
        print(
            f"error: {one_line(exc, 500)} (rerun with --debug, or COGARCH_DEBUG=1, for the "
            "traceback)",
            file=sys.stderr,
        )
        return 1
    except BaseException as exc:  # sys.exit() or another stop in code the command ran
        what = f"sys.exit({exc.code!r})" if isinstance(exc, SystemExit) else type(exc).__name__
        print(
            f"error: code this command ran (a task's or a plug-in's) stopped it with {what}; "
            "what it had finished is kept: fix that code and rerun the same command",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
