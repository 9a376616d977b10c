"""Reading one game command out of a model's reply.

Models answer in many forms: ``ACTION: [go to desk 1]``, ``> go to desk 1``, a thought then
``Action: go to desk 1``, the command in quotes, backticks or bold, with a full stop. The last
marked action wins (a reply that thinks aloud names several). ALFWorld 0.3's place command
``put X in/on Y`` (also ``put X in Y`` and ``put X on Y``) is read as 0.4's ``move X to Y``. When
the result matches an admissible command (case and spacing aside) the admissible form is
returned; otherwise the cleaned text, which the game will not accept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cogarch.core.affordances import normalize_action

_MARKED = re.compile(r"(?im)^[ \t>*#`_-]*action[ \t]*\d*[ \t]*[:=](.*)$")
_PROMPTED = re.compile(r"(?m)^[ \t]*>(.*)$")
_THOUGHT = re.compile(r"(?i)^\s*[*_]*\s*(think|thought|reasoning|plan|observation)\b")
_PUT = re.compile(r"^put (?P<obj>.+?) (?:in/on|into|onto|in|on) (?P<recep>.+)$")
TAIL = 20_000
"""The end of a reply that is read (a command comes last)."""
LONGEST = 300
_BRACKETED = re.compile(r"^\[([^\[\]]+)\]")
_WRAP = "[](){}<>\"'`*_ "


def _clean(text: str) -> str:
    text = text.strip()
    bracketed = _BRACKETED.match(text)
    if bracketed:  # "[go to desk 1] (the desk is closest)"
        text = bracketed.group(1)
    while text and (text[0] in _WRAP or text[-1] in _WRAP + ".!;,"):
        text = text.strip(_WRAP).rstrip(".!;,")
    return " ".join(text.lower().split())


def _candidates(reply: str) -> list[str]:
    """Possible commands in the reply, most likely first (each cut to ``LONGEST`` characters:
    no command is longer)."""
    return [c.strip()[:LONGEST] for c in _lines(reply[-TAIL:]) if c.strip()]


def _lines(reply: str) -> list[str]:
    marked = [m for m in _MARKED.findall(reply) if m.strip()]
    if marked:
        return [marked[-1]]
    prompted = [p for p in _PROMPTED.findall(reply) if p.strip()]
    if prompted:
        return [prompted[-1]]
    lines = [line for line in reply.splitlines() if line.strip()]
    if len(lines) <= 1:
        return lines
    plain = [line for line in lines if not _THOUGHT.match(line)]
    return list(reversed(plain or lines))


def read_action(reply: str, admissible: Sequence[str] = ()) -> str:
    """The command the reply gives: an admissible command when it names one, else the cleaned
    text (empty for an empty reply)."""
    known = {normalize_action(a): a for a in admissible}
    candidates = [_to_current(_clean(c)) for c in _candidates(reply)]
    for found in candidates:
        if found in known:
            return known[found]
    return candidates[0] if candidates else ""


def _to_current(command: str) -> str:
    put = _PUT.match(command)
    if put:
        return f"move {put['obj']} to {put['recep']}"
    return command


__all__ = ["read_action"]
