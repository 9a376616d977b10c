"""The 50-turn scenarios: the paper's structure, generated deterministically from a seed."""

from __future__ import annotations

from typing import get_args

from cogarch.tasks.constraints.catalogue import get_constraint_scenario
from cogarch.tasks.constraints.long_scenarios import payments_batch
from cogarch.tasks.constraints.scenarios import TurnKind


def test_a_long_episode_has_the_papers_structure() -> None:
    s = get_constraint_scenario("payments_batch")
    assert len(s.turns) == 50
    kinds = [t.kind for t in s.turns]
    assert set(kinds) == set(get_args(TurnKind))  # every stress topic of Table 1, and more
    setup = [i for i, t in enumerate(s.turns, 1) if t.adds]
    assert setup == [1, 2, 3, 4, 5]  # the constraints come early
    [revoked] = [i for i, t in enumerate(s.turns, 1) if t.drops]
    assert 25 < revoked < 42
    assert [c.id for c in s.canonical(revoked - 1).constraints] == ["P1", "P2", "P3", "P4", "P5"]
    assert [c.id for c in s.canonical(50).constraints] == ["P1", "P2", "P3", "P4"]
    assert s.turns[-1].requires == ["every active constraint"]
    counts = {k: kinds.count(k) for k in ("poisoned", "injection", "conflict", "distraction")}
    assert counts == {"poisoned": 3, "injection": 3, "conflict": 4, "distraction": 5}
    assert "injected" in s.canonical(50).render()  # unverified claims reach the judge


def test_the_seed_fixes_the_episode_and_another_seed_reorders_it() -> None:
    one, again, other = payments_batch(2026), payments_batch(2026), payments_batch(5)
    assert one == again == get_constraint_scenario("payments_batch")
    assert [t.user for t in one.turns] != [t.user for t in other.turns]
    assert sorted(t.user for t in one.turns) == sorted(t.user for t in other.turns)
    evidence = [t.user for t in other.turns if t.kind == "evidence" and not t.drops]
    assert evidence == [t.user for t in one.turns if t.kind == "evidence" and not t.drops]
