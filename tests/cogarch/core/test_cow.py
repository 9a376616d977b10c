"""Copy-on-write containers: they behave as list and dict do, fork in O(1), and no fork ever
sees another's write, whatever the order of the writes."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from cogarch.core.cow import CowDict, CowList, fork_fields, fork_value, is_immutable

LIST_OPS = st.lists(
    st.tuples(
        st.integers(0, 7),  # which fork acts
        st.sampled_from(
            ["append", "extend", "set", "del", "insert", "pop", "clear", "sort", "fork", "iadd"]
        ),
        st.integers(-3, 9),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(LIST_OPS)
def test_cow_lists_match_plain_lists_in_any_order_of_writes(
    ops: list[tuple[int, str, int]],
) -> None:
    forks: list[CowList[int]] = [CowList([1, 2, 3])]
    models: list[list[int]] = [[1, 2, 3]]
    for step, (who, op, n) in enumerate(ops):
        i = who % len(forks)
        cow, model = forks[i], models[i]
        if op == "fork":
            forks.append(cow.fork())
            models.append(list(model))
        elif op == "append":
            cow.append(step)
            model.append(step)
        elif op in ("extend", "iadd"):
            cow += [step, -step] if op == "iadd" else []
            if op == "extend":
                cow.extend(range(n % 3))
                model.extend(range(n % 3))
            else:
                model += [step, -step]
        elif op == "set" and model:
            cow[n % len(model)] = step
            model[n % len(model)] = step
        elif op == "del" and model:
            del cow[n % len(model)]
            del model[n % len(model)]
        elif op == "insert":
            cow.insert(n, step)
            model.insert(n, step)
        elif op == "pop" and model:
            assert cow.pop() == model.pop()
        elif op == "clear":
            cow.clear()
            model.clear()
        elif op == "sort":
            cow.sort(reverse=n % 2 == 0)
            model.sort(reverse=n % 2 == 0)
        for other, expected in zip(forks, models, strict=True):
            assert other == expected and list(other) == expected and len(other) == len(expected)
            assert other[1:] == expected[1:] and other[::-1] == expected[::-1]
            assert list(reversed(other)) == expected[::-1]
            if expected:
                assert other[-1] == expected[-1] and other[0] == expected[0]


def test_a_cow_list_reads_like_a_list() -> None:
    items = CowList(["a", "b", "c"])
    twin = items.fork()
    twin.append("d")
    assert items == ["a", "b", "c"] and items == ["a", "b", "c"] and items != ["a"]
    assert twin == CowList(["a", "b", "c", "d"]) and items != twin
    assert "c" in items and "d" not in items and items.index("b") == 1
    assert items + ["x"] == ["a", "b", "c", "x"]  # noqa: RUF005 (the operator under test)
    assert ["x"] + items == ["x", "a", "b", "c"]  # noqa: RUF005
    assert repr(items) == "CowList(['a', 'b', 'c'])"
    with pytest.raises(IndexError):
        items[3]
    assert copy.copy(items) == items
    deep = copy.deepcopy(CowList([[1]]))
    assert deep == [[1]] and isinstance(deep, CowList)
    assert pickle.loads(pickle.dumps(twin)) == ["a", "b", "c", "d"]
    assert CowList[int]([1]) == [1]


def test_a_branch_that_only_appends_copies_nothing() -> None:
    trunk = CowList(range(1000))
    branch = trunk.fork()
    branch.append(1000)
    assert branch._items is trunk._items  # appended past the trunk's end, in place
    sibling = trunk.fork()
    sibling.append(-1)  # the shared list is longer than the sibling's view: it copies
    assert sibling._items is not trunk._items
    assert trunk == list(range(1000)) and branch[-1] == 1000 and sibling[-1] == -1


def test_iterating_a_fork_never_yields_what_another_fork_appends_meanwhile() -> None:
    trunk = CowList([1, 2])
    branch = trunk.fork()
    seen = []
    for item in branch:
        seen.append(item)
        trunk.append(item * 10)  # in place, past the branch's end
    assert seen == [1, 2] and trunk == [1, 2, 10, 20] and branch == [1, 2]


DICT_OPS = st.lists(
    st.tuples(
        st.integers(0, 7),
        st.sampled_from(["set", "del", "pop", "clear", "fork", "update", "mutate", "default"]),
        st.integers(0, 4),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(DICT_OPS)
def test_cow_dicts_match_plain_dicts_in_any_order_of_writes(
    ops: list[tuple[int, str, int]],
) -> None:
    forks: list[CowDict[int, list[int]]] = [CowDict({0: [0]})]
    models: list[dict[int, list[int]]] = [{0: [0]}]
    for step, (who, op, key) in enumerate(ops):
        i = who % len(forks)
        cow, model = forks[i], models[i]
        if op == "fork":
            forks.append(cow.fork())
            models.append(copy.deepcopy(model))
        elif op == "set":
            cow[key] = [step]
            model[key] = [step]
        elif op in ("del", "pop") and key in model:
            if op == "del":
                del cow[key]
                del model[key]
            else:
                assert cow.pop(key) == model.pop(key)
        elif op == "clear":
            cow.clear()
            model.clear()
        elif op == "update":
            cow.update({key: [step], key + 1: [step]})
            model.update({key: [step], key + 1: [step]})
        elif op == "default":
            assert cow.setdefault(key, [step]) == model.setdefault(key, [step])
        elif op == "mutate" and key in model:
            cow.mutable(key).append(step)  # an edit in place, through mutable()
            model[key].append(step)
        for other, expected in zip(forks, models, strict=True):
            assert other == expected and dict(other) == expected
            assert list(other.items()) == list(expected.items()) and len(other) == len(expected)


def test_mutable_copies_a_shared_value_once_then_edits_in_place() -> None:
    trunk: CowDict[str, list[int]] = CowDict({"a": [1]})
    assert trunk.mutable("a") is trunk["a"]  # never forked: its own values
    branch = trunk.fork()
    mine = branch.mutable("a")
    assert mine is not trunk["a"] and branch.mutable("a") is mine
    mine.append(2)
    assert trunk["a"] == [1] and branch["a"] == [1, 2]
    assert trunk.mutable("a") is not branch["a"]
    assert copy.deepcopy(branch) == {"a": [1, 2]} and pickle.loads(pickle.dumps(branch)) == branch
    assert repr(CowDict({"k": 1})) == "CowDict({'k': 1})" and CowDict({"k": 1}) == {"k": 1}


@dataclass(frozen=True)
class Point:
    x: int


@dataclass
class Box:
    items: list[int] = field(default_factory=list)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str


class Loose(BaseModel):
    name: str


class Forks:
    def __init__(self) -> None:
        self.forked = 0

    def fork(self) -> Forks:
        self.forked += 1
        return Forks()


@pytest.mark.parametrize(
    ("value", "shared"),
    [
        ("text", True),
        (3.5, True),
        (None, True),
        ((1, "a", (2,)), True),
        ((1, [2]), False),
        (frozenset({1}), True),
        (Point(1), True),
        (Frozen(name="x"), True),
        (len, True),
        (Box(), False),
        (Loose(name="x"), False),
        ([1], False),
        ({"a": 1}, False),
    ],
)
def test_immutable_values_are_shared_and_the_rest_deep_copied(value: Any, shared: bool) -> None:
    assert is_immutable(value) is shared
    forked = fork_value(value)
    assert (forked is value) is shared
    assert forked == value


def test_fork_fields_forks_forkables_and_shares_what_it_is_told() -> None:
    class Module:
        def __init__(self) -> None:
            self.log: CowList[int] = CowList([1])
            self.scratch = {"k": [1]}
            self.resource = Box([7])
            self.store = Forks()
            self.name = "m"

    original = Module()
    twin = fork_fields(original, share=("resource",))
    assert type(twin) is Module and twin.name == "m"
    assert original.store.forked == 1 and isinstance(twin.store, Forks)
    assert twin.resource is original.resource
    twin.log.append(2)
    twin.scratch["k"].append(2)
    assert original.log == [1] and original.scratch == {"k": [1]}
