"""The private-block filter: whatever a model writes inside a private tag never reaches a
public reply, however the tag is spelled, nested, split or left open."""

from __future__ import annotations

import asyncio
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogarch.models import FunctionModel, Model, Providers
from cogarch.workspace import build_agent, load_agent_spec
from cogarch.workspace.sanitize import PRIVATE_TAGS, public_text

MARK = "zqapplezq"
ANY_TAG = re.compile(rf"<\s*/?\s*(?:{'|'.join(PRIVATE_TAGS)})", re.IGNORECASE)

HOSTILE = [
    f'<secret id="1">{MARK}</secret>',
    f"<secret >{MARK}</secret >",
    f"<secret\n>{MARK}</secret\n>",
    f"<sec<secret></secret>ret>{MARK}</secret>",
    f"<SECRET>{MARK}</Secret>",
    f"< secret >{MARK}</ secret >",
    f'<secret note=">">{MARK}</secret>',
    f"<secret>{MARK}",
    f"<secret>a<secret>b</secret>{MARK}</secret>",
    f"<think>x<secret>y</think>{MARK}</secret>",
    f"{MARK}</secret>",
    f"<secret id='2'\n  class=x>{MARK}</secret x='>'>",
]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_spellings_keep_the_secret_out(hostile: str) -> None:
    text = public_text(f"Before. {hostile} After.")
    assert MARK not in text
    assert not ANY_TAG.search(text)
    if not hostile.endswith(MARK):  # an unclosed block hides the rest of the text
        assert text.endswith("After.")


def test_public_text_around_closed_blocks_is_kept() -> None:
    assert public_text("a <secret id=1>x</secret> b <think>y</think> c") == "a  b  c"
    assert public_text("reasoning </think> answer; x < y") == "answer; x < y"
    assert public_text(f"shown <secret{MARK}</secret> shown") == "shown  shown"
    assert public_text(f"<secret>x</secret{MARK} <b>shown</b>") == "<b>shown</b>"
    assert public_text(f"<sec<secret></secret>ret>{MARK}</secret> shown") == "shown"


_OPEN = st.sampled_from(
    ["<secret>", "<Secret id='1'>", "<secret\n>", '< SECRET a=">" >', "<think>", "<secret"]
)
_CLOSE = st.sampled_from(["</secret>", "</SECRET >", "</secret\n>", "</ secret>", "</think>"])
_INNER_NOISE = ["<sec", "ret>", "<", ">", "secret", " ", "\n", "<secrets>"]
"""Fragments inside a block: they may form an open tag (a deeper block), never a close tag."""
_NOISE = st.sampled_from([*_INNER_NOISE, "</"])
_WORDS = st.text(alphabet="abcdefgh .,!\n", max_size=12)


@st.composite
def private_block(draw: st.DrawFn, depth: int = 0) -> str:
    """An open tag, content holding the mark (maybe split by noise or nested blocks), and
    maybe a close tag (an unclosed block runs to the end)."""
    parts = [draw(_OPEN)]
    for _ in range(draw(st.integers(1, 3))):
        parts.append(draw(st.sampled_from([MARK, draw(_WORDS), *_INNER_NOISE])))
        if depth < 2 and draw(st.booleans()):
            parts.append(draw(private_block(depth + 1)))
    parts.append(MARK)
    if draw(st.integers(0, 4)):
        parts.append(draw(_CLOSE))
    return "".join(parts)


@st.composite
def model_output(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.one_of(_WORDS, _NOISE, _CLOSE, private_block()), max_size=8))
    return "".join(pieces)


@settings(max_examples=600, deadline=None)
@given(model_output())
def test_no_private_content_or_tag_survives(text: str) -> None:
    out = public_text(text)
    assert MARK not in out
    assert not ANY_TAG.search(out)
    assert public_text(out) == out  # stable: a second pass finds nothing more


_CLOSED = st.builds(
    lambda tag, attrs, gap, inner: f"<{tag}{attrs}>{inner}{MARK}</{tag}{gap}>",
    st.sampled_from(["secret", "SECRET", "think", "working_memory"]),
    st.sampled_from(["", " ", "\n", ' id="1"', " a='>'"]),
    st.sampled_from(["", " ", "\n"]),
    st.sampled_from(["", "x", "<sec", "ret>"]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=5), st.lists(_CLOSED, max_size=4))
def test_public_words_between_closed_blocks_survive(words: list[str], blocks: list[str]) -> None:
    blocks = (blocks + [""] * len(words))[: len(words)]
    pieces = [piece for pair in zip(words, blocks, strict=True) for piece in pair]
    assert public_text("".join(pieces)) == "".join(words).strip()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_is_stable_and_tag_free(text: str) -> None:
    out = public_text(text)
    assert public_text(out) == out
    assert not ANY_TAG.search(out)


@pytest.mark.parametrize("family", ["vanilla", "workflow"])
@pytest.mark.parametrize("hostile", HOSTILE)
def test_an_agent_never_publishes_a_hostile_secret(family: str, hostile: str) -> None:
    def host(messages: object, info: object) -> str:
        return f"I have picked a word. {hostile} Guess a letter!"

    providers = Providers()
    providers.register(
        "hostile", Model(FunctionModel(host), provider="hostile", model="hostile", fake=True)
    )
    params = {"strategy": "overwrite"} if family == "workflow" else {}
    agent = build_agent(load_agent_spec(family, params), providers.get, provider="hostile", seed=1)
    reply = asyncio.run(agent.respond("Let's play Hangman."))
    assert MARK not in reply
    assert not ANY_TAG.search(reply)
