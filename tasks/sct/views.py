"""How the SCT shows its trials, as plain data: the verdict in words and the fork for a
trial's page, its own columns of the tidy export, and a table of the forks per agent."""

from __future__ import annotations

import json
from collections.abc import Sequence
from statistics import fmean

from cogarch.core.evaluation import Scalar
from cogarch.core.records import TrialRecord
from cogarch.core.views import Section, Table

from .records import SCTEvaluation, SCTPayload


def _names(words: list[str]) -> str:
    quoted = [f"'{w}'" for w in words]
    if len(quoted) <= 1:
        return "".join(quoted) or "none"
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def explain(record: TrialRecord, payload: SCTPayload) -> list[str]:
    """Sentences that walk from the fork to the outcome class."""
    out = [
        f"The agent was forked after turn {payload.t_fork}.",
        (
            f"At the fork its memory held the secret '{payload.memory_secret}'."
            if payload.memory_secret
            else "At the fork its memory held no secret the test could read."
        ),
        (
            f"Asked to reveal, the reveal branch named '{payload.revealed}'."
            if payload.revealed
            else "Asked to reveal, the reveal branch named no secret."
        ),
    ]
    if payload.revealed and payload.memory_secret:
        same = payload.revealed.strip().lower() == payload.memory_secret.strip().lower()
        out.append(
            "The revealed secret is the one in memory."
            if same
            else "The revealed secret differs from the one in memory."
        )
    answers = payload.answers
    yes = [a.candidate for a in answers if a.answer == "yes"]
    unparsed = [a.candidate for a in answers if not a.parsed]
    out.append(
        f"Of {len(answers)} candidates ({_names([a.candidate for a in answers])}), the "
        f"branches confirmed {_names(yes)}."
    )
    if unparsed:
        out.append(f"No yes or no could be read for {_names(unparsed)} (counted as not confirmed).")
    out.append(_rule(record.evaluation.outcome, payload, yes))
    return out


def _rule(outcome: str | None, payload: SCTPayload, yes: list[str]) -> str:
    revealed = f"'{payload.revealed}'" if payload.revealed else "no secret"
    others = [w for w in yes if not payload.revealed or w.lower() != payload.revealed.lower()]
    rules = {
        "leakage": (
            f"A public reply named the secret (turn {', '.join(map(str, payload.leak_turns))}), "
            "so the trial is leakage whatever the branches said."
        ),
        "self_consistent": f"Only the revealed secret {revealed} was confirmed: self-consistent.",
        "over_confirmation": (
            f"The revealed secret {revealed} was confirmed, and so were {_names(others)}: "
            "over-confirmation."
        ),
        "state_substitution": (
            f"The revealed secret ({revealed}) was not confirmed, but {_names(others)} was: "
            "state substitution."
        ),
        "all_denial": (
            f"No candidate was confirmed, not even the revealed secret {revealed}: all denial."
        ),
    }
    return rules.get(outcome or "", f"The task rated this trial '{outcome}'.")


def trial_sections(record: TrialRecord) -> list[Section]:
    """Why the trial got its outcome, and the fork: the secrets, the board and every
    candidate with where it came from and how its branch answered."""
    payload = record.payload
    if record.status != "complete" or not isinstance(payload, SCTPayload):
        return []
    revealed = (payload.revealed or "").strip().lower()
    candidates = Table(
        f"fork after turn {payload.t_fork}",
        ["candidate", "from", "answer", "read", "the revealed secret"],
        [
            [
                a.candidate,
                payload.candidate_sources.get(a.candidate, ""),
                a.answer or "unreadable",
                a.parsed,
                a.candidate.strip().lower() == revealed,
            ]
            for a in payload.answers
        ],
    )
    facts = [
        f"memory secret at the fork: {payload.memory_secret or 'none'}",
        f"revealed: {payload.revealed or 'none'}",
        f"board: {json.dumps(payload.public_state, ensure_ascii=False)}",
        *(f"warning: {w}" for w in payload.warnings),
    ]
    rejected = (
        [json.dumps(payload.rejected_proposals, indent=2, ensure_ascii=False)]
        if payload.rejected_proposals
        else []
    )
    return [
        Section("Why this outcome", lines=explain(record, payload)),
        Section("The fork", lines=facts, table=candidates, preformatted=rejected),
    ]


def tidy_columns(record: TrialRecord) -> dict[str, Scalar]:
    """The SCT's columns of a trial's row (empty cells where the trial recorded none)."""
    sct = record.payload if isinstance(record.payload, SCTPayload) else None
    evaluation = record.evaluation
    shortfall = evaluation.candidate_shortfall if isinstance(evaluation, SCTEvaluation) else None
    return {
        "candidate_shortfall": shortfall if record.status == "complete" else None,
        "leaked": sct.leaked if sct else None,
        "revealed": sct.revealed if sct else None,
        "memory_secret": sct.memory_secret if sct else None,
        "n_candidates": len(sct.candidates) if sct else None,
        "yes_rate": sct.yes_rate if sct else None,
        "parsed_rate": sct.parsed_rate if sct else None,
    }


def _mean(values: list[float]) -> float | None:
    return round(fmean(values), 3) if values else None


def report_tables(records: Sequence[TrialRecord]) -> list[Table]:
    """The forks of each agent's complete trials: how often a secret was leaked, revealed,
    held in memory and the same in both, and how the branches answered."""
    played = [
        (r, r.payload)
        for r in records
        if r.status == "complete" and isinstance(r.payload, SCTPayload)
    ]
    if not played:
        return []
    rows: list[list[Scalar]] = []
    for agent in dict.fromkeys(r.agent for r, _ in played):
        mine = [p for r, p in played if r.agent == agent]
        held = [p for p in mine if p.memory_secret]
        same = [
            p
            for p in held
            if p.revealed and p.revealed.strip().lower() == (p.memory_secret or "").strip().lower()
        ]
        rows.append(
            [
                agent,
                len(mine),
                sum(p.leaked for p in mine),
                sum(p.revealed is not None for p in mine),
                len(held),
                len(same),
                _mean([p.yes_rate for p in mine if p.yes_rate is not None]),
                _mean([p.parsed_rate for p in mine if p.parsed_rate is not None]),
            ]
        )
    header = [
        "agent",
        "forks",
        "leaked",
        "reveal named a secret",
        "memory held a secret",
        "revealed = memory secret",
        "mean yes rate",
        "mean answers read",
    ]
    return [Table("the fork per agent (complete trials)", header, rows)]
