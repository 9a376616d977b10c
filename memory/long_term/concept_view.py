"""What the conceptual memory puts in context: every concept grouped by its cluster, or each
cluster's representative alone, within an optional token cap; and this game's lessons.

The Episodex paper stores concepts and retrieves them "in full" (its section 5.3), and its
agent's beliefs name the cluster a piece of knowledge came from ("Based on Cluster 8
knowledge", appendix A.2.4). ``show: all`` puts every stored concept in context, grouped under
its cluster's label, the representative first; ``show: representatives`` keeps only the member
nearest each centroid. A cap (``tokens``) is off by default; when it is set and the concepts do
not fit, whole concepts are left out, the representatives last, and the ids left out are
returned so the game's log records the cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from cogarch.tokens import count_tokens

from .records import Cluster, Concept, Note

ConceptsShown = Literal["all", "representatives"]


@dataclass(frozen=True)
class ConceptView:
    """The concepts of one game's context, by cluster, and those a cap left out."""

    groups: tuple[tuple[Cluster, tuple[Concept, ...]], ...]
    """Each cluster with the concepts shown of it, the representative first."""
    cut: tuple[str, ...] = ()
    """Ids of the concepts the token cap left out."""

    @property
    def shown(self) -> list[str]:
        """Ids of the concepts in context, in the order shown."""
        return [c.id for _, members in self.groups for c in members]


def label(cluster: Cluster) -> str:
    """A cluster's label in context: ``Cluster k0``."""
    return f"Cluster {cluster.id}"


def _ordered(cluster: Cluster, by_id: dict[str, Concept], show: ConceptsShown) -> list[Concept]:
    if show == "representatives":
        return [by_id[cluster.representative]]
    rest = [by_id[i] for i in cluster.members if i != cluster.representative]
    return [by_id[cluster.representative], *rest]


def _lines(groups: Sequence[tuple[Cluster, Sequence[Concept]]]) -> list[str]:
    lines: list[str] = []
    for cluster, members in groups:
        if not members:
            continue
        size = len(cluster.members)
        lines.append(f"{label(cluster)} ({size} concept{'s' if size != 1 else ''}):")
        lines += [f"- {c.text}" for c in members]
    return lines


def view(
    concepts: Sequence[Concept],
    clusters: Sequence[Cluster],
    show: ConceptsShown = "all",
    tokens: int | None = None,
) -> ConceptView:
    """The concepts in context for ``clusters`` of ``concepts``; with a cap of ``tokens``,
    concepts are dropped from the end of each cluster in turn (the clusters' last members
    first, representatives last) until the rest fits."""
    by_id = {c.id: c for c in concepts}
    groups = [(cl, _ordered(cl, by_id, show)) for cl in clusters]
    cut: list[str] = []
    if tokens is not None:
        kept = [list(members) for _, members in groups]
        while count_tokens("\n".join(_lines(list(zip(clusters, kept, strict=True))))) > tokens:
            longest = max(range(len(kept)), key=lambda i: (len(kept[i]), -i))
            if not kept[longest]:
                break
            cut.append(kept[longest].pop().id)
        groups = [(cl, members) for (cl, _), members in zip(groups, kept, strict=True)]
    return ConceptView(tuple((cl, tuple(m)) for cl, m in groups), tuple(cut))


def render_view(shown: ConceptView) -> str:
    """The concepts as shown in a prompt: each cluster's label, then its concepts."""
    return "\n".join(_lines(shown.groups))


def render_shown(
    clusters: Sequence[Cluster], shown: Sequence[Concept], show: ConceptsShown = "all"
) -> str:
    """The concepts ``shown`` of a game's ``clusters`` as a prompt shows them: under their
    clusters' labels, each representative first; the representatives alone one per line, as
    they always were."""
    if show == "representatives":
        return "\n".join(f"- {c.text}" for c in shown)
    groups = []
    for cluster in clusters:
        members = [c for c in shown if c.id in cluster.members]
        members.sort(key=lambda c: c.id != cluster.representative)
        groups.append((cluster, tuple(members)))
    return render_view(ConceptView(tuple(groups)))


def render_lessons(notes: Sequence[Note]) -> str:
    """The lessons noted so far in the game in progress, each with its step."""
    return "\n".join(f"- [step {n.step}] {n.text}" for n in notes)


def in_context_text(
    clusters: Sequence[Cluster],
    shown: Sequence[Concept],
    show: ConceptsShown = "all",
    lessons: Sequence[Note] = (),
) -> str:
    """What the conceptual memory puts in a prompt: the concepts ``shown`` (see
    :func:`render_shown`), then the game's own ``lessons`` under "Learned in this game"."""
    parts = [render_shown(clusters, shown, show)] if shown else []
    if lessons:
        parts.append("Learned in this game:\n" + render_lessons(lessons))
    return "\n".join(parts)
