"""The admissible actions written into an input and read back."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cogarch.core.affordances import format_input, split_input
from cogarch.models import CallInfo, FunctionModel, Model, as_pairs
from cogarch.workspace import build_agent, load_agent_spec

ACTION = st.text(alphabet=st.characters(blacklist_categories=["Cc", "Cs", "Zl", "Zp"]), min_size=1)


def test_an_observation_with_actions_reads_back() -> None:
    text = format_input(
        "You are in the kitchen.\nYour task is to: put a mug in the sink.",
        [
            "go to sink 1",
            "take mug 1 from countertop 1",
        ],
    )
    found = split_input(text)
    assert found.observation.endswith("put a mug in the sink.")
    assert found.actions == ("go to sink 1", "take mug 1 from countertop 1")
    assert found.allows("Go to  sink 1") is True
    assert found.allows("go to sink 2") is False


def test_text_without_actions_is_all_observation() -> None:
    found = split_input("Shall we play a game?")
    assert found.actions is None and found.observation == "Shall we play a game?"
    assert found.allows("anything") is None


def test_an_empty_list_allows_nothing() -> None:
    found = split_input(format_input("Nothing to do here.", []))
    assert found.actions == () and found.allows("look") is False


@given(st.text(), st.lists(ACTION.map(str.strip).filter(bool), max_size=8))
def test_any_observation_and_actions_round_trip(observation: str, actions: list[str]) -> None:
    actions = [" ".join(a.split()) for a in actions if " ".join(a.split())]
    found = split_input(format_input(observation, actions))
    assert found.actions == tuple(actions)


async def test_a_responder_can_show_earlier_inputs_without_their_action_lists() -> None:
    seen: list[list[tuple[str, str]]] = []

    def reply(messages: object, info: CallInfo) -> str:
        seen.append(as_pairs(messages))  # type: ignore[arg-type]
        return "ACTION: [look]"

    model = Model(FunctionModel(reply), provider="f", model="f", fake=True)
    agent = build_agent(load_agent_spec("alfworld_react"), lambda name: model, provider="f")
    await agent.respond(format_input("You are in a room.", ["look", "go to sink 1"]))
    await agent.respond(format_input("You see a sink.", ["look"]))

    earlier, current = seen[-1][1][1], seen[-1][-1][1]
    assert earlier == "You are in a room."
    assert split_input(current).actions == ("look",)
