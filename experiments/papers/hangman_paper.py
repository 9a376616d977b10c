"""The Hangman paper's SCT settings, and where a run config departs from them.

The paper (section 5 and Appendix E) plays 50 trials per agent and model, forks at turn 4,
asks 5 candidates, and samples every model at temperature 0.3 with up to 2,048 tokens per
turn, on gpt-oss 20B / 120B and Qwen3 32B / 235B. A run that differs measures something
smaller or different; the report header says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PAPER_TRIALS = 50
PAPER_T_FORK = 4
PAPER_CANDIDATES = 5
PAPER_TEMPERATURE = 0.3
PAPER_MAX_TOKENS = 2048
PAPER_MODELS = ("gpt-oss-20b", "gpt-oss-120b", "qwen3-32b", "qwen3-235b-a22b")
SCT_KINDS = ("hangman_sct", "diagnosis_sct")


def _used_providers(config: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    providers = config.get("providers") or {}
    used = {str(a.get("provider")) for a in config.get("agents") or [] if a.get("provider")}
    return {name: providers.get(name) or {} for name in sorted(used)}


def paper_deviations(config: Mapping[str, Any]) -> list[str]:
    """How an SCT run config (as recorded in ``run.json``) differs from the paper's setting;
    empty when it matches or the task is not an SCT."""
    task = config.get("task") or {}
    if task.get("kind") not in SCT_KINDS:
        return []
    found: list[str] = []
    checks = (
        ("trials per agent", config.get("trials"), PAPER_TRIALS),
        ("t_fork", task.get("t_fork", PAPER_T_FORK), PAPER_T_FORK),
        ("candidates", task.get("n_candidates", PAPER_CANDIDATES), PAPER_CANDIDATES),
    )
    found += [f"{what} {mine} (paper: {paper})" for what, mine, paper in checks if mine != paper]
    for name, settings in _used_providers(config).items():
        kind = settings.get("kind", "openai")
        if kind == "fake":
            continue
        max_tokens = settings.get("max_tokens", PAPER_MAX_TOKENS)
        if max_tokens != PAPER_MAX_TOKENS:
            found.append(f"{name}: max_tokens {max_tokens} (paper: {PAPER_MAX_TOKENS})")
        temperature = settings.get("temperature", PAPER_TEMPERATURE)
        if temperature != PAPER_TEMPERATURE:
            found.append(f"{name}: temperature {temperature} (paper: {PAPER_TEMPERATURE})")
        model = str(settings.get("model") or kind)
        if not any(paper in model.lower() for paper in PAPER_MODELS):
            found.append(f"{name}: model {model} (paper: {', '.join(PAPER_MODELS)})")
    return found


EMBEDDED_MODEL_NOTE = (
    "The embedded model (Qwen2.5-Coder-1.5B) rarely keeps a secret in its memory, so on it an "
    "SCT run shows the pipeline at work, not the effect the paper measures; that needs a "
    "larger model behind an OpenAI-compatible endpoint "
    "(experiments/configs/hangman_sct_paper.yaml)."
)


def embedded_model_note(config: Mapping[str, Any]) -> str | None:
    """A caution for an SCT run whose agents play on the embedded model, else None."""
    if (config.get("task") or {}).get("kind") not in SCT_KINDS:
        return None
    embedded = any(
        s.get("kind") == "local" and not s.get("gguf_path")
        for s in _used_providers(config).values()
    )
    return EMBEDDED_MODEL_NOTE if embedded else None
