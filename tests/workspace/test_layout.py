"""The layered drawing of a transition graph: entry on top, every box and label on the canvas,
no two boxes overlapping, loops kept visible, the same picture from draw() and the docs."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cogarch.models import FunctionModel, Model, Providers
from cogarch.workspace import build_agent, load_agent_spec
from cogarch.workspace.describe import layout_of
from cogarch.workspace.layout import Layout, layered, text_width, to_svg


def _agent(name: str):  # type: ignore[no-untyped-def]
    providers = Providers()
    providers.register(
        "echo", Model(FunctionModel(lambda m, i: "ok"), provider="echo", model="echo", fake=True)
    )
    return build_agent(load_agent_spec(name), providers.get, provider="echo", seed=1)


def _check_fits(layout: Layout) -> None:
    for n in layout.nodes:
        assert n.x >= 0 and n.x + n.w <= layout.width, n
        assert n.y >= 0 and n.y + n.h <= layout.height, n
        assert text_width(n.name) < n.w and text_width(n.kind, small=True) < n.w
    boxes = layout.nodes
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y
            assert apart, (a.name, b.name)
    for e in layout.edges:
        for x, y in e.points:
            assert 0 <= x <= layout.width and 0 <= y <= layout.height, e


@pytest.mark.parametrize("name", ["workflow", "episodex", "gwt", "tme", "react", "vanilla"])
def test_every_box_and_edge_is_on_the_canvas_and_no_boxes_overlap(name: str) -> None:
    _check_fits(layout_of(_agent(name)))


def test_the_entry_is_on_top_and_an_edge_back_up_is_a_visible_loop() -> None:
    layout = layered(["a", "b", "c"], [("a", "b", None), ("b", "c", "done"), ("c", "a", None)], "a")
    y = {n.name: n.y for n in layout.nodes}
    assert y["a"] < y["b"] < y["c"]
    loop = next(e for e in layout.edges if (e.source, e.target) == ("c", "a"))
    assert loop.loop and max(x for x, _ in loop.points) > max(n.x + n.w for n in layout.nodes)
    assert next(e.label for e in layout.edges if e.target == "c") == "when done"


def test_draw_writes_the_same_layout_as_svg_and_png(tmp_path: Path) -> None:
    agent = _agent("episodex")
    svg = agent.draw(tmp_path / "g.svg").read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    names = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {"external_perception", "motor", "when action_rejected", "belief"} <= names
    assert svg == to_svg(layout_of(agent))
    png = agent.draw(tmp_path / "g.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_names_are_escaped_in_the_svg() -> None:
    svg = to_svg(layered(["<b>"], [], "<b>"))
    assert "<b>" not in svg.split("</style>", 1)[1] and "&lt;b&gt;" in svg
