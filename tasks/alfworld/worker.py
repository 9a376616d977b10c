"""The engine's own process: loads, resets and steps one game at a time for its parent.

The parent (``remote.py``) writes one JSON request per line on this process's stdin and reads
one JSON answer per line. Everything the engine or its planner library print (at the C level
too) goes to stderr, so the answers have the protocol channel to themselves. An engine that
raises, or ends the process (fast-downward calls ``sys.exit`` on a malformed problem), answers
with the error and this process ends; one that hangs is killed by the parent at its deadline.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any, BinaryIO


def _state(state: Any) -> dict[str, Any]:
    """The engine's game state as JSON values (what does not serialise is left out)."""
    out: dict[str, Any] = {}
    for key, value in dict(state).items():
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            continue
        out[str(key)] = value
    return out


def _answer(channel: BinaryIO, answer: dict[str, Any]) -> None:
    channel.write(json.dumps(answer).encode() + b"\n")
    channel.flush()


def serve(requests: BinaryIO, channel: BinaryIO) -> None:
    """Answer ``requests`` (JSON lines) on ``channel`` until end of input or a failure."""
    from .engine import close_engine, open_engine, translating
    from .speedup import uninstall_parse_cache

    env: Any = None
    for line in requests:
        try:
            request = json.loads(line)
            op = request["op"]
            if op == "load":
                if env is not None:
                    close_engine(env)
                    env = None
                memoise = bool(request.get("memoise", True))
                if not memoise:  # the stock engine, as asked (a child outlives its games)
                    uninstall_parse_cache()
                env = open_engine(request["data"], memoise=memoise)
                answer: dict[str, Any] = {"ok": True}
            elif op == "reset":
                with translating():
                    answer = {"ok": True, "state": _state(env.reset())}
            elif op == "step":
                state, _, _ = env.step(str(request["command"]))
                answer = {"ok": True, "state": _state(state)}
            elif op == "close":
                if env is not None:
                    close_engine(env)
                    env = None
                answer = {"ok": True}
            else:
                answer = {"ok": False, "error": f"unknown request {op!r}"}
        except BaseException as exc:
            name = type(exc).__name__
            if isinstance(exc, SystemExit):
                said = exc.code if isinstance(exc.code, str) else f"exit {exc.code}"
                text = f"the engine ended its process ({' '.join(said.split())})"
            else:
                text = f"{name}: {exc}" if str(exc) else name
            _answer(channel, {"ok": False, "error": text})
            return  # an engine that failed is not trusted with another game
        _answer(channel, answer)


def main() -> None:
    # Ctrl-C at the terminal reaches this process too: end at once, even inside C code
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # whatever else is printed goes to stderr
    sys.stdout = sys.stderr
    serve(sys.stdin.buffer, channel)
