"""An interrupted judge audit goes on where it stopped and judges nothing twice; its calls go
through the run's response cache like every call."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cogarch.experiments.judge_audit.audit import AUDIT_FILE
from cogarch.experiments.judge_audit.log import LOG
from cogarch.experiments.running.runner import Runner

from . import scripted
from .test_scripted_judges import audited, config


@pytest.fixture(autouse=True)
def _fresh_counts() -> Iterator[None]:
    scripted.CALLS.clear()
    scripted.STOP_AFTER.clear()
    yield
    scripted.CALLS.clear()
    scripted.STOP_AFTER.clear()


async def test_an_interrupted_audit_resumes_and_judges_nothing_again(tmp_path: Path) -> None:
    cfg = config(tmp_path / "cut", "overlap", "counting", concurrency=1)
    scripted.STOP_AFTER.append(7)
    with pytest.raises(BaseExceptionGroup) as stopped:
        await Runner(cfg, progress=False).run()
    assert stopped.group_contains(scripted.Stop)
    first = list(scripted.CALLS)
    assert len(first) == 7
    assert not (cfg.output_dir() / AUDIT_FILE).exists()  # written only once it is whole

    scripted.STOP_AFTER.clear()
    scripted.CALLS.clear()
    resumed = await audited(cfg)
    second = list(scripted.CALLS)
    assert len(second) == 30 - 7  # the 7 verdicts the log kept are not asked again
    assert sorted(first + second) == sorted(p.answer for p in resumed.probes)
    primary, counted = resumed.judges
    assert primary.usage["model_calls"] == 30 and primary.usage["cache_hits"] == 30
    assert counted.usage["model_calls"] == 30 and counted.usage["cache_hits"] == 7

    scripted.CALLS.clear()
    again = await audited(cfg)
    assert scripted.CALLS == []
    assert again.probes == resumed.probes and again.agreement == resumed.agreement
    assert [j.verdicts for j in again.judges] == [j.verdicts for j in resumed.judges]
    assert [j.usage["cache_hits"] for j in again.judges] == [30, 30]

    whole = await audited(config(tmp_path / "whole", "overlap", "overlap"))
    for name in ("false_positive", "false_negative", "verdicts", "by_kind"):
        assert getattr(resumed.judges[1], name) == getattr(whole.judges[1], name)
    assert resumed.agreement == whole.agreement


async def test_a_verdict_cut_short_by_a_kill_is_asked_again(tmp_path: Path) -> None:
    cfg = config(tmp_path, "overlap", "counting")
    await audited(cfg)
    log = cfg.output_dir() / LOG
    lines = log.read_bytes().split(b"\n")
    assert len(lines) == 1 + 60 + 1  # header, two judges' 30 verdicts, the final newline
    kept = b"\n".join(lines[:-2]) + b"\n" + lines[-2][:25]  # the last line torn
    log.write_bytes(kept)
    scripted.CALLS.clear()
    await audited(cfg)
    assert len(scripted.CALLS) == 1
    assert len(log.read_bytes().split(b"\n")) == 62


async def test_a_log_that_cannot_be_read_is_set_aside(tmp_path: Path) -> None:
    cfg = config(tmp_path, "overlap", "counting")
    cfg.output_dir().mkdir(parents=True)
    (cfg.output_dir() / LOG).write_text("not the audit's log\n", encoding="utf-8")
    audit = await audited(cfg)
    assert (cfg.output_dir() / f"{LOG}.unusable").read_text() == "not the audit's log\n"
    assert len(scripted.CALLS) == 30 and audit.judges[1].false_positive.n == 8


async def test_the_audit_calls_are_cached_like_every_call(tmp_path: Path) -> None:
    cfg = config(tmp_path, "overlap", "counting").model_copy(update={"cache": True})
    await audited(cfg)
    assert len(scripted.CALLS) == 30
    (cfg.output_dir() / LOG).unlink()  # no verdict kept: every call is asked again
    scripted.CALLS.clear()
    audit = await audited(cfg)
    assert scripted.CALLS == []
    assert [j.usage["cache_hits"] for j in audit.judges] == [30, 30]
