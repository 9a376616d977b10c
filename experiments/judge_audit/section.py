"""The judge audit as a run report shows it beside the score (tables and notes) and as the
end of ``cogarch run`` prints it."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from cogarch.core.views import Cell, Table
from cogarch.files import FileRefusedError, read_json

from .audit import AUDIT_FILE, JudgeAuditResult
from .probes import Probe
from .same import SAME_KINDS
from .wrong import WRONG_KINDS

_DISAGREEMENTS_SHOWN = 100
_KINDS = [*WRONG_KINDS, *SAME_KINDS]


def _kind_order(probe: Probe) -> int:
    return _KINDS.index(probe.kind) if probe.kind in _KINDS else len(_KINDS)


def read_audit(run_dir: Path) -> tuple[JudgeAuditResult | None, str | None]:
    """The run's ``judge_audit.json`` (None when it has none), and why it cannot be read."""
    path = Path(run_dir) / AUDIT_FILE
    if not os.path.lexists(path):
        return None, None
    try:
        return JudgeAuditResult.model_validate(read_json(path, within=run_dir)), None
    except (FileRefusedError, ValueError, ValidationError) as exc:
        return None, f"{AUDIT_FILE} cannot be read ({' '.join(str(exc).split())[:200]})"


def _kappa(audit: JudgeAuditResult) -> str:
    a = audit.agreement
    if a is None:
        return "no second judge (name one as audit_judge.second_judge)"
    if a.raw is None:
        return "no item was judged by both judges"
    kappa = "undefined (chance agreement is 1)" if a.kappa is None else f"{a.kappa:.3f}"
    return (
        f"the two judges agree on {a.agree} of {a.items} items (raw agreement "
        f"{100 * a.raw:.1f}%), Cohen's kappa {kappa}"
    )


def audit_notes(audit: JudgeAuditResult) -> list[str]:
    wrong = sum(p.expected == "reject" for p in audit.probes)
    first = audit.judges[0]
    if not audit.probes:
        return [
            f"The judge of the {audit.task} task's {audit.metric} was not audited: of the run's "
            f"{audit.eligible} judged questions the audit can perturb, it made no item (a "
            "question whose gold answer is an explanation or a rubric is left out)."
        ]
    notes = [
        f"The {audit.task} task's judged metric ({audit.metric}) is decided by the provider "
        f"{first.provider} ({first.model}). The audit showed it {len(audit.probes)} answers "
        f"made from the gold answers of {len(audit.questions)} of the run's {audit.eligible} "
        f"judged questions (seed {audit.settings.seed}): {wrong} wrong answers a fair judge "
        f"rejects and {len(audit.probes) - wrong} rephrasings it accepts. False positive rate: "
        f"{first.false_positive.text()}; false negative rate: {first.false_negative.text()}. "
        f"Intervals: {audit.interval}.",
        f"Agreement: {_kappa(audit)}.",
    ]
    for judge in audit.judges:
        if judge.unjudged:
            notes.append(
                f"{len(judge.unjudged)} items were not judged by {judge.provider} (the first "
                f"failure: {judge.error}); rerun the same command to ask them again."
            )
    return notes


def audit_tables(audit: JudgeAuditResult) -> list[Table]:
    judges: list[list[Cell]] = [
        [
            j.role,
            j.provider,
            j.model,
            j.false_positive.text(),
            j.false_negative.text(),
            len(j.unjudged),
            f"{j.usage.get('model_calls', 0)} ({j.usage.get('cache_hits', 0)} cached)",
            int(j.usage.get("prompt_tokens", 0)) + int(j.usage.get("completion_tokens", 0)),
        ]
        for j in audit.judges
    ]
    header = ["judge", "provider", "model", "false positives", "false negatives"]
    tables = [
        Table("judges", [*header, "not judged", "calls", "tokens"], judges),
    ]
    expected = {p.kind: p.expected for p in sorted(audit.probes, key=_kind_order)}
    kinds: list[list[Cell]] = []
    for kind, wanted in expected.items():
        rates = [j.by_kind.get(kind) for j in audit.judges]
        kinds.append([kind, wanted, *(r.text() if r else "-" for r in rates)])
    roles = [f"{j.role} errors" for j in audit.judges]
    tables.append(Table("errors by kind of answer", ["kind", "a fair judge", *roles], kinds))
    if audit.agreement is not None and audit.agreement.disagreements:
        probes = {p.id: p for p in audit.probes}
        first, second = audit.judges[0].verdicts, audit.judges[1].verdicts
        rows: list[list[Cell]] = []
        for pid in audit.agreement.disagreements[:_DISAGREEMENTS_SHOWN]:
            p = probes[pid]
            verdict = ("accepts", "rejects")
            rows.append(
                [
                    p.id,
                    p.kind,
                    p.gold,
                    p.answer,
                    p.expected,
                    verdict[not first[pid]],
                    verdict[not second[pid]],
                ]
            )
        more = len(audit.agreement.disagreements) - _DISAGREEMENTS_SHOWN
        if more > 0:
            rows.append(["...", "", "", f"{more} more in {AUDIT_FILE}", "", "", ""])
        header = ["item", "kind", "gold", "answer", "a fair judge", "primary", "second"]
        tables.append(Table("items the two judges disagree on", header, rows))
    return tables


def audit_section(run_dir: Path) -> tuple[list[str], list[Table]]:
    """The report's judge audit section: notes and tables (nothing without an audit)."""
    audit, problem = read_audit(run_dir)
    if audit is None:
        return ([problem] if problem else []), []
    return audit_notes(audit), audit_tables(audit)


def audit_lines(audit: JudgeAuditResult) -> list[str]:
    """The audit in a few lines for the end of a run."""
    lines = ["Judge audit:"]
    for j in audit.judges:
        lines.append(
            f"  {j.role} {j.provider} ({j.model}): false positives {j.false_positive.text()}, "
            f"false negatives {j.false_negative.text()}"
            + (f", {len(j.unjudged)} not judged" if j.unjudged else "")
        )
    lines.append(f"  {_kappa(audit)}")
    return lines
