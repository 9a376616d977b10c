"""A command's config as the command line changes it: the providers of a config file, and a
run or suite config with the command line's overrides."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TypeVar

from cogarch.errors import ConfigError

if TYPE_CHECKING:
    from cogarch.models.providers import Providers

    from ..running.run_config import RunConfig
    from ..suites.config import SuiteConfig

C = TypeVar("C", "RunConfig", "SuiteConfig")


def providers_from(config: str | None, own: bool = True, fakes: bool = True) -> Providers:
    """The providers of ``config`` (a YAML file with a ``providers:`` section); without
    ``own``, a provider whose kind is the user's own code is left out (not imported: see
    :func:`own_kinds`); without ``fakes``, the tasks' scripted fakes are not loaded (enough
    to list the providers, not to call a fake one)."""
    from cogarch.models.providers import Providers, load_providers_yaml, no_fakes

    from ..running.run_config import located_kinds

    if fakes:
        from ..running.fakes import run_fakes

        table = run_fakes()
    else:
        table = no_fakes()
    if config is None:
        return Providers(fakes=table)
    from cogarch.config import read_yaml

    from ..running.old_config_paths import check_not_moved

    check_not_moved(config)
    data = read_yaml(config)
    section = data.get("providers", data) if isinstance(data, dict) else data
    if section is not None and not isinstance(section, dict):
        raise ConfigError(
            f"'providers' in '{config}' must be a mapping of provider names to settings, "
            f"not a {type(section).__name__}"
        )
    located = located_kinds(section or {}, config)
    if not own:
        located = {k: v for k, v in located.items() if k not in own_kinds(located)}
    return Providers(load_providers_yaml(located), fakes=table)


def own_kinds(section: dict[object, object]) -> dict[str, str]:
    """The providers of a ``providers:`` section whose kind is code of the user's own (an
    import path or a file, not a kind cogarch registers), by name."""
    from cogarch.models.providers import PROVIDER_KINDS

    own = {}
    for name, entry in section.items():
        kind = entry.get("kind", "openai") if isinstance(entry, dict) else None
        if isinstance(kind, str) and kind not in PROVIDER_KINDS:
            own[str(name)] = kind
    return own


def overridden(config: C, args: argparse.Namespace, updates: dict[str, object]) -> C:
    """``config`` (a run or suite config) with ``updates`` and the command line's results
    folder, backend and address, validated again when anything changed."""
    from cogarch.config import validate_mapping

    from ..results.paths import folder_to_write

    if args.results_dir is not None:
        updates["results_dir"] = folder_to_write(args.results_dir, "--results-dir")
    execution = config.execution.model_dump()  # not in model_dump: it is no part of the digest
    if args.backend is not None or args.address is not None:
        execution["backend"] = args.backend or "ray"
        if args.address is not None or execution["backend"] == "local":
            execution["address"] = args.address
        updates["execution"] = execution
    if not updates:
        return config
    audit = getattr(config, "audit_judge", None)  # not in model_dump either
    kept = {} if audit is None else {"audit_judge": audit.model_dump()}
    fields = {**config.model_dump(), "execution": execution, **kept, **updates}
    return validate_mapping(type(config), fields, source="the command-line overrides")
