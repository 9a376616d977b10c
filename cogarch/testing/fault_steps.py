"""The script steps of :class:`cogarch.testing.fault_server.FaultServer`: the behaviours it
knows and how a step is written (``"ok"``, ``"429"``, ``"delay:1.5"``...)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final, Literal

CacheReport = Literal["details", "timings", "both"]
"""Where an answer reports cached prompt tokens: OpenAI's
``usage.prompt_tokens_details.cached_tokens`` (``details``), llama.cpp's top-level
``timings`` (``cache_n`` and ``prompt_n``), or both."""

CACHE_REPORTS: Final = ("details", "timings", "both")

FAULT_KINDS: Final = (
    "ok",
    "429",
    "500",
    "503",
    "delay",
    "drop",
    "malformed",
    "truncated",
    "empty",
    "no_tool_call",
    "tool_call",
)
"""The named behaviours (``delay`` is written ``delay:<seconds>``; any 4xx/5xx status works)."""

STATUS_PATTERN = re.compile(r"^[45]\d\d$")
_NAMED: Final = frozenset(k for k in FAULT_KINDS if k != "delay" and not STATUS_PATTERN.match(k))


@dataclass(frozen=True)
class Step:
    """One scripted behaviour and the details of the answer it gives."""

    kind: str
    """A name from :data:`FAULT_KINDS` (without the ``delay`` seconds) or a status code."""
    delay_s: float = 0.0
    """How long a ``delay`` step waits before it answers, in seconds."""
    content: str | None = None
    """The answer text; ``None`` uses the server's default content."""
    reasoning: str | None = None
    """Sent as ``reasoning_content`` beside the content (``ok``/``delay`` answers)."""
    tool_name: str | None = None
    """The tool a ``tool_call`` answer calls (None: the first the request offers)."""
    tool_arguments: dict[str, Any] = field(default_factory=dict)
    """The arguments of that call."""
    prompt_tokens: int | None = None
    """The prompt tokens the answer reports (None: the server's setting)."""
    completion_tokens: int | None = None
    """The completion tokens the answer reports (None: the server's setting)."""
    cached_tokens: int | None = None
    """Prompt tokens the answer says the server served from its cache; ``None`` uses the
    server's setting (which may report nothing)."""
    cache_report: CacheReport | None = None
    """How the answer reports them; ``None`` uses the server's setting."""

    @classmethod
    def parse(cls, spec: str | Step) -> Step:
        """``"ok"``, ``"429"``, ``"delay:1.5"``, ... or a ready ``Step``; unknown specs raise."""
        if isinstance(spec, Step):
            step = spec
        else:
            name, _, arg = spec.strip().partition(":")
            if name == "delay":
                try:
                    step = cls("delay", delay_s=float(arg))
                except ValueError:
                    raise ValueError(f"'{spec}': write a delay as 'delay:<seconds>'") from None
            else:
                step = cls(name)
        if step.cache_report is not None and step.cache_report not in CACHE_REPORTS:
            raise ValueError(
                f"unknown cache report '{step.cache_report}'; use one of {CACHE_REPORTS}"
            )
        if step.cached_tokens is not None and step.cached_tokens < 0:
            raise ValueError("cached tokens cannot be negative")
        if step.kind == "delay" and step.delay_s < 0:
            raise ValueError("a delay cannot be negative")
        if step.kind not in _NAMED and step.kind != "delay" and not STATUS_PATTERN.match(step.kind):
            raise ValueError(
                f"unknown fault '{step.kind}'; use one of {', '.join(FAULT_KINDS)} "
                "(delay as 'delay:<seconds>') or a 4xx/5xx status code"
            )
        return step

    @property
    def label(self) -> str:
        """How the step is written in a script: ``delay:1.5``, ``429``, ``ok``..."""
        return f"delay:{self.delay_s:g}" if self.kind == "delay" else self.kind
