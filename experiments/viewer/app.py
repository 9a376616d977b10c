"""The viewer as a Starlette app: the run page, trial pages and a live fragment to poll."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..results import CorruptTrialError, read_trial
from .index import Query, TrialIndex
from .render import STATIC, render
from .trial_view import trial_view

PER_PAGE = 50


def query_of(request: Request) -> Query:
    params = request.query_params
    page = params.get("page", "1")
    return Query(
        agent=params.get("agent", ""),
        outcome=params.get("outcome", ""),
        status=params.get("status", ""),
        q=params.get("q", ""),
        page=int(page) if page.isdigit() else 1,
        per_page=PER_PAGE,
    )


def live_context(index: TrialIndex, query: Query) -> dict[str, Any]:
    """What the run page's live part shows for ``query``."""
    fields = {
        k: v for k, v in vars(query).items() if k in ("agent", "outcome", "status", "q") and v
    }

    def page_href(n: int) -> str:
        return "/?" + urlencode({**fields, "page": n})

    return {
        "version": index.version,
        "counts": index.counts(),
        "page": index.select(query),
        "trial_href": lambda row: f"/trial/{row.key}",
        "page_href": page_href,
    }


def run_page_context(index: TrialIndex, query: Query) -> dict[str, Any]:
    names = index.runs()
    return {
        "title": ", ".join(names) or "no trials yet",
        "dirs": [str(d) for d in index.dirs],
        "agents": index.agents(),
        "query": query,
        **live_context(index, query),
    }


def create_app(index: TrialIndex) -> Starlette:
    """The web app over ``index``; it re-reads changed trial files as pages are asked for."""
    base = {"root": "/", "home": "/", "mode": "live"}

    async def run_page(request: Request) -> Response:
        index.refresh()
        return HTMLResponse(
            render("run.html", **base, **run_page_context(index, query_of(request)))
        )

    async def live(request: Request) -> Response:
        index.refresh()
        since = request.query_params.get("since", "")
        if since == str(index.version):
            return Response(status_code=204)
        return HTMLResponse(render("_live.html", **live_context(index, query_of(request))))

    async def trial_page(request: Request) -> Response:
        key = "/".join(request.path_params[k] for k in ("run", "agent", "trial"))
        index.refresh()
        path = index.path(key)
        if path is None:
            return HTMLResponse(render("missing.html", **base, key=key), status_code=404)
        try:
            record = read_trial(path)
        except CorruptTrialError as exc:
            return HTMLResponse(render("missing.html", **base, key=key, error=str(exc)), 422)
        view = trial_view(record, within=str(path.parent.parent))
        return HTMLResponse(render("trial.html", **base, v=view))

    return Starlette(
        routes=[
            Route("/", run_page),
            Route("/live", live),
            Route("/trial/{run}/{agent}/{trial}", trial_page),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )


__all__ = ["create_app", "live_context", "query_of", "run_page_context"]
