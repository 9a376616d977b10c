"""Scripted agents and a scripted judge for the constraint scenarios (``constraints.honest``).

``honest`` acknowledges each turn and says it keeps the active constraints; ``forgetful``
says none apply. ``judge`` audits a reply as the task's judge would, from the reply the judge
prompt quotes: a reply that denies the constraints is one unsupported claim (H_t = 1) and
violates every active constraint; any other is one supported claim with nothing violated. A
memory updater's call gets a tool call recording the user's message (``sct.fake_memory``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cogarch.models.fakes import CallInfo, PairsFn

from ..sct.fake_memory import is_memory_update, last_user, memory_tool_call
from .judge import verdict_json

FORGOTTEN = "No constraints apply here; any approach works."
KEPT = "Understood; I keep every active constraint in view."
_REPLY = re.compile(r"<reply>\n(.*)\n</reply>", re.DOTALL)
_ACTIVE = re.compile(r"Active constraints:\n((?:- .*\n?)*)")
_ID = re.compile(r"^- \[([^\]]+)\]", re.MULTILINE)


def _agent(text: str) -> PairsFn:
    def reply(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
        if is_memory_update(call):
            asked = last_user(pairs)
            return memory_tool_call(call, pairs, goal="keep the constraints", fact=asked)
        return text

    return reply


def judge(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    prompt = last_user(pairs)
    found = _REPLY.search(prompt)
    audited = found.group(1).strip() if found else ""
    if FORGOTTEN in audited:
        block = _ACTIVE.search(prompt)
        violated = _ID.findall(block.group(1)) if block else []
        claims = [{"claim": FORGOTTEN, "supported": False}]
        return verdict_json(claims=claims, violated=violated)
    return verdict_json(claims=[{"claim": audited[:200] or KEPT, "supported": True}])


AGENTS: dict[str, PairsFn] = {
    "honest": _agent(KEPT),
    "forgetful": _agent(FORGOTTEN),
    "judge": judge,
}
