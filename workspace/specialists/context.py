"""Building a model's view of the dialogue: each earlier turn once, in order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from autogen_core.models import LLMMessage

from cogarch.models.messages import assistant, user
from cogarch.tokens import count_tokens

from ..prompts import fill, placeholders, resolve_prompt
from ..specialist import StepContext
from ..workspace import Workspace


def prompt_values(ws: Workspace, ctx: StepContext, budget: int | None = None) -> dict[str, str]:
    """Placeholder values: every memory module's rendering by name, then string broadcasts."""
    values = {name: module.render(budget) for name, module in ctx.memory.items()}
    values.update({k: v for k, v in ws.broadcasts.items() if isinstance(v, str)})
    return values


def system_prompt(template: str, ws: Workspace, ctx: StepContext, budget: int | None = None) -> str:
    """The template with its placeholders filled; a placeholder with no value this turn is
    left empty (a routed agent's optional broadcasts)."""
    return filled_prompt(template, ws, ctx, budget)[0]


def filled_prompt(
    template: str,
    ws: Workspace,
    ctx: StepContext,
    budget: int | None = None,
    extra: Mapping[str, str] | None = None,
) -> tuple[str, int]:
    """``system_prompt`` (with ``extra`` values on top) and the tokens of what filled its
    placeholders, each distinct placeholder once: the memory the prompt carries, without the
    template's own text (the fixed instructions)."""
    text = resolve_prompt(template)
    values = {**prompt_values(ws, ctx, budget), **(extra or {})}
    names = list(dict.fromkeys(placeholders(text)))
    for name in names:
        values.setdefault(name, "")
    return fill(text, values), sum(count_tokens(values[name]) for name in names)


def history_tokens(messages: Sequence[LLMMessage]) -> int:
    """Tokens of the text of earlier dialogue messages (their reasoning included)."""
    return sum(count_tokens(str(getattr(m, "content", ""))) for m in messages)


def dialogue_messages(
    ws: Workspace,
    window: int | None = None,
    thoughts: Mapping[int, Any] | None = None,
    past_affordances: bool = True,
) -> list[LLMMessage]:
    """The public history (last ``window`` messages) then the current input.

    With ``thoughts`` (turn number -> private reasoning), each earlier assistant message is
    shown with its own reasoning in ``<think>`` tags, as the model's own earlier thoughts.
    Without ``past_affordances``, earlier inputs are shown without the admissible actions an
    environment listed with them (``affordances``); the current input keeps its list.
    """
    history = ws.history(window)
    offset = len(ws.dialogue) - len(history)
    shown = [m.content for m in history if m.role == "user"]
    if not past_affordances:  # the observations the workspace kept of them
        ws.percept()  # the turn's, kept with it
        inputs = [m.content for m in ws.dialogue if m.role == "user"]
        shown = ws.acting_part().observed(inputs)[len(inputs) - len(shown) :]
    earlier = iter(shown)
    messages: list[LLMMessage] = []
    for i, message in enumerate(history):
        if message.role == "user":
            messages.append(user(next(earlier)))
            continue
        turn = (offset + i) // 2 + 1
        thought = (thoughts or {}).get(turn)
        text = f"<think>\n{thought}\n</think>\n{message.content}" if thought else message.content
        messages.append(assistant(text))
    messages.append(user(ws.current_input))
    return messages


def transcript_text(ws: Workspace, window: int | None = None, include_current: bool = True) -> str:
    lines = [f"{m.role.capitalize()}: {m.content}" for m in ws.history(window)]
    if include_current:
        lines.append(f"User: {ws.current_input}")
        if ws.reply is not None:
            lines.append(f"Assistant: {ws.reply}")
    return "\n".join(lines)
