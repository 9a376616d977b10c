"""The real memory libraries beside cogarch's re-implementations, on the same dialogues.

For each pair (``mem0_lib`` / ``mem0``, ``memoryos_lib`` / ``memoryos``, ``amem_lib`` /
``amem``), both modules take in the same turns, one at a time, with the same model (one
provider, one seed), and after each turn both retrieve for the same query (the next turn's
user message, as the retrieval specialist would before answering it). Per turn: the model
calls and tokens each spent, what each retrieved and how much of it the other retrieved too;
per dialogue: the memories each stored (how many, and how many of the library's have a
counterpart in ours). Texts match when they are equal after normalising case, spaces and
punctuation (*exact*), or when rapidfuzz's ``token_set_ratio`` of the two reaches 80
(*fuzzy*).

``outcome_rows`` reads the trial files of a Hangman SCT run (``cogarch run``) into the outcome
class of every trial of every agent, side by side by trial index.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from cogarch.core.memory import MemoryContext, MemoryModule, TurnRecord
from cogarch.core.model import ChatModel
from cogarch.files import FileRefusedError, read_json
from cogarch.memory.registry import build_memory
from cogarch.models.metering import Meter

PAIRS: dict[str, tuple[str, str]] = {
    "mem0": ("mem0_lib", "mem0"),
    "memoryos": ("memoryos_lib", "memoryos"),
    "amem": ("amem_lib", "amem"),
}
"""Baseline -> (the library's module, cogarch's re-implementation)."""

PARAMS: dict[str, dict[str, Any]] = {
    "mem0_lib": {"window": 10, "top_k": 10},
    "mem0": {"window": 10, "top_k": 10},
    "memoryos_lib": {"window": 10, "top_k": 7, "short_term_capacity": 10},
    "memoryos": {"window": 10, "top_k": 7, "short_term_capacity": 10},
    "amem_lib": {"window": 30, "top_k": 8},
    "amem": {"window": 30, "top_k": 8},
}
"""The paper's settings of each module (its ready-made agent's)."""

FUZZY = 80.0
_PUNCT = re.compile(r"[^\w\s]")


@dataclass(frozen=True)
class Dialogue:
    """Turns to take in, and the query each turn is followed by."""

    name: str
    turns: tuple[TurnRecord, ...]
    queries: tuple[str, ...]


@dataclass
class TurnRow:
    dialogue: str
    pair: str
    turn: int
    lib_calls: int
    ours_calls: int
    lib_tokens: int
    ours_tokens: int
    lib_retrieved: int
    ours_retrieved: int
    exact_overlap: float
    fuzzy_overlap: float


@dataclass
class DialogueRow:
    dialogue: str
    pair: str
    turns: int
    lib_memories: int
    ours_memories: int
    exact_shared: int
    fuzzy_shared: int
    lib_calls: int
    ours_calls: int
    lib_tokens: int
    ours_tokens: int
    mean_fuzzy_overlap: float
    errors: list[str] = field(default_factory=list)


def normal(text: str) -> str:
    return " ".join(_PUNCT.sub(" ", text.lower()).split())


def exact_overlap(a: Sequence[str], b: Sequence[str]) -> float:
    """Jaccard of the two sets of normalised texts (1.0 when both are empty)."""
    sa, sb = {normal(t) for t in a}, {normal(t) for t in b}
    return 1.0 if not sa and not sb else len(sa & sb) / len(sa | sb)


def fuzzy_matches(a: Sequence[str], b: Sequence[str], threshold: float = FUZZY) -> int:
    """How many texts of ``a`` have a counterpart in ``b`` (each of ``b`` used once)."""
    free = [normal(t) for t in b]
    found = 0
    for text in (normal(t) for t in a):
        best, where = 0.0, -1
        for i, other in enumerate(free):
            score = fuzz.token_set_ratio(text, other)
            if score > best:
                best, where = score, i
        if where >= 0 and best >= threshold:
            found += 1
            free.pop(where)
    return found


def fuzzy_overlap(a: Sequence[str], b: Sequence[str]) -> float:
    """Matched texts over the larger of the two lists (1.0 when both are empty)."""
    if not a and not b:
        return 1.0
    return fuzzy_matches(a, b) / max(len(a), len(b))


def stored_texts(module: MemoryModule) -> list[str]:
    """The texts of every memory ``module`` stores: its entries (``memories()``), notes
    (``notes()``), or pages and knowledge (cogarch's ``memoryos``: ``Q: ... A: ...`` as
    ``memoryos_lib`` writes its pages)."""
    for name in ("memories", "notes"):
        listing = getattr(module, name, None)
        if callable(listing):
            return [m.text for m in listing()]
    pages = [*getattr(module, "short_term", []), *getattr(module, "pages", {}).values()]
    store = getattr(module, "knowledge_store", None)
    knowledge = [r.text for r in store.all()] if store is not None else []
    return [f"Q: {p.user} A: {p.assistant}" for p in pages] + knowledge


def _tokens(meter: Meter) -> int:
    summary = meter.summary()
    return int(summary["prompt_tokens"]) + int(summary["completion_tokens"])


async def compare_dialogue(
    dialogue: Dialogue,
    pair: str,
    model: ChatModel,
    *,
    seed: int = 1337,
    params: Mapping[str, Mapping[str, Any]] | None = None,
    build: Callable[[str, dict[str, Any]], MemoryModule] | None = None,
) -> tuple[list[TurnRow], DialogueRow]:
    """Feed ``dialogue`` to both modules of ``pair`` with ``model``; the per-turn rows and the
    dialogue's summary row."""
    lib_kind, ours_kind = PAIRS[pair]
    settings = {**PARAMS, **(params or {})}
    make = build or (lambda kind, values: build_memory(kind, values, where=kind))
    modules = {
        side: make(kind, dict(settings[kind]))
        for side, kind in (("lib", lib_kind), ("ours", ours_kind))
    }
    ctx = MemoryContext(model=lambda _name: model, seed=seed)
    for module in modules.values():
        module.use_provider(model.provider)
    rows: list[TurnRow] = []
    totals = {"lib": Meter(), "ours": Meter()}
    errors: list[str] = []
    for turn, query in zip(dialogue.turns, dialogue.queries, strict=True):
        found: dict[str, list[str]] = {}
        meters: dict[str, Meter] = {}
        for side, module in modules.items():
            meter = Meter()
            with meter.active(), totals[side].active():
                failed = await module.ingest_many([turn], ctx)
                errors += [f"{side} turn {i}: {e}" for i, e in failed.items()]
                items = await module.retrieve(query, ctx)
            meters[side] = meter
            found[side] = [i.text for i in items]
        rows.append(
            TurnRow(
                dialogue=dialogue.name,
                pair=pair,
                turn=turn.index,
                lib_calls=meters["lib"].model_calls,
                ours_calls=meters["ours"].model_calls,
                lib_tokens=_tokens(meters["lib"]),
                ours_tokens=_tokens(meters["ours"]),
                lib_retrieved=len(found["lib"]),
                ours_retrieved=len(found["ours"]),
                exact_overlap=round(exact_overlap(found["lib"], found["ours"]), 3),
                fuzzy_overlap=round(fuzzy_overlap(found["lib"], found["ours"]), 3),
            )
        )
    lib_texts, ours_texts = stored_texts(modules["lib"]), stored_texts(modules["ours"])
    ours_normal = {normal(t) for t in ours_texts}
    summary = DialogueRow(
        dialogue=dialogue.name,
        pair=pair,
        turns=len(dialogue.turns),
        lib_memories=len(lib_texts),
        ours_memories=len(ours_texts),
        exact_shared=sum(1 for t in {normal(t) for t in lib_texts} if t in ours_normal),
        fuzzy_shared=fuzzy_matches(lib_texts, ours_texts),
        lib_calls=totals["lib"].model_calls,
        ours_calls=totals["ours"].model_calls,
        lib_tokens=_tokens(totals["lib"]),
        ours_tokens=_tokens(totals["ours"]),
        mean_fuzzy_overlap=round(sum(r.fuzzy_overlap for r in rows) / max(1, len(rows)), 3),
        errors=errors,
    )
    return rows, summary


def dialogue_of(name: str, pairs: Sequence[tuple[str, str]], **turn_fields: Any) -> Dialogue:
    """A dialogue of ``(user, assistant)`` exchanges; each is followed by the next user message
    as the query (the last by its own)."""
    turns = tuple(
        TurnRecord(i + 1, u, a, source_ids=(f"{name}:{i + 1}",), **turn_fields)
        for i, (u, a) in enumerate(pairs)
    )
    queries = tuple(
        pairs[i + 1][0] if i + 1 < len(pairs) else pairs[i][0] for i in range(len(pairs))
    )
    return Dialogue(name, turns, queries)


def locomo_dialogue(path: str | Path, *, conversation: int = 0, sessions: int = 1) -> Dialogue:
    """The first ``sessions`` sessions of a LoCoMo conversation, each dialog turn one turn
    without a reply (as cogarch's LoCoMo task feeds them), dated by its session."""
    from cogarch.tasks.locomo.data import load_locomo

    conv = load_locomo(path)[conversation]
    chosen = sorted(conv.sessions)[:sessions]
    said = [t for n in chosen for t in conv.sessions[n]]
    turns = tuple(
        TurnRecord(i + 1, t.line(), "", source_ids=(t.dia_id,), time=t.time)
        for i, t in enumerate(said)
    )
    queries = tuple(
        said[i + 1].line() if i + 1 < len(said) else said[i].line() for i in range(len(said))
    )
    return Dialogue(f"locomo:{conv.sample_id}:s1-{len(chosen)}", turns, queries)


def hangman_dialogue(seed: int, letters: str = "eariotns") -> Dialogue:
    """A Hangman game as the SCT's player opens and plays it, answered by the honest scripted
    host (a fixed transcript: the same for every module and model)."""
    from cogarch.tasks.hangman.hosts import honest_host
    from cogarch.tasks.hangman.prompts import GUESS_PROMPT, OPENER_PROMPT

    pairs: list[tuple[str, str]] = []
    history: list[tuple[str, str]] = []
    for text in [OPENER_PROMPT, *(GUESS_PROMPT.format(letter=c) for c in letters)]:
        history.append(("user", text))
        reply = str(honest_host(history, seed))
        history.append(("assistant", reply))
        pairs.append((text, reply))
    return dialogue_of(f"hangman:{seed}", pairs)


def _whole(value: Any) -> int | None:
    """``value`` as a count: an int >= 0 (a float with no fraction too), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value) or value < 0 or value != int(value):
        return None
    return int(value)


def _outcome_row(path: Path, root: Path) -> dict[str, Any] | None:
    """A trial file's index, outcome and calls, read by the guarded reader with every field
    checked; None when the file cannot be used (it is left out of the table)."""
    try:
        data = read_json(path, within=root)
    except FileRefusedError:
        return None
    if not isinstance(data, dict) or _whole(data.get("trial")) is None:
        return None
    evaluation, usage = data.get("evaluation"), data.get("usage")
    outcome = evaluation.get("outcome") if isinstance(evaluation, dict) else None
    status = data.get("status")
    usage = usage if isinstance(usage, dict) else {}
    callers = usage.get("by_caller")
    memory_calls = 0
    for name, row in (callers if isinstance(callers, dict) else {}).items():
        if str(name).startswith("memory:") and isinstance(row, dict):
            memory_calls += _whole(row.get("calls", 0)) or 0
    return {
        "trial": _whole(data["trial"]),
        "outcome": outcome if isinstance(outcome, str) and outcome else status,
        "memory_calls": memory_calls,
        "calls": _whole(usage.get("model_calls", 0)) or 0,
    }


def outcome_rows(results: str | Path, agents: Iterable[str]) -> list[dict[str, Any]]:
    """The SCT outcome class of each trial of ``agents`` in a run's results folder, one row
    per trial index, with each agent's memory calls."""
    root = Path(results)
    by_agent: dict[str, dict[int, dict[str, Any]]] = {}
    for agent in agents:
        for path in sorted((root / agent).glob("trial_*.json")):
            read = _outcome_row(path, root)
            if read is not None:
                by_agent.setdefault(agent, {})[read.pop("trial")] = read
    trials = sorted({t for rows in by_agent.values() for t in rows})
    out = []
    for trial in trials:
        row: dict[str, Any] = {"trial": trial}
        for agent, rows in by_agent.items():
            found = rows.get(trial, {})
            row[agent] = found.get("outcome", "-")
            row[f"{agent} memory calls"] = found.get("memory_calls", "-")
        out.append(row)
    return out


def markdown(rows: Sequence[Any]) -> str:
    """A Markdown table of dataclass rows or dicts (list fields left out)."""
    if not rows:
        return "(no rows)"
    dicts = [r if isinstance(r, Mapping) else r.__dict__ for r in rows]
    keys = [k for k, v in dicts[0].items() if not isinstance(v, list)]
    lines = ["| " + " | ".join(keys) + " |", "|" + "|".join("---" for _ in keys) + "|"]
    lines += ["| " + " | ".join(str(d.get(k, "")) for k in keys) + " |" for d in dicts]
    return "\n".join(lines)
