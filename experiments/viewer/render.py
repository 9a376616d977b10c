"""The page templates: one Jinja environment that escapes everything it inserts."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from cogarch.io import without_surrogates

STATIC = Path(__file__).parent / "static"
TEMPLATES = Path(__file__).parent / "templates"


@cache
def _env() -> Any:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(name: str, **context: Any) -> str:
    """``name`` rendered with ``context``; every inserted value is HTML-escaped, and a lone
    surrogate (text no UTF-8 page can hold) is shown as U+FFFD."""
    return without_surrogates(str(_env().get_template(name).render(**context)))
