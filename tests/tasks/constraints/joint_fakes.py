"""Fakes for cross-agent judging: three agents with telltale replies and a judge that records
what it is shown.

The agents never say their names: ``kestrel`` answers "All constraints kept", ``osprey``
"An UNSUPPORTED guess" and ``heron`` "Noted". The judge (``judge``) keeps, per call, the
user message it saw and the kinds of the replies in the order shown (``SEEN``); it gives an
unsupported claim to every UNSUPPORTED reply and a supported one to the others. ``FAIL``
makes it raise (a crash in the middle of the judging pass).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from cogarch.models.fakes import CallInfo

Pairs = Sequence[tuple[str, str]]
KINDS = {"All constraints kept": "kestrel", "An UNSUPPORTED guess": "osprey", "Noted": "heron"}
SEEN: list[tuple[str, list[str]]] = []
FAIL: list[bool] = [False]
_REPLY = re.compile(r'<reply id="([A-Z])">\n(.*?)\n</reply>', re.DOTALL)
_TURN = re.compile(r"\(turn (\d+)\)")


def _turn(pairs: Pairs) -> int:
    return sum(1 for role, _ in pairs if role == "user")


def kestrel(pairs: Pairs, seed: int, call: CallInfo) -> str:
    return f"All constraints kept (turn {_turn(pairs)})."


def osprey(pairs: Pairs, seed: int, call: CallInfo) -> str:
    return f"An UNSUPPORTED guess (turn {_turn(pairs)})."


def heron(pairs: Pairs, seed: int, call: CallInfo) -> str:
    return f"Noted (turn {_turn(pairs)})."


def judge(pairs: Pairs, seed: int, call: CallInfo) -> str:
    if FAIL[0]:
        raise RuntimeError("judge crashed")
    prompt = pairs[-1][1]
    replies = _REPLY.findall(prompt)
    kinds = [next(k for text, k in KINDS.items() if body.startswith(text)) for _, body in replies]
    if replies:
        SEEN.append((prompt, kinds))
    verdicts = []
    for letter, body in replies:
        claim = {"claim": body, "supported": "UNSUPPORTED" not in body}
        scores = dict.fromkeys(("relevance", "answer_quality", "instruction_following"), 8)
        verdicts.append(
            {"reply": letter, "claims": [claim], "violated": [], "omitted": [], **scores}
            | {"coherence": 8}
        )
    if not replies:  # a per-reply audit
        body = prompt.split("<reply>\n", 1)[1]
        SEEN.append((prompt, [next(k for t, k in KINDS.items() if body.startswith(t))]))
        claim = {"claim": body, "supported": "UNSUPPORTED" not in body}
        scores = dict.fromkeys(("relevance", "answer_quality", "instruction_following"), 8)
        return json.dumps(
            {"claims": [claim], "violated": [], "omitted": [], **scores, "coherence": 8}
        )
    return json.dumps({"verdicts": verdicts})
