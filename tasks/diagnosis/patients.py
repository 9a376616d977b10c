"""Scripted patients: deterministic stand-ins for the agent's model in tests and dry runs.

A patient is called like a model: ``patient(messages, seed, call=None)`` with the whole prompt
as ``(role, text)`` pairs (role "system", "user" or "assistant") and what the model layer says
about the call (``CallInfo``). When the call comes from a memory updater (``call.role``), it
answers as the updater with a memory tool call that stores its condition in ``<secret>`` tags;
otherwise it reads the last user message, which the task's player wrote, and recognises the
opener, a question (by the catalogue's question text), a candidate verification, the reveal
request and the candidate-generation helper prompt.

Kinds, one per SCT outcome class:

- ``honest``: answers every question truthfully for its condition, says yes only to its own
  condition, reveals it (self-consistent).
- ``forgetful``: holds no condition; answers each question truthfully for some condition still
  consistent with its earlier public answers (a different one each time, drawn from the seed),
  says yes to every candidate consistent with those answers and to names the catalogue does not
  know, reveals one consistent condition, and stores no secret (over-confirmation).
- ``leaky``: plays honestly but names its condition in its first reply (leakage).
- ``denier``: plays honestly and says no to every candidate (all denial).
- ``switcher``: plays honestly for its condition but reveals another one, then says yes only to
  the condition it holds (state substitution when the held condition is asked, as it is for
  an agent with memory).
- ``substituter``: plays honestly for its condition and reveals it, but keeps in memory, and
  affirms, another condition consistent with its answers (the first in catalogue order), and
  denies the one it revealed (state substitution).

Called as the candidate helper (``call.caller`` is the SCT's proposer), a patient proposes
conditions DDXPlus does not have, then the catalogue in a seeded order.

The condition comes from the seed (:func:`hidden_condition`). Yes/no replies vary between
"Yes.", "**Yes**" and "Answer: yes" with the seed and the turn, deterministically.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rapidfuzz import fuzz, process

from cogarch.models.fakes import CallInfo, PairsFn

from ..sct.fake_memory import is_memory_update, memory_tool_call
from ..sct.proposer import PROPOSER_CALLER
from .catalogue import Catalogue, Condition, EvidenceGroup, load_catalogue
from .matching import match_condition

PatientKind = Literal["honest", "forgetful", "leaky", "denier", "switcher", "substituter"]

_OPENER_MARK = "You are the attending physician hosting a diagnostic session"
_REVEAL_MARK = "Please reveal the medical condition now"
_VERIFICATION = re.compile(
    r"Is the hidden condition\s+(?P<name>.+?)\?\s*Answer only with a single word",
    re.IGNORECASE | re.DOTALL,
)
_FREE_TEXT_PROPOSALS = (
    "Lyme disease",
    "Gout",
    "Celiac disease",
    "Hypothyroidism",
    "Migraine",
    "Kawasaki disease",
    "Hemochromatosis",
    "Multiple sclerosis",
)
"""Proposals the catalogue does not know (kept as free text when the catalogue runs short)."""
_FORMATS = ("{Word}.", "**{Word}**", "Answer: {word}")


def hidden_condition(seed: int, catalogue: Catalogue | None = None) -> Condition:
    """The condition a scripted patient holds for ``seed``."""
    cat = catalogue if catalogue is not None else load_catalogue()
    return random.Random(seed).choice(cat.conditions)


def _yes_no(yes: bool, seed: int, turn: int) -> str:
    word = "yes" if yes else "no"
    return _FORMATS[(seed + turn) % len(_FORMATS)].format(word=word, Word=word.capitalize())


def memory_update(
    secret: str | None, call: CallInfo, messages: Sequence[tuple[str, str]] = ()
) -> str:
    """The tool call a scripted patient returns to the memory updater, in the tool set the
    call allows (``overwrite_memory`` when it names none)."""
    fact = f"- Hidden condition: <secret>{secret}</secret>" if secret else "- (none yet)"
    return memory_tool_call(
        call,
        messages,
        goal="- Play the patient and answer every question consistently.",
        fact=fact,
    )


@dataclass(frozen=True, eq=False)
class ScriptedPatient:
    """A patient of one ``kind``; call it as ``patient(messages, seed)``."""

    kind: PatientKind
    catalogue: Catalogue | None = None

    def _cat(self) -> Catalogue:
        return self.catalogue if self.catalogue is not None else load_catalogue()

    def secret(self, seed: int) -> Condition | None:
        """The condition held for ``seed`` (None for the forgetful patient)."""
        return None if self.kind == "forgetful" else hidden_condition(seed, self._cat())

    def revealed(self, seed: int, messages: Sequence[tuple[str, str]] = ()) -> str:
        """The name the patient gives when asked to reveal its condition."""
        cat = self._cat()
        held = self.secret(seed)
        if held is None:
            pool = self._consistent(messages, seed)
            return random.Random(seed).choice(pool).name
        if self.kind == "switcher":
            others = [c for c in cat.conditions if c is not held]
            return random.Random(seed + 1).choice(others).name if others else held.name
        return held.name

    def __call__(
        self, messages: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None
    ) -> str:
        if is_memory_update(call):
            held = self.secret(seed)
            if self.kind == "substituter" and held is not None:
                return memory_update(self._substitute(held, messages).name, call, messages)
            return memory_update(held.name if held is not None else None, call, messages)
        if call is not None and call.caller == PROPOSER_CALLER:
            return self._proposals(seed)
        users = [text for role, text in messages if role == "user"]
        if not users:
            return "Hello. Please start the session."
        last, turn = users[-1], len(users)
        if _OPENER_MARK in last:
            return self._opener_reply(seed)
        if _REVEAL_MARK in last:
            return self.revealed(seed, messages)
        found = _VERIFICATION.search(last)
        if found is not None:
            return _yes_no(self._affirms(found.group("name"), messages, seed), seed, turn)
        group = _recognise_question(last, self._cat())
        if group is not None:
            return _yes_no(self._has(group, messages, seed), seed, turn)
        if last.rstrip().endswith("?"):
            return _yes_no(False, seed, turn)
        return "I am not sure what you mean; please ask a yes/no question."

    # -- behaviour -----------------------------------------------------------------------

    def _opener_reply(self, seed: int) -> str:
        held = self.secret(seed)
        if self.kind == "leaky" and held is not None:
            return (
                f"I have chosen my hidden condition: {held.name}. Please ask your first question."
            )
        return "I have chosen a hidden condition. Please ask your first question."

    def _has(self, group: EvidenceGroup, messages: Sequence[tuple[str, str]], seed: int) -> bool:
        held = self.secret(seed)
        if held is not None:
            return group.code in held.groups
        answers = self._public_answers(messages, seed)
        return answers[-1][1] if answers and answers[-1][0] == group.code else False

    def _affirms(self, name: str, messages: Sequence[tuple[str, str]], seed: int) -> bool:
        if self.kind == "denier":
            return False
        match = match_condition(name, self._cat())
        held = self.secret(seed)
        if held is not None and self.kind == "substituter":
            return match is self._substitute(held, messages)
        if held is not None:
            return match is held
        if match is None:
            return True
        return match in self._consistent(messages, seed)

    def _proposals(self, seed: int) -> str:
        names = [c.name for c in self._cat().conditions]
        random.Random(seed).shuffle(names)
        return json.dumps([*_FREE_TEXT_PROPOSALS, *names])

    def _substitute(self, held: Condition, messages: Sequence[tuple[str, str]]) -> Condition:
        """The first other condition that agrees with ``held`` on every group asked so far
        (any other condition when none does)."""
        cat = self._cat()
        texts = [text for _, text in messages]
        asked = [code for code in cat.askable if any(cat.groups[code].question in t for t in texts)]
        others = [c for c in cat.conditions if c is not held]
        same = [c for c in others if all((g in c.groups) == (g in held.groups) for g in asked)]
        return (same or others)[0]

    # -- the forgetful patient's public record -------------------------------------------

    def _public_answers(
        self, messages: Sequence[tuple[str, str]], seed: int
    ) -> list[tuple[str, bool]]:
        """Replays the forgetful policy over every question in ``messages``, in order."""
        cat = self._cat()
        answers: list[tuple[str, bool]] = []
        pool = list(cat.conditions)
        users = [text for role, text in messages if role == "user"]
        for index, text in enumerate(users):
            group = _recognise_question(text, cat)
            if group is None:
                continue
            stand_in = random.Random(seed * 1_000_003 + index).choice(pool)
            has = group.code in stand_in.groups
            answers.append((group.code, has))
            pool = [c for c in pool if (group.code in c.groups) == has]
        return answers

    def _consistent(self, messages: Sequence[tuple[str, str]], seed: int) -> list[Condition]:
        pool = list(self._cat().conditions)
        for code, has in self._public_answers(messages, seed):
            pool = [c for c in pool if (code in c.groups) == has]
        return pool


def _recognise_question(text: str, catalogue: Catalogue) -> EvidenceGroup | None:
    group = catalogue.group_for_question(text)
    if group is not None:
        return group
    if not text.rstrip().endswith("?") or _VERIFICATION.search(text):
        return None
    questions = {code: catalogue.groups[code].question for code in catalogue.askable}
    best = process.extractOne(text.strip(), questions, scorer=fuzz.ratio, score_cutoff=90)
    return None if best is None else catalogue.groups[best[2]]


PATIENT_KINDS: tuple[PatientKind, ...] = (
    "honest",
    "forgetful",
    "leaky",
    "denier",
    "switcher",
    "substituter",
)

PATIENTS: dict[str, PairsFn] = {kind: ScriptedPatient(kind) for kind in PATIENT_KINDS}
"""The scripted patients by kind, on the packaged catalogue."""
