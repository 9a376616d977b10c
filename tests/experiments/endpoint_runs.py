"""A Hangman SCT run whose provider is the real OpenAI client pointed at a
:class:`~cogarch.testing.FaultServer`: the config the endpoint tests start from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cogarch.experiments.running.run_config import RunConfig
from cogarch.testing import FaultServer


def endpoint_config(
    server: FaultServer, results: Path, endpoint: dict[str, Any], **fields: Any
) -> RunConfig:
    """A run (``t_fork: 3``, three candidates, one vanilla agent) writing to ``results``, its
    provider ``endpoint`` an OpenAI client of ``server`` with the settings in ``endpoint``
    (timeout, retries), its other fields as ``fields`` give them."""
    data: dict[str, Any] = {
        "task": {"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3},
        "results_dir": str(results),
        "providers": {
            "endpoint": {
                "kind": "openai",
                "model": "test-model",
                "base_url": server.base_url,
                **endpoint,
            }
        },
        "agents": [{"name": "vanilla", "agent": "vanilla", "provider": "endpoint"}],
    }
    return RunConfig.model_validate({**data, **fields})
