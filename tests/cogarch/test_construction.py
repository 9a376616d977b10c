"""One construction path: name or import path -> validated params -> instance."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from cogarch.construction import prepare
from cogarch.errors import ConfigError, UnknownNameError
from cogarch.registry import Registry
from cogarch.tasks.fakes import task_fakes
from cogarch.tasks.registry import TASKS, build_task


class Part:
    """A component with parameters."""

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")
        size: int = 1

    def __init__(self, label: str, params: Params) -> None:
        self.label, self.params = label, params


class Checked(Part):
    @classmethod
    def check_params(cls, params: Any) -> None:
        if params.size > 3:
            raise ConfigError("size above 3 cannot work")


class Bare:
    """A component that takes no parameters."""

    def __init__(self, label: str) -> None:
        self.label = label


def registry() -> Registry[type[Any]]:
    parts: Registry[type[Any]] = Registry("part", lazy=True)
    parts.register("part", Part)
    parts.register("checked", Checked)
    parts.register("bare", Bare)
    return parts


def test_a_recipe_validates_once_and_builds_as_often_as_asked() -> None:
    recipe = prepare(registry(), "part", {"size": 2}, where="parts.a")
    one, two = recipe.build("a"), recipe.build("b")
    assert (one.label, two.label) == ("a", "b")
    assert one.params.size == two.params.size == 2 and recipe.cls is Part


def test_bad_params_name_where_they_are() -> None:
    with pytest.raises(ConfigError, match=r"parts\.a\.size"):
        prepare(registry(), "part", {"size": "big"}, where="parts.a")
    with pytest.raises(ConfigError, match="size above 3"):
        prepare(registry(), "checked", {"size": 4})


def test_a_class_without_params_refuses_them() -> None:
    assert prepare(registry(), "bare", {}).build("a").label == "a"
    with pytest.raises(ConfigError, match=r"^parts\.a: part 'bare' takes no parameters \(got x\)$"):
        prepare(registry(), "bare", {"x": 1}, where="parts.a")


def test_an_unknown_key_is_named_on_one_line_with_the_kind_and_the_valid_keys() -> None:
    with pytest.raises(ConfigError) as info:
        prepare(registry(), "part", {"size": 2, "colour": "red"}, where="parts.a")
    assert str(info.value).splitlines()[1:] == [
        "  parts.a.colour: unknown key (remove it or check its spelling); "
        "valid keys of part 'part': size"
    ]


def test_a_params_instance_is_taken_as_it_is_and_another_model_is_read_as_data() -> None:
    given = Part.Params(size=3)
    assert prepare(registry(), "part", given).params is given
    assert prepare(registry(), "checked", given).params == given  # a subclass: same model
    with pytest.raises(ConfigError, match=r"takes no parameters \(got size\)"):
        prepare(registry(), "bare", given)


def test_an_unknown_name_lists_the_valid_ones() -> None:
    with pytest.raises(
        UnknownNameError, match="unknown part 'nope'; valid names: bare, checked, part"
    ):
        prepare(registry(), "nope", {})


def test_an_import_path_builds_like_a_short_name() -> None:
    made = prepare(registry(), f"{__name__}:Part", {"size": 3}).build("a")
    assert isinstance(made, Part) and made.params.size == 3


def test_built_in_tasks_declare_their_fakes_on_the_class() -> None:
    declared = {name for kind in TASKS.names() for name in TASKS.get(kind).fakes}
    assert {"hangman.honest", "diagnosis.honest", "locomo.reader", "alfworld.oracle"} <= declared
    table = set(task_fakes().names())
    assert declared <= table and table - declared == {f"libs.{name}" for name in declared}
    assert TASKS.get("hangman_sct").fakes["hangman.honest"] is task_fakes().get("hangman.honest")


def test_build_task_goes_through_the_one_path() -> None:
    with pytest.raises(ConfigError, match=r"task\.t_fork"):
        build_task("hangman_sct", {"t_fork": "x"})
    with pytest.raises(UnknownNameError, match="unknown task 'hangmann'; valid names: "):
        build_task("hangmann", {})
