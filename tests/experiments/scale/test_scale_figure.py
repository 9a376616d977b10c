"""The scale figure's structure, read as XML: four panels on one logarithmic x axis, one
curve per memory in each, every point inside its panel's frame, a missing value breaking
its curve, a control dashed, names escaped, and the legend naming every memory."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET

from cogarch.experiments.scale.curves import Scale, ScalePoint
from cogarch.experiments.scale.figure import scale_svg, tokens_label

NS = {"svg": "http://www.w3.org/2000/svg"}
HOSTILE = "<script>x</script>&dense"


def _point(agent: str, tokens: int, **values: float | None) -> ScalePoint:
    base: dict[str, float | None] = {
        "accuracy": 0.5,
        "recall": 0.7,
        "context_tokens": 400.0,
        "ingest_seconds": tokens / 1000,
    }
    base.update(values)
    return ScalePoint(
        agent=agent,
        task=f"t{tokens}",
        control="oracle" if agent == "oracle" else None,
        history_tokens=tokens,
        questions=10,
        failed=0,
        correct=5,
        accuracy=base["accuracy"],
        accuracy_low=0.2,
        accuracy_high=0.8,
        answerable=8,
        answerable_accuracy=0.5,
        recall=base["recall"],
        recall_questions=8,
        context_tokens=base["context_tokens"],
        ingest_seconds=base["ingest_seconds"] or 0.0,
        ingest_calls=0,
        ingest_prompt_tokens=0,
        answer_seconds=2.0,
    )


LENGTHS = [8000, 32000, 128000, 512000]
SCALE = Scale(
    suite="scale",
    recall_metric="turn recall_all@5",
    points=[
        *(_point(HOSTILE, n, accuracy=1 - i / 4) for i, n in enumerate(LENGTHS)),
        *(
            _point("hybrid", n, recall=None if n == 32000 else 0.9, context_tokens=n / 100)
            for n in LENGTHS
        ),
        *(_point("oracle", n, accuracy=0.9, recall=None) for n in LENGTHS),
    ],
)


def _root() -> ET.Element:
    return ET.fromstring(scale_svg(SCALE))


def _floats(text: str) -> list[tuple[float, float]]:
    return [(float(a), float(b)) for a, b in (p.split(",") for p in text.split())]


def test_four_panels_each_with_one_curve_per_memory_inside_its_frame() -> None:
    root = _root()
    panels = root.findall(".//svg:g[@class='panel']", NS)
    assert [p.get("data-metric") for p in panels] == [
        "accuracy",
        "recall",
        "context_tokens",
        "ingest_seconds",
    ]
    for panel in panels:
        frame = panel.find("svg:rect[@class='plot-area']", NS)
        assert frame is not None
        left, top = float(frame.get("x", 0)), float(frame.get("y", 0))
        right, bottom = left + float(frame.get("width", 0)), top + float(frame.get("height", 0))
        series = panel.findall("svg:g[@class='series']", NS)
        assert [s.get("data-agent") for s in series] == [HOSTILE, "hybrid", "oracle"]
        for curve in series:
            for circle in curve.findall("svg:circle", NS):
                x, y = float(circle.get("cx", 0)), float(circle.get("cy", 0))
                assert left <= x <= right and top <= y <= bottom
                assert "history tokens" in (circle.findtext("svg:title", "", NS))


def test_the_x_axis_is_logarithmic_and_shared() -> None:
    root = _root()
    xs = []
    for panel in root.findall(".//svg:g[@class='panel']", NS):
        curve = panel.find("svg:g[@data-agent='oracle']", NS)
        assert curve is not None
        xs.append([float(c.get("cx", 0)) for c in curve.findall("svg:circle", NS)])
    first = xs[0]
    gaps = [b - a for a, b in itertools.pairwise(first)]
    assert all(g > 0 and math.isclose(g, gaps[0], abs_tol=0.2) for g in gaps)  # 4x apart
    ticks = [t.text for t in root.findall(".//svg:text[@class='tick x-tick']", NS)]
    assert ticks[:4] == [tokens_label(n) for n in LENGTHS] == ["8k", "32k", "128k", "512k"]
    # every lower panel is the upper one moved: the same x positions
    assert [round(x - first[0], 1) for x in xs[2]] == [round(x - first[0], 1) for x in first]


def test_a_missing_value_breaks_the_curve_and_a_control_is_dashed() -> None:
    root = _root()
    recall = root.find(".//svg:g[@data-metric='recall']", NS)
    assert recall is not None
    hybrid = recall.find("svg:g[@data-agent='hybrid']", NS)
    assert hybrid is not None
    assert len(hybrid.findall("svg:circle", NS)) == 3
    lines = hybrid.findall("svg:polyline", NS)
    assert [len(_floats(line.get("points", ""))) for line in lines] == [2]  # 128k to 512k
    oracle = recall.find("svg:g[@data-agent='oracle']", NS)
    assert oracle is not None and not oracle.findall("svg:circle", NS)
    accuracy = root.find(".//svg:g[@data-metric='accuracy']", NS)
    assert accuracy is not None
    dashed = accuracy.find("svg:g[@data-agent='oracle']/svg:polyline", NS)
    assert dashed is not None and dashed.get("stroke-dasharray")


def test_counts_run_from_zero_to_a_round_number_and_shares_to_one() -> None:
    root = _root()
    ticks = {
        p.get("data-metric"): [t.text for t in p.findall("svg:text[@class='tick']", NS)]
        for p in root.findall(".//svg:g[@class='panel']", NS)
    }
    assert ticks["accuracy"] == ["0%", "50%", "100%"]
    assert ticks["context_tokens"] == ["0", "5,000", "10,000"]  # the largest is 5,120
    assert ticks["ingest_seconds"] == ["0", "500", "1,000"]  # the largest is 512


def test_names_are_escaped_and_the_legend_names_every_memory() -> None:
    text = scale_svg(SCALE)
    assert "<script>" not in text
    root = ET.fromstring(text)
    legend = [
        g.findtext("svg:text", "", NS) for g in root.findall(".//svg:g[@class='legend-item']", NS)
    ]
    assert legend == [HOSTILE, "hybrid", "oracle (control: oracle)"]


def test_a_scale_with_no_point_yet_says_so() -> None:
    empty = Scale(suite="s", recall_metric="turn recall_all@5", points=[])
    assert "no cell has a complete trial yet" in scale_svg(empty)
