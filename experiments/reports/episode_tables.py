"""The episode report: what agents did across the games of their trials.

For a run of a multi-episode task (see :mod:`cogarch.experiments.reports.episode_data` for what it
reads), ``cogarch report`` adds three kinds of table, each only when the run has its data:

- **comparisons by agent parameters**: for every agent spec of the run, one table per
  parameter (or provider) that differs among the agents built on it, with each agent's games,
  wins, success rate (95% Wilson interval over games; per split when the games name several)
  and mean actions per won game. Rows run through that parameter's values with the other
  varied parameters fixed, so for Episodex the tables by ``max_episodes`` and by
  ``conceptual`` are the paper's two comparisons (its Table 1: retrieved episodes against
  actions per success; conceptual memory on and off against the success rate);
- **memory per game**: per agent and memory module, the entries retrieved per game, the games
  that drew on earlier ones, the entries stored, the clusters formed and failed updates;
- **focus loop**: per agent, the activations by what started them, and whether the next
  proposed action was admissible (recovered), again not (failed) or never came (pending);
- **play per game**: per agent, games won, actions per won game, specialist transitions per
  game (and games the transition budget ended), outputs held back per game, and the concepts
  in context per step with the clusters they came in.

Games are pooled over an agent's trials; within a trial they are not independent (memory
carries from game to game), so the intervals are narrower than they should be.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cogarch.core.evaluation import Scalar
from cogarch.core.records import TrialRecord
from cogarch.core.views import Table

from ..papers.episodex_paper import paper_columns
from ..tables.spread import mean
from ..tables.summary import wilson_interval
from .episode_data import AgentGames, GameRow, run_games

PROVIDER = "provider"
"""The comparison among agents of one spec that differ in their provider (their model)."""
FOCUS_REASONS = (
    "empty",
    "refusal",
    "several",
    "off_task",
    "unknown_name",
    "inadmissible",
    "chosen",
)

NOTE = (
    "Games are pooled over each agent's complete trials; success % is won games over games "
    "played, with its 95% Wilson interval, and actions per won game is the mean over won "
    "games. Games of one trial share the agent's memory, so they are not independent and the "
    "intervals are optimistic. Comparison tables list the agents of one spec that differ in "
    "that parameter, the other differing parameters held in the neighbouring columns."
)
MEMORY_NOTE = (
    "Memory per game: what each module did for each game (Agent.end_episode's report, kept "
    "per game in the trial file): entries retrieved into the game (past episodes, concept "
    "representatives), games that retrieved any, entries stored when games ended, the mean "
    "number of clusters formed before a game, and games whose update failed (a concept "
    "abstraction that gave nothing usable)."
)
FOCUS_NOTE = (
    "Focus loop: activations by cause, the Episodex paper's two forms of hallucination held "
    "back (no action: empty, refusal, several commands; outside the task space: off_task, not "
    "a command of the game, or unknown_name, naming nothing in it) or the router's own choice "
    "(inadmissible: what earlier versions held back, a well-formed command not admissible; "
    "such commands are now sent and answered by the game). Recovered when the next proposal "
    "was an action, failed when it was again none, pending when the turn or game ended "
    "first; budget-ended: activations whose turn the agent's step budget ended."
)
PAPER_NOTE = (
    "paper columns: the Episodex paper's figure for the same setting (its abstract, section "
    "6.2 and Table 1, on ALFWorld's out-of-distribution games with the model named), beside "
    "the run's; the run's own games, model and parameters are in the rows, so read the two "
    "together only where they match. The paper says 139 test games; ALFWorld's valid_unseen "
    "split has 134."
)
CUT_NOTE = (
    "games cut: games in which a cap on the past episodes in context (episode_tokens, "
    "context_tokens, belief_chars) left out or shortened beliefs of a drawn episode; by "
    "default every drawn episode is shown in full."
)
PLAY_NOTE = (
    "Play per game: transitions are the agent's specialist steps during a game (the paper's "
    "'agent transitions'); 'ended by transitions' counts the games a transition budget "
    "(task.max_transitions) ended before they were won or their actions ran out; held back: "
    "outputs that were no action of the game (they cost no action, the focus loop takes them "
    "up). Concepts per step: the concepts in the prompts of a step, averaged over every step "
    "played (stored concepts shown when the game began, plus the lessons of the game so far "
    "when they are shown during it); clusters per game: the k-means clusters they came in."
)
MISSING_NOTE = (
    "The trial files keep no per-game record of what memory did or of the focus loop (the "
    "task did not store Agent.end_episode's report per game), so those tables are left out."
)


@dataclass
class EpisodeTables:
    """The episode report's tables and the notes that read them."""

    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _order(value: Any) -> tuple[int, float, str]:
    if isinstance(value, bool | int | float):
        return 0, float(value), ""
    return 1, 0.0, str(value)


def _value(agent: AgentGames, name: str) -> Any:
    return agent.provider if name == PROVIDER else agent.params.get(name)


def varied(agents: Sequence[AgentGames]) -> list[str]:
    """The parameters (and ``provider``) whose values differ among ``agents``."""
    names = list(dict.fromkeys(n for a in agents for n in a.params))
    names.append(PROVIDER)
    return [n for n in names if len({repr(_value(a, n)) for a in agents}) > 1]


def _splits(agents: Sequence[AgentGames]) -> list[str]:
    found = sorted({g.split for a in agents for g in a.games if g.split is not None})
    return found if len(found) > 1 else []


def _success(games: Sequence[GameRow]) -> tuple[float | None, str]:
    rated = [g.won for g in games if g.won is not None]
    if not rated:
        return None, "-"
    wins = sum(rated)
    low, high = wilson_interval(wins, len(rated))
    return round(100 * wins / len(rated), 1), f"{100 * low:.0f}-{100 * high:.0f}"


def _mean(values: Sequence[float]) -> float | None:
    if not values:
        return None
    found = mean(values)
    return round(found, 2) if math.isfinite(found) else found


def comparison_table(family: str, agents: Sequence[AgentGames], by: str) -> Table:
    """The agents of ``family`` compared along ``by``, rows ordered by the other varied
    parameters, then by ``by``."""
    others = [n for n in varied(agents) if n != by]
    splits = _splits(agents)
    header = [by, *others, "agent", "trials", "games", "won", "success %", "95% CI"]
    header += [f"success % {s}" for s in splits]
    header.append("actions per won game")
    ordered = sorted(
        agents, key=lambda a: ([_order(_value(a, n)) for n in others], _order(_value(a, by)))
    )
    rows: list[list[Scalar]] = []
    for a in ordered:
        rate, interval = _success(a.games)
        won = [g.actions for g in a.games if g.won and g.actions is not None]
        row: list[Scalar] = [_cell(_value(a, by)), *(_cell(_value(a, n)) for n in others)]
        row += [a.agent, a.trials, len(a.games), sum(bool(g.won) for g in a.games)]
        row += [rate, interval]
        row += [_success([g for g in a.games if g.split == s])[0] for s in splits]
        row.append(_mean(won))
        rows.append(row)
    paper = paper_columns(
        family, by, [_value(a, by) for a in ordered], [a.model or a.provider for a in ordered]
    )
    if paper is not None:
        extra, figures = paper
        header += extra
        for row, figure in zip(rows, figures, strict=True):
            row += figure
    return Table(f"{family}: by {by}", header, rows)


def _cell(value: Any) -> Scalar:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def memory_table(agents: Sequence[AgentGames]) -> Table | None:
    """Per agent and memory module, what the module did per game; None without records."""
    rows: list[list[Scalar]] = []
    for a in agents:
        recorded = [g.memory for g in a.games if g.memory is not None]
        for module in dict.fromkeys(name for m in recorded for name in m):
            seen = [m[module] for m in recorded if module in m]
            retrieved = [len(s.get("retrieved") or []) for s in seen]
            stored = [len(s.get("stored") or []) for s in seen]
            clusters = [len(s["clusters"]) for s in seen if isinstance(s.get("clusters"), list)]
            cut = sum(bool(s.get("cut")) for s in seen)
            rows.append(
                [
                    a.agent,
                    module,
                    len(seen),
                    _mean(retrieved),
                    sum(n > 0 for n in retrieved),
                    sum(stored),
                    sum(n > 0 for n in stored),
                    _mean(clusters),
                    sum(bool(s.get("error")) for s in seen),
                    cut,
                ]
            )
    if not rows:
        return None
    header = ["agent", "module", "games", "retrieved per game", "games retrieving", "stored"]
    header += ["games storing", "clusters per game", "failed updates", "games cut"]
    return Table("memory per game", header, rows)


def focus_table(agents: Sequence[AgentGames]) -> Table | None:
    """Per agent, the focus loop's activations and recoveries; None without records."""
    rows: list[list[Scalar]] = []
    for a in agents:
        games = [g.focus for g in a.games if g.focus is not None]
        if not games:
            continue
        runs = [f for game in games for f in game]
        recovered = sum(f.recovered is True for f in runs)
        failed = sum(f.recovered is False for f in runs)
        judged = recovered + failed
        row: list[Scalar] = [a.agent, len(games), len(runs)]
        row += [sum(f.reason == r for f in runs) for r in FOCUS_REASONS]
        row += [recovered, failed, len(runs) - judged]
        row.append(round(100 * recovered / judged, 1) if judged else None)
        row.append(sum(f.ended_by_budget for f in runs))
        ended = [len(g.budget_ended_steps) for g in a.games if g.budget_ended_steps is not None]
        row.append(sum(ended) if ended else None)
        rows.append(row)
    if not rows:
        return None
    header = ["agent", "games", "activations", *FOCUS_REASONS, "recovered", "failed"]
    header += ["pending", "recovered %", "budget-ended", "turns ended by budget"]
    return Table("focus loop", header, rows)


def _concepts_per_step(games: Sequence[GameRow]) -> tuple[float | None, float | None]:
    """The concepts in context per step, over every step of ``games`` whose conceptual
    memory kept a record, and the clusters per such game."""
    counts: list[float] = []
    clusters: list[float] = []
    for game in games:
        activity = (game.memory or {}).get("conceptual")
        if not isinstance(activity, dict) or not activity.get("enabled", True):
            continue
        shown = len(activity.get("retrieved") or [])
        lessons = sorted(activity.get("lessons") or []) if activity.get("in_game") else []
        clusters.append(len(activity.get("clusters") or []))
        for step in range(game.actions or 0):
            counts.append(shown + sum(s < step for s in lessons))
    return _mean(counts), _mean(clusters)


def play_table(agents: Sequence[AgentGames]) -> Table | None:
    """Per agent, how its games were played; None when no game records transitions."""
    rows: list[list[Scalar]] = []
    for a in agents:
        if not any(g.transitions is not None for g in a.games):
            continue
        won = [g.actions for g in a.games if g.won and g.actions is not None]
        transitions = [g.transitions for g in a.games if g.transitions is not None]
        held = [g.held_back for g in a.games if g.held_back is not None]
        per_step, clusters = _concepts_per_step(a.games)
        rows.append(
            [
                a.agent,
                len(a.games),
                sum(bool(g.won) for g in a.games),
                _mean(won),
                _mean(transitions),
                sum(g.ended_by == "transitions" for g in a.games),
                _mean(held),
                per_step,
                clusters,
            ]
        )
    if not rows:
        return None
    header = ["agent", "games", "won", "actions per won game", "transitions per game"]
    header += ["ended by transitions", "held back per game", "concepts per step"]
    header.append("clusters per game")
    return Table("play per game", header, rows)


def episode_tables(records: Sequence[TrialRecord]) -> EpisodeTables:
    """The episode report of a run's records (empty when no trial played several games)."""
    run = run_games(records)
    out = EpisodeTables(notes=list(run.problems))
    if not run.agents:
        return out
    families = list(dict.fromkeys(a.family for a in run.agents))
    for family in families:
        mine = [a for a in run.agents if a.family == family]
        out.tables += [comparison_table(family, mine, by) for by in varied(mine)]
    made = (memory_table(run.agents), focus_table(run.agents), play_table(run.agents))
    extra = [t for t in made if t is not None]
    if not out.tables and not extra:
        return out
    out.notes.insert(0, NOTE)
    out.tables += extra
    titles = {t.title for t in extra}
    if "memory per game" in titles:
        out.notes.append(MEMORY_NOTE)
    if "focus loop" in titles:
        out.notes.append(FOCUS_NOTE)
    if "play per game" in titles:
        out.notes.append(PLAY_NOTE)
    if any(any(str(h).startswith("paper") for h in t.header) for t in out.tables):
        out.notes.append(PAPER_NOTE)
    memory = next((t for t in extra if t.title == "memory per game"), None)
    if memory is not None and any(row[-1] for row in memory.rows):
        out.notes.append(CUT_NOTE)
    if not extra:
        out.notes.append(MISSING_NOTE)
    return out
