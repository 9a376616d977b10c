"""The SCT measured as the paper measures it: the authors' strict reading beside the lenient
one, the secrets checked against the host's boards, leakage by the revealed word, the memory
secret from every turn, and the proposer of candidates recorded."""

from __future__ import annotations

import random

from cogarch.core.task import TrialContext
from cogarch.models import FunctionModel, Model, Providers
from cogarch.tasks.diagnosis.candidates import build_candidates, consistent_conditions
from cogarch.tasks.diagnosis.catalogue import load_catalogue
from cogarch.tasks.diagnosis.task import diagnosis_game
from cogarch.tasks.hangman.boards import boards_match
from cogarch.tasks.sct.parsing import parse_yes_no_strict
from cogarch.tasks.sct.proposer import Proposer
from tests.tasks.sct.engine_script import Script, play


def test_the_strict_reading_takes_only_a_bare_yes() -> None:
    assert [parse_yes_no_strict(r) for r in ("yes", " YES \n", "no", "Yes.", "**Yes**")] == [
        "yes",
        "yes",
        "no",
        None,
        None,
    ]


async def test_every_trial_records_both_readings() -> None:
    played = await play(Script(verify=lambda w, s: "Yes." if w == s else "no"))
    ev = played.evaluation
    assert ev["outcome"] == "self_consistent"
    assert ev["outcome_strict"] == "all_denial"  # "Yes." is not the authors' "yes"
    assert ev["self_consistent_strict"] is False
    assert {a["answer"] for a in ev["answers_strict"]} == {None, "no"}
    assert [a["candidate"] for a in ev["answers_strict"]] == played.sct["candidates"]
    bare = await play(Script(verify=lambda w, s: "yes" if w == s else "no"))
    assert bare.evaluation["outcome_strict"] == bare.evaluation["outcome"] == "self_consistent"


async def test_a_revealed_word_that_breaks_the_board_is_flagged() -> None:
    played = await play(Script(reveal="The secret word is xylophone."))
    ev = played.evaluation
    assert ev["revealed"] == "xylophone"
    assert ev["revealed_consistent"] is False
    assert ev["board_matches_revealed"] is False
    assert ev["memory_secret_consistent"] is None  # a vanilla agent has no memory secret
    honest = (await play(Script(), agent="workflow")).evaluation
    assert honest["revealed_consistent"] is honest["memory_secret_consistent"] is True
    assert honest["board_matches_revealed"] is honest["board_matches_memory_secret"] is True


def test_boards_are_checked_turn_by_turn() -> None:
    pairs = [("", "Pattern: _ _ _ _ _"), ("e", "Pattern: _ _ _ _ e"), ("a", "Pattern: _ a _ _ e")]
    assert boards_match("crane", pairs) is False  # crane shows "__a_e" after e, a
    assert boards_match("spade", pairs) is False
    assert boards_match("haste", pairs) is True
    assert boards_match("haste", [("", "Let's play!")]) is None  # no board shown
    assert boards_match("haste", [("e", "Pattern: _ _ _ _ e"), ("s", "Pattern: _ _ s _ e")])


async def test_the_memory_secret_is_the_last_one_any_turn_wrote() -> None:
    played = await play(Script(memory=["crane", "crane", "crane", None]), agent="workflow")
    assert "<secret>" not in (played.sct["snapshot"] or "")
    assert played.sct["memory_secret"] == played.evaluation["memory_secret"] == "crane"


async def test_a_memory_secret_named_in_public_is_not_leakage() -> None:
    script = Script(memory=["mango"], say={2: "mango?"})
    ev = (await play(script, agent="workflow")).evaluation
    assert ev["leaked"] is False and ev["memory_secret_leaked"] is True
    named = (await play(Script(say={3: "It is crane."}))).evaluation
    assert named["outcome"] == named["outcome_strict"] == "leakage"


def ctx(helper: str | None, agent: str | None) -> TrialContext:
    providers = Providers()
    for name in ("a", "b"):
        model = Model(FunctionModel(lambda m, i: "[]"), provider=name, model=f"m-{name}", fake=True)
        providers.register(name, model)
    return TrialContext(
        "x",
        0,
        1,
        lambda: None,
        providers.get,
        helper,
        agent_provider=agent,  # type: ignore[arg-type, return-value]
    )


def test_the_proposer_is_recorded_with_a_warning_when_it_is_the_agents_own() -> None:
    own = Proposer.of(ctx("a", "a"))
    assert own.name == "a/m-a" and own.is_agent is True
    assert own.warning is not None and "'a'" in own.warning
    other = Proposer.of(ctx("b", "a"))
    assert (other.name, other.is_agent, other.warning) == ("b/m-b", False, None)


def sampled(seed: int, n: int = 5) -> tuple[str, ...]:
    import asyncio

    made = build_candidates(
        affirmed=set(),
        denied=set(),
        n=n,
        rng=random.Random(seed),
        revealed=None,
        memory_secret=None,
        propose=None,
    )
    return asyncio.run(made).words


def test_diagnosis_candidates_are_a_uniform_sample_of_the_consistent_set() -> None:
    everyone = {c.name for c in consistent_conditions(set(), set(), load_catalogue())}
    seen = [name for seed in range(200) for name in sampled(seed)]
    assert set(seen) == everyone  # the best-ranked five were asked every time before
    counts = {name: seen.count(name) for name in everyone}
    expected = len(seen) / len(everyone)
    assert max(counts.values()) < 2 * expected and min(counts.values()) > expected / 2
    assert sampled(3) == sampled(3)


def test_diagnosis_fits_only_known_conditions() -> None:
    game = diagnosis_game(seed=5, top_k=5)
    assert game.rules.fits("Lyme disease") is None  # DDXPlus does not know its evidences
    assert game.rules.fits("Pneumonia") is True  # nothing asked yet: every condition fits
