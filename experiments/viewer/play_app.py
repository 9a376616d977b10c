"""The play page as a Starlette app over one :class:`PlaySession`."""

from __future__ import annotations

import asyncio

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cogarch.errors import CogarchError

from .play import PlaySession
from .render import STATIC, render


def create_play_app(session: PlaySession) -> Starlette:
    lock = asyncio.Lock()
    base = {"root": "/", "home": "/", "mode": "play"}

    async def page(request: Request) -> Response:
        return HTMLResponse(
            render("play.html", **base, s=session, turns=session.views(), first=session.suggest())
        )

    async def _failed(exc: Exception) -> Response:
        text = str(exc) if isinstance(exc, CogarchError) else f"{type(exc).__name__}: {exc}"
        return HTMLResponse(render("_play_error.html", message=text), status_code=400)

    async def send(request: Request) -> Response:
        body = await request.json()
        text = body.get("text", "") if isinstance(body, dict) else ""
        async with lock:
            try:
                t = await session.send(str(text))
            except Exception as exc:  # shown on the page; the game goes on
                return await _failed(exc)
        return HTMLResponse(render("_turn.html", t=t))

    async def suggest(request: Request) -> Response:
        async with lock:
            return JSONResponse({"text": session.suggest()})

    async def fork(request: Request) -> Response:
        async with lock:
            try:
                v = await session.fork()
            except Exception as exc:  # shown on the page; the game goes on
                return await _failed(exc)
        return HTMLResponse(render("_play_fork.html", v=v))

    async def new(request: Request) -> Response:
        async with lock:
            session.reset()
        return RedirectResponse("/", status_code=303)

    return Starlette(
        routes=[
            Route("/", page),
            Route("/send", send, methods=["POST"]),
            Route("/suggest", suggest, methods=["POST"]),
            Route("/fork", fork, methods=["POST"]),
            Route("/new", new, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )


__all__ = ["create_play_app"]
