"""``cogarch report RUN_DIR``: a Markdown and a self-contained HTML report of one run.

The report holds, per agent: trial counts (failed and corrupt trial files included), the
outcome classes, self-consistency (failed trials counting as failures) with its Wilson 95%
interval and the Hangman paper's superiority marker (``*``: a one-sided exact McNemar test
over the shared trials against every baseline, Holm-corrected, see ``experiments.reports.stats``),
the pairwise tests behind the markers, the model usage (calls,
cache hits, prompt tokens sent, served from the server's prompt cache and evaluated: see
``experiments.tables.usage_table``), the task's metrics and its own tables, for multi-episode
trials what agents did across their games (comparisons by agent parameters, memory per game,
the focus loop: ``experiments.reports.episode_tables``), every failure, and the figures of
``experiments.figures.outcomes``. The tidy table of all trials is written next to it as
``trials.csv`` and ``trials.jsonl``.

Baselines are, in order of precedence: the ``baselines`` argument (``cogarch report
--baselines a,b``); a non-empty ``baselines`` list in the run config recorded in ``run.json``;
else every agent whose name, or the name of the agent spec
it ran, starts with one of ``DEFAULT_BASELINES`` (case and punctuation ignored, so
``A-Mem`` and ``honest_vanilla`` running the ``vanilla`` spec both count).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cogarch.core.metric import Metric
from cogarch.core.records import Scoring
from cogarch.core.views import Table
from cogarch.errors import ConfigError
from cogarch.files import real_folder
from cogarch.io import atomic_write_text

from ..figures import outcomes as figures
from ..figures.bands import footprint, private_state_size
from ..figures.canvas import agents_in
from ..figures.routing import routed_agents, transition_heatmap
from ..judge_audit.section import audit_section
from ..papers.episodex_paper import embedded_note, episodex_deviations, played_games
from ..papers.hangman_paper import embedded_model_note, paper_deviations
from ..results.paths import folder_to_write
from ..results.run_meta import read_run_meta
from ..results.task_types import task_of
from ..tables.attached_metrics import beside, read_metrics
from ..tables.reading import check_reading, short_trials_note, stratum
from ..tables.report_tables import task_tables
from ..tables.summary import wilson_interval
from ..tables.task_metrics import metric_tables, ranked_table
from ..tables.tidy import tidy_run
from ..tables.tidy_table import TidyRow, TidyTable, write_csv, write_jsonl
from ..tables.usage_table import USAGE_NOTE, usage_table
from .episode_data import game_sources
from .episode_tables import episode_tables
from .page import ReportContent, render_html, render_markdown
from .stats import ALPHA, comparison_table, outcome_of, significance

DEFAULT_BASELINES = ("vanilla", "mem0", "amem", "lightmem", "memoryos", "transcript")
_MAX_LISTED_FAILURES = 50


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def is_default_baseline(*names: str | None) -> bool:
    return any(n and _norm(n).startswith(DEFAULT_BASELINES) for n in names)


def resolve_baselines(
    rows: Sequence[TidyRow], meta: dict[str, Any], baselines: Iterable[str] | None
) -> list[str]:
    agents = agents_in(rows)
    configured = (meta.get("config") or {}).get("baselines") or None  # [] was the old default
    chosen = baselines if baselines is not None else configured
    if chosen is not None:
        names = [chosen] if isinstance(chosen, str) else list(chosen)  # one name, not letters
        unknown = [b for b in names if b not in agents]
        if unknown:
            raise ConfigError(
                f"baselines not in this run: {', '.join(unknown)}; the run's agents are "
                f"{', '.join(agents)}"
            )
        return names
    spec = {r.agent: r.base_agent for r in rows if r.base_agent}
    return [a for a in agents if is_default_baseline(a, spec.get(a))]


def _ranks(meta: dict[str, Any]) -> dict[str, int]:
    """Each agent's place in the run config (agents it does not name come after)."""
    entries = (meta.get("config") or {}).get("agents") or []
    return {str(e.get("name") or e.get("agent")): i for i, e in enumerate(entries)}


def _order(rows: list[TidyRow], meta: dict[str, Any]) -> list[TidyRow]:
    rank = _ranks(meta)
    return sorted(rows, key=lambda r: (rank.get(r.agent, len(rank)), r.agent, r.trial or 0))


def summary_table(
    rows: Sequence[TidyRow],
    baselines: Sequence[str],
    markers: set[tuple[str, str]],
    scoring: Scoring | None = None,
    reading: str | None = None,
    controls: Mapping[str, str] | None = None,
) -> Table:
    """Counts per agent and (task, model); the task's outcome classes under ``reading`` (any
    other outcome seen after them) and, when trials are rated, the success rate with its
    interval and markers. ``controls`` maps a control agent to its role, shown as its role."""
    controls = controls or {}
    classes = list(scoring.classes) if scoring is not None else []
    seen = {o for r in rows if (o := r.outcome_in(reading)) and o not in classes}
    outcomes = classes + sorted(seen)
    rated = any(r.self_consistent is not None for r in rows)
    counts = ["agent", "task / model", "role", "trials", "complete", "failed", "corrupt"]
    header = [*counts, *outcomes, *(["SC %", "95% CI"] if rated else [])]
    body: list[list[str]] = []
    for agent in agents_in(rows):
        ours = [r for r in rows if r.agent == agent]
        strata = list(dict.fromkeys(stratum(r) for r in ours if r.task)) or [""]
        for task in strata:
            mine = [r for r in ours if stratum(r) == task or r.task is None]
            status = Counter(r.status for r in mine)
            done = [r for r in mine if r.status == "complete"]
            found = Counter(r.outcome_in(reading) for r in done)
            judged = [s for r in mine if (s := outcome_of(r, reading, rated)) is not None]
            wins = sum(judged)
            sc, ci = "-", "-"
            if judged:
                lo, hi = wilson_interval(wins, len(judged))
                mark = "*" if (agent, task) in markers else ""
                sc = f"{100 * wins / len(judged):.0f}{mark}"
                ci = f"{100 * lo:.0f}-{100 * hi:.0f}"
            body.append(
                [
                    agent,
                    task or "-",
                    _role(agent, baselines, controls),
                    str(len(mine)),
                    str(status["complete"]),
                    str(status["failed"]),
                    str(status["corrupt"]),
                    *(str(found[o]) for o in outcomes),
                    *([sc, ci] if rated else []),
                ]
            )
    return Table("summary", header, body)


def _role(agent: str, baselines: Sequence[str], controls: Mapping[str, str]) -> str:
    kind = "baseline" if agent in baselines else "method"
    if agent not in controls:
        return kind
    control = f"control: {controls[agent]}"
    return f"baseline, {control}" if kind == "baseline" else control


def control_roles(meta: dict[str, Any]) -> dict[str, str]:
    """The control agents of a run (from its recorded config) and their roles."""
    entries = (meta.get("config") or {}).get("agents") or []
    return {
        str(e.get("name") or e.get("agent")): str(e["control"])
        for e in entries
        if isinstance(e, dict) and e.get("control")
    }


def failure_table(rows: Sequence[TidyRow]) -> Table:
    bad = [r for r in rows if r.status in ("failed", "corrupt")]
    body = [
        [
            r.agent,
            "-" if r.trial is None else str(r.trial),
            r.status,
            r.error_type or "-",
            _clip(r.error_message or "", 240),
        ]
        for r in bad[:_MAX_LISTED_FAILURES]
    ]
    if len(bad) > _MAX_LISTED_FAILURES:
        body.append(["...", "", "", "", f"{len(bad) - _MAX_LISTED_FAILURES} more in trials.csv"])
    return Table("failures", ["agent", "trial", "status", "error", "message"], body)


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _file_part(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


def make_figures(
    rows: Sequence[TidyRow], out: Path, answers: tuple[str, str] = ("Final answers", "answered")
) -> list[tuple[str, Path]]:
    """Every figure the run has data for, as ``(caption, path)``; ``answers`` names the
    task's final answers (``Evaluation.answer_label``)."""
    title, noun = answers
    made: list[tuple[str, Path | None]] = [
        ("Outcome breakdown per agent", figures.outcome_breakdown(rows, out / "outcomes.png")),
        (
            "Private state size per turn (mean, 95% band, log scale)",
            private_state_size(rows, out / "private_state.png"),
        ),
        (
            f"{title} (top 10 per agent)",
            figures.top_answers(rows, out / "answers.png", title=title, noun=noun),
        ),
    ]
    scenarios = list(dict.fromkeys(r.scenario for r in rows if r.scenario))
    if len(scenarios) > 1:  # scenarios differ in length and content: never average across them
        for scenario in scenarios:
            target = out / f"footprint_{_file_part(scenario)}.png"
            mine = [r for r in rows if r.scenario == scenario]
            made.append(
                (
                    f"Memory footprint per turn, scenario {scenario} (mean, 95% band)",
                    footprint(mine, target, title=f"Memory footprint per turn: {scenario}"),
                )
            )
    else:
        made.append(
            (
                "Memory footprint per turn (mean, 95% band)",
                footprint(rows, out / "footprint.png"),
            )
        )
    for agent in routed_agents(rows):
        target = out / f"transitions_{_file_part(agent)}.png"
        made.append((f"Transitions of {agent}", transition_heatmap(rows, target, agent=agent)))
    return [(caption, path) for caption, path in made if path is not None]


def _content(
    table: TidyTable,
    rows: Sequence[TidyRow],
    meta: dict[str, Any],
    baselines: Sequence[str],
    pictures: list[tuple[str, Path]],
    origin: str = "given",
    reading: str | None = None,
    own_tables: Sequence[Table] = (),
) -> ReportContent:
    scoring = table.scoring
    comparisons, markers = significance(rows, baselines, reading)
    counts = Counter(r.status for r in rows)
    usage = usage_table(rows)
    config = meta.get("config") or {}
    facts = [
        f"run: {rows[0].run}",
        f"task: {', '.join(sorted({r.task for r in rows if r.task})) or '-'}",
        f"trial files: {len(rows)} ({counts['complete']} complete, {counts['failed']} failed, "
        f"{counts['corrupt']} corrupt)",
        f"baselines ({origin}): {', '.join(baselines) or 'none'}",
    ]
    if config:
        facts.append(
            f"trials per agent: {config.get('trials')}, seed: {config.get('seed')}, "
            f"config hash: {str(meta.get('config_hash', '-'))[:12]}"
        )
        sources = game_sources(table.records)
        if (games := played_games(config, sources)) is not None:
            facts.append(f"games played: {games}")
        deviations = paper_deviations(config) + episodex_deviations(config, sources)
        if deviations:
            facts.append(f"differs from the paper's settings: {'; '.join(deviations)}")
    notes = []
    if config and (caution := embedded_model_note(config) or embedded_note(config)):
        notes.append(caution)
    rated = any(r.self_consistent is not None for r in rows)
    episodes = episode_tables(table.records)
    if table.readings:
        chosen = reading or next(iter(table.readings))
        facts.append(f"outcome table and tests: {table.readings[chosen]}")
    if (short := short_trials_note(list(rows))) is not None:
        notes.append(short)
    if rated:
        success = f"'{scoring.success}'" if scoring.success else "its success outcome"
        notes.append(
            f"SC %: trials that reached the task's success outcome ({success}) out of the "
            "complete trials that were evaluated and the failed trials, which count as "
            "failures; 95% CI: Wilson interval. Corrupt trial files are counted, not rated."
        )
    if comparisons:
        notes.append(
            f"*: significantly better than every baseline (one-sided exact McNemar test per "
            f"baseline over the trials both ran, the same seeds, failed trials counting as "
            f"failures; Fisher's exact test of the counts where they share none; "
            f"Holm-Bonferroni over the agent's comparisons in that task and model, alpha "
            f"{ALPHA}), as the Hangman paper's Table 1 marks them; an agent is only compared "
            "with baselines on the same task and model."
        )
    elif rated:
        notes.append(
            "No superiority markers: the run needs both baselines and other agents "
            "with evaluated trials (choose them with 'cogarch report RUN_DIR --baselines a,b')."
        )
    return ReportContent(
        facts=facts,
        summary=summary_table(rows, baselines, markers, scoring, reading, control_roles(meta)),
        notes=notes,
        tests=comparison_table(comparisons) if comparisons else None,
        metrics=metric_tables(rows, scoring.totals),
        failures=failure_table(rows) if counts["failed"] + counts["corrupt"] else None,
        pictures=pictures,
        usage=usage,
        usage_note=USAGE_NOTE,
        task_tables=list(own_tables),
        episodes=episodes.tables,
        episode_notes=episodes.notes,
    )


def _own_tables(
    table: TidyTable, run_dir: Path, meta: dict[str, Any], attached: Sequence[Metric] = ()
) -> list[Table]:
    """Per task the run's records belong to (one in a normal run): its ranked metrics, with
    the ``attached`` ones, and its own tables, given the records with the agents in the run
    config's order."""
    rank = _ranks(meta)
    records = sorted(table.records, key=lambda r: (rank.get(r.agent, len(rank)), r.agent, r.trial))
    tables: list[Table] = []
    for name in dict.fromkeys(r.task for r in records):
        mine = [r for r in records if r.task == name]
        task = task_of(mine[0], within=run_dir)
        declared = task.leaderboard_metrics() if task is not None else ()
        if (
            ranked := ranked_table(
                mine, beside(declared, attached), keep=[m.name for m in attached]
            )
        ) is not None:
            tables.append(ranked)
        tables += task_tables(task, mine)
    return tables


def build_report(
    run_dir: Path,
    out_dir: Path | None = None,
    *,
    baselines: Iterable[str] | None = None,
    reading: str | None = None,
) -> list[Path]:
    """Write a run's report: ``report.md``, ``report.html``, ``trials.csv``, ``trials.jsonl``
    and the figures.

    Args:
        run_dir: The run's results folder.
        out_dir: Where the report goes (default: ``run_dir/report``).
        baselines: Agents to test the others against (default: the run config's
            ``baselines``, else the agents that are baselines by default).
        reading: Which of the task's readings the outcome table and the tests use (for the SCT
            ``lenient``, the default, or ``strict``, the authors' exact one); a task that
            scores one reading takes none.

    Returns:
        The written paths, the two reports first.

    Raises:
        ConfigError: When ``run_dir`` holds no trial files, or ``reading`` or a baseline names
            nothing the run has.
    """
    run_dir = Path(run_dir)
    meta, meta_problem = read_run_meta(run_dir)
    recorded = (meta.get("config") or {}).get("metrics") or []
    attached, left_out = read_metrics(recorded, within=run_dir)
    table = tidy_run(run_dir, attached)
    chosen_reading = check_reading(reading, table.readings)
    if not table.rows:
        raise ConfigError(
            f"no trial files under '{run_dir}' (expected AGENT/trial_NNNN.json); run "
            "'cogarch run CONFIG' first or point at its results directory"
        )
    if out_dir is None and (run_dir / "report").is_symlink():  # planted: set aside
        real_folder(run_dir / "report", create=False)
    out = folder_to_write(
        out_dir if out_dir is not None else run_dir / "report", "the report folder"
    )
    rows = _order(table.rows, meta)
    chosen = resolve_baselines(rows, meta, baselines)
    if baselines is not None:
        origin = "chosen for this report"
    elif (meta.get("config") or {}).get("baselines"):
        origin = "named by the run config"
    else:
        origin = f"default: agents built on {', '.join(DEFAULT_BASELINES)}"
    csv_path = write_csv(rows, out / "trials.csv")
    jsonl_path = write_jsonl(rows, out / "trials.jsonl")
    pictures = make_figures(rows, out / "figures", table.answer_label)
    content = _content(
        table,
        rows,
        meta,
        chosen,
        pictures,
        origin,
        reading=chosen_reading,
        own_tables=_own_tables(table, run_dir, meta, attached),
    )
    content.notes += left_out
    if meta_problem is not None:
        content.notes.insert(0, f"run.json: {meta_problem}.")
    content.audit_notes, content.audit = audit_section(run_dir)
    md = atomic_write_text(out / "report.md", render_markdown(content, out))
    page = atomic_write_text(out / "report.html", render_html(content))
    return [md, page, csv_path, jsonl_path, *(path for _, path in pictures)]
