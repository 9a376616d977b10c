"""The golden trials, how to replay one, and how a replayed trial file is compared with its
golden file.

A golden case is one agent's trial 0 of a shipped run config under ``experiments/configs/``, played
with that config's task, seed and provider as they are, restricted to that one agent and one
trial (a trial's seed depends only on the run's seed and the trial index, so the trial is the
one a full run of the config plays). The golden file is that trial's file, kept under
``tests/golden/<config>/<agent>/trial_0000.json``. Both files are read through the current
trial-file reader and compared field by field, leaving out only the run-specific fields listed
in :data:`IGNORED`. ALFWorld trials play generated games, kept in :data:`GAMES`; the other
tasks' trials need nothing beyond the repository.

A golden file must not depend on the machine that wrote it: replayed with another BLAS kernel
(``OPENBLAS_CORETYPE=Haswell OPENBLAS_L2_SIZE=512``) it must still match. Regenerate on purpose
only (``python -m tests.golden.regenerate``, see ``regenerate.py``).
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
GAMES = HERE / "games"
"""The generated games the golden trials play, kept so that a replay need not plan them again
(a game missing here is generated as in any run)."""
TRIAL = 0
"""The trial index every golden case plays."""
GAME_TASK = "alfworld"
"""The task kind whose trials play generated games (its replays need the alfworld extra)."""

IGNORED: tuple[str, ...] = (
    # when and how long
    "metadata.started_at",
    "metadata.duration_s",
    "payload.games[*].seconds",
    "usage.latency_s",
    "usage.by_caller.*.latency_s",
    "usage.calls[*].latency_s",
    "walk[*].elapsed_s",
    "payload.ingest.seconds",
    "payload.answers[*].latency_s",
    "evaluation.ingest.seconds_per_turn",
    "evaluation.latency_p50_s",
    "evaluation.latency_p95_s",
    # where: the replay's own folders, and the hash of a config that names them
    "metadata.config.results_dir",
    "metadata.config.task.cache_dir",
    "metadata.config_hash",
    # the installed packages' versions
    "metadata.versions",
)
"""The run-specific fields of a trial file (timings, dates, paths, ids derived from paths,
package versions), left out of the comparison. ``*`` stands for any one key or list index;
a listed field is left out with everything under it."""

SHOWN = 12
"""How many differing fields a failure lists."""


@dataclass(frozen=True)
class GoldenCase:
    config: str
    """The shipped run config's name (``experiments/configs/<config>.yaml``)."""
    agent: str
    """The agent (its name in the config) whose trial is kept."""

    @property
    def config_path(self) -> Path:
        return ROOT / "experiments" / "configs" / f"{self.config}.yaml"

    @property
    def plays_games(self) -> bool:
        """Whether the case's trial plays generated ALFWorld games."""
        return load_run_config(self.config_path).task.kind == GAME_TASK

    @property
    def golden_path(self) -> Path:
        return trial_path(HERE / self.config, self.agent, TRIAL)

    def __str__(self) -> str:
        return f"{self.config}/{self.agent}"


CASES: tuple[GoldenCase, ...] = (
    # the cheapest trial of the config: the oracle wins each game in a few steps
    GoldenCase("alfworld_fakes", "oracle_react"),
    # two seconds dearer than its cheapest agent (0 episodes, no concepts), the one that
    # carries both memories from game to game: episodes and concepts retrieved and stored
    GoldenCase("episodex_fakes", "episodex_5_on"),
    # the SCTs fork every trial: an agent with memory (the workflow keeps its secret across
    # the fork) and one without, each of another outcome class
    GoldenCase("hangman_sct_fakes", "honest_workflow"),  # self-consistent
    GoldenCase("hangman_sct_fakes", "leaky_vanilla"),  # leakage
    GoldenCase("diagnosis_sct_fakes", "switcher_workflow"),  # state substitution
    GoldenCase("diagnosis_sct_fakes", "forgetful_vanilla"),  # over-confirmation
    # LoCoMo: raw-turn retrieval ranked by (hash) embedding similarity, and the full transcript
    GoldenCase("locomo_fakes", "raw_turns"),
    GoldenCase("locomo_fakes", "transcript"),
)
GAME_CASES = tuple(case for case in CASES if case.plays_games)


def replay_config(case: GoldenCase, results_dir: Path, cache_dir: Path | None) -> RunConfig:
    """The case's shipped config narrowed to its agent and one trial, writing to
    ``results_dir`` and, for a case that plays games, keeping generated games in ``cache_dir``
    (None: the default cache)."""
    config = load_run_config(case.config_path)
    fields = config.model_dump()
    fields["agents"] = [a for a in fields["agents"] if a["name"] == case.agent]
    if not fields["agents"]:
        raise ValueError(f"{case.config_path} has no agent named '{case.agent}'")
    fields["trials"] = TRIAL + 1
    fields["results_dir"] = str(results_dir)
    if cache_dir is not None and case.plays_games:
        fields["task"]["cache_dir"] = str(cache_dir)
    return RunConfig.model_validate(fields)


def replay(case: GoldenCase, results_dir: Path, cache_dir: Path | None) -> Path:
    """Play the case's trial again; the path of the trial file it wrote."""
    config = replay_config(case, results_dir, cache_dir)
    report = asyncio.run(Runner(config, progress=False).run())
    if report.failed or report.ran != 1:
        raise RuntimeError(f"replaying {case} ran {report.ran} trials: {report.errors}")
    return trial_path(results_dir, case.agent, TRIAL)


def seed_games(cache_dir: Path) -> Path:
    """A game cache at ``cache_dir`` holding the golden trials' games."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    for game in sorted(GAMES.glob("*.json")):
        shutil.copyfile(game, cache_dir / game.name)
    return cache_dir


def games_played(trial_file: Path) -> list[str]:
    """The names of the games a trial played (its cache entries are ``<name>.json``)."""
    data = json.loads(trial_file.read_text(encoding="utf-8"))
    return [game["game"] for game in data["payload"]["games"]]


def fields(path: Path) -> Any:
    """A trial file as the current reader reads it (older schema versions brought up to
    date), as JSON data."""
    return read_trial(path).model_dump(mode="json")


FieldPath = tuple[str | int, ...]


def parse_field(pattern: str) -> FieldPath:
    """``payload.games[*].seconds`` as ``("payload", "games", "*", "seconds")``."""
    parts: list[str | int] = []
    for key, index in re.findall(r"\.?([^.\[\]]+)|\[(\*|\d+)\]", pattern):
        parts.append(key if key else ("*" if index == "*" else int(index)))
    return tuple(parts)


_IGNORED = tuple(parse_field(p) for p in IGNORED)


def under(rule: FieldPath, path: FieldPath) -> bool:
    """Whether the field at ``path`` is the one ``rule`` names or lies under it."""
    return len(path) >= len(rule) and all(
        r == "*" or r == p for r, p in zip(rule, path[: len(rule)], strict=True)
    )


def ignored(path: FieldPath) -> bool:
    """Whether the field at ``path`` (or one it lies under) is run-specific."""
    return any(under(rule, path) for rule in _IGNORED)


def show(path: FieldPath) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "(the whole file)"


def differences(golden: Any, new: Any, path: FieldPath = ()) -> Iterator[str]:
    """Each field that differs between two trial files' data, in file order, as
    ``path: golden ... != new ...``; run-specific fields (:data:`IGNORED`) left out."""
    if ignored(path):
        return
    if isinstance(golden, dict) and isinstance(new, dict):
        for key in [*golden, *(k for k in new if k not in golden)]:
            where = (*path, key)
            if key not in new:
                if not ignored(where):
                    yield f"{show(where)}: only in the golden file"
            elif key not in golden:
                if not ignored(where):
                    yield f"{show(where)}: only in the new file"
            else:
                yield from differences(golden[key], new[key], where)
    elif isinstance(golden, list) and isinstance(new, list):
        for i, (a, b) in enumerate(zip(golden, new, strict=False)):
            yield from differences(a, b, (*path, i))
        if len(golden) != len(new):
            yield f"{show(path)}: {len(golden)} items in the golden file, {len(new)} in the new"
    elif golden != new or type(golden) is not type(new):
        start = 0
        if isinstance(golden, str) and isinstance(new, str):  # from just before they part
            pairs = enumerate(zip(golden, new, strict=False))
            start = next((i for i, (a, b) in pairs if a != b), min(len(golden), len(new)))
            start = max(0, start - WIDTH // 3)
        yield f"{show(path)}: golden {_short(golden, start)} != new {_short(new, start)}"


WIDTH = 120
"""How many characters of a differing value a failure shows."""


def _short(value: Any, start: int = 0) -> str:
    if isinstance(value, str) and start:
        return "..." + _short(value[start:])
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= WIDTH else text[: WIDTH - 3] + "..."


def compare(case: GoldenCase, new_file: Path) -> str | None:
    """None when ``new_file`` matches the case's golden file, else a message naming the
    first differing fields."""
    found = list(differences(fields(case.golden_path), fields(new_file)))
    if not found:
        return None
    listed = "\n  ".join(found[:SHOWN])
    more = f"\n  ... and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    return (
        f"the replayed trial of {case} differs from its golden file "
        f"{case.golden_path.relative_to(ROOT)} in {len(found)} fields; the first:\n  "
        f"{listed}{more}\nIf the change in behaviour is meant, regenerate the golden files: "
        "python -m tests.golden.regenerate"
    )
