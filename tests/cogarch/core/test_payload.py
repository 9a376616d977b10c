"""The versioned payload registry: a task's payload read into its class, older versions
upgraded, and whatever no loaded task declares kept as the data it was written as."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from cogarch.core.payload import GenericPayload, PayloadRegistry, TaskPayload


class Guesses(TaskPayload):
    kind: Literal["guesses"] = "guesses"
    version: int = 2
    secret: int
    guesses: list[int]

    @classmethod
    def upgrade(cls, data: dict[str, Any], version: int) -> dict[str, Any]:
        if version == 1:  # version 1 called the secret "target"
            data["secret"] = data.pop("target")
            return {**data, "version": 2}
        return super().upgrade(data, version)


def test_a_known_kind_is_read_into_its_class() -> None:
    read = PayloadRegistry(Guesses).read(
        {"kind": "guesses", "version": 2, "secret": 4, "guesses": [5]}
    )
    assert read == Guesses(secret=4, guesses=[5])


def test_an_older_version_is_upgraded_to_the_current_shape() -> None:
    registry = PayloadRegistry(Guesses)
    read = registry.read({"kind": "guesses", "version": 1, "target": 7, "guesses": []})
    assert isinstance(read, Guesses) and (read.secret, read.version) == (7, 2)
    assert read.model_dump() == {"kind": "guesses", "version": 2, "secret": 7, "guesses": []}


def test_a_file_without_a_version_is_version_one() -> None:
    read = PayloadRegistry(Guesses).read({"kind": "guesses", "target": 3, "guesses": [1]})
    assert isinstance(read, Guesses) and read.secret == 3


def test_an_unknown_kind_and_a_newer_version_stay_generic_data() -> None:
    registry = PayloadRegistry(Guesses)
    foreign = {"kind": "chess", "moves": ["e4"], "version": 9}
    kept = registry.read(foreign)
    assert isinstance(kept, GenericPayload) and kept.model_dump() == foreign
    newer = {"kind": "guesses", "version": 3, "secret": 1, "guesses": [], "hint": "x"}
    assert registry.read(newer).model_dump() == newer


def test_two_classes_cannot_claim_one_kind() -> None:
    class Other(TaskPayload):
        kind: Literal["guesses"] = "guesses"

    with pytest.raises(ValueError, match="declared by both"):
        PayloadRegistry(Guesses, Other)


def test_a_payload_class_must_name_its_kind() -> None:
    class Nameless(TaskPayload):
        pass

    with pytest.raises(TypeError, match="kind: Literal"):
        PayloadRegistry(Nameless)


def test_a_version_without_a_reader_is_refused_by_name() -> None:
    class Two(TaskPayload):
        kind: Literal["two"] = "two"
        version: int = 2

    with pytest.raises(ValueError, match="no reader for version 1"):
        PayloadRegistry(Two).read({"kind": "two", "version": 1})
