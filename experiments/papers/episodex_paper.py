"""The Episodex paper's figures, to print beside a run's in the episode report.

The paper ("Continuity of Mind", section 6.2 and Table 1) reports, on ALFWorld's
out-of-distribution games:

- the headline: 87.5% success with GPT-4o and 66.7% with DeepSeek-V3 (the same setting;
  87.05% over all its games in section 6.2, with conceptual memory only and the planning
  prompt with affordances). The paper says 139 games; ALFWorld's valid_unseen split has 134,
  which is what a run plays;
- Table 1, over 20 games with GPT-4o: past episodes in context (0, 1, 4, 5, 20) against
  actions per successful game (16.47, 15.47, 13.79, 11.47, 12.44) and success (95, 95, 95, 95,
  90%);
- conceptual memory off and on: 50% and 81.82% success over 10 games with GPT-4o;
- the planning prompts: 82.35% with the simple one and 94.00% with affordances, over 50
  games with GPT-4o.

:func:`paper_columns` gives, for a comparison of ``episodex`` agents along one parameter, the
paper's success rate and actions per won game for each agent whose value the paper reports
(None elsewhere), with a header naming the paper's games and model.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from .episodex_protocol import episodex_agents, games_played, unstated_settings

FAMILY = "episodex"


@dataclass(frozen=True)
class PaperResult:
    """One comparison of the paper: its figures by the compared value."""

    games: int
    model: str
    success: dict[Any, float]
    actions: dict[Any, float]
    where: str


TABLE_1 = PaperResult(
    20,
    "GPT-4o",
    {0: 95.0, 1: 95.0, 4: 95.0, 5: 95.0, 20: 90.0},
    {0: 16.47, 1: 15.47, 4: 13.79, 5: 11.47, 20: 12.44},
    "Table 1",
)
CONCEPTUAL = PaperResult(10, "GPT-4o", {False: 50.0, True: 81.82}, {}, "section 6.2")
PLANNING = PaperResult(
    50, "GPT-4o", {"simple": 82.35, "affordances": 94.0}, {}, "section 6.2, Figure 4"
)
HEADLINE = PaperResult(
    134, "GPT-4o / DeepSeek-V3", {"gpt-4o": 87.5, "deepseek": 66.7}, {}, "abstract, section 6"
)
BY_PARAMETER = {
    "max_episodes": TABLE_1,
    "conceptual": CONCEPTUAL,
    "planning_prompt": PLANNING,
}


def _headline_value(model: str | None) -> str | None:
    name = (model or "").lower()
    if "gpt-4o" in name and "mini" not in name:
        return "gpt-4o"
    if "deepseek" in name:
        return "deepseek"
    return None


def paper_columns(
    family: str, by: str, values: Sequence[Any], models: Sequence[str | None]
) -> tuple[list[str], list[list[float | None]]] | None:
    """The paper's columns for a comparison along ``by`` (``provider`` for models): a
    header, and per agent (in the order given: its value of ``by`` and its model) the
    paper's success % and, where the paper gives them, actions per won game. None when the
    paper reports no such comparison."""
    if family != FAMILY:
        return None
    if by == "provider":
        result = HEADLINE
        keys: list[Any] = [_headline_value(m) for m in models]
    elif by in BY_PARAMETER:
        result = BY_PARAMETER[by]
        keys = list(values)
    else:
        return None
    if not any(k in result.success for k in keys if k is not None):
        return None
    label = f"paper ({result.where}: {result.games} games, {result.model})"
    header = [f"{label} success %"]
    rows: list[list[float | None]] = [[result.success.get(k)] for k in keys]
    if result.actions:
        header.append("paper actions per won game")
        for row, k in zip(rows, keys, strict=True):
            row.append(result.actions.get(k))
    return header, rows


PAPER_MODELS = ("gpt-4o", "deepseek")
EMBEDDED_NOTE = (
    "The embedded model (Qwen2.5-Coder-1.5B) plays Episodex's specialists far below the "
    "paper's GPT-4o and DeepSeek-V3, so on it a run shows the pipeline at work, not the "
    "effects the paper measures; those need a larger model behind an OpenAI-compatible "
    "endpoint (experiments/configs/episodex_paper*.yaml)."
)


def _episodex_agents(config: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(a) for a in episodex_agents(config)]


def episodex_deviations(
    config: dict[str, Any], sources: Collection[str] | None = None
) -> list[str]:
    """How a run config of Episodex on ALFWorld (as recorded in ``run.json``) differs from
    the paper's settings: the games (generated rather than ALFWorld's own; ``sources``, the
    sources of the games the trials played, when known, say it for a run),
    the split and the task mix, the answer to an inadmissible action, the concepts in context,
    learning during the game, the models; then every setting the paper does not state, as
    cogarch's choice. Empty for other runs."""
    task = config.get("task") or {}
    agents = _episodex_agents(config)
    if task.get("kind") != "alfworld" or not agents:
        return []
    found = []
    generated = "generated" in sources if sources else not _official(task)
    if generated:
        found.append(f"{GENERATED} (paper: ALFWorld's valid_unseen games)")
    splits = sorted({str(p.get("split")) for p in task.get("curriculum") or []})
    if splits != ["ood"]:
        found.append(f"splits {', '.join(splits)} (paper: ood only)")
    if task.get("task_mix", "uniform") != "alfworld" and not _official(task):
        found.append("task_mix uniform (paper: ALFWorld's valid_unseen mix)")
    if task.get("inadmissible_reply", "nothing_happens") != "admissible_list":
        found.append(
            'inadmissible actions answered "Nothing happens." (paper: "The action ... is not '
            'in the list of admissible actions for the current timestep.")'
        )
    for agent in agents:
        params = agent.get("params") or {}
        name = agent.get("name")
        if params.get("conceptual", True) and params.get("concepts_shown") == "representatives":
            found.append(f"{name}: each cluster's representative only (paper: concepts in full)")
        if params.get("conceptual", True) and not params.get("learn_in_game", False):
            found.append(
                f"{name}: no learning during the game (paper: contrastive learning during "
                "task execution)"
            )
    providers = config.get("providers") or {}
    for name in sorted({str(a.get("provider")) for a in agents if a.get("provider")}):
        settings = providers.get(name) or {}
        model = str(settings.get("model") or settings.get("fake") or settings.get("kind"))
        if not any(m in model.lower() for m in PAPER_MODELS):
            found.append(f"{name}: model {model} (paper: GPT-4o, DeepSeek-V3)")
    found += [
        f"{line} (cogarch's choice: the paper does not state it)"
        for line in unstated_settings(config)
    ]
    return found


GENERATED = "games GENERATED by cogarch, not ALFWorld's own"


def played_games(config: dict[str, Any], sources: Collection[str] | None = None) -> str | None:
    """Which games an Episodex-on-ALFWorld run played (from the sources of its games, when
    known, else its config); None for other runs."""
    task = config.get("task") or {}
    if task.get("kind") != "alfworld" or not _episodex_agents(config):
        return None
    if sources:
        names = {"official": "ALFWorld's official games", "generated": GENERATED}
        return " and ".join(names.get(s, s) for s in sorted(sources))
    return games_played(config)


def _official(task: dict[str, Any]) -> bool:
    return bool(task.get("official")) or task.get("source") == "official"


def embedded_note(config: dict[str, Any]) -> str | None:
    """A caution for a run of Episodex agents on the embedded model, else None."""
    providers = config.get("providers") or {}
    embedded = any(
        (providers.get(str(a.get("provider"))) or {}).get("kind") == "local"
        and not (providers.get(str(a.get("provider"))) or {}).get("gguf_path")
        for a in _episodex_agents(config)
    )
    return EMBEDDED_NOTE if embedded else None
