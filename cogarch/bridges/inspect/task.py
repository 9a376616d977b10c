"""One cogarch task as an Inspect task: a sample per trial, played by cogarch's runner setup.

The samples are the run's trials: sample ``trial_i`` plays trial ``i`` with the seed
``cogarch run`` gives it (``trial_seed(seed, i)``), through the same
:class:`~cogarch.experiments.running.worker.RunSetup` (task, agent spec, providers, metering,
response cache). The agent's model is Inspect's model of the eval, as a cogarch provider (see
:mod:`.model`), or the scripted fake ``-T fake=...`` names. After the trial the sample holds:

- its messages: the dialogue, turn by turn;
- its store: the whole trial record (``cogarch:record``), which the scorer reads;
- its metadata: the trial's header, the agent's private state after each turn and its walk
  through its transition graph;
- its transcript: the trial in words (each turn with state and walk, the fork, the verdict,
  the task's own sections), as cogarch's trial page shows it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from inspect_ai import Epochs
from inspect_ai import Task as InspectTask
from inspect_ai._util.error import PrerequisiteError
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import transcript
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageUser,
    ModelOutput,
    get_model,
    model_roles,
)
from inspect_ai.model import Model as InspectModel
from inspect_ai.solver import Generate, Solver, TaskState, solver

from cogarch.core.backend import TrialSpec
from cogarch.core.records import TrialRecord
from cogarch.core.task import Task
from cogarch.errors import CogarchError, ConfigError, debug_enabled
from cogarch.experiments.results.task_types import task_source
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.worker import RunSetup
from cogarch.seeds import trial_seed

from .model import inspect_model
from .params import HELPER_ROLE, INSPECT_PROVIDER, BridgeParams, read_params
from .scoring import RECORD_KEY, trial_outcome
from .words import record_words


class TrialPlayer:
    """Plays the trials of one task's ``-T`` parameters: one runner setup per model (built on
    first use), so every trial of a model shares its providers and cache, as in a run."""

    def __init__(self, params: BridgeParams) -> None:
        self.params = params
        self._setups: dict[str, RunSetup] = {}
        self._lock = asyncio.Lock()
        # built now, so every name and setting is checked before any sample runs
        self._setup(params.for_model(INSPECT_PROVIDER, params.helper))

    def _setup(self, config: RunConfig) -> RunSetup:
        return RunSetup(config, cache_dir=self.params.cache_dir)

    async def setup(self) -> RunSetup:
        """The setup of the eval's model (or the fake, when one plays) and of the model bound
        to the ``helper`` role, if any."""
        models: dict[str, InspectModel] = {}
        if self.params.fake is None:
            models[INSPECT_PROVIDER] = get_model()
        helper = helper_model()
        if helper is not None:
            models[HELPER_ROLE] = helper
        key = " ".join(f"{name}={model}" for name, model in models.items())
        async with self._lock:
            if key not in self._setups:
                agent = str(models.get(INSPECT_PROVIDER, INSPECT_PROVIDER))
                named = None if helper is None else str(helper)
                setup = self._setup(self.params.for_model(agent, named))
                cache = setup.providers.cache
                for name, model in models.items():
                    setup.providers.register(name, inspect_model(model, provider=name, cache=cache))
                self._setups[key] = setup
            return self._setups[key]

    def spec(self, setup: RunSetup, index: int) -> TrialSpec:
        config = setup.config
        return TrialSpec(
            run_digest=setup.digest,
            agent=self.params.label,
            index=index,
            seed=trial_seed(config.seed, index),
            run_name=config.name,
            task=config.task.kind,
        )

    async def play(self, index: int) -> TrialRecord:
        setup = await self.setup()
        return await setup.play(self.spec(setup, index))


def helper_model() -> InspectModel | None:
    """The model bound to Inspect's ``helper`` role (the first, when several are)."""
    bound = model_roles().get(HELPER_ROLE)
    if isinstance(bound, list):
        return bound[0] if bound else None
    return bound


def helper_name() -> str | None:
    found = helper_model()
    return None if found is None else str(found)


def dialogue(record: TrialRecord) -> list[ChatMessage]:
    """The trial's public dialogue as Inspect's messages."""
    messages: list[ChatMessage] = []
    for turn in record.turns:
        messages += [ChatMessageUser(content=turn.user), ChatMessageAssistant(content=turn.reply)]
    return messages


def trial_metadata(record: TrialRecord) -> dict[str, Any]:
    """What a sample's metadata shows of its trial: header, private states and walk."""
    return {
        "agent": record.agent,
        "status": record.status,
        "outcome": record.evaluation.outcome if record.status == "complete" else None,
        "private_state": [
            {"turn": t.turn, "state": t.private_state, "tokens": t.private_state_tokens}
            for t in record.turns
            if t.private_state is not None
        ],
        "walk": [step.model_dump(mode="json") for step in record.walk],
        "model_calls": record.usage.model_calls,
    }


def fill_state(state: TaskState, record: TrialRecord, task: type[Task] | None) -> None:
    """Put a played trial into its sample: messages, store, metadata and the transcript."""
    state.store.set(RECORD_KEY, record.model_dump(mode="json"))
    state.messages = dialogue(record)
    if record.turns:
        state.output = ModelOutput.from_content(str(state.model), record.turns[-1].reply)
    state.metadata.update(trial_metadata(record))
    for title, words in record_words(record, task):
        transcript().info(f"### {title}\n\n{words}", source="cogarch")


@solver
def play_trial(kind: str | None, params: Mapping[str, Any]) -> Solver:
    """Plays the sample's trial (its metadata's ``trial``) of the task ``kind`` (None: the one
    ``params['task']`` names) with the ``-T`` parameters ``params``."""
    player = TrialPlayer(read_params(kind, params, helper=helper_name()))
    task_class = player.params.task_class

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        record = await player.play(int(state.metadata["trial"]))
        fill_state(state, record, task_class)
        return state

    return solve


def trial_samples(params: BridgeParams) -> MemoryDataset:
    config = params.config
    kind = config.task.kind
    samples = [
        Sample(
            id=f"trial_{i}",
            input=f"Trial {i} of cogarch's {kind} task, agent {params.label}, "
            f"seed {trial_seed(config.seed, i)}.",
            metadata={"trial": i, "seed": trial_seed(config.seed, i), "task": kind},
        )
        for i in range(config.trials)
    ]
    return MemoryDataset(samples, name=f"cogarch_{config.name}")


class BridgeConfigError(ConfigError, PrerequisiteError):
    """A mistake in a cogarch task's ``-T`` values, as Inspect is told it: still a
    ``ConfigError`` to Python callers, and shown by Inspect's command as its message alone,
    without a traceback (``COGARCH_DEBUG=1`` lets the original error through instead)."""

    def __init__(self, message: str) -> None:
        ConfigError.__init__(self, message)
        self.message = f"error: {message}"


def cogarch_task(kind: str | None, params: Mapping[str, Any]) -> InspectTask:
    """The Inspect task of a cogarch task, checked now: a mistake fails before any sample runs.

    Args:
        kind: The cogarch task's kind (a registered name), or None for the one
            ``-T task=...`` names (an import path or a file).
        params: The ``-T`` parameters of ``inspect eval`` (the task's keys, the agent, the
            provider, trials...).

    Returns:
        The Inspect task: one sample per trial, scored by :func:`trial_outcome`.

    Raises:
        ConfigError: When a parameter is wrong, with cogarch's message (shown by Inspect's
            command without a traceback).
    """
    given = dict(params)
    try:
        bridge = read_params(kind, given, helper=helper_name())
        TrialPlayer(bridge)  # builds the run's setup: every name and setting is checked now
    except CogarchError as exc:
        if debug_enabled():
            raise
        raise BridgeConfigError(str(exc)) from None
    source = task_source(bridge.config.task.kind) or bridge.config.task.kind
    return InspectTask(
        dataset=trial_samples(bridge),
        solver=play_trial(kind, given),
        scorer=trial_outcome(source),
        epochs=Epochs(1, "mode"),  # an outcome class is a word: the mean cannot reduce it
        metadata={"cogarch_task": bridge.config.task.kind, "cogarch_agent": bridge.label},
    )
