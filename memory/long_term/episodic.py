"""Episodic memory (kind ``episodic``): belief sequences archived per game, past games in context.

Episodex's episodic memory. During a game, the conscious node writes a belief state after each
observation (``write_belief``) and the motor's actions are taken in as the game's turns
(``ingest``); when the task ends the game (``end_episode``) the whole sequence is archived as
one :class:`Episode` with the game's goal and outcome. When the next game begins
(``begin_episode``), ``max_episodes`` archived episodes are drawn and put in context, each in
full (``render``: every belief, with the action after it), as the paper injects them; a cap is
there only when asked for (``episode_tokens`` per episode, ``context_tokens`` for all of them,
``belief_chars`` per belief), and what it cut is logged with the game (``EpisodicGame.cut``):

- ``random`` (the paper's choice): a uniform sample without replacement, drawn with a
  generator seeded by the trial's seed and the game's index, shown oldest first;
- ``similar`` (the option the paper names for open-ended settings): the episodes whose goals
  are most similar to the new game's task (cosine of embeddings; ties go to the more recent),
  best first.

The module's private text is the current belief state, which is what the agent keeps to
itself from one step to the next. ``games`` logs, per game, the episodes drawn for it, the
beliefs written and the episode stored, by id; ``episode_activity`` gives one game's log as
JSON data for the task's record of the game.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.cow import CowList
from cogarch.core.memory import EpisodeEnd, MemoryContext, MemoryItem, TurnRecord
from cogarch.tokens import count_tokens

from ..retrieval.embeddings import Embedder, EmbedderName, cosine
from ..retrieval.messages import clip
from .game_log import GameLogMemory
from .records import EMPTY, Belief, Episode, EpisodeOrderError, EpisodicGame, StepAction


class EpisodicMemory(GameLogMemory[EpisodicGame]):
    """Belief states per game, archived with the outcome; past episodes drawn for each game."""

    kind: ClassVar[str] = "episodic"

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")

        max_episodes: int = Field(
            default=5, ge=0, description="Past episodes put in context for each game."
        )
        retrieval: Literal["random", "similar"] = Field(
            default="random",
            description="'random': drawn with the trial's seed (the paper); 'similar': the past "
            "episodes whose goals are nearest the new game's task.",
        )
        embedder: EmbedderName = Field(
            default="minilm", description="Goal embeddings for 'similar' ('hash' in tests)."
        )
        belief_chars: int | None = Field(
            default=None,
            ge=20,
            description="Cut each belief shown in context to this length (None: in full).",
        )
        episode_tokens: int | None = Field(
            default=None,
            ge=1,
            description="Cap each past episode shown at this many tokens: its header, then "
            "its latest beliefs that fit (None: in full).",
        )
        context_tokens: int | None = Field(
            default=None,
            ge=1,
            description="Cap all past episodes shown at this many tokens, shared equally "
            "(None: in full).",
        )
        beliefs_shown: int | None = Field(
            default=None, ge=1, description="Show only the last n beliefs of a past episode."
        )

    params: Params
    # its parts, as GameLogMemory saves them
    stored = ("archive", Episode)
    game_model = EpisodicGame
    gathered = (("beliefs", Belief), ("actions", StepAction))

    def __init__(self, params: Params | None = None, *, embedder: Embedder | None = None) -> None:
        self.params = params or self.Params()
        self._embedder = embedder
        self.archive: CowList[Episode] = CowList()
        self.games: CowList[EpisodicGame] = CowList()
        """Every game so far; only the last (in progress) is edited in place."""
        self.beliefs: list[Belief] = []
        """The beliefs of the game in progress."""
        self.actions: list[StepAction] = []
        """The actions of the game in progress."""

    # ------------------------------------------------------------------ the game in progress

    @property
    def belief(self) -> Belief | None:
        """The current belief state."""
        return self.beliefs[-1] if self.beliefs else None

    def drawn(self) -> list[Episode]:
        """The past episodes in context for the game in progress."""
        game = self.game
        if game is None:
            return []
        by_id = {e.id: e for e in self.archive}
        return [by_id[i] for i in game.drawn]

    def begin_episode(
        self, episode: int, task: str, turn: int | None, ctx: MemoryContext
    ) -> EpisodicGame:
        """Open game ``episode`` (about ``task``, from agent turn ``turn``) and draw its past
        episodes; a game already open under that index is returned as it is."""
        game = self._already_open(episode)
        if game is not None:
            return game
        chosen, scores = self._draw(task, episode, ctx.seed)
        game = EpisodicGame(
            episode=episode,
            task=task,
            first_turn=turn,
            drawn=[e.id for e in chosen],
            scores=scores,
        )
        self.games.append(game)
        return game

    def write_belief(self, text: str, turn: int) -> Belief:
        """Record the belief state written at agent turn ``turn`` of the game in progress."""
        game = self._open("write a belief")
        belief = Belief(
            id=f"ep{game.episode}.b{len(self.beliefs)}",
            episode=game.episode,
            step=self._step(game, turn),
            turn=turn,
            text=text,
        )
        self.beliefs.append(belief)
        game.beliefs.append(belief.id)
        return belief

    def step_of(self, turn: int) -> int:
        """The game step agent turn ``turn`` is at (0 when no game is open)."""
        game = self.game
        if game is None or game.first_turn is None:
            return 0
        return max(0, turn - game.first_turn)

    def _step(self, game: EpisodicGame, turn: int) -> int:
        if game.first_turn is None:
            game.first_turn = turn
        return max(0, turn - game.first_turn)

    def _open(self, doing: str) -> EpisodicGame:
        game = self.game
        if game is None:
            raise EpisodeOrderError(f"no game is in progress to {doing}; call begin_episode first")
        return game

    # ------------------------------------------------------------------ drawing past episodes

    def _draw(self, task: str, episode: int, seed: int | None) -> tuple[list[Episode], list[float]]:
        pool = list(self.archive)
        n = min(self.params.max_episodes, len(pool))
        if n == 0:
            return [], []
        if self.params.retrieval == "random":
            rng = random.Random(f"{seed}:episodic:{episode}")
            return [pool[i] for i in sorted(rng.sample(range(len(pool)), n))], []
        vectors = self.embedder.embed([task, *(e.label for e in pool)])
        similarity = [cosine(vectors[0], v) for v in vectors[1:]]
        order = sorted(range(len(pool)), key=lambda i: (-similarity[i], -pool[i].episode))[:n]
        return [pool[i] for i in order], [round(similarity[i], 6) for i in order]

    # ------------------------------------------------------------------ the module interface

    async def ingest(self, turn: TurnRecord, ctx: MemoryContext) -> None:
        """Take in the action of a completed turn (its reply) at the game's step; a turn
        already taken in is skipped. Opens a game (about the turn's input) if none is."""
        game = self.game
        if game is None:
            game = self.begin_episode(self._next_episode(), clip(turn.user, 200), turn.index, ctx)
        if any(a.turn == turn.index for a in self.actions):
            return
        self.actions.append(
            StepAction(
                episode=game.episode,
                step=self._step(game, turn.index),
                turn=turn.index,
                action=turn.assistant,
            )
        )

    async def retrieve(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        """The past episodes in context for the game in progress (a game about ``query`` is
        opened, and its episodes drawn, when none is)."""
        game = self.game or self.begin_episode(self._next_episode(), query, None, ctx)
        scores = game.scores or [0.0] * len(game.drawn)
        return [
            MemoryItem(
                id=e.id,
                text=self._episode_text(e),
                score=score,
                fields={
                    "episode": e.episode,
                    "label": e.label,
                    "won": e.won,
                    "steps": e.steps,
                    "beliefs": [b.id for b in e.beliefs],
                },
            )
            for e, score in zip(self.drawn(), scores, strict=True)
        ]

    async def end_episode(self, end: EpisodeEnd, ctx: MemoryContext) -> None:
        """Archive the game in progress as one episode, with the task's label and outcome (a
        game that never began is archived empty)."""
        game = self._ending(end)
        stored = Episode(
            id=f"ep{end.episode}",
            episode=end.episode,
            label=end.label or game.task,
            won=end.won,
            steps=end.steps or len(self.actions),
            beliefs=tuple(self.beliefs),
            actions=tuple(self.actions),
        )
        self.archive.append(stored)
        game.stored, game.won = stored.id, end.won
        self._clear_gathered()

    def _unbegun(self, end: EpisodeEnd) -> EpisodicGame:
        return EpisodicGame(episode=end.episode, task=end.label, first_turn=None)

    def episode_activity(self, episode: int) -> dict[str, Any] | None:
        """What the module did for game ``episode``, by id: the past episodes drawn for it
        (``retrieved``, in the order shown, with their goal similarity in ``scores`` under
        ``similar`` retrieval), the beliefs written during it, and the episode archived when
        it ended (``stored``); None for a game it never saw."""
        game = self.game_log(episode)
        if game is None:
            return None
        return {
            "kind": self.kind,
            "task": game.task,
            "retrieved": list(game.drawn),
            "scores": list(game.scores),
            "beliefs": list(game.beliefs),
            "stored": [game.stored] if game.stored is not None else [],
            "won": game.won,
            "cut": {k: list(v) for k, v in game.cut.items()},
        }

    def render(self, budget_tokens: int | None = None) -> str:
        """The past episodes in context, each in full unless a cap applies: ``budget_tokens``
        (else ``context_tokens``) shared equally among them, and ``episode_tokens`` each (its
        header always shown, then as many of its latest beliefs as fit). What a cap left out
        or shortened is logged with the game in progress (``EpisodicGame.cut``)."""
        episodes = self.drawn()
        if not episodes:
            return EMPTY
        total = budget_tokens if budget_tokens is not None else self.params.context_tokens
        shares = [self.params.episode_tokens]
        if total is not None:
            shares.append(max(1, total // len(episodes)))
        share = min((s for s in shares if s is not None), default=None)
        texts = []
        for episode in episodes:
            text, cut = self._episode_cut(episode, share)
            texts.append(text)
            if cut:
                self._log_cut(episode.id, cut)
        return "\n\n".join(texts)

    def _log_cut(self, episode_id: str, steps: list[int]) -> None:
        game = self.game
        if game is None:
            return
        known = set(game.cut.get(episode_id, []))
        if not known.issuperset(steps):
            game.cut[episode_id] = sorted(known.union(steps))

    def private_text(self) -> str:
        """The current belief state, with the game, step and task it belongs to."""
        game = self.game
        if game is None:
            return f"No game in progress; {len(self.archive)} episode(s) archived."
        belief = self.belief
        step = belief.step if belief else 0
        lines = [f"Game {game.episode}, step {step}. Task: {game.task}"]
        lines.append(belief.text if belief else "(no belief state yet)")
        if game.drawn:
            lines.append(f"Past episodes in context: {', '.join(game.drawn)}")
        return "\n".join(lines)

    def _episode_text(self, episode: Episode, budget_tokens: int | None = None) -> str:
        """The episode's header, then its beliefs (and the action after each step); within
        ``budget_tokens`` the header stays and the latest beliefs that fit follow it."""
        return self._episode_cut(episode, budget_tokens)[0]

    def _episode_cut(
        self, episode: Episode, budget_tokens: int | None = None
    ) -> tuple[str, list[int]]:
        """The episode's text, and the steps of the beliefs left out or shortened in it."""
        outcome = {True: "won", False: "lost", None: "ended"}[episode.won]
        header = f"Episode {episode.id} ({outcome}, {episode.steps} steps). Goal: {episode.label}"
        lines: list[str] = []
        beliefs = list(episode.beliefs)
        if self.params.beliefs_shown is not None:
            beliefs = beliefs[-self.params.beliefs_shown :]
        cut = [b.step for b in episode.beliefs[: len(episode.beliefs) - len(beliefs)]]
        acted = {a.step: a.action for a in episode.actions}
        full: list[str] = []
        for i, belief in enumerate(beliefs):
            shown = clip(belief.text, self.params.belief_chars)
            if shown != belief.text:
                cut.append(belief.step)
            line = f"- step {belief.step}: {shown}"
            last_at_step = i + 1 == len(beliefs) or beliefs[i + 1].step != belief.step
            if last_at_step and belief.step in acted:
                line += f" -> action: {acted[belief.step]}"
            full.append(line)
        lines = full
        if budget_tokens is not None:
            room = budget_tokens - count_tokens(header) - 1
            kept: list[str] = []
            for line in reversed(full):
                room -= count_tokens(line) + 1
                if room < 0:
                    break
                kept.append(line)
            lines = kept[::-1]
            cut += [b.step for b in beliefs[: len(beliefs) - len(lines)]]
        return "\n".join([header, *lines]), sorted(set(cut))
