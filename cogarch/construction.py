"""The one way a component is built: a name or import path, its validated params, an instance.

Tasks, memory modules, specialists and model providers are all made this way: the class is
looked up in its registry (a short name, or an import path ``module:Class`` /
``file.py:Class``; an unknown name is refused with the list of valid ones), its ``Params``
model validates the parameters (an unknown key is refused with the keys the class takes; a
class without ``Params`` takes none), a ``check_params`` hook the class may define refuses
what validates as data but cannot work, and only then is the class instantiated.
:func:`prepare` does the first three steps once, building nothing, and returns a
:class:`Recipe` that instantiates as often as needed (one per trial, say).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from cogarch.config import validate_mapping
from cogarch.errors import ConfigError
from cogarch.registry import Registry

T = TypeVar("T")


@dataclass(frozen=True)
class Recipe(Generic[T]):
    """A component's class and its validated parameters, ready to be instantiated."""

    kind: str
    cls: type[T]
    params: BaseModel | None
    """The class's ``Params`` instance, or None for a class that declares no ``Params``."""

    def build(self, *args: Any, **kwargs: Any) -> T:
        """An instance: ``cls(*args, params, **kwargs)``, or ``cls(*args, **kwargs)`` for a
        class without params."""
        make: Any = self.cls
        if self.params is None:
            return make(*args, **kwargs)
        return make(*args, self.params, **kwargs)


def prepare(
    registry: Registry[type[T]],
    kind: str,
    params: Mapping[str, Any] | BaseModel | None = None,
    *,
    where: str = "",
) -> Recipe[T]:
    """Look ``kind`` up in ``registry``, validate ``params`` with its ``Params`` model (an
    instance of it is taken as it is) and run its ``check_params`` hook, building nothing."""
    cls = registry.get(kind)
    param_model: type[BaseModel] | None = getattr(cls, "Params", None)
    if param_model is not None and isinstance(params, param_model):
        validated = params
    else:
        values = params.model_dump() if isinstance(params, BaseModel) else dict(params or {})
        owner = f"{registry.kind} '{kind}'"
        if param_model is None:
            if values:
                at = f"{where}: " if where else ""
                raise ConfigError(f"{at}{owner} takes no parameters (got {', '.join(values)})")
            return Recipe(kind, cls, None)
        validated = validate_mapping(param_model, values, where=where, owner=owner)
    check = getattr(cls, "check_params", None)
    if callable(check):
        check(validated)
    return Recipe(kind, cls, validated)
