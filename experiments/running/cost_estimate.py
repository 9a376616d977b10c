"""What a trial is expected to cost, from the trial files of earlier runs of the same task.

The dry run looks in the config's own results folder, folders given with ``--estimate-from``
and the runs under ``runs/``. Every file is read as the run reads its own: by the guarded
reader (``cogarch.files.read_json``: regular files inside their run only, bounded in size
and nesting; a link is never followed out of the run, a FIFO never blocks), and every number
is checked (a finite count >= 0), so a damaged or hostile earlier run is passed over, file by
file, and never stops the plan.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

from cogarch.files import FileRefusedError, read_json

from .identity import same_code
from .run_config import RunConfig

MAX_FILES = 40
"""Trial files read per agent spec for an estimate."""


@dataclass
class Estimate:
    """What trials of one agent spec cost in an earlier run."""

    source: str
    fake: bool
    trials: int
    calls: float
    tokens: float
    episodes: int = 0
    """Episodes (games) those trials played; 0 when the task plays one per trial."""
    actions: float | None = None
    """Mean actions per episode, when the trial files say."""


def _folders(root: Path) -> list[Path]:
    """The real folders in ``root`` (a link is never followed); none when it cannot be read."""
    try:
        return sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return []


def _run_dirs(config: RunConfig, extra: Sequence[Path]) -> list[Path]:
    found = [config.output_dir(), *extra]
    runs = Path("runs")
    if runs.is_dir():
        found += _folders(runs)
    unique: dict[Path, None] = {}
    for path in found:
        if path.is_dir():
            unique.setdefault(path.resolve(), None)
    return list(unique)


def _json(path: Path, run_dir: Path) -> Any:
    """What the file at ``path`` holds, read by the guarded reader (a regular file inside the
    run, bounded in size and nesting); None when it cannot be used."""
    try:
        return read_json(path, within=run_dir)
    except FileRefusedError:
        return None


def _at(data: Any, *keys: str) -> Any:
    """``data[k1][k2]...`` where every level is a mapping, else None."""
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _count(value: Any) -> float | None:
    """``value`` as a count of calls, tokens or actions: a finite number >= 0, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


def _same_task(run_dir: Path, config: RunConfig) -> bool:
    """Whether ``run_dir``'s ``run.json`` names this config's task (a Python file's task by its
    file and class name: an estimate, not an identity)."""
    kind = _at(_json(run_dir / "run.json", run_dir), "config", "task", "kind")
    return isinstance(kind, str) and same_code(kind, None, config.task.kind, {})


@dataclass
class _Costs:
    """One earlier trial's numbers, each checked: per trial, and per game when it played
    several."""

    calls: float
    tokens: float
    games: list[tuple[float, float, float | None]]
    """Each game's calls, tokens and actions (None when not recorded)."""


def _count_at(data: dict[str, Any], key: str) -> float | None:
    """``data[key]`` as a count (0 when absent or null)."""
    value = data.get(key)
    return 0.0 if value is None else _count(value)


def _costs(record: dict[str, Any]) -> _Costs | None:
    """The checked numbers of a trial file's content; None when one is unusable (a string, a
    list, NaN, infinite, negative)."""
    usage = record.get("usage")
    if not isinstance(usage, dict):
        return None
    calls, prompt, completion = (
        _count_at(usage, k) for k in ("model_calls", "prompt_tokens", "completion_tokens")
    )
    if calls is None or prompt is None or completion is None:
        return None
    games: list[tuple[float, float, float | None]] = []
    found = _at(record, "payload", "games")
    if found is not None and not isinstance(found, list):
        return None
    for game in found or []:
        if not isinstance(game, dict) or "model_calls" not in game:
            continue
        numbers = [_count_at(game, k) for k in ("model_calls", "prompt_tokens")]
        numbers.append(_count_at(game, "completion_tokens"))
        actions = game.get("actions")
        counted = _count(actions) if isinstance(actions, int) else None
        if any(n is None for n in numbers) or (actions is not None and counted is None):
            return None
        game_calls, game_prompt, game_completion = (n or 0.0 for n in numbers)
        games.append((game_calls, game_prompt + game_completion, counted))
    return _Costs(calls, prompt + completion, games)


def _trial_files(run_dir: Path) -> Iterable[Path]:
    for folder in _folders(run_dir):
        if folder.name[0] != ".":
            yield from sorted(folder.glob("trial_*.json"))


def _read(path: Path, run_dir: Path) -> tuple[dict[str, Any], _Costs] | None:
    data = _json(path, run_dir)
    if not isinstance(data, dict) or data.get("status") != "complete":
        return None
    costs = _costs(data)
    return None if costs is None else (data, costs)


def _spec_name(record: dict[str, Any]) -> str | None:
    name = _at(record, "metadata", "agent_spec", "name")
    return name if isinstance(name, str) else None


def _is_fake(record: dict[str, Any]) -> bool:
    return _at(record, "metadata", "provider_settings", "kind") == "fake"


def estimates(
    config: RunConfig, specs: dict[str, str], extra: Sequence[Path]
) -> dict[str, Estimate]:
    """Per agent of ``config`` (``specs``: label -> spec name), what its trials of this task
    cost in an earlier run: trials of an agent of the same name if there are any, else of
    the same spec; a fake run before others, the first run found. Every file is read by the
    guarded reader and every number checked: a file that cannot be used is passed over."""
    wanted = set(specs.values())
    found: list[tuple[bool, str, str, str, _Costs]] = []
    for run_dir in _run_dirs(config, extra):
        if not _same_task(run_dir, config):
            continue
        kept = 0
        for path in _trial_files(run_dir):
            if kept >= MAX_FILES * len(wanted):
                break
            read = _read(path, run_dir)
            name = _spec_name(read[0]) if read is not None else None
            if read is None or name not in wanted:
                continue
            kept += 1
            agent = str(read[0].get("agent"))
            found.append((_is_fake(read[0]), str(run_dir), agent, str(name), read[1]))
    out: dict[str, Estimate] = {}
    for label, spec in specs.items():
        same = [f for f in found if f[2] == label and f[3] == spec]
        pool = same or [f for f in found if f[3] == spec]
        if not pool:
            continue
        fake = any(f[0] for f in pool)
        source = next(f[1] for f in pool if f[0] == fake)
        chosen = [f[4] for f in pool if f[0] == fake and f[1] == source][:MAX_FILES]
        out[label] = _estimate(source, fake, chosen, agent=label if same else None)
    return out


def _estimate(source: str, fake: bool, records: list[_Costs], agent: str | None = None) -> Estimate:
    games = [g for r in records for g in r.games]
    where = f"{source} ({agent})" if agent else f"{source} (same agent spec)"
    if games:
        actions = [a for _, _, a in games if a is not None]
        return Estimate(
            where,
            fake,
            len(records),
            fmean(calls for calls, _, _ in games),
            fmean(tokens for _, tokens, _ in games),
            episodes=len(games),
            actions=fmean(actions) if actions else None,
        )
    return Estimate(
        where,
        fake,
        len(records),
        fmean(r.calls for r in records),
        fmean(r.tokens for r in records),
    )


def cost_line(est: Estimate, episodes: int | None, limit: int | None) -> str:
    kind = "fake run" if est.fake else "run"
    if est.episodes and episodes:
        seen = f"{est.episodes} games of a {kind} in {est.source}"
        if est.actions and limit:
            calls, tokens = est.calls / est.actions, est.tokens / est.actions
            typical = min(est.actions, limit) * episodes
            return (
                f"expected per trial: {calls * typical:,.0f} model calls, "
                f"{tokens * typical:,.0f} tokens; at most {calls * limit * episodes:,.0f} "
                f"calls, {tokens * limit * episodes:,.0f} tokens if every game runs to its "
                f"{limit} actions ({calls:.1f} calls and {tokens:,.0f} tokens per action, "
                f"{est.actions:.1f} actions per game in {seen})"
            )
        return (
            f"expected per trial: {est.calls * episodes:,.0f} model calls, "
            f"{est.tokens * episodes:,.0f} tokens ({est.calls:.1f} calls and "
            f"{est.tokens:,.0f} tokens per game in {seen})"
        )
    return (
        f"expected per trial: {est.calls:,.0f} model calls, {est.tokens:,.0f} tokens (mean of "
        f"{est.trials} trials of a {kind} in {est.source})"
    )
