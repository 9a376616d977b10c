"""The public modules' lazily loaded names are in ``dir()``, and a typo names the nearest."""

from __future__ import annotations

import importlib

import pytest

PUBLIC = ["cogarch", "cogarch.core", "cogarch.models", "cogarch.testing"]


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_is_listed_by_dir(name: str) -> None:
    module = importlib.import_module(name)
    assert set(module.__all__) <= set(dir(module))


def test_a_misspelt_name_gets_a_did_you_mean() -> None:
    import cogarch

    with pytest.raises(AttributeError, match="did you mean 'Model'"):
        cogarch.Modle  # noqa: B018
    with pytest.raises(AttributeError, match="did you mean 'Providers'"):
        cogarch.Provders  # noqa: B018
