"""The shipped LoCoMo config gives the memory modules' own calls room to answer."""

from __future__ import annotations

from pathlib import Path

from cogarch.experiments.running.run_config import load_run_config

CONFIG = Path(__file__).resolve().parents[3] / "experiments" / "configs" / "locomo_local.yaml"
EXTRACTING = {"mem0", "amem", "lightmem", "memoryos"}


def test_every_extracting_agent_may_write_a_whole_fact_list() -> None:
    """A fact list or update plan runs to hundreds of tokens; a cap below that cuts the JSON,
    and a cut extraction is recorded as an ingest failure: nothing of that turn is kept."""
    config = load_run_config(CONFIG)
    agents = {entry.agent: entry for entry in config.agents}
    assert set(agents) >= EXTRACTING
    for name in EXTRACTING:
        provider = config.providers[agents[name].provider or ""]
        assert provider.max_tokens is None or provider.max_tokens >= 512, name
