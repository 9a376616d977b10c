"""A run report's content and its two renderings: Markdown, and a self-contained HTML page
with the figures embedded."""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from cogarch.core.views import Table

METRICS_NOTE = (
    "The numbers each trial's evaluation records, and the metrics the run config attaches, "
    "as mean ± standard deviation over the agent's complete trials (nested values as "
    "outer.inner)."
)
_CSS = (
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em}"
    "th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left}"
    "th{background:#f2f2f2}img{max-width:100%;border:1px solid #ddd}"
    ".failures td{background:#fff4f4}"
)


_MD_SPECIAL = re.compile(r"([\\`\[\]])")


def md_text(text: str) -> str:
    """Text from a run (names, replies, errors) as inert Markdown on one line: HTML is
    escaped, so no raw tag reaches a renderer, and link, image and code syntax is disarmed."""
    flat = " ".join(text.splitlines())
    return _MD_SPECIAL.sub(r"\\\1", html.escape(flat, quote=False))


def table_markdown(table: Table) -> str:
    """``table`` (without its title) as a Markdown table, every cell inert text."""

    def cell(text: str) -> str:
        return md_text(text).replace("|", "\\|")

    lines = [
        "| " + " | ".join(cell(h) for h in table.header) + " |",
        "|" + "|".join("---" for _ in table.header) + "|",
    ]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in table.text_rows()]
    return "\n".join(lines)


def table_html(table: Table) -> str:
    """``table`` (without its title) as an HTML table, every cell escaped."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in table.header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
        for row in table.text_rows()
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


@dataclass
class ReportContent:
    """Everything a report shows; ``facts[0]`` is ``"run: NAME"``."""

    facts: list[str]
    summary: Table
    notes: list[str]
    tests: Table | None = None
    metrics: list[Table] = field(default_factory=list)
    failures: Table | None = None
    usage: Table | None = None
    """Model calls and prompt tokens per agent (``experiments.tables.usage_table``)."""
    usage_note: str = ""
    task_tables: list[Table] = field(default_factory=list)
    """The task's own tables (``Task.report_tables``)."""
    episodes: list[Table] = field(default_factory=list)
    """What agents did across the games of their trials (``experiments.reports.episode_tables``)."""
    episode_notes: list[str] = field(default_factory=list)
    pictures: list[tuple[str, Path]] = field(default_factory=list)
    audit: list[Table] = field(default_factory=list)
    """The judge audit beside the score (``experiments.judge_audit.section``)."""
    audit_notes: list[str] = field(default_factory=list)

    @property
    def title(self) -> str:
        return f"Report: {self.facts[0].removeprefix('run: ')}"


def render_markdown(content: ReportContent, out: Path) -> str:
    """The report as Markdown; figure links are relative to ``out``."""
    c = content
    parts = [f"# {md_text(c.title)}", "", *(f"- {md_text(f)}" for f in c.facts), ""]
    parts += ["## Summary", "", table_markdown(c.summary), "", *c.notes, ""]
    if c.audit or c.audit_notes:
        parts += ["## Judge audit", "", *(md_text(n) + "\n" for n in c.audit_notes)]
        for table in c.audit:
            parts += [f"### {md_text(table.title)}", "", table_markdown(table), ""]
    if c.tests is not None:
        parts += ["## Tests against the baselines", "", table_markdown(c.tests), ""]
    if c.usage is not None:
        parts += ["## Model usage", "", table_markdown(c.usage), "", md_text(c.usage_note), ""]
    if c.metrics:
        parts += ["## Task metrics", "", METRICS_NOTE, ""]
        for table in c.metrics:
            parts += [f"### {md_text(table.title)}", "", table_markdown(table), ""]
    if c.task_tables:
        parts += ["## The task's own tables", ""]
        for table in c.task_tables:
            parts += [f"### {md_text(table.title)}", "", table_markdown(table), ""]
    if c.episodes or c.episode_notes:
        parts += ["## Across episodes", "", *(md_text(n) + "\n" for n in c.episode_notes)]
        for table in c.episodes:
            parts += [f"### {md_text(table.title)}", "", table_markdown(table), ""]
    parts += ["## Failures", ""]
    parts += (
        [table_markdown(c.failures), ""] if c.failures else ["No failed or corrupt trials.", ""]
    )
    parts += ["## Figures", ""]
    for caption, path in c.pictures:
        rel = path.relative_to(out).as_posix()
        parts += [f"### {md_text(caption)}", "", f"![{md_text(caption)}]({rel})", ""]
    if not c.pictures:
        parts += ["No figure: the run holds no data to plot.", ""]
    parts += [
        "Tidy table of all trials: [trials.csv](trials.csv), [trials.jsonl](trials.jsonl).",
        "",
    ]
    return "\n".join(parts)


def render_html(content: ReportContent) -> str:
    """The report as one HTML page with the figures inlined as data URIs."""
    c, esc = content, html.escape
    title = esc(c.title)
    parts = [
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>",
        f"<style>{_CSS}</style></head><body><h1>{title}</h1><ul>",
        *(f"<li>{esc(f)}</li>" for f in c.facts),
        "</ul><h2>Summary</h2>",
        table_html(c.summary),
        *(f"<p>{esc(n)}</p>" for n in c.notes),
    ]
    if c.audit or c.audit_notes:
        parts += ["<h2>Judge audit</h2>", *(f"<p>{esc(n)}</p>" for n in c.audit_notes)]
        parts += [f"<h3>{esc(t.title)}</h3>" + table_html(t) for t in c.audit]
    if c.tests is not None:
        parts += ["<h2>Tests against the baselines</h2>", table_html(c.tests)]
    if c.usage is not None:
        parts += ["<h2>Model usage</h2>", table_html(c.usage), f"<p>{esc(c.usage_note)}</p>"]
    if c.metrics:
        parts += ["<h2>Task metrics</h2>", f"<p>{esc(METRICS_NOTE)}</p>"]
        for table in c.metrics:
            parts += [f"<h3>{esc(table.title)}</h3>", table_html(table)]
    if c.task_tables:
        parts += ["<h2>The task's own tables</h2>"]
        for table in c.task_tables:
            parts += [f"<h3>{esc(table.title)}</h3>", table_html(table)]
    if c.episodes or c.episode_notes:
        parts += ["<h2>Across episodes</h2>", *(f"<p>{esc(n)}</p>" for n in c.episode_notes)]
        for table in c.episodes:
            parts += [f"<h3>{esc(table.title)}</h3>", table_html(table)]
    parts.append("<h2>Failures</h2>")
    parts.append(
        f"<div class='failures'>{table_html(c.failures)}</div>"
        if c.failures
        else "<p>No failed or corrupt trials.</p>"
    )
    parts.append("<h2>Figures</h2>")
    for caption, path in c.pictures:
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        parts.append(
            f"<h3>{esc(caption)}</h3><img alt='{esc(caption)}' src='data:image/png;base64,{data}'>"
        )
    if not c.pictures:
        parts.append("<p>No figure: the run holds no data to plot.</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
