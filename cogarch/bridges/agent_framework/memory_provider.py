"""Any cogarch memory module as an Agent Framework context provider.

Before each run the provider retrieves for the new message and adds the module's block to
the run's instructions the way the module's responder shows it in a composed agent (its
prompt with the block in its placeholder: ``{memories}`` for the retrieval baselines,
``<working_memory> {working_memory} </working_memory>`` for the working memory); after the
run it takes the turn in: ``ingest`` for modules that learn from turns (``raw_turns``,
``mem0``, ...), and for the working memory the workflow agent's memory updater, which edits
it through its tools with one model call.

The module's state is JSON data (``MemoryModule.save_state``) kept in the provider's part of
the session state, so it travels with the session: ``AgentSession.to_dict`` / ``from_dict``
and Agent Framework's session stores carry it, a reloaded session goes on with the memory it
had, and two sessions never share one (each starts from a fresh copy of the module the
provider was given). Between runs of one live session the module is kept in memory and
reloaded only when the session's state is not the one it last wrote.
"""

from __future__ import annotations

import uuid
import weakref
from collections.abc import Callable, Mapping
from typing import Any

from agent_framework import AgentSession, ContextProvider, SessionContext, SupportsAgentRun

from cogarch.config import validate_mapping
from cogarch.core.memory import MemoryContext, MemoryModule, TurnRecord
from cogarch.core.model import ChatModel
from cogarch.core.state import state_object, state_part
from cogarch.errors import ConfigError
from cogarch.memory.registry import build_memory
from cogarch.memory.retrieval.prompts import RESPONDER_PROMPTS
from cogarch.memory.working.module import WorkingMemory
from cogarch.workspace.prompts import fill, placeholders, resolve_prompt
from cogarch.workspace.route_log import RouteLog
from cogarch.workspace.specialist import StepContext
from cogarch.workspace.specialists.memory_updater import MemoryUpdater
from cogarch.workspace.workspace import Message as WorkspaceMessage
from cogarch.workspace.workspace import Workspace

from .chat_client import CogarchChatClient

DIALOGUE_KEPT = 12
"""Messages of the recent dialogue the provider keeps for the working memory's updater
(which shows it the last 6 by default)."""

GENERIC_PROMPT = "RETRIEVED MEMORIES\n\n{block}"
"""How the block is shown for a module whose responder has no prompt of its own (the tail of
the retrieval baselines' responder prompts)."""


def default_prompt(module: MemoryModule) -> str:
    """The prompt the module's responder shows its block in (see the module docstring)."""
    if isinstance(module, WorkingMemory):
        return resolve_prompt("workflow_responder")
    if module.kind in RESPONDER_PROMPTS:
        return RESPONDER_PROMPTS[module.kind]
    key = getattr(module, "prompt_key", None) or "block"
    return GENERIC_PROMPT.replace("{block}", "{" + key + "}")


class MemoryContextProvider(ContextProvider):
    """A cogarch memory module (a kind and its parameters, or a module to copy) as a context
    provider.

    ``model`` answers the module's own model calls (Mem0's fact extraction, the working
    memory's updater); a module that makes none (``raw_turns``) needs no model. ``prompt``
    replaces the responder prompt the block is shown in (a prompt name or text with the
    module's placeholder, ``{memories}`` say); ``budget_tokens`` cuts the block. ``seed``
    seeds the module's model calls (default: the run's ``seed`` option, else the seed of the
    agent's chat client when it is a :class:`CogarchChatClient`).

    Args:
        memory: A memory module's kind (``raw_turns``, ``working_memory``...), or a module
            whose fork each new session starts from.
        params: The module's parameters, when ``memory`` is a kind.
        source_id: The provider's id, its key in the session state (default:
            ``cogarch_<kind>``).
        model: Answers the module's own model calls and its updater's (None: the module
            makes none).
        prompt: The responder prompt the block is shown in, a prompt name or text with the
            module's placeholder (default: the module's own).
        budget_tokens: At most this many tokens of the block are shown (None: all of it).
        seed: The seed of the module's model calls (default: as above).
        updater: Settings of the working memory's updater (``max_attempts``...).

    Raises:
        ConfigError: ``params`` are given with a module object, the prompt has no placeholder
            for the module's block, or the kind or a setting is unknown.
    """

    def __init__(
        self,
        memory: MemoryModule | str,
        params: Mapping[str, Any] | None = None,
        *,
        source_id: str | None = None,
        model: ChatModel | None = None,
        prompt: str | None = None,
        budget_tokens: int | None = None,
        seed: int | None = None,
        updater: Mapping[str, Any] | None = None,
    ) -> None:
        if isinstance(memory, str):
            self.template = build_memory(memory, dict(params or {}), where="memory")
        elif params:
            raise ConfigError(
                "params are for a memory module named by kind; a module given as an object "
                "already has its parameters"
            )
        else:
            self.template = memory.fork()
        super().__init__(source_id or f"cogarch_{self.template.kind}")
        self.model = model
        self.prompt = resolve_prompt(prompt) if prompt else default_prompt(self.template)
        self.budget_tokens = budget_tokens
        self.seed = seed
        shown = set(placeholders(self.prompt)) & self._keys(self.template)
        if not shown:
            keys = ", ".join("{" + key + "}" for key in sorted(self._keys(self.template)))
            raise ConfigError(
                f"the prompt for the '{self.kind}' memory has no placeholder for its block, so "
                f"the block would never be shown; put one of {keys} in it"
            )
        self.updater = MemoryUpdater(
            "memory_updater",
            provider=model.provider if model is not None else "memory",
            params=validate_mapping(
                MemoryUpdater.Params,
                {"memory": self.source_id, **dict(updater or {})},
                where="updater",
            ),
        )
        # the module's own calls reach ``model`` (or the error saying it needs one)
        self.template.use_provider(model.provider if model is not None else "memory")
        self._live: weakref.WeakKeyDictionary[AgentSession, tuple[str, MemoryModule]] = (
            weakref.WeakKeyDictionary()
        )

    @property
    def kind(self) -> str:
        return self.template.kind

    # -- the module a session holds ---------------------------------------------------------
    def module(self, session: AgentSession) -> MemoryModule:
        """The session's module as its state holds it (a fresh copy for a new session)."""
        state = state_object(
            session.state.get(self.source_id) or {},
            f"session state of memory provider '{self.source_id}'",
        )
        revision = str(state.get("revision"))
        cached = self._live.get(session)
        if cached is not None and cached[0] == revision:
            return cached[1]
        module = self.template.fork()
        if state:  # refused before the agent replies, never halfway through a turn
            owner = f"session state of memory provider '{self.source_id}'"
            self.check_state(state, owner, load=False)
            if "module" in state:
                with state_part(owner, "module"):
                    module.load_state(state["module"])
        self._live[session] = (revision, module)
        return module

    def check_state(self, value: Any, owner: str, *, load: bool = True) -> None:
        """Refuse (``StateError``, naming ``owner``) a session's state of this provider that
        it could not go on from: not an object, a turn count, dialogue or failed turns of
        another shape, or (with ``load``) a module state the module refuses."""
        state = state_object(value, owner)
        with state_part(owner, "turn"):
            turn = state.get("turn", 0)
            if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
                raise ValueError(f"not a turn count: {turn!r}")
        with state_part(owner, "dialogue"):
            for pair in state.get("dialogue", []):
                role, text = pair
                if role not in ("user", "assistant") or not isinstance(text, str):
                    raise ValueError(f"not a [role, text] pair: {pair!r}")
        with state_part(owner, "failed_turns"):
            if not all(
                isinstance(t, int) and not isinstance(t, bool)
                for t in state.get("failed_turns", [])
            ):
                raise ValueError("not a list of turn numbers")
        if load and "module" in state:
            with state_part(owner, "module"):
                self.template.fork().load_state(state["module"])

    def _keys(self, module: MemoryModule) -> set[str]:
        """The placeholders the block fills: the provider's and module's names, and the
        module's own placeholder (``memories``, ``notes_block``)."""
        return {self.source_id, module.kind, getattr(module, "prompt_key", None) or "block"}

    def private_text(self, session: AgentSession) -> str:
        """The module's private state in ``session``, as text."""
        return self.module(session).private_text()

    def _models(self) -> Callable[[str], ChatModel]:
        model = self.model

        def source(name: str) -> ChatModel:
            if model is None:
                raise ConfigError(
                    f"the '{self.kind}' memory module makes model calls of its own; give its "
                    "context provider a model: MemoryContextProvider(..., model=...)"
                )
            return model

        return source

    def _seed(self, agent: SupportsAgentRun, context: SessionContext) -> int | None:
        """The seed of the module's calls: the provider's, else the run's ``seed`` option,
        else the seed of the agent's chat client when it is cogarch's."""
        if self.seed is not None:
            return self.seed
        if context.options.get("seed") is not None:
            return int(context.options["seed"])
        client = getattr(agent, "client", None)
        return client.seed if isinstance(client, CogarchChatClient) else None

    def _context(
        self, module: MemoryModule, agent: SupportsAgentRun, context: SessionContext
    ) -> MemoryContext:
        return MemoryContext(self._models(), self._seed(agent, context), f"memory:{module.kind}")

    # -- the provider hooks -----------------------------------------------------------------
    async def before_run(
        self,
        *,
        agent: SupportsAgentRun,
        session: AgentSession,
        context: SessionContext,
        state: dict[str, Any],
    ) -> None:
        module = self.module(session)
        query = _text(context.input_messages, roles=("user",))
        await module.retrieve(query, self._context(module, agent, context))
        block = module.render(self.budget_tokens)
        values = {name: "" for name in placeholders(self.prompt)}
        values.update({key: block for key in self._keys(module)})
        context.extend_instructions(self.source_id, fill(self.prompt, values))

    async def after_run(
        self,
        *,
        agent: SupportsAgentRun,
        session: AgentSession,
        context: SessionContext,
        state: dict[str, Any],
    ) -> None:
        module = self.module(session)
        user_text = _text(context.input_messages, roles=("user",))
        reply = context.response.text if context.response is not None else ""
        turn = int(state.get("turn", 0)) + 1
        dialogue: list[list[str]] = [list(m) for m in state.get("dialogue", [])]
        if isinstance(module, WorkingMemory):
            await self._update(module, dialogue, user_text, reply, turn, agent, context)
        else:
            mctx = MemoryContext(
                self._models(), self._seed(agent, context), f"memory:{module.kind}"
            )
            failed = await module.ingest_many([TurnRecord(turn, user_text, reply)], mctx)
            state["failed_turns"] = [*state.get("failed_turns", []), *sorted(failed)]
        dialogue += [["user", user_text], ["assistant", reply]]
        revision = uuid.uuid4().hex
        state.update(
            kind=module.kind,
            module=module.save_state(),
            turn=turn,
            dialogue=dialogue[-DIALOGUE_KEPT:],
            revision=revision,
        )
        self._live[session] = (revision, module)

    async def _update(
        self,
        module: WorkingMemory,
        dialogue: list[list[str]],
        user_text: str,
        reply: str,
        turn: int,
        agent: SupportsAgentRun,
        context: SessionContext,
    ) -> None:
        """The workflow agent's updater on this turn, with the dialogue the session kept."""
        ws = Workspace(dialogue=[WorkspaceMessage(role, text) for role, text in dialogue])  # type: ignore[arg-type]
        ws.turn = turn - 1
        ws.begin_turn(user_text)
        ws.reply = reply
        step = StepContext(
            agent=self.source_id,
            models=self._models(),
            memory={self.source_id: module},
            route_log=RouteLog(),
            seed=self._seed(agent, context),
        )
        await self.updater.step(ws, step)


def _text(messages: list[Any], roles: tuple[str, ...]) -> str:
    """The text of ``messages`` of the given roles, one paragraph each."""
    return "\n\n".join(m.text for m in messages if str(m.role) in roles and m.text)
