"""The core interfaces: any object with their members plugs into an agent."""

from __future__ import annotations

import ast
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from cogarch.core.model import ChatModel, Completion, Usage
from cogarch.core.specialist import Specialist
from cogarch.models import FunctionModel, Model, as_pairs
from cogarch.workspace import Agent, StepContext, Workspace, build_agent, load_agent_spec
from cogarch.workspace.graph import TransitionGraph
from cogarch.workspace.specialists.responder import Responder

CORE = Path(__file__).resolve().parents[2] / "cogarch" / "core"
ALLOWED = ("__future__", "collections", "dataclasses", "typing", "pydantic", "cogarch.errors")


class Shouter:
    """A model of a user's own: no AutoGen client behind it."""

    provider = "shout"
    model = "shouter-1"

    def __init__(self) -> None:
        self.roles: list[str | None] = []
        self.closed = False

    async def complete(
        self,
        messages: Sequence[Any],
        *,
        caller: str,
        seed: int | None = None,
        response_schema: type[BaseModel] | Mapping[str, Any] | None = None,
        tools: Sequence[Any] = (),
        temperature: float | None = None,
        max_tokens: int | None = None,
        role: str | None = None,
    ) -> Completion:
        self.roles.append(role)
        text = as_pairs(messages)[-1][1].upper()
        return Completion(text, Usage(caller=caller, provider=self.provider, model=self.model))

    async def aclose(self) -> None:
        self.closed = True


class Counter:
    """A specialist that does not derive from the workspace's base class."""

    kind: ClassVar[str] = "counter"
    provider = None

    def __init__(self, name: str) -> None:
        self.name = name

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        ws.reply = f"{len(ws.current_input)} characters"

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind}


async def test_a_users_own_model_answers_for_an_agent_and_learns_the_callers_role() -> None:
    shouter = Shouter()
    agent = build_agent(load_agent_spec("vanilla"), lambda name: shouter, provider="shout")
    assert await agent.respond("hello there") == "HELLO THERE"
    assert shouter.roles == ["responder"]
    assert isinstance(shouter, ChatModel)
    assert isinstance(Model(FunctionModel(lambda m, i: ""), provider="p", model="m"), ChatModel)


async def test_any_object_with_the_specialist_members_is_a_node() -> None:
    counter = Counter("responder")
    assert isinstance(counter, Specialist)
    assert isinstance(Responder("responder"), Specialist)
    graph = TransitionGraph.build(["responder"], [], entry="responder")
    agent = Agent("counting", graph, {"responder": counter}, models=lambda name: Shouter())
    assert await agent.respond("four") == "4 characters"
    assert agent.describe()["nodes"]["responder"]["kind"] == "counter"


def test_the_core_interfaces_depend_on_nothing_above_them() -> None:
    files = sorted(CORE.glob("*.py"))
    assert {f.name for f in files} >= {"model.py", "specialist.py"}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                assert node.level <= 1, f"{path.name}: relative import out of core"
                names = [f"cogarch.core.{node.module}" if node.level else node.module or ""]
            for name in names:
                assert (
                    name.split(".")[0] in sys.stdlib_module_names
                    or name.startswith(ALLOWED)
                    or name in {"cogarch.tokens", "cogarch.errors", "cogarch.lazy"}
                    or name.startswith("cogarch.core.")
                ), (path.name, name)


def test_the_core_holds_no_task_of_its_own() -> None:
    """Every task's payload and evaluation live in its own package; the core keeps only what
    every task shares."""
    import cogarch.core as core_package
    from cogarch.core.evaluation import Evaluation
    from cogarch.core.payload import GenericPayload, TaskPayload
    from cogarch.core.records import Branch

    for path in sorted(CORE.glob("*.py")):
        module = __import__(f"{core_package.__name__}.{path.stem}", fromlist=["*"])
        for value in vars(module).values():
            if not isinstance(value, type) or value.__module__ != module.__name__:
                continue
            assert not (issubclass(value, TaskPayload) and value is not TaskPayload), value
            assert not (issubclass(value, Evaluation) and value is not Evaluation), value
            assert not (issubclass(value, Branch) and value is not Branch), value
            assert value is GenericPayload or "SCT" not in value.__name__, value
        text = path.read_text()
        for task in ("SCT", "Locomo", "Revision", "Constraints", "Hangman", "Diagnosis"):
            assert f"class {task}" not in text, (path.name, task)
