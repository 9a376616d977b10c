"""Deterministic checks of a revision round: which values a reply (or a task state) mentions.

Texts are normalised before matching: lower case, ordinals without suffix ("9th" -> "9"),
times as "9:30 am" / "11 am" ("11:00 a.m." and "11am" included), hyphens and most punctuation
as spaces (dots and ``@`` are kept, so e-mail addresses stay whole). A value is mentioned when
it, or one of its aliases, occurs with no letter or digit directly before or after it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict, Field

from .scenarios import RoundKind, Scenario

_ORDINAL = re.compile(r"\b(\d{1,2})(st|nd|rd|th)\b")
_TIME = re.compile(r"\b(\d{1,2}(?::\d{2})?)\s*([ap])\.?\s?m\b\.?")
_ON_THE_HOUR = re.compile(r"\b(\d{1,2}):00 ([ap]m)\b")
_PUNCT = re.compile(r"[*_`\"'()\[\]{},;!?|<>\u2018\u2019\u201c\u201d-]")
_COLON = re.compile(r":(?!\d)")


def normalize(text: str) -> str:
    text = text.lower()
    text = _ORDINAL.sub(r"\1", text)
    text = _TIME.sub(lambda m: f"{m[1]} {m[2]}m", text)
    text = _ON_THE_HOUR.sub(r"\1 \2", text)
    text = _COLON.sub(" ", _PUNCT.sub(" ", text))
    return " ".join(text.split())


def mentions(text: str, value: str, aliases: Iterable[str] = ()) -> bool:
    """Whether ``text`` names ``value`` or one of its ``aliases`` (whole words, normalised)."""
    haystack = normalize(text)
    for form in (value, *aliases):
        needle = normalize(form).rstrip(".")
        if needle and re.search(rf"(?<![a-z0-9]){re.escape(needle)}(?![a-z0-9])", haystack):
            return True
    return False


class RoundCheck(BaseModel):
    """One round: the reply's missing and stale mentions, and the state check when possible."""

    model_config = ConfigDict(extra="forbid")

    round: int
    kind: RoundKind
    user: str
    reply: str
    required: list[str] = Field(default_factory=list)
    forbidden: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    stale: list[str] = Field(default_factory=list)
    state_ok: bool | None = None
    """None when the agent exposes no task state to inspect."""
    state_missing: list[str] = Field(default_factory=list)
    state_stale: list[str] = Field(default_factory=list)

    reply_ok: bool = True
    """No required value missing and no forbidden value present in the reply."""
    confused: bool = False
    """Judged from the reply, for every agent: a ``revise`` or ``check`` round whose reply
    leaves out a value the round asks for, so the update was not taken up or the question was
    answered against the state (the TME paper's confusions: a misread intent)."""
    passed: bool = True
    """``reply_ok`` and the state check did not fail."""


def check_round(
    scenario: Scenario, index: int, reply: str, state: Mapping[str, str] | None = None
) -> RoundCheck:
    """Check round ``index`` (0-based): the reply, and the agent's task state when given.

    A summary round requires every current value and forbids every replaced one (plus the
    round's own lists); other rounds use their own lists. The state check asks that the active
    values mention every current value and no replaced one, whatever the slot names.
    """
    spec = scenario.rounds[index]
    required, forbidden = list(spec.must_mention), list(spec.must_not_mention)
    if spec.kind == "summary":
        required = list(dict.fromkeys([*scenario.current(index), *required]))
        forbidden = list(dict.fromkeys([*scenario.replaced(index), *forbidden]))
    alias = scenario.aliases
    check = RoundCheck(
        round=index + 1,
        kind=spec.kind,
        user=spec.user,
        reply=reply,
        required=required,
        forbidden=forbidden,
        missing=[v for v in required if not mentions(reply, v, alias.get(v, ()))],
        stale=[v for v in forbidden if mentions(reply, v, alias.get(v, ()))],
    )
    if state is not None:
        held = "\n".join(state.values())
        check.state_missing = [
            v for v in scenario.current(index) if not mentions(held, v, alias.get(v, ()))
        ]
        check.state_stale = [
            v for v in scenario.replaced(index) if mentions(held, v, alias.get(v, ()))
        ]
        check.state_ok = not check.state_missing and not check.state_stale
    check.reply_ok = not check.missing and not check.stale
    check.confused = spec.kind in ("revise", "check") and bool(check.missing)
    check.passed = check.reply_ok and check.state_ok is not False
    return check
