"""Test switches: real model calls are refused unless a test is marked e2e and --e2e is given."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--e2e",
        action="store_true",
        default=False,
        help="also run the end-to-end tests that use the embedded local model",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--e2e"):
        return
    skip = pytest.mark.skip(reason="end-to-end test: run with --e2e")
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _no_real_models(request: pytest.FixtureRequest) -> object:
    from cogarch.models.guard import allow_model_requests

    allow_model_requests("e2e" in request.keywords)
    yield
    allow_model_requests(False)
