"""The scale figure in headless chromium: five memories with long names at five lengths,
from 8k to 1.5M tokens. As the browser draws it, every text lies inside the figure, no two
legend entries overlap, no two tick labels of a panel overlap, and every point lies inside
its panel's frame."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.scale.curves import Scale, ScalePoint
from cogarch.experiments.scale.figure import scale_svg
from tests.experiments.viewer.boxes import inside, overlap
from tests.experiments.viewer.conftest import launched_chromium

pytestmark = pytest.mark.browser
LENGTHS = [8000, 32000, 128000, 512000, 1500000]
AGENTS = [f"memory_{kind}_top10_minilm_reader_v{i}" for i, kind in enumerate("abcde")]
BOXES = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const svg = document.querySelector('svg');
  return {
    figure: box(svg),
    texts: [...svg.querySelectorAll('text')].map(t => ({text: t.textContent, box: box(t)})),
    legend: [...svg.querySelectorAll('g.legend-item')].map(box),
    panels: [...svg.querySelectorAll('g.panel')].map(p => ({
      frame: box(p.querySelector('rect.plot-area')),
      ticks: [...p.querySelectorAll('text.tick')].map(box),
      points: [...p.querySelectorAll('circle')].map(box),
    })),
  };
}"""


def _point(agent: str, index: int, tokens: int) -> ScalePoint:
    share = (index + 1) / (len(AGENTS) + 1)
    return ScalePoint(
        agent=agent,
        task=f"genmem_{tokens}",
        history_tokens=tokens,
        questions=20,
        failed=0,
        correct=round(20 * share),
        accuracy=share,
        accuracy_low=0.0,
        accuracy_high=1.0,
        answerable=16,
        answerable_accuracy=share,
        recall=1.0 - share,
        recall_questions=16,
        context_tokens=1000.0 * (index + 1),
        ingest_seconds=tokens / 400,
        ingest_calls=0,
        ingest_prompt_tokens=0,
        answer_seconds=3.0,
    )


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    points = [_point(a, i, n) for i, a in enumerate(AGENTS) for n in LENGTHS]
    scale = Scale(suite="long_names", recall_metric="turn recall_all@5", points=points)
    path: Path = tmp_path_factory.mktemp("scale") / "scale.svg"
    path.write_text(scale_svg(scale), encoding="utf-8")
    for chromium in launched_chromium():
        context = chromium.new_context(viewport={"width": 900, "height": 900})
        page = context.new_page()
        page.goto(path.as_uri())
        yield page.evaluate(BOXES)
        context.close()


def test_every_text_lies_inside_the_figure(drawn: Any) -> None:
    outside = [t["text"] for t in drawn["texts"] if not inside(t["box"], drawn["figure"])]
    assert not outside


def test_the_legend_names_every_memory_without_overlap(drawn: Any) -> None:
    legend = drawn["legend"]
    assert len(legend) == len(AGENTS)
    for i, a in enumerate(legend):
        for b in legend[i + 1 :]:
            assert not overlap(a, b)
    top_of_panels = min(p["frame"]["top"] for p in drawn["panels"])
    assert all(item["bottom"] < top_of_panels for item in legend)


def test_ticks_do_not_overlap_and_points_lie_in_their_frames(drawn: Any) -> None:
    assert len(drawn["panels"]) == 4
    for panel in drawn["panels"]:
        ticks = panel["ticks"]
        for i, a in enumerate(ticks):
            for b in ticks[i + 1 :]:
                assert not overlap(a, b)
        assert len(panel["points"]) == len(AGENTS) * len(LENGTHS)
        assert all(inside(p, panel["frame"], slack=4.0) for p in panel["points"])
