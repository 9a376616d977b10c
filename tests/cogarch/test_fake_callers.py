"""A fake provider scripts replies per caller: ``callers`` maps glob patterns over who makes a
call to fakes, the most specific match wins, the entry's ``fake`` plays the rest, and a
malformed pattern is refused naming it."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pydantic import ValidationError

from cogarch.errors import UnknownNameError
from cogarch.models import CallInfo, ProviderConfig, Providers, user
from cogarch.models.fake_callers import chosen_pattern, pattern_problem
from cogarch.models.providers import no_fakes


def _says(text: str):  # type: ignore[no-untyped-def]
    def fake(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
        return f"{text} to {call.caller}"

    return fake


def _providers(callers: dict[str, str]) -> Providers:
    table = no_fakes()
    for name in ("host", "any_memory", "summariser", "summary_like", "router_fake"):
        table.register(name, _says(name))
    config = ProviderConfig(kind="fake", fake="host", callers=callers)
    return Providers({"p": config}, fakes=table)


async def _answer(providers: Providers, caller: str) -> str:
    completion = await providers.get("p").complete([user("hello")], caller=caller)
    return completion.content


async def test_each_caller_gets_the_fake_of_its_most_specific_pattern() -> None:
    providers = _providers(
        {
            "memory:*": "any_memory",
            "memory:summar*": "summary_like",
            "memory:summary": "summariser",
            "rout?r": "router_fake",
        }
    )
    providers.check("p")
    assert await _answer(providers, "memory:summary") == "summariser to memory:summary"
    assert await _answer(providers, "memory:summaries") == "summary_like to memory:summaries"
    assert await _answer(providers, "memory:notes") == "any_memory to memory:notes"
    assert await _answer(providers, "router") == "router_fake to router"
    assert await _answer(providers, "responder") == "host to responder"


def test_specificity_is_no_wildcard_then_literal_characters_then_fewer_stars() -> None:
    assert chosen_pattern("memory:a", ["*", "memory:a", "memory:*"]) == "memory:a"
    assert chosen_pattern("memory:a", ["*", "memory:*", "m*:a"]) == "memory:*"
    assert chosen_pattern("memory:a", ["memory:?", "memory:*"]) == "memory:?"
    assert chosen_pattern("memory:ab", ["memory:*b", "memory:a*"]) == "memory:*b"  # a tie
    assert chosen_pattern("memory:[ab]", ["memory:[[]ab]"]) == "memory:[[]ab]"
    assert chosen_pattern("responder", ["memory:*"]) is None


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("", "is empty"),
        ("memory:[ab", "opens a '[' set it never closes"),
        ("memory:ab]", "closes a ']' set it never opened"),
    ],
)
def test_a_malformed_pattern_is_refused_naming_it(pattern: str, problem: str) -> None:
    assert problem in (pattern_problem(pattern) or "")
    with pytest.raises(ValidationError, match=problem.replace("[", r"\[")):
        ProviderConfig(kind="fake", fake="host", callers={pattern: "summariser"})


def test_callers_belong_to_fake_providers_and_name_known_fakes() -> None:
    with pytest.raises(ValidationError, match="'callers' applies to 'fake' providers only"):
        ProviderConfig(kind="openai", model="m", callers={"memory:*": "summariser"})
    with pytest.raises(UnknownNameError, match="unknown fake model 'sumariser'"):
        _providers({"memory:*": "sumariser"}).check("p")


def test_an_entry_without_callers_is_recorded_as_before_and_one_with_them_differs() -> None:
    plain = ProviderConfig(kind="fake", fake="host")
    assert "callers" not in plain.model_dump(mode="json")
    scripted = ProviderConfig(kind="fake", fake="host", callers={"memory:*": "summariser"})
    assert scripted.model_dump(mode="json")["callers"] == {"memory:*": "summariser"}
    assert _providers({}).get("p").model != _providers({"memory:*": "summariser"}).get("p").model
