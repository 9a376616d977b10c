"""Every agent family over a multi-turn dialogue: what the model is shown, what the user gets.

The fake model answers turn n with ``answer n <secret>zebra</secret>`` and reasons
``thinking n``. The tests check, for every family, that each model call sees every earlier
turn exactly once and in order, that reasoning goes where the family says, and that private
blocks never reach the public reply.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from autogen_core.models import LLMMessage, SystemMessage

from cogarch.models import as_pairs
from cogarch.workspace import Agent, build_agent, load_agent_spec
from cogarch.workspace.prompts import ELICIT_REASONING
from tests.workspace import SECRET, Brain, make_agent, providers

STRATEGIES = ["overwrite", "append_delete", "patch_replace"]
FAMILIES: list[tuple[str, dict[str, Any]]] = [
    ("vanilla", {}),
    ("private_cot", {}),
    ("public_cot", {}),
    *[("autonomous", {"strategy": s}) for s in STRATEGIES],
    *[("workflow", {"strategy": s}) for s in STRATEGIES],
]
IDS = [f"{name}-{params.get('strategy', 'plain')}" for name, params in FAMILIES]
QUESTIONS = [
    "Let's play hangman; think of a word.",
    "Is there an A?",
    "Is there an E?",
    "How many letters are left?",
]


async def converse(name: str, params: dict[str, Any], brain: Brain) -> tuple[Agent, list[str]]:
    agent = make_agent(name, brain, **params)
    return agent, [await agent.respond(q) for q in QUESTIONS]


def first_calls_of_each_turn(brain: Brain, role: str) -> list[list[LLMMessage]]:
    """The model calls that open each turn for the answering role (the Autonomous responder
    may call the model several times per turn; its first call sees no tool results yet)."""
    calls = brain.of(role)
    if role != "autonomous":
        return calls
    return [
        messages
        for messages in calls
        if as_pairs(messages)[-1][0] == "user" and as_pairs(messages)[-1][1] in QUESTIONS
    ]


def expected_history(agent: Agent, turn: int, family: str) -> list[tuple[str, str]]:
    """The non-system messages the answering model must see at ``turn`` (1-based)."""
    dialogue = agent.workspace.dialogue
    out: list[tuple[str, str]] = []
    for earlier in range(1, turn):
        question, answer = dialogue[2 * earlier - 2], dialogue[2 * earlier - 1]
        shown = answer.content
        if family == "private_cot":
            shown = f"<think>\nthinking {earlier}\n</think>\n{shown}"
        out += [("user", question.content), ("assistant", shown)]
    return [*out, ("user", QUESTIONS[turn - 1])]


@pytest.mark.parametrize(("family", "params"), FAMILIES, ids=IDS)
async def test_each_earlier_turn_is_seen_exactly_once_and_in_order(
    family: str, params: dict[str, Any]
) -> None:
    brain = Brain()
    agent, replies = await converse(family, params, brain)

    assert len(replies) == len(QUESTIONS)
    assert [m.role for m in agent.workspace.dialogue] == ["user", "assistant"] * len(QUESTIONS)
    assert [m.content for m in agent.workspace.dialogue[::2]] == QUESTIONS
    role = "autonomous" if family == "autonomous" else "responder"
    openers = first_calls_of_each_turn(brain, role)
    assert len(openers) == len(QUESTIONS)
    for turn, messages in enumerate(openers, start=1):
        pairs = as_pairs(messages)
        assert isinstance(messages[0], SystemMessage)
        assert [m for m in messages[1:] if isinstance(m, SystemMessage)] == []
        assert pairs[1:] == expected_history(agent, turn, family)
        everything = "\n".join(text for _, text in pairs)
        for earlier in QUESTIONS[:turn]:
            assert everything.count(earlier) == 1, (turn, earlier)
    for messages in brain.of("updater"):  # the workflow's updater sees each turn once too
        everything = "\n".join(text for _, text in as_pairs(messages))
        for question in QUESTIONS:
            assert everything.count(question) <= 1


@pytest.mark.parametrize(("family", "params"), FAMILIES, ids=IDS)
async def test_private_blocks_never_reach_the_public_reply(
    family: str, params: dict[str, Any]
) -> None:
    agent, replies = await converse(family, params, Brain())
    for reply in replies:
        assert SECRET not in reply
        assert "<secret>" not in reply and "</secret>" not in reply
        assert reply.startswith("answer ") or family == "public_cot"
    public = " ".join(m.content for m in agent.workspace.dialogue)
    assert SECRET not in public
    assert "<working_memory>" not in public and "## 1. Goals and Plans" not in public


async def test_memory_and_reasoning_blocks_in_a_reply_are_removed() -> None:
    def leaky(n: int, current: str) -> str:
        return (
            "<think>I picked zebra</think>Here is my answer."
            "<working_memory>## 2. Facts and Knowledge\n- zebra</working_memory>"
            " <private_state>zebra</private_state>Good luck! <secret>zebra"
        )

    for family, params in FAMILIES:
        agent = make_agent(family, Brain(reply=leaky), **params)
        reply = await agent.respond(QUESTIONS[0])
        assert "Here is my answer." in reply and "Good luck!" in reply
        if family == "public_cot":  # its reasoning is public by design, nothing else is
            assert reply.startswith("thinking 1\nI picked zebra\n\n")
            assert reply.count(SECRET) == 1
        else:
            assert SECRET not in reply, family
        assert "<" not in reply and ">" not in reply


async def test_vanilla_discards_reasoning() -> None:
    brain = Brain()
    agent, replies = await converse("vanilla", {}, brain)
    assert replies == ["answer 1", "answer 2", "answer 3", "answer 4"]
    for messages in brain.of("responder"):
        assert "thinking" not in "\n".join(text for _, text in as_pairs(messages))
        assert ELICIT_REASONING not in as_pairs(messages)[0][1]
    assert agent.private_state() == ""


@pytest.mark.parametrize("think_tags", [False, True], ids=["thought-field", "think-tags"])
async def test_private_cot_shows_its_own_earlier_reasoning_back(think_tags: bool) -> None:
    brain = Brain(think_tags=think_tags)
    agent, replies = await converse("private_cot", {}, brain)

    assert replies == ["answer 1", "answer 2", "answer 3", "answer 4"]
    last = as_pairs(brain.of("responder")[-1])
    assert last[0][1].endswith(ELICIT_REASONING)  # elicit defaults to true
    assistant_turns = [text for role, text in last if role == "assistant"]
    assert assistant_turns == [f"<think>\nthinking {n}\n</think>\nanswer {n}" for n in (1, 2, 3)]
    assert agent.private_state() == "thinking 1\nthinking 2\nthinking 3\nthinking 4"
    assert all("thinking" not in m.content for m in agent.workspace.dialogue)


async def test_private_cot_without_elicitation_relies_on_the_reasoning_channel() -> None:
    brain = Brain()
    agent = make_agent("private_cot", brain, elicit=False)
    await agent.respond(QUESTIONS[0])
    assert ELICIT_REASONING not in as_pairs(brain.of("responder")[0])[0][1]
    assert agent.private_state() == "thinking 1"


async def test_public_cot_publishes_its_reasoning() -> None:
    brain = Brain()
    agent, replies = await converse("public_cot", {}, brain)
    assert replies == [f"thinking {n}\n\nanswer {n}" for n in (1, 2, 3, 4)]
    last = as_pairs(brain.of("responder")[-1])
    assert [text for role, text in last if role == "assistant"] == replies[:3]
    assert last[0][1].endswith(ELICIT_REASONING)
    assert agent.private_state() == ""


@pytest.mark.parametrize("strategy", STRATEGIES)
async def test_autonomous_agents_keep_private_notes_across_turns(strategy: str) -> None:
    brain = Brain()
    agent, _ = await converse("autonomous", {"strategy": strategy}, brain)
    state = agent.private_state()
    assert [f"- note {n}" in state for n in (1, 2, 3, 4)] == [True] * 4
    # each turn: one tool call, then the answer that sees the updated memory
    assert len(brain.of("autonomous")) == 2 * len(QUESTIONS)
    answer_call = as_pairs(brain.of("autonomous")[1])
    assert "- note 1" in answer_call[0][1]
    assert agent.workspace.broadcasts["responder"]["errors"] == []
    assert all("note" not in m.content for m in agent.workspace.dialogue)


async def test_the_history_window_shows_only_the_last_messages(tmp_path: Path) -> None:
    path = tmp_path / "windowed.yaml"
    path.write_text(
        "name: windowed\n"
        "specialists:\n"
        "  responder: {kind: responder, prompt: vanilla, history: 2}\n"
        "entry: responder\n",
        encoding="utf-8",
    )
    brain = Brain()
    found, _ = providers(brain)
    agent = build_agent(load_agent_spec(path), found.get, provider="fake")
    for q in QUESTIONS:
        await agent.respond(q)
    last = as_pairs(brain.of("responder")[-1])
    assert last[1:] == [
        ("user", QUESTIONS[2]),
        ("assistant", "answer 3"),
        ("user", QUESTIONS[3]),
    ]
