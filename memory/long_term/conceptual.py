"""Conceptual memory (kind ``conceptual``): concepts learned from won games, clustered before
each game, every concept put in context under its cluster's label.

Episodex's conceptual memory. During a game it collects the belief states the conscious node
writes (``take_belief``) and the lessons the learning node records (``note``). When the task
ends the game (``end_episode``) and the game was won, one model call abstracts at most
``max_concepts`` concepts from that belief sequence and those lessons, each kept with its game,
goal and the belief steps it draws on; a lost game or one the task gives no outcome for leaves
nothing. Before each game (``begin_episode``) every stored concept is embedded and the N of
them are clustered by k-means into k = max(1, floor(sqrt(N))) clusters (seeded by the trial's
seed and the game's index); the member nearest each centroid represents its cluster. Every
concept is shown under its cluster's label (``show: all``), or the representatives alone; a
token cap (``tokens``, off by default) records what it leaves out (``cut``). See
``concept_view.py``. With ``in_game`` on (the paper's "contrastive learning during task
execution", section 4), the lessons recorded during a game are shown to its later steps and
kept as concepts, as written, when it ends, won or lost.

With ``enabled`` off nothing is learned or retrieved (the paper's comparison without
conceptual memory). ``games`` logs, per game, the clusters formed, the concepts retrieved and
the concepts stored, by id; ``episode_activity`` gives one game's log as JSON data for the
task's record of the game.

The paper says both that "concepts are learned dynamically during each episode after the
belief state is updated in response to environmental feedback" (section 3) and that "after
each task, symbolic abstractions are clustered from successful belief sequences" (section
5.3). ``learn_from: won`` (the default) reads them together: what is learned during a game
(every belief state, every lesson the learning node records) is gathered as it comes, and
becomes concepts only if the game is won, abstracted from that successful belief sequence
after it ends. ``learn_from: every`` takes the first sentence alone: a lost game's recorded
lessons are kept as concepts too (each as it was written, with no model call), while a won
game is abstracted as before.
"""

from __future__ import annotations

import hashlib
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.cow import CowList
from cogarch.core.memory import EpisodeEnd, MemoryContext, MemoryItem
from cogarch.core.state import state_value
from cogarch.errors import ModelCallError

from ..budget import truncate_to_budget
from ..model_call import ask_model
from ..provider_param import ModelCallParams
from ..retrieval.embeddings import Embedder, EmbedderName
from ..retrieval.messages import clip
from .abstraction import CONCEPT_PROMPT, ConceptDraft, ConceptDrafts
from .clustering import concept_clusters
from .concept_view import ConceptsShown, in_context_text, view
from .game_log import GameLogMemory
from .records import EMPTY, Belief, Concept, ConceptGame, EpisodeOrderError, Note


def _seed(seed: int | None, episode: int) -> int:
    digest = hashlib.sha256(f"{seed}:conceptual:{episode}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


class ConceptualMemory(GameLogMemory[ConceptGame]):
    """Concepts from won games, consolidated by k-means; all representatives retrieved."""

    kind: ClassVar[str] = "conceptual"

    class Params(ModelCallParams):
        model_config = ConfigDict(extra="forbid")

        enabled: bool = Field(
            default=True, description="Off: nothing is learned or retrieved (the ablation)."
        )
        embedder: EmbedderName = Field(
            default="minilm", description="Concept embeddings for k-means ('hash' in tests)."
        )
        max_concepts: int = Field(default=5, ge=1, le=20, description="Concepts per won game.")
        learn_from: Literal["won", "every"] = Field(
            default="won",
            description="won: concepts only from won games' belief sequences (the paper's "
            "section 5.3); every: a lost game's recorded lessons are kept as concepts too.",
        )
        attempts: int = Field(default=2, ge=1, le=6, description="Tries of the abstraction.")
        belief_chars: int | None = Field(
            default=None,
            ge=20,
            description="Cut each belief shown to the abstraction (None: in full).",
        )
        max_tokens: int = Field(default=512, ge=16, description="The abstraction's answer.")
        n_init: int = Field(default=10, ge=1, le=100, description="k-means restarts.")
        show: ConceptsShown = Field(
            default="all",
            description="all: every concept, grouped and labelled by cluster (the paper's "
            "retrieval in full); representatives: each cluster's representative only.",
        )
        tokens: int | None = Field(
            default=None,
            ge=1,
            description="Cap the concepts in context at this many tokens (None: no cap); what "
            "it leaves out is recorded in the game's log.",
        )
        in_game: bool = Field(
            default=False,
            description="Lessons recorded during a game are shown to its later steps and kept "
            "as concepts when it ends, won or lost.",
        )

    params: Params
    # its parts, as GameLogMemory saves them
    stored = ("concepts", Concept)
    game_model = ConceptGame
    gathered = (("beliefs", Belief), ("notes", Note))

    def __init__(
        self,
        params: Params | None = None,
        *,
        provider: str | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        self.params = params or self.Params()
        self.provider = provider
        self._embedder = embedder
        self.concepts: CowList[Concept] = CowList()
        self.games: CowList[ConceptGame] = CowList()
        """Every game so far; only the last (in progress) is edited in place."""
        self.beliefs: list[Belief] = []
        """The beliefs of the game in progress."""
        self.notes: list[Note] = []
        """The lessons noted in the game in progress."""

    def use_provider(self, provider: str | None) -> None:
        """Set the fallback provider of the abstraction call, unless one is already set."""
        if self.provider is None and provider is not None:
            self.provider = provider

    # ------------------------------------------------------------------ the game in progress

    def representatives(self) -> list[Concept]:
        """The representatives of the game in progress's clusters."""
        game = self.game
        if game is None:
            return []
        by_id = {c.id: c for c in self.concepts}
        return [by_id[c.representative] for c in game.clusters]

    def in_context(self) -> list[Concept]:
        """The concepts in context for the game in progress, in the order shown."""
        game = self.game
        if game is None:
            return []
        by_id = {c.id: c for c in self.concepts}
        return [by_id[i] for i in game.retrieved]

    def lessons(self) -> list[Note]:
        """This game's lessons shown to its later steps (none unless ``in_game``)."""
        return list(self.notes) if self.params.in_game and self.game is not None else []

    def begin_episode(self, episode: int, task: str, ctx: MemoryContext) -> ConceptGame:
        """Open game ``episode``: cluster the stored concepts and retrieve the representatives.
        A game already open under that index is returned as it is."""
        game = self._already_open(episode)
        if game is not None:
            return game
        if self.params.enabled:
            self._model_name()  # refuse a missing provider now, not after the game
        game = ConceptGame(episode=episode, task=task, concepts=len(self.concepts))
        if self.params.enabled and self.concepts:
            vectors = self.embedder.embed([c.text for c in self.concepts])
            ids = [c.id for c in self.concepts]
            seed = _seed(ctx.seed, episode)
            game.clusters = concept_clusters(ids, vectors, seed, n_init=self.params.n_init)
            game.k = len(game.clusters)
            shown = view(self.concepts, game.clusters, self.params.show, self.params.tokens)
            game.retrieved = shown.shown
            game.cut = list(shown.cut)
        self.games.append(game)
        return game

    def take_belief(self, belief: Belief) -> None:
        """Keep a belief state of the game in progress, for the abstraction if it is won."""
        self._open(belief.episode, "take a belief")
        self.beliefs.append(belief)

    def note(self, text: str, *, episode: int, step: int, turn: int) -> Note:
        """Record a lesson noted at ``step`` of the game in progress."""
        self._open(episode, "note a lesson")
        note = Note(episode=episode, step=step, turn=turn, text=text)
        self.notes.append(note)
        return note

    def _open(self, episode: int, doing: str) -> ConceptGame:
        game = self.game
        if game is None or game.episode != episode:
            raise EpisodeOrderError(
                f"cannot {doing} of episode {episode}: "
                + ("no game is in progress" if game is None else f"episode {game.episode} is")
                + "; call begin_episode first"
            )
        return game

    def _model_name(self) -> str:
        name = self.params.provider_or(
            self.provider,
            missing="memory module 'conceptual' has no provider for its abstraction call; set "
            "'provider' in its params, or give the specialist that drives it (or the agent) "
            "one, or turn it off with 'enabled: false'",
        )
        return name

    # ------------------------------------------------------------------ the module interface

    async def retrieve(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        """The concepts in context, each with its cluster (consolidated now for a game about
        ``query`` when no game is in progress)."""
        game = self.game or self.begin_episode(self._next_episode(), query, ctx)
        size = {m: len(c.members) for c in game.clusters for m in c.members}
        cluster = {m: c.id for c in game.clusters for m in c.members}
        representative = {c.representative for c in game.clusters}
        return [
            MemoryItem(
                id=c.id,
                text=c.text,
                fields={
                    "episode": c.episode,
                    "label": c.label,
                    "steps": list(c.steps),
                    "cluster": cluster[c.id],
                    "cluster_size": size[c.id],
                    "representative": c.id in representative,
                },
            )
            for c in self.in_context()
        ]

    async def end_episode(self, end: EpisodeEnd, ctx: MemoryContext) -> None:
        """Learn concepts from the game in progress if it was won, then close it."""
        game = self._ending(end)
        game.won = end.won
        label = end.label or game.task
        if self.params.enabled and end.won is True and (self.beliefs or self.notes):
            try:
                drafts = await self._abstract(label, end, ctx)
            except ModelCallError as exc:
                game.error = str(exc)
            else:
                game.stored = self._store(drafts, end.episode, label)
        elif self.params.enabled and self.params.learn_from == "every" and self.notes:
            game.stored = self._keep_lessons(end.episode, label)
        if self.params.enabled and self.params.in_game and self.notes:
            kept = {c.text for c in self.concepts}
            fresh = []
            for note in self.notes:  # each lesson once, and none already a concept
                text = " ".join(note.text.split())
                if text not in kept:
                    kept.add(text)
                    fresh.append(note)
            game.stored += self._keep_lessons(end.episode, label, fresh)
        game.lessons = [n.step for n in self.notes]
        game.ended = True
        self._clear_gathered()

    def _unbegun(self, end: EpisodeEnd) -> ConceptGame:
        return ConceptGame(episode=end.episode, task=end.label, concepts=len(self.concepts))

    async def _abstract(
        self, label: str, end: EpisodeEnd, ctx: MemoryContext
    ) -> list[ConceptDraft]:
        chars = self.params.belief_chars
        lines = [f"Goal: {label}", f"Outcome: won in {end.steps or len(self.beliefs)} steps"]
        lines.append("Belief states:")
        lines += [f"[step {b.step}] {clip(b.text, chars)}" for b in self.beliefs] or ["(none)"]
        if self.notes:
            lines.append("Lessons noted:")
            lines += [f"[step {n.step}] {clip(n.text, chars)}" for n in self.notes]
        result = await ask_model(
            ctx,
            self._model_name(),
            CONCEPT_PROMPT.format(n=self.params.max_concepts),
            "\n".join(lines),
            ConceptDrafts,
            attempts=self.params.attempts,
            max_tokens=self.params.max_tokens,
        )
        return result.value.concepts

    def _store(self, drafts: list[ConceptDraft], episode: int, label: str) -> list[str]:
        known = sorted({b.step for b in self.beliefs} | {n.step for n in self.notes})
        stored = []
        for draft in drafts:
            text = " ".join(draft.text.split())
            if not text:
                continue
            cited = sorted({s for s in draft.steps if s in known})
            concept = Concept(
                id=f"c{len(self.concepts)}",
                text=text,
                episode=episode,
                label=label,
                steps=tuple(cited or known),
            )
            self.concepts.append(concept)
            stored.append(concept.id)
            if len(stored) == self.params.max_concepts:
                break
        return stored

    def _keep_lessons(self, episode: int, label: str, notes: list[Note] | None = None) -> list[str]:
        """The game's recorded lessons (or ``notes`` of them) kept as concepts as they were
        written, the latest ``max_concepts`` of them."""
        stored = []
        for note in (self.notes if notes is None else notes)[-self.params.max_concepts :]:
            text = " ".join(note.text.split())
            if not text:
                continue
            concept = Concept(
                id=f"c{len(self.concepts)}",
                text=text,
                episode=episode,
                label=label,
                steps=(note.step,),
            )
            self.concepts.append(concept)
            stored.append(concept.id)
        return stored

    def episode_activity(self, episode: int) -> dict[str, Any] | None:
        """What the module did for game ``episode``, by id: N concepts when it began, the k
        clusters (members, representative), the concepts shown (``retrieved``) and cut, the
        steps of its lessons, the concepts learned when it ended (``stored``, ``texts``) and
        why none were (``error``); None for a game it never saw."""
        game = self.game_log(episode)
        if game is None:
            return None
        learned = set(game.stored)
        return {
            "kind": self.kind,
            "enabled": self.params.enabled,
            "task": game.task,
            "concepts": game.concepts,
            "k": game.k,
            "clusters": [c.model_dump(mode="json") for c in game.clusters],
            "retrieved": list(game.retrieved),
            "shown": self.params.show,
            "cut": list(game.cut),
            "lessons": list(game.lessons),
            "in_game": self.params.in_game,
            "stored": list(game.stored),
            "texts": {c.id: c.text for c in self.concepts if c.id in learned},
            "won": game.won,
            "error": game.error,
        }

    def render(self, budget_tokens: int | None = None) -> str:
        """The concepts in context, each cluster's under its label; then, with ``in_game``,
        the lessons recorded so far in this game."""
        game = self.game
        clusters = game.clusters if game is not None else []
        text = in_context_text(clusters, self.in_context(), self.params.show, self.lessons())
        return truncate_to_budget(text, budget_tokens) if text else EMPTY

    def private_text(self) -> str:
        """The concepts in context, by cluster, and this game's lessons shown."""
        game = self.game
        if not self.params.enabled or game is None or not (game.retrieved or self.lessons()):
            return ""
        head = f"Concepts in context ({game.k} clusters of {game.concepts} concepts):"
        if self.params.show == "representatives":
            sizes = {c.representative: len(c.members) for c in game.clusters}
            lines = [f"- [{c.id}, {sizes[c.id]} alike] {c.text}" for c in self.in_context()]
            return "\n".join([head, *lines])
        body = in_context_text(game.clusters, self.in_context(), "all", self.lessons())
        return f"{head}\n{body}"

    def _settings(self) -> dict[str, Any]:
        return {"provider": self.provider}

    def _load_params(self, state: dict[str, Any]) -> BaseModel:
        """The saved parameters; a state saved before every concept was shown (its params
        name no ``show``) goes on showing the representatives, as it did."""
        params = state.get("params")
        if isinstance(params, dict) and "show" not in params:
            state = {**state, "params": {**params, "show": "representatives"}}
        return super()._load_params(state)

    def _load_settings(self, state: dict[str, Any]) -> dict[str, Any]:
        provider = state.get("provider")
        if provider is not None:
            state_value(state, "provider", str, self.kind)
        return {"provider": provider}
