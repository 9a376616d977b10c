"""A task's own part of a trial record (its payload), versioned, and the registry that reads
one back.

A task declares its payload class: a pydantic model subclassing :class:`TaskPayload`, with a
``kind`` tag of its own and a ``version``::

    class GuessPayload(TaskPayload):
        kind: Literal["guess"] = "guess"
        version: int = 2
        secret: int

        @classmethod
        def upgrade(cls, data, version):  # files written by version 1 said "target"
            data["secret"] = data.pop("target")
            return {**data, "version": 2}

A trial file keeps the payload as the task wrote it (``kind`` and ``version`` included). The
loader reads it back through a :class:`PayloadRegistry` holding the payload classes of the
tasks it knows, upgrading older versions on the way. A payload whose kind no known task
declares (its task cannot be imported here), or that a newer version of its task wrote, loads
as a :class:`GenericPayload`: its data kept as written, so a report of a foreign run never
fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict


class Payload(BaseModel):
    """What only a trial's task reads: a :class:`TaskPayload` or a :class:`GenericPayload`."""

    kind: str


class TaskPayload(Payload):
    """The base of a task's own payload class (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    """The payload's tag: a subclass gives it a default, the kind it writes."""
    version: int = 1
    """The shape of the payload; a task raises its default when the shape changes."""

    @classmethod
    def payload_kind(cls) -> str:
        """The ``kind`` tag this class writes (the default of its ``kind`` field)."""
        kind = cls.model_fields["kind"].default
        if not isinstance(kind, str) or not kind:
            raise TypeError(
                f"payload class {cls.__name__} must give 'kind' a default, as in "
                "kind: Literal['mine'] = 'mine'"
            )
        return kind

    @classmethod
    def current_version(cls) -> int:
        version = cls.model_fields["version"].default
        return version if isinstance(version, int) else 1

    @classmethod
    def upgrade(cls, data: dict[str, Any], version: int) -> dict[str, Any]:
        """The data of an older ``version`` of this payload, in the current shape (with the
        current ``version``). The default knows no older version."""
        raise ValueError(
            f"payload '{cls.payload_kind()}' has no reader for version {version} (the current "
            f"one is {cls.current_version()}); give {cls.__name__} an 'upgrade' for it"
        )


class GenericPayload(Payload):
    """A payload kept as the data it was written as: its kind is not one a loaded task
    declares (or a newer version of its task wrote it). It dumps back unchanged."""

    model_config = ConfigDict(extra="allow")

    kind: str = "other"

    @property
    def data(self) -> dict[str, Any]:
        """Everything the payload holds besides its ``kind``."""
        return dict(self.model_extra or {})


class PayloadRegistry:
    """Payload classes by ``kind``: reads a payload's data into its class, upgrading older
    versions; an unknown kind or a newer version stays a :class:`GenericPayload`."""

    def __init__(self, *classes: type[TaskPayload]) -> None:
        self._classes: dict[str, type[TaskPayload]] = {}
        for cls in classes:
            self.register(cls)

    def register(self, cls: type[TaskPayload]) -> None:
        kind = cls.payload_kind()
        known = self._classes.get(kind)
        if known is not None and known is not cls:
            raise ValueError(
                f"payload kind '{kind}' is declared by both {known.__name__} and "
                f"{cls.__name__}; give one of them another kind"
            )
        self._classes[kind] = cls

    def kinds(self) -> list[str]:
        return sorted(self._classes)

    def get(self, kind: str) -> type[TaskPayload] | None:
        return self._classes.get(kind)

    def read(self, data: Any) -> Payload:
        """``data`` (a payload, or its JSON mapping) as its payload class."""
        if isinstance(data, Payload):
            return data
        if not isinstance(data, Mapping):
            raise ValueError(f"a payload is a mapping with a 'kind', not {type(data).__name__}")
        cls = self._classes.get(str(data.get("kind")))
        version = data.get("version", 1)
        if cls is None or not isinstance(version, int) or version > cls.current_version():
            return GenericPayload.model_validate(data)
        fields = dict(data)
        if version < cls.current_version():
            fields = cls.upgrade(fields, version)
        return cls.model_validate(fields)
