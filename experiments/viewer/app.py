"""The viewer as a Starlette app: the run page, trial pages and a live fragment to poll."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlencode

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cogarch.core.records import TrialRecord

from ..results.trial_files import CorruptTrialError
from .guard import Guard, new_token
from .index import Query, TrialIndex
from .render import STATIC, render
from .suite_pages import SuitePages
from .trial_view import trial_view

PER_PAGE = 50
_PAGE = re.compile(r"[0-9]{1,6}")


def page_number(value: str) -> int:
    """The page a ``?page=`` value asks for; 1 for anything but a small integer."""
    return int(value) if _PAGE.fullmatch(value) else 1


def query_of(request: Request) -> Query:
    params = request.query_params
    return Query(
        agent=params.get("agent", ""),
        run=params.get("run", ""),
        outcome=params.get("outcome", ""),
        status=params.get("status", ""),
        q=params.get("q", ""),
        page=page_number(params.get("page", "1")),
        per_page=PER_PAGE,
    )


def trial_html(
    key: str, read: Callable[[], TrialRecord], *, within: str | None = None, **base: Any
) -> tuple[str, int]:
    """The page of trial ``key`` and its status: the trial, or why it cannot be shown (a file
    that is no trial, or a record the page cannot draw) instead of a server error. ``within``
    is the results folder the trial was read from (see ``trial_view``)."""
    try:
        record = read()
    except CorruptTrialError as exc:
        return render("missing.html", **base, key=key, error=str(exc)), 422
    try:
        return render("trial.html", **base, v=trial_view(record, within=within)), 200
    except Exception as exc:  # one odd record must not take the viewer or an export down
        error = f"this trial cannot be shown ({type(exc).__name__}: {str(exc)[:300]})"
        return render("missing.html", **base, key=key, error=error), 422


def live_context(index: TrialIndex, query: Query) -> dict[str, Any]:
    """What the run page's live part shows for ``query``."""
    fields = {
        k: v
        for k, v in vars(query).items()
        if k in ("agent", "run", "outcome", "status", "q") and v
    }

    def page_href(n: int) -> str:
        return "/?" + urlencode({**fields, "page": n})

    return {
        "version": index.version,
        "counts": index.counts(),
        "page": index.select(query),
        "trial_href": lambda row: "/trial/" + quote(row.key, safe="/"),
        "page_href": page_href,
    }


def run_page_context(
    index: TrialIndex, query: Query, suite_href: str | None = None
) -> dict[str, Any]:
    """The run page's context; ``suite_href`` links a suite's leaderboard page."""
    names = index.runs()
    return {
        "title": ", ".join(names) or "no trials yet",
        "dirs": [str(d) for d in index.dirs],
        "agents": index.agents(),
        "query": query,
        "suite_href": suite_href,
        **live_context(index, query),
    }


def create_app(index: TrialIndex, suite: SuitePages | None = None) -> Starlette:
    """The web app over ``index``; it re-reads changed trial files as pages are asked for.
    It changes nothing, and answers only its own host names (see :class:`Guard`). With
    ``suite``, it also serves the suite's leaderboard at ``/leaderboard`` and each cell's
    report at ``/report/<cell>/``."""
    base = {"root": "/", "home": "/", "mode": "live"}
    suite_href = "/leaderboard" if suite is not None else None

    async def run_page(request: Request) -> Response:
        index.refresh()
        context = run_page_context(index, query_of(request), suite_href)
        return HTMLResponse(render("run.html", **base, **context))

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
        html, status = trial_html(
            key, lambda: index.read(key, path), within=str(path.parent.parent), **base
        )
        return HTMLResponse(html, status_code=status)

    routes = [
        Route("/", run_page),
        Route("/live", live),
        Route("/trial/{run}/{agent}/{trial}", trial_page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    if suite is not None:
        routes += suite.routes()
    return Starlette(
        routes=routes,
        middleware=[Middleware(Guard, token=new_token())],
    )
