"""A fake provider's replies by caller: ``callers: {"memory:*": NAME, "memory:summarise": NAME}``
in a ``kind: fake`` provider entry plays each call whose caller (``memory:<kind>`` for a
memory module's own calls, a specialist's name, ``router``) matches a glob pattern with that
pattern's fake, and every other call with the entry's ``fake``.

Patterns are shell-style globs (``*``, ``?``, ``[abc]``, ``[!abc]``) matched case-sensitively
against the whole caller name. When several match, the most specific wins: a pattern with no
wildcard first, then the one with the most literal characters, then the one with the fewest
``*``; a tie goes to the pattern listed first.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping, Sequence
from fnmatch import fnmatchcase

from cogarch.models.fakes import CallInfo, PairsFn, Reply

_WILD = "*?["


def _set_end(pattern: str, i: int) -> int:
    """The index of the ']' closing the set that opens at ``pattern[i]`` ('['), or -1 (a ']'
    right after '[' or '[!' is a member of the set, as in :mod:`fnmatch`)."""
    j = i + 1
    if pattern[j : j + 1] == "!":
        j += 1
    if pattern[j : j + 1] == "]":
        j += 1
    return pattern.find("]", j)


def pattern_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a caller pattern, or None when it is one.

    Args:
        pattern: A glob pattern over caller names (``memory:*``).

    Returns:
        A sentence naming the problem and its fix, or None.
    """
    if not pattern.strip():
        return "a caller pattern is empty; write a caller's name or a glob such as 'memory:*'"
    i = 0
    while i < len(pattern):
        if pattern[i] == "[":
            i = _set_end(pattern, i)
            if i < 0:
                return (
                    f"the caller pattern {pattern!r} opens a '[' set it never closes; close it "
                    "with ']' or drop the '['"
                )
        elif pattern[i] == "]":
            return (
                f"the caller pattern {pattern!r} closes a ']' set it never opened; open it "
                "with '[' or drop the ']'"
            )
        i += 1
    return None


def specificity(pattern: str) -> tuple[int, int, int]:
    """How specific ``pattern`` is: the larger, the more specific.

    Args:
        pattern: A valid caller pattern.

    Returns:
        ``(1 when it has no wildcard else 0, its literal characters, minus its '*' count)``.
    """
    literal, i = 0, 0
    while i < len(pattern):
        if pattern[i] == "[":
            i = _set_end(pattern, i)
        elif pattern[i] not in "*?":
            literal += 1
        i += 1
    exact = not any(c in pattern for c in _WILD)
    return (int(exact), literal, -pattern.count("*"))


def chosen_pattern(caller: str, patterns: list[str]) -> str | None:
    """The most specific of ``patterns`` that matches ``caller``, or None when none does.

    Args:
        caller: Who makes the call, as metered (``memory:summarise``, ``responder``).
        patterns: Valid caller patterns, in the order the config lists them.

    Returns:
        The winning pattern, or None.
    """
    matching = [p for p in patterns if fnmatchcase(caller, p)]
    if not matching:
        return None
    best = max(specificity(p) for p in matching)
    return next(p for p in matching if specificity(p) == best)


def by_caller(default: PairsFn, callers: Mapping[str, PairsFn]) -> PairsFn:
    """A fake that answers each call with the fake of its caller's pattern.

    Args:
        default: The fake of a call whose caller no pattern matches.
        callers: Fakes by caller pattern (each pattern valid, see :func:`pattern_problem`).

    Returns:
        A ``(pairs, seed, call) -> reply`` fake.
    """
    patterns = list(callers)

    def reply(
        pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo
    ) -> Reply | Awaitable[Reply]:
        pattern = chosen_pattern(call.caller, patterns)
        fn = default if pattern is None else callers[pattern]
        return fn(pairs, seed, call)

    return reply
