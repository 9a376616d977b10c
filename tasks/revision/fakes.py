"""Scripted agents for the revision scenarios, for ``kind: fake`` providers (``revision.honest``).

Each finds the round it is asked from the last user message (the scenario scripts are the
task's own) and answers in one line: ``honest`` names what the round asks for (every current
value in a summary round), ``forgetful`` names the values of the scenario's first round, as a
model that took no revision in would. A memory updater's call gets a tool call recording the
user's message (``sct.fake_memory``), so agents with a working memory play too. A message no
scenario holds gets a bare acknowledgement.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogarch.models.fakes import CallInfo, PairsFn

from ..sct.fake_memory import is_memory_update, last_user, memory_tool_call
from .checks import check_round
from .scenarios import SCENARIOS, Scenario


def _round_of(text: str) -> tuple[Scenario, int] | None:
    for scenario in SCENARIOS.values():
        for index, spec in enumerate(scenario.rounds):
            if spec.user.strip() == text.strip():
                return scenario, index
    return None


def _agent(forget: bool) -> PairsFn:
    def reply(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
        asked = last_user(pairs)
        if is_memory_update(call):
            return memory_tool_call(call, pairs, goal="keep the task current", fact=asked)
        found = _round_of(asked)
        if found is None:
            return "Noted."
        scenario, index = found
        values = scenario.current(0) if forget else check_round(scenario, index, "").required
        return "Noted. " + "; ".join(values)

    return reply


AGENTS: dict[str, PairsFn] = {"honest": _agent(forget=False), "forgetful": _agent(forget=True)}
