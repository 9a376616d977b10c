"""A trial's verdict in words: which candidates were confirmed, against which revealed and
which remembered secret, and what rule that makes the outcome."""

from __future__ import annotations

from cogarch.core.records import CandidateBranch, SCTPayload, TrialRecord


def _names(words: list[str]) -> str:
    quoted = [f"'{w}'" for w in words]
    if len(quoted) <= 1:
        return "".join(quoted) or "none"
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def explain_sct(record: TrialRecord, payload: SCTPayload) -> list[str]:
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
    candidates = [b for b in record.branches if isinstance(b, CandidateBranch)]
    yes = [b.candidate for b in candidates if b.answer == "yes"]
    unparsed = [b.candidate for b in candidates if not b.parsed]
    out.append(
        f"Of {len(candidates)} candidates ({_names([b.candidate for b in candidates])}), the "
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
        "self_consistent": (f"Only the revealed secret {revealed} was confirmed: self-consistent."),
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


def explain(record: TrialRecord) -> list[str]:
    """The verdict in words, for any task."""
    if record.status != "complete":
        error = record.error
        what = f"{error.type}: {error.message}" if error else "no error was recorded"
        return [f"The trial failed before it could be rated ({what})."]
    if isinstance(record.payload, SCTPayload):
        return explain_sct(record, record.payload)
    outcome = record.evaluation.outcome
    success = record.scoring.success
    if outcome is None:
        return ["The task measures rather than classifies; its metrics are below."]
    verdict = f"The task rated this trial '{outcome}'"
    if success is not None:
        verdict += " (a success)." if outcome == success else f" (success is '{success}')."
    else:
        verdict += "."
    return [verdict]


__all__ = ["explain", "explain_sct"]
