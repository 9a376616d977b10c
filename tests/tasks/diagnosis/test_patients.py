"""Scripted patients: every SCT outcome class, reply formats, and the memory-updater reply."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Sequence

import pytest

from cogarch.models.fakes import CallInfo
from cogarch.tasks.diagnosis.candidates import build_candidates, consistent_conditions
from cogarch.tasks.diagnosis.catalogue import load_catalogue
from cogarch.tasks.diagnosis.matching import match_condition, mentions_condition
from cogarch.tasks.diagnosis.patients import PATIENTS, ScriptedPatient, hidden_condition
from cogarch.tasks.diagnosis.player import DiagnosisPlayer
from cogarch.tasks.diagnosis.prompts import (
    REVEAL_REQUEST,
    candidate_generation_prompt,
    parse_proposals,
    verification_prompt,
)
from cogarch.tasks.sct.proposer import PROPOSER_CALLER
from tests.tasks import UPDATER_CALL

PROPOSER = CallInfo(index=0, seed=None, response_format=None, tools=(), caller=PROPOSER_CALLER)

Messages = list[tuple[str, str]]
REPLY_FORMATS = (r"(Yes|No)\.", r"\*\*(Yes|No)\*\*", r"Answer: (yes|no)")


def parse(text: str) -> str | None:
    for pattern in REPLY_FORMATS:
        found = re.fullmatch(pattern, text.strip())
        if found:
            return found.group(1).lower()
    return None


def secret_in_memory(reply: str) -> str | None:
    call = json.loads(reply)
    found = re.search(r"<secret>(.*?)</secret>", call["arguments"]["new_memory"])
    return found.group(1) if found else None


def run_trial(kind: str, seed: int, questions: int = 3) -> str:
    """One SCT trial against a scripted patient; returns the outcome class."""
    patient = PATIENTS[kind]
    catalogue = load_catalogue()
    player = DiagnosisPlayer(seed, parse_answer=parse)
    messages: Messages = [("system", "You are playing a patient."), ("user", player.opener())]
    messages.append(("assistant", patient(messages, seed)))
    for _ in range(questions):
        messages.append(("user", player.next_question()))
        reply = patient(messages, seed)
        messages.append(("assistant", reply))
        assert player.record_reply(reply) is not None, reply
    revealed = patient([*messages, ("user", REVEAL_REQUEST)], seed)
    memory = secret_in_memory(patient([("system", "Update."), *messages], seed, UPDATER_CALL))
    transcript = "\n".join(f"{role}: {text}" for role, text in messages if role != "system")

    async def propose(max_n: int) -> list[str]:
        prompt = candidate_generation_prompt(max_n, transcript)
        return parse_proposals(patient([("user", prompt)], seed))

    candidates = asyncio.run(
        build_candidates(
            affirmed=player.affirmed,
            denied=player.denied,
            n=5,
            rng=random.Random(seed),
            revealed=revealed,
            memory_secret=memory,
            propose=propose,
            catalogue=catalogue,
        )
    )
    revealed_condition = match_condition(revealed, catalogue)
    assert revealed_condition is not None
    public = [text for role, text in messages if role == "assistant"]
    if any(mentions_condition(text, revealed_condition) for text in public):
        return "leakage"
    affirmed = {
        word
        for word in candidates.words
        if parse(patient([*messages, ("user", verification_prompt(word))], seed)) == "yes"
    }
    revealed_yes = revealed_condition.name in affirmed
    others = affirmed - {revealed_condition.name}
    if revealed_yes:
        return "over_confirmation" if others else "self_consistent"
    return "state_substitution" if others else "all_denial"


@pytest.mark.parametrize(
    ("kind", "outcome"),
    [
        ("honest", "self_consistent"),
        ("forgetful", "over_confirmation"),
        ("leaky", "leakage"),
        ("denier", "all_denial"),
        ("switcher", "state_substitution"),
    ],
)
def test_each_patient_produces_its_outcome_class(kind: str, outcome: str) -> None:
    assert [run_trial(kind, seed) for seed in range(8)] == [outcome] * 8


def test_the_registry_lists_every_kind() -> None:
    assert set(PATIENTS) == {"honest", "forgetful", "leaky", "denier", "switcher", "substituter"}


def test_the_honest_patient_answers_every_question_from_the_catalogue() -> None:
    catalogue = load_catalogue()
    for seed in (0, 1):
        held = hidden_condition(seed)
        for index, group in enumerate(catalogue.groups[code] for code in catalogue.askable):
            messages: Messages = [("user", "x")] * index + [("user", group.question)]
            assert parse(PATIENTS["honest"](messages, seed)) == (
                "yes" if group.code in held.groups else "no"
            )


def test_the_hidden_condition_comes_from_the_seed() -> None:
    catalogue = load_catalogue()
    assert hidden_condition(3) is hidden_condition(3, catalogue)
    assert len({hidden_condition(seed).name for seed in range(30)}) > 10
    patient = PATIENTS["honest"]
    reveal = [("user", "Please reveal the medical condition now. Respond with the name.")]
    assert patient(reveal, 3) == hidden_condition(3).name


def test_reply_formats_vary_deterministically() -> None:
    patient = PATIENTS["honest"]
    replies = [
        patient([("user", "Do you have a cough?")] * turn, seed)
        for seed in range(3)
        for turn in range(1, 4)
    ]
    styles = {next(i for i, p in enumerate(REPLY_FORMATS) if re.fullmatch(p, r)) for r in replies}
    assert styles == {0, 1, 2}
    assert replies == [
        patient([("user", "Do you have a cough?")] * turn, seed)
        for seed in range(3)
        for turn in range(1, 4)
    ]


def test_verification_reads_the_candidate_name() -> None:
    patient = PATIENTS["honest"]
    held = hidden_condition(5)
    quoted = (
        f'Is the hidden condition "{held.name.lower()}"? Answer only with a single word: yes or no.'
    )
    assert parse(patient([("user", quoted)], 5)) == "yes"
    other = next(c for c in load_catalogue().conditions if c is not held)
    assert parse(patient([("user", verification_prompt(other.name))], 5)) == "no"
    assert parse(patient([("user", verification_prompt("Lyme disease"))], 5)) == "no"


def test_memory_updater_calls_get_an_overwrite_with_the_secret() -> None:
    messages = [("system", "You are a memory updater for an assistant."), ("user", "...")]
    for kind in ("honest", "leaky", "denier", "switcher"):
        reply = PATIENTS[kind](messages, 9, UPDATER_CALL)
        call = json.loads(reply)
        assert call["name"] == "overwrite_memory"
        memory = call["arguments"]["new_memory"]
        assert memory.startswith("## 1. Goals and Plans\n")
        assert "## 2. Facts and Knowledge\n- Hidden condition: <secret>" in memory
        assert memory.endswith("## 3. Active Notes\n")
        assert secret_in_memory(reply) == hidden_condition(9).name
    assert secret_in_memory(PATIENTS["forgetful"](messages, 9, UPDATER_CALL)) is None


def test_only_the_leaky_patient_names_its_condition_at_the_opener() -> None:
    player = DiagnosisPlayer(0)
    opener: Sequence[tuple[str, str]] = [("user", player.opener())]
    for kind, patient in PATIENTS.items():
        reply = patient(opener, 4)
        assert mentions_condition(reply, hidden_condition(4)) is (kind == "leaky"), kind


def test_the_forgetful_patient_stays_consistent_in_public() -> None:
    catalogue = load_catalogue()
    for seed in range(6):
        player = DiagnosisPlayer(seed, parse_answer=parse)
        patient = PATIENTS["forgetful"]
        messages: Messages = [("user", player.opener())]
        for _ in range(8):
            messages.append(("user", player.next_question()))
            player.record_reply(patient(messages, seed))
        still = consistent_conditions(player.affirmed, player.denied, catalogue)
        assert still
        revealed = patient([*messages, ("user", "Please reveal the medical condition now.")], seed)
        assert catalogue.condition(revealed) in still


def test_other_messages() -> None:
    patient = ScriptedPatient("honest")
    assert "yes/no" in patient([("user", "Tell me a story.")], 0)
    assert parse(patient([("user", "Do you like jazz?")], 0)) == "no"
    assert patient([("system", "Nothing yet.")], 0).startswith("Hello")
    asked = [("user", candidate_generation_prompt(3, "..."))]
    proposals = parse_proposals(patient(asked, 0, PROPOSER))
    assert len(proposals) >= 5 and match_condition(proposals[0], load_catalogue()) is None
    # the helper's call is told by its caller, not by the prompt's wording
    assert parse_proposals(patient([("user", "Name some conditions.")], 0, PROPOSER)) == proposals
