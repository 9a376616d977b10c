"""Prompt footprint: transcript replay vs the CCS, and a flat transcript vs the task graph.

Run from the repository root::

    python benchmarks/bench_footprint.py --out /tmp/footprint [--reply-words 40]

Everything runs on deterministic fake models, so the numbers measure the memory designs, not a
model. Part 1 plays the three constraint-retention scenarios (26-32 turns) with the shipped
``transcript`` and ``acc`` agents; a scripted compressor keeps a realistic CCS (the current
input as the episodic trace, constraints collected from the user's rules). Part 2 plays the
six-round form-filling scenario (the TME paper's token-efficiency task) with a flat-history
responder and a task-graph responder that share the same one-line instruction, a scripted
intent classifier and short confirmations. The footprint of a turn is M_t from
``tasks.constraints.metrics``: the responder's prompt tokens minus the user's text. Part 2
also reports the classifier's own prompt tokens, which the paper's comparison leaves out.
Writes ``footprint_long.png``, ``footprint_form.png`` and ``footprint.json`` to ``--out``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

_RULE = re.compile(r"\b(never|no|only|every reply|do not|don't|until|must)\b", re.IGNORECASE)
_FORM = [
    (re.compile(r"fill in .*form", re.I), lambda m: [("new", "form", "registration form")]),
    (re.compile(r"correction: my name is (.+?)\.$", re.I), lambda m: [("update", "name", m[1])]),
    (re.compile(r"my name is (.+?)\.$", re.I), lambda m: [("new", "name", m[1])]),
    (re.compile(r"email address is (\S+?)\.?$", re.I), lambda m: [("new", "email", m[1])]),
    (re.compile(r"I live at (.+?)\.$", re.I), lambda m: [("new", "address", m[1])]),
    (re.compile(r"read my details back", re.I), lambda m: [("check", "all", None)]),
]


def scripted_compressor(prompt: str) -> str:
    """Next CCS from the previous one (read back from the prompt) and the user's message."""
    previous = json.loads(prompt.split("<previous_state>\n", 1)[1].split("\n</previous_state>")[0])
    said = prompt.rsplit("User: ", 1)[1].split("\n</interaction>")[0]
    constraints = list(previous["constraints"])
    if _RULE.search(said) and len(said) < 200 and not re.search(r"ignore|disregard", said, re.I):
        constraints = [*constraints, said[:190]][-10:]
    entities = previous["focal_entities"] or [{"name": "incident", "type": "concept"}]
    return json.dumps(
        {
            "episodic_trace": [said[:190]],
            "semantic_gist": "operational incident under explicit constraints",
            "focal_entities": entities,
            "relational_map": previous["relational_map"],
            "goal_orientation": previous["goal_orientation"] or said[:190],
            "constraints": constraints,
            "predictive_cue": ["confirm the next read-only check"],
            "uncertainty_signal": {"level": "medium", "gaps": ["root cause unconfirmed"]},
            "retrieved_artifacts": [],
        }
    )


def scripted_classifier(prompt: str) -> str:
    text = prompt.rsplit("Message: ", 1)[1].strip()
    for pattern, intents in _FORM:
        match = pattern.search(text)
        if match:
            rows = intents(match)
            return json.dumps(
                {
                    "intents": [
                        {"intent": i, "slot": s, "value": v}
                        | ({"parent": "form"} if s not in ("form", "all") and i == "new" else {})
                        for i, s, v in rows
                    ]
                }
            )
    return json.dumps({"intents": []})


def form_reply(pairs: list[tuple[str, str]]) -> str:
    """A confirming responder: echoes the new detail; lists the details when asked, from the
    task state in its prompt when there is one, else from the history (latest value wins)."""
    last = pairs[-1][1]
    if "read my details back" not in last.lower():
        detail = re.split(r" is | at ", last, maxsplit=1)[-1].rstrip(".")
        return f"Great, thank you! I've noted {detail}. What's next?"
    shown = [
        line.strip("- ").strip() for line in pairs[0][1].splitlines() if line.startswith("  -")
    ]
    if not shown:
        details: dict[str, str] = {}
        for role, text in pairs:
            for slot, pattern in (
                ("name", r"name is (.+?)\.$"),
                ("email", r"address is (\S+?)\.?$"),
                ("address", r"live at (.+?)\.$"),
            ):
                match = re.search(pattern, text) if role == "user" else None
                if match:
                    details[slot] = match[1]
        shown = [f"{k}: {v}" for k, v in details.items()]
    return "Here are your details: " + "; ".join(shown) + ". Submitting the form now."


def make_models(reply_words: int, form_replies: bool = False) -> Callable[[str], Any]:
    from autogen_core.models import LLMMessage

    from cogarch.models import FunctionModel, Model, as_pairs
    from cogarch.models.fakes import CallInfo

    def reply(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        pairs = as_pairs(messages)
        head, last = pairs[0][1], pairs[-1][1]
        if head.startswith("You are the cognitive compressor"):
            return scripted_compressor(last)
        if head.startswith("You classify"):
            return scripted_classifier(last)
        if form_replies:
            return form_reply(pairs)
        words = re.findall(r"[A-Za-z0-9']+", last)[:12]
        filler = " ".join(["I will keep the agreed constraints and propose a safe step"] * 8)
        body = " ".join(filler.split()[: max(0, reply_words - len(words) - 4)])
        return f"Understood: {' '.join(words)}. {body}. Next check: upstream logs."

    model = Model(FunctionModel(reply), provider="fake", model="fake", fake=True)
    return lambda name: model


async def long_scenarios(reply_words: int) -> dict[str, dict[str, list[int]]]:
    from cogarch.tasks.constraints.catalogue import CONSTRAINT_SCENARIOS
    from cogarch.tasks.constraints.metrics import respond_measured
    from cogarch.workspace.spec import build_agent, load_agent_spec

    out: dict[str, dict[str, list[int]]] = {}
    for name, scenario in CONSTRAINT_SCENARIOS.items():
        rows: dict[str, list[int]] = {}
        for agent_name in ("transcript", "acc"):
            agent = build_agent(
                load_agent_spec(agent_name), make_models(reply_words), provider="fake"
            )
            sizes, totals = [], []
            for turn, step in enumerate(scenario.turns, start=1):
                _, footprint = await respond_measured(agent, step.user, turn)
                sizes.append(footprint.memory_tokens or 0)
                totals.append(footprint.prompt_tokens or 0)
            rows[agent_name] = sizes
            rows[f"{agent_name}_all_prompts"] = totals
            if agent_name == "acc":
                rows["ccs_state"] = list(agent.state_sizes)
        out[name] = rows
    return out


FORM_AGENTS: dict[str, dict[str, Any]] = {
    "flat": {
        "name": "flat",
        "specialists": {
            "responder": {"kind": "responder", "prompt": "You help the user fill in a form."}
        },
        "entry": "responder",
    },
    "tme": {
        "name": "tme_form",
        "memory": {"tasks": {"kind": "task_graph"}},
        "specialists": {
            "task_tracker": {"kind": "task_tracker", "memory": "tasks"},
            "responder": {
                "kind": "responder",
                "history": 0,
                "prompt": "You help the user fill in a form.\n{tasks}",
            },
        },
        "edges": ["task_tracker -> responder"],
        "entry": "task_tracker",
    },
}


async def form_scenario() -> dict[str, Any]:
    from cogarch.tasks.revision.scenarios import get_scenario
    from cogarch.tasks.revision.task import run_revision
    from cogarch.workspace.spec import AgentSpec, build_agent

    scenario = get_scenario("form")
    out: dict[str, Any] = {}
    for key, spec in FORM_AGENTS.items():
        agent = build_agent(
            AgentSpec.model_validate(spec), make_models(0, form_replies=True), provider="fake"
        )
        result = await run_revision(agent, scenario)
        out[key] = {
            "responder_prompt": [f.responder_prompt_tokens or 0 for f in result.footprint],
            "all_prompts": [f.prompt_tokens or 0 for f in result.footprint],
            "memory": [f.memory_tokens or 0 for f in result.footprint],
            "consistent": result.consistent,
        }
    flat, tme = sum(out["flat"]["responder_prompt"]), sum(out["tme"]["responder_prompt"])
    out["saving_pct"] = round(100 * (flat - tme) / flat, 1)
    out["saving_first5_pct"] = round(
        100
        * (sum(out["flat"]["responder_prompt"][:5]) - sum(out["tme"]["responder_prompt"][:5]))
        / sum(out["flat"]["responder_prompt"][:5]),
        1,
    )
    return out


def plot(long: dict[str, dict[str, list[int]]], form: dict[str, Any], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(long), figsize=(5 * len(long), 3.6), sharey=True)
    for ax, (name, rows) in zip(axes, long.items(), strict=True):
        for label, key, style in (
            ("transcript replay", "transcript", "-"),
            ("ACC", "acc", "-"),
            ("CCS state only", "ccs_state", ":"),
        ):
            ax.plot(range(1, len(rows[key]) + 1), rows[key], style, label=label)
        ax.set_title(name)
        ax.set_xlabel("turn")
    axes[0].set_ylabel("memory tokens per turn (M_t)")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(out / "footprint_long.png", dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.6))
    rounds = range(1, len(form["flat"]["responder_prompt"]) + 1)
    ax.plot(rounds, form["flat"]["responder_prompt"], "o-", label="flat transcript")
    ax.plot(rounds, form["tme"]["responder_prompt"], "s-", label="task graph (responder)")
    ax.plot(rounds, form["tme"]["all_prompts"], "s:", label="task graph + classifier")
    ax.set_xlabel("round")
    ax.set_ylabel("prompt tokens")
    ax.set_title(f"form filling: {form['saving_pct']}% saving (responder prompts)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "footprint_form.png", dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="directory for plots and JSON")
    parser.add_argument("--reply-words", type=int, default=40, help="length of fake replies")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

    long = asyncio.run(long_scenarios(args.reply_words))
    form = asyncio.run(form_scenario())
    args.out.mkdir(parents=True, exist_ok=True)
    plot(long, form, args.out)
    (args.out / "footprint.json").write_text(json.dumps({"long": long, "form": form}, indent=1))

    print("Part 1: memory tokens per turn (M_t), transcript replay vs ACC")
    print(
        f"{'scenario':20} {'turns':>5} {'replay M_1':>10} {'replay M_T':>10} {'replay mean':>11}"
        f" {'ACC min':>8} {'ACC max':>8} {'ACC mean':>9} {'CCS max':>8}"
        f" {'replay sum':>10} {'ACC sum':>8}"
    )
    for name, rows in long.items():
        r, a, c = rows["transcript"], rows["acc"], rows["ccs_state"]
        print(
            f"{name:20} {len(r):5d} {r[0]:10d} {r[-1]:10d} {sum(r) / len(r):11.1f}"
            f" {min(a):8d} {max(a):8d} {sum(a) / len(a):9.1f} {max(c):8d}"
            f" {sum(rows['transcript_all_prompts']):10d} {sum(rows['acc_all_prompts']):8d}"
        )
    print("(sum: prompt tokens of every call over the dialogue, the compressor's included)")
    print("\nPart 2: form filling, responder prompt tokens per round")
    for key in ("flat", "tme"):
        row = form[key]
        print(
            f"{key:5} {row['responder_prompt']} total {sum(row['responder_prompt'])}"
            f" (with classifier: {sum(row['all_prompts'])}); consistent={row['consistent']}"
        )
    print(
        f"saving: {form['saving_pct']}% over 6 rounds, {form['saving_first5_pct']}% over the "
        "first 5 (paper: 19.4% and 28.5%)"
    )
    print(f"plots and numbers written to {args.out}/")


if __name__ == "__main__":
    main()
