"""Loading a saved state: validate every part first, then swap it in, or refuse naming the part.

A state is JSON someone saved (an agent's, a memory module's), read back from a file that may
be damaged or of another kind. Every ``load_state`` follows one rule: it reads and checks the
whole state into new values before it changes anything, so a state that fails part-way leaves
the object as it was; it refuses a state of another kind and a malformed part with a
:class:`StateError` naming the part (never a bare ``KeyError``, ``TypeError`` or
``AttributeError``); and it applies the object's own limits (a module keeps no more entries
than its parameters allow).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cogarch.errors import ConfigError

M = TypeVar("M", bound=BaseModel)
READ_ERRORS = (KeyError, TypeError, AttributeError, ValueError, IndexError, OverflowError)
"""What reading a malformed part raises (pydantic's ``ValidationError`` is a ``ValueError``)."""


class StateError(ConfigError):
    """A saved state that cannot be loaded: of another kind, or with a malformed part. The
    message names the part; the object it was given to is unchanged."""


def _why(exc: BaseException) -> str:
    if isinstance(exc, ValidationError) and exc.errors():
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        return f"{where + ': ' if where else ''}{first['msg']}"
    if isinstance(exc, KeyError):
        return f"it lacks {exc}"
    return f"{type(exc).__name__}: {exc}"[:300]


@contextmanager
def state_part(owner: str, part: str) -> Iterator[None]:
    """Turn an error reading ``part`` of ``owner``'s state into a :class:`StateError`
    naming both."""
    try:
        yield
    except StateError:
        raise
    except READ_ERRORS as exc:
        raise StateError(
            f"the {owner} state's '{part}' is malformed ({_why(exc)}); load a state its "
            "save_state exported"
        ) from None


def state_object(state: Any, owner: str) -> Mapping[str, Any]:
    """``state`` when it is a JSON object; else a :class:`StateError`."""
    if not isinstance(state, Mapping):
        raise StateError(
            f"a {owner} state is a JSON object (a dict), not a {type(state).__name__}; load "
            "what save_state exported"
        )
    return state


def state_value(
    state: Mapping[str, Any], key: str, kind: type | tuple[type, ...], owner: str
) -> Any:
    """``state[key]`` when it is present and of ``kind``; else a :class:`StateError`."""
    if key not in state:
        raise StateError(f"the {owner} state lacks '{key}'; load what save_state exported")
    value = state[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise StateError(
            f"the {owner} state's '{key}' is a {type(value).__name__}, not a {names}; load what "
            "save_state exported"
        )
    return value


def state_items(
    state: Mapping[str, Any], key: str, model: type[M], owner: str, *, optional: bool = False
) -> list[M]:
    """The list ``state[key]`` of a saved state, each entry checked by a pydantic model.

    Args:
        state: The saved state (a JSON object).
        key: The part to read.
        model: The pydantic model each entry must validate as.
        owner: Whose state it is, for the error message (``'notes' memory``).
        optional: Whether a missing part reads as an empty list.

    Returns:
        The entries, validated.

    Raises:
        StateError: When the part is missing (and not optional), is not a list, or holds an
            entry that does not validate; the message names the part.
    """
    values = state.get(key, []) if optional else state_value(state, key, list, owner)
    if not isinstance(values, list):
        state_value(state, key, list, owner)
    with state_part(owner, key):
        return [model.model_validate(v) for v in values]
