"""ALFWorld test fixtures: the engine's packages, and games generated once per test session.

Tests that play games need the alfworld extra. Where it is missing they are skipped, except
under ``CI=true``, where they must run (CI installs the extra).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

import pytest

from cogarch.core.task import TrialContext
from cogarch.models import Model, Providers, pairs_model
from cogarch.models.fakes import PairsFn
from cogarch.tasks.alfworld.fakes import PLAYERS
from cogarch.workspace import Agent, build_agent, load_agent_spec

ENGINE = ("alfworld", "textworld", "fast_downward")

SMALL_SEEN = [316, 214]
"""Seen rooms of 6-7 receptacles, one with a desk lamp: every type but heat and cool."""
SMALL_UNSEEN = [424, 308]
"""ALFWorld's two smallest unseen rooms (12 and 14 receptacles; 308 has a desk lamp)."""
SEEN_KITCHEN = 14
"""The smallest seen kitchen (13 receptacles): heat and cool need a microwave and a fridge."""
UNSEEN_KITCHEN = 10
"""ALFWorld's one unseen kitchen (19 receptacles)."""


@pytest.fixture(scope="session")
def engine() -> None:
    """Skip (fail under CI=true) when the alfworld extra is not installed."""
    missing = [name for name in ENGINE if importlib.util.find_spec(name) is None]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the ALFWorld tests, but {', '.join(missing)} is missing")
        pytest.skip("ALFWorld tests need the alfworld extra: pip install -e '.[alfworld]'")


@pytest.fixture(scope="session")
def game_cache(engine: None, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache of generated games for the whole session, so each game is planned once."""
    return tmp_path_factory.mktemp("alfworld-games")


def player_model(name: str, fn: PairsFn | None = None, calls: list[Any] | None = None) -> Model:
    """A fake model playing ``fn`` (default: the shipped player ``name``), keeping every
    prompt it is shown in ``calls`` when given."""
    play = fn or PLAYERS[name]

    def recorded(pairs: Any, seed: int, call: Any) -> Any:
        if calls is not None:
            calls.append(list(pairs))
        return play(pairs, seed, call)

    return Model(pairs_model(recorded), provider=name, model=name, fake=True)


def trial_context(
    model: Model,
    *,
    agent: str = "alfworld_react",
    seed: int = 7,
    trial: int = 0,
    built: list[Agent] | None = None,
    params: dict[str, Any] | None = None,
) -> TrialContext:
    providers = Providers()
    providers.register(model.provider, model)
    spec = load_agent_spec(agent, params)

    def make() -> Agent:
        made = build_agent(spec, providers.get, name=agent, provider=model.provider, seed=seed)
        if built is not None:
            built.append(made)
        return made

    return TrialContext(agent, trial, seed, make, providers.get, None)
