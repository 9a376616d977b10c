"""Candidate conditions for the fork: those the public answers leave possible.

A condition is *consistent* with the answers when it has every affirmed question group and none
of the denied ones (a condition has a group when it lists any evidence of that group).

The fork's candidates are a uniform sample of the consistent conditions, drawn with the trial's
seed. The authors' code filters the catalogue the same way and then sorts by the number of
affirmed evidences a condition has (equal for every consistent condition), then by name, and
takes the first ``n``: the same few alphabetically early conditions across seeds. A ranking by
fit (below) skews the set toward the same severe, best-matching conditions in the same way, so
it is offered for inspection (:func:`consistent_conditions`) and not used to pick candidates.

:func:`consistent_conditions` ranks consistent conditions by how well they fit the answers:

1. more of the condition's own evidences lie in affirmed groups (a condition whose profile
   details an affirmed complaint, such as pain with its location and character, fits it better);
2. fewer of the condition's askable groups are left unconfirmed (its profile is covered more
   completely by what was affirmed);
3. more severe first (DDXPlus severity 1 is the most severe: the conditions a differential
   must not miss);
4. catalogue order, so the ranking is total and never depends on the names' spelling.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Literal

from cogarch.core.player import Propose

from .catalogue import Catalogue, Condition, load_catalogue
from .matching import clean_condition_text, is_near_duplicate, match_condition

CandidateOrigin = Literal["revealed", "memory", "catalogue", "model"]
RejectionReason = Literal["inconsistent", "duplicate", "invalid"]

MAX_PROPOSAL_CHARS = 100
MAX_PROPOSAL_WORDS = 12


@dataclass(frozen=True)
class RejectedProposal:
    """A model proposal left out of the candidate set, and why."""

    text: str
    reason: RejectionReason


@dataclass(frozen=True)
class CandidateSet:
    """The conditions asked about at the fork, in the order they are asked.

    ``words`` holds the candidate names (the field is named as in the Hangman task so the SCT
    engine treats both alike); ``sources[i]`` says where ``words[i]`` came from. ``shortfall``
    is how many candidates are missing from the ``n`` requested.
    """

    words: tuple[str, ...]
    sources: tuple[CandidateOrigin, ...]
    rejected_proposals: tuple[RejectedProposal, ...]
    shortfall: int

    def __post_init__(self) -> None:
        if len(self.words) != len(self.sources):
            raise ValueError("words and sources must have the same length")


def _groups(codes: Iterable[str], catalogue: Catalogue) -> frozenset[str]:
    return frozenset(catalogue.group_of(code).code for code in codes)


def consistent_conditions(
    affirmed: Collection[str], denied: Collection[str], catalogue: Catalogue | None = None
) -> list[Condition]:
    """Conditions that have every affirmed group and no denied one, best fit first.

    ``affirmed`` and ``denied`` hold evidence codes or question-group codes (a sub-evidence
    stands for its group). The ranking is described in the module docstring.
    """
    cat = catalogue if catalogue is not None else load_catalogue()
    yes, no = _groups(affirmed, cat), _groups(denied, cat)
    askable = frozenset(cat.askable)
    ranked: list[tuple[tuple[int, int, int, int], Condition]] = []
    for position, condition in enumerate(cat.conditions):
        if not yes <= condition.groups or no & condition.groups:
            continue
        explained = sum(1 for code in condition.evidences if cat.evidences[code].group in yes)
        unconfirmed = len((condition.groups & askable) - yes)
        ranked.append(((-explained, unconfirmed, condition.severity, position), condition))
    ranked.sort(key=lambda item: item[0])
    return [condition for _, condition in ranked]


class _Pool:
    """Candidates collected so far, refusing near-duplicates."""

    def __init__(self, catalogue: Catalogue) -> None:
        self._catalogue = catalogue
        self._matches: dict[str, Condition | None] = {}
        self.names: list[str] = []
        self.sources: list[CandidateOrigin] = []

    def match(self, text: str) -> Condition | None:
        if text not in self._matches:
            self._matches[text] = match_condition(text, self._catalogue)
        return self._matches[text]

    def duplicates(self, name: str) -> bool:
        mine = self.match(name)
        for other in self.names:
            theirs = self.match(other)
            if mine is not None and theirs is not None:
                if mine is theirs:
                    return True
            elif is_near_duplicate(name, other):
                return True
        return False

    def add(self, name: str, source: CandidateOrigin) -> bool:
        if self.duplicates(name):
            return False
        self.names.append(name)
        self.sources.append(source)
        return True


def _clean_proposal(text: str) -> str | None:
    name = " ".join(clean_condition_text(text).split())
    too_long = len(name) > MAX_PROPOSAL_CHARS or len(name.split()) > MAX_PROPOSAL_WORDS
    if not name or too_long or not any(ch.isalpha() for ch in name):
        return None
    return name


async def build_candidates(
    *,
    affirmed: Collection[str],
    denied: Collection[str],
    n: int,
    rng: random.Random,
    revealed: str | None,
    memory_secret: str | None,
    propose: Propose | None,
    catalogue: Catalogue | None = None,
) -> CandidateSet:
    """The ``n`` candidates asked about at the fork, shuffled with ``rng``.

    Collected in this order, each refused if it repeats one already taken (same catalogue
    condition, or :func:`~tasks.diagnosis.matching.is_near_duplicate`):

    1. the revealed condition: the catalogue name when it matches one, else the text as given
       (the agent may reveal a condition DDXPlus does not have);
    2. the secret found in the agent's memory, likewise;
    3. consistent catalogue conditions, drawn uniformly at random with ``rng``;
    4. when fewer than ``n`` are collected, proposals from ``propose(n)`` (asked for ``n`` so
       that duplicates of candidates already taken still leave enough). A proposal naming a
       catalogue condition is kept only if that condition is consistent with the answers, under
       its catalogue name. A proposal the catalogue does not know is kept as free text: the 49
       DDXPlus conditions cannot check it against the answers, and the paper tops the set up
       with model proposals for exactly the case the catalogue runs short.

    The revealed and memory secrets are kept whether or not they are consistent: the test is
    whether the agent affirms them.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1 candidate, got {n}")
    cat = catalogue if catalogue is not None else load_catalogue()
    pool = _Pool(cat)
    secrets: tuple[tuple[str | None, CandidateOrigin], ...] = (
        (revealed, "revealed"),
        (memory_secret, "memory"),
    )
    for text, source in secrets:
        name = " ".join(clean_condition_text(text).split()) if text else ""
        if name and len(pool.names) < n:
            match = pool.match(name)
            pool.add(match.name if match is not None else name, source)
    consistent = consistent_conditions(affirmed, denied, cat)
    for condition in rng.sample(consistent, len(consistent)):
        if len(pool.names) >= n:
            break
        pool.add(condition.name, "catalogue")
    rejected: list[RejectedProposal] = []
    if len(pool.names) < n and propose is not None:
        allowed = {condition.name for condition in consistent}
        for proposal in await propose(n):
            if len(pool.names) >= n:
                break
            cleaned = _clean_proposal(proposal) if isinstance(proposal, str) else None
            if cleaned is None:
                rejected.append(RejectedProposal(str(proposal), "invalid"))
                continue
            match = pool.match(cleaned)
            if match is not None and match.name not in allowed:
                rejected.append(RejectedProposal(proposal, "inconsistent"))
            elif not pool.add(match.name if match is not None else cleaned, "model"):
                rejected.append(RejectedProposal(proposal, "duplicate"))
    order = list(range(len(pool.names)))
    rng.shuffle(order)
    return CandidateSet(
        words=tuple(pool.names[i] for i in order),
        sources=tuple(pool.sources[i] for i in order),
        rejected_proposals=tuple(rejected),
        shortfall=n - len(pool.names),
    )
