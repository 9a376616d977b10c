"""Metadata filters in chromadb's where language, read by the in-process store."""

from __future__ import annotations

from typing import Any

import pytest

from cogarch.memory.retrieval.where import WhereError, compile_where

META = {"session": "s2", "turn": 7, "score": 0.5, "kind": "user", "flag": True}


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ({"session": "s2"}, True),
        ({"session": "s1"}, False),
        ({"session": {"$eq": "s2"}}, True),
        ({"session": {"$ne": "s2"}}, False),
        ({"missing": {"$ne": "x"}}, True),
        ({"missing": {"$nin": ["x"]}}, True),
        ({"missing": "x"}, False),
        ({"session": {"$in": ["s1", "s2"]}}, True),
        ({"session": {"$nin": ["s1", "s2"]}}, False),
        ({"turn": {"$gt": 6}}, True),
        ({"turn": {"$gte": 8}}, False),
        ({"score": {"$lt": 1}}, True),
        ({"score": {"$lte": 0.4}}, False),
        ({"kind": {"$gt": 1}}, False),  # strings never compare as numbers
        ({"flag": {"$gt": 0}}, False),  # nor booleans
        ({"session": "s2", "turn": 8}, False),
        ({"$and": [{"session": "s2"}, {"turn": 7}]}, True),
        ({"$or": [{"session": "s9"}, {"kind": "user"}]}, True),
        ({"$or": [{"session": "s9"}, {"$and": [{"kind": "user"}, {"turn": 1}]}]}, False),
    ],
)
def test_filters_read_as_chromadb_reads_them(where: dict[str, Any], expected: bool) -> None:
    assert compile_where(where)(META) is expected


@pytest.mark.parametrize(
    ("where", "problem"),
    [
        ({}, "non-empty dict"),
        ({"turn": {"$near": 3}}, r"unknown operator '\$near'"),
        ({"$not": [{"a": 1}]}, r"unknown operator '\$not'"),
        ({"turn": {"$gt": "7"}}, "compares numbers"),
        ({"turn": {"$in": "s1"}}, "takes a list"),
        ({"$and": []}, "non-empty list"),
        ({"turn": {"$gt": 1, "$lt": 9}}, "exactly one operator"),
    ],
)
def test_a_filter_it_cannot_read_is_refused_with_what_is_wrong(
    where: dict[str, Any], problem: str
) -> None:
    with pytest.raises(WhereError, match=problem):
        compile_where(where)
