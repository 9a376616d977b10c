"""The content-capture switch of the GenAI conventions, read from the environment."""

from __future__ import annotations

import os

from cogarch.errors import ConfigError

CONTENT_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
"""Set to ``true`` to record prompts, replies, memory queries and memory entries on spans."""

_ON = ("true", "1", "yes", "span_only", "span_and_event")
_OFF = ("", "false", "0", "no", "no_content", "event_only")


def content_capture_from_env() -> bool:
    """Whether the user opted in to contents on spans (off unless the variable says so).

    ``event_only`` counts as off: cogarch records contents on spans only, never as events.
    """
    value = os.environ.get(CONTENT_ENV, "").strip().lower()
    if value in _ON:
        return True
    if value in _OFF:
        return False
    raise ConfigError(
        f"{CONTENT_ENV}={os.environ[CONTENT_ENV]!r} is not understood; set it to true to "
        "record message contents on spans, or false (the default) to leave them out"
    )
