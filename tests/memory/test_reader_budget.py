"""The official reader's history cut: the budget after the answer's length, and the token
counter it is counted with (the model's own tokenizer where it is on the machine, else the
estimate), each named."""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
from pathlib import Path
from typing import Any

import pytest

from cogarch.core.host import Observation
from cogarch.memory.retrieval import reader_budget
from cogarch.memory.retrieval.reader_budget import (
    ESTIMATE,
    O200K,
    official_budget,
    reader_counter,
)
from cogarch.models import FunctionModel, Model, Providers, as_pairs
from cogarch.tasks.longmemeval.question import question_message
from cogarch.tokens import count_tokens
from cogarch.workspace import build_agent, load_agent_spec

O200K_FILE = hashlib.sha1(
    b"https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
).hexdigest()
TEXT = "### Session 1:\nSession Date: 2023/05/30 (Tue) 23:40\n" + "I adopted a parrot. " * 200


def test_the_budget_is_the_window_less_the_answer_less_1000() -> None:
    assert official_budget("gpt-4o-2024-08-06", 500) == 126500
    assert official_budget("gpt-4o-2024-08-06", 800) == 126200  # step by step
    assert official_budget("microsoft/phi-4", 500) == 14500
    assert official_budget("qwen2.5-coder-1.5b-instruct", 500) is None


def test_without_the_tokenizer_on_the_machine_the_estimate_counts_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))  # empty: nothing is downloaded
    for model in ("gpt-4o-2024-08-06", "fake:longmemeval.reader", None):
        counter = reader_counter(model)
        assert counter.name == ESTIMATE
        head = counter.head(TEXT, 50)
        assert TEXT.startswith(head) and count_tokens(head) <= 50 < count_tokens(
            head + TEXT[len(head) :][:8]
        )


def test_a_gpt_4_reader_counts_with_o200k_when_its_file_is_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = importlib.util.find_spec("litellm")
    bundled = (
        None
        if spec is None or spec.origin is None
        else Path(spec.origin).parent / "litellm_core_utils" / "tokenizers" / O200K_FILE
    )
    if importlib.util.find_spec("tiktoken") is None or bundled is None or not bundled.is_file():
        pytest.skip("no copy of o200k_base on this machine")
    shutil.copy(bundled, tmp_path / O200K_FILE)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    reader_budget._o200k.cache_clear()
    counter = reader_counter("gpt-4o-2024-08-06")
    assert counter.name == O200K
    assert counter.count("hello world") == 2
    head = counter.head(TEXT, 40)
    assert TEXT.startswith(head) and counter.count(head) == 40
    assert reader_counter("qwen2.5-coder-1.5b-instruct").name == ESTIMATE


async def test_the_full_history_reader_cuts_the_head_within_the_official_budget_by_default() -> (
    None
):
    prompts: list[str] = []

    def brain(messages: Any, info: Any) -> str:
        prompts.append(as_pairs(messages)[-1][1])
        return "Lisbon"

    found = Providers()
    client = FunctionModel(brain)
    found.register("r", Model(client, provider="r", model="microsoft/phi-4", fake=True))
    sessions = [(f"s{n}", f"2023/05/{n + 1:02d} (Mon) 08:15") for n in range(20)]
    said = " ".join(["my sister moved to Lisbon and I keep a parrot"] * 120)
    for params, cut in (({}, True), ({"history_tokens": None}, False)):
        prompts.clear()
        spec = load_agent_spec("longmemeval_full", params or None)
        agent = build_agent(spec, found.get, provider="r")
        for sid, date in sessions:
            await agent.observe_many([Observation(f"[{date}] user: {said}", (f"{sid}_1",), None)])
        await agent.respond(question_message("Where did my sister move?", "2023/06/10 (Sat) 09:00"))
        [prompt] = prompts
        history = prompt.split("History Chats:\n\n", 1)[1].split("\n\nCurrent Date:", 1)[0]
        assert history.startswith("\n### Session 1:\nSession Date: 2023/05/01")  # the head
        if cut:  # phi-4's window of 16,000 less 500 for the answer less 1,000
            assert count_tokens(history) <= 14500 < count_tokens(history) + 40
            assert "### Session 20:" not in history
        else:
            assert "### Session 20:" in history and count_tokens(history) > 14500
