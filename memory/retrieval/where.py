"""Metadata filters for vector-store queries, in chromadb's ``where`` language.

A filter is a dict. ``{"key": value}`` asks for equality; ``{"key": {"$op": operand}}`` for a
comparison: ``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt``, ``$lte`` (numbers), ``$in``, ``$nin``
(a list of values); ``{"$and": [f, ...]}`` and ``{"$or": [f, ...]}`` combine filters, and
several keys in one dict must all hold. A key the metadata lacks matches only ``$ne`` and
``$nin``, as in chromadb.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cogarch.errors import CogarchError

Predicate = Callable[[Mapping[str, Any]], bool]


class WhereError(CogarchError, ValueError):
    """A ``where`` filter the store cannot read."""


_MISSING = object()


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _compare(op: str, operand: Any) -> Callable[[Any], bool]:
    if op == "$eq":
        return lambda v: v is not _MISSING and v == operand
    if op == "$ne":
        return lambda v: v is _MISSING or v != operand
    if op in ("$in", "$nin"):
        if not isinstance(operand, list):
            raise WhereError(f"'{op}' takes a list of values, got {operand!r}")
        allowed = list(operand)
        if op == "$in":
            return lambda v: v is not _MISSING and v in allowed
        return lambda v: v is _MISSING or v not in allowed
    order = {
        "$gt": lambda a, b: a > b,
        "$gte": lambda a, b: a >= b,
        "$lt": lambda a, b: a < b,
        "$lte": lambda a, b: a <= b,
    }.get(op)
    if order is None:
        raise WhereError(
            f"unknown operator '{op}' in a where filter; use $eq, $ne, $gt, $gte, $lt, $lte, "
            "$in, $nin, $and or $or"
        )
    if not _number(operand):
        raise WhereError(f"'{op}' compares numbers, got {operand!r}")
    return lambda v: _number(v) and order(v, operand)


def compile_where(where: Mapping[str, Any]) -> Predicate:
    """A predicate over a record's metadata, or ``WhereError`` naming what is wrong."""
    if not isinstance(where, Mapping) or not where:
        raise WhereError(f"a where filter is a non-empty dict, got {where!r}")
    parts: list[Predicate] = []
    for key, condition in where.items():
        if key in ("$and", "$or"):
            if not isinstance(condition, list) or not condition:
                raise WhereError(f"'{key}' takes a non-empty list of filters")
            parts.append(_combined(key, [compile_where(c) for c in condition]))
            continue
        if key.startswith("$"):
            raise WhereError(f"unknown operator '{key}' at the top of a where filter")
        if isinstance(condition, Mapping):
            if len(condition) != 1:
                raise WhereError(f"the condition on '{key}' must hold exactly one operator")
            [(op, operand)] = condition.items()
            test = _compare(op, operand)
        else:
            test = _compare("$eq", condition)
        parts.append(_on_key(key, test))
    return parts[0] if len(parts) == 1 else _combined("$and", parts)


def _combined(how: str, parts: list[Predicate]) -> Predicate:
    if how == "$and":
        return lambda meta: all(p(meta) for p in parts)
    return lambda meta: any(p(meta) for p in parts)


def _on_key(key: str, test: Callable[[Any], bool]) -> Predicate:
    return lambda meta: test(meta.get(key, _MISSING))
