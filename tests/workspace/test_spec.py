"""Agent specs: loading, parameters, and errors that name the problem and list the choices."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from cogarch.errors import ConfigError, UnknownNameError
from cogarch.memory import WorkingMemory
from cogarch.workspace import Agent, build_agent, load_agent_spec, ready_made_agents
from cogarch.workspace.specialists.tool_responder import ToolResponder
from tests.workspace import Brain, providers

READY = ["autonomous", "gwt", "private_cot", "public_cot", "vanilla", "workflow"]


def spec_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "agent.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def build(name_or_path: str | Path, **params: object) -> Agent:
    found, _ = providers(Brain())
    return build_agent(load_agent_spec(name_or_path, params or None), found.get, provider="fake")


def test_the_ready_made_agents_are_listed_by_name() -> None:
    ready = ready_made_agents()
    assert set(READY) <= set(ready)
    assert all(ready[name].name == f"{name}.yaml" for name in READY)


@pytest.mark.parametrize("name", READY)
def test_every_ready_made_agent_builds(name: str) -> None:
    agent = build(name)
    assert agent.name == name
    assert agent.graph.responder in agent.specialists
    assert all(s.provider == "fake" for s in agent.specialists.values())


def test_an_unknown_agent_name_lists_the_ready_made_ones() -> None:
    with pytest.raises(UnknownNameError) as info:
        load_agent_spec("autonomus")
    message = str(info.value)
    assert "unknown agent 'autonomus'" in message
    for name in READY:
        assert name in message
    assert "path to an agent spec YAML file" in message


def test_an_unknown_specialist_kind_lists_the_valid_kinds(tmp_path: Path) -> None:
    path = spec_file(
        tmp_path,
        """
        name: typo
        specialists:
          responder: {kind: respondr}
        entry: responder
        """,
    )
    with pytest.raises(UnknownNameError) as info:
        build(path)
    message = str(info.value)
    assert "unknown specialist 'respondr'" in message
    for kind in ("responder", "memory_updater", "tool_responder", "hub", "planner"):
        assert kind in message


def test_a_spec_naming_a_former_kind_is_refused_with_the_current_ones(tmp_path: Path) -> None:
    """Former kind names are read only in old trial files (``experiments.results.migrate``)."""
    path = spec_file(
        tmp_path,
        """
        name: old_names
        specialists:
          conscious: {kind: conscious}
          responder: {kind: responder}
        edges: [conscious -> responder]
        entry: conscious
        """,
    )
    with pytest.raises(UnknownNameError, match=r"unknown specialist 'conscious'.* hub, "):
        build(path)


def test_an_unknown_memory_kind_lists_the_valid_kinds(tmp_path: Path) -> None:
    path = spec_file(
        tmp_path,
        """
        name: typo
        memory:
          notes: {kind: workingmemory}
        specialists:
          responder: {kind: responder}
        entry: responder
        """,
    )
    with pytest.raises(UnknownNameError) as info:
        build(path)
    message = str(info.value)
    assert "unknown memory module 'workingmemory'" in message
    assert "working_memory" in message


MINIMAL = "name: typo\nentry: responder\nspecialists: {responder: {kind: responder}}\n"


@pytest.mark.parametrize(
    ("yaml_text", "path"),
    [
        (MINIMAL + "edgez: []\n", "edgez"),
        (
            "name: typo\nentry: responder\n"
            "specialists: {responder: {kind: responder, promt: vanilla}}\n",
            "specialists.responder.promt",
        ),
        (
            MINIMAL + "memory: {wm: {kind: working_memory, stratgy: overwrite}}\n",
            "memory.wm.stratgy",
        ),
        (MINIMAL + "routing: {responder: {defualt: responder}}\n", "routing.responder.defualt"),
        (MINIMAL + "edges: [{from: responder, to: responder, if: always}]\n", "edges.0.if"),
    ],
    ids=["top-level", "specialist", "memory", "routing", "edge"],
)
def test_unknown_keys_are_reported_with_their_path(
    tmp_path: Path, yaml_text: str, path: str
) -> None:
    with pytest.raises(ConfigError) as info:
        build(spec_file(tmp_path, yaml_text))
    assert f"{path}: unknown key (remove it or check its spelling)" in str(info.value)


def test_a_malformed_edge_arrow_says_how_to_write_it(tmp_path: Path) -> None:
    path = spec_file(
        tmp_path,
        """
        name: arrows
        specialists: {responder: {kind: responder}, planner: {kind: planner}}
        edges: ["planner => responder"]
        entry: planner
        """,
    )
    with pytest.raises(ConfigError, match=r"must look like 'a -> b' or 'a -> b \[when: c\]'"):
        load_agent_spec(path)


def test_arrows_carry_their_conditions(tmp_path: Path) -> None:
    path = spec_file(
        tmp_path,
        """
        name: arrows
        specialists:
          planner: {kind: planner}
          focus: {kind: reground}
          responder: {kind: responder}
        edges:
          - "planner -> focus [when: is_question]"
          - planner -> responder [when=is_question]
          - focus -> responder
        routing: {planner: {default: responder}}
        entry: planner
        """,
    )
    agent = build(path)
    assert agent.graph.edge_condition("planner", "focus") == "is_question"
    assert agent.graph.edge_condition("planner", "responder") == "is_question"
    assert agent.graph.edge_condition("focus", "responder") is None


@pytest.mark.parametrize("strategy", ["overwrite", "append_delete", "patch_replace"])
@pytest.mark.parametrize("name", ["workflow", "autonomous", "gwt"])
def test_the_strategy_parameter_is_substituted(name: str, strategy: str) -> None:
    spec = load_agent_spec(name, {"strategy": strategy})
    assert spec.params["strategy"] == strategy
    assert spec.memory["working_memory"].params() == {"strategy": strategy}
    memory = build(name, strategy=strategy).memory["working_memory"]
    assert isinstance(memory, WorkingMemory) and memory.strategy == strategy


def test_defaults_fill_parameters_that_are_not_given() -> None:
    spec = load_agent_spec("autonomous")
    assert spec.params == {"strategy": "overwrite", "tool_mode": "json"}
    responder = build("autonomous", tool_mode="native").specialists["responder"]
    assert isinstance(responder, ToolResponder)
    assert responder.params.tool_mode == "native"
    assert responder.params.max_iterations == 4
    assert responder.describe()["tool_mode"] == "native"


def test_a_boolean_parameter_is_substituted() -> None:
    agent = build("private_cot", elicit=False)
    assert agent.specialists["responder"].describe().get("elicit_reasoning", False) is False
    agent = build("private_cot")
    assert agent.specialists["responder"].describe()["elicit_reasoning"] is True


def test_an_unknown_parameter_is_refused_with_the_valid_ones() -> None:
    with pytest.raises(ConfigError) as info:
        load_agent_spec("workflow", {"strategi": "overwrite"})
    assert "agent 'workflow' has no parameter(s) strategi; its parameters: strategy" in str(
        info.value
    )
    with pytest.raises(ConfigError, match="its parameters: none"):
        load_agent_spec("vanilla", {"strategy": "overwrite"})


def test_an_invalid_parameter_value_is_reported_where_it_lands() -> None:
    with pytest.raises(ConfigError) as info:
        build("workflow", strategy="rewrite")
    message = str(info.value)
    assert "memory.working_memory.strategy" in message
    assert "'overwrite', 'append_delete' or 'patch_replace'" in message
    with pytest.raises(ConfigError, match=r"specialists\.responder\.tool_mode"):
        build("autonomous", tool_mode="telepathy")


def test_the_agent_chooser_is_the_agents_provider() -> None:
    agent = build("gwt")
    assert agent.graph.routing["conscious"].chooser == "fake"
    assert agent.graph.routing["conscious"].default == "responder"
    assert agent.graph.step_budget == 8


def test_a_spec_file_path_is_accepted_and_the_name_overridden(tmp_path: Path) -> None:
    path = spec_file(
        tmp_path,
        """
        name: mine
        params: {tone: vanilla}
        specialists:
          responder: {kind: responder, prompt: "${tone}"}
        entry: responder
        """,
    )
    spec = load_agent_spec(path, {"tone": "private_cot"})
    assert spec.specialists["responder"].params()["prompt"] == "private_cot"
    found, _ = providers(Brain())
    assert build_agent(spec, found.get, name="renamed", provider="fake").name == "renamed"


def test_a_placeholder_without_a_parameter_is_refused(tmp_path: Path) -> None:
    path = spec_file(
        tmp_path,
        """
        name: mine
        params: {tone: vanilla}
        specialists:
          responder: {kind: responder, prompt: "${tnoe}"}
        entry: responder
        """,
    )
    with pytest.raises(ConfigError, match="tnoe"):
        load_agent_spec(path)
