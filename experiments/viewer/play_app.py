"""The play page as a Starlette app over one :class:`PlaySession`, behind the :class:`Guard`:
only the server's own page, which holds its token, can play a turn, fork or start anew."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cogarch.errors import CogarchError
from cogarch.io import is_utf8_encodable, loads_json

from .guard import Guard, new_token
from .play import PlaySession
from .render import STATIC, render


class BadBody(Exception):
    """A request body that is not JSON (400) or not of the expected fields (422)."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.status = status


async def message_text(request: Request) -> str:
    """The ``text`` of a ``{"text": "..."}`` body (UTF-8 JSON, no lone surrogate)."""
    raw = await request.body()
    try:
        body: Any = loads_json(raw.decode("utf-8"), max_depth=4)
    except UnicodeDecodeError:
        raise BadBody("the body is not UTF-8 text") from None
    except ValueError as exc:
        raise BadBody(f"the body is not JSON ({str(exc)[:120]})") from None
    if not isinstance(body, dict):
        raise BadBody('the body must be a JSON object: {"text": "your message"}', 422)
    text = body.get("text")
    if not isinstance(text, str):
        kind = "missing" if text is None else f"a {type(text).__name__}"
        raise BadBody(f'"text" must be a string, not {kind}', 422)
    if not is_utf8_encodable(text):
        raise BadBody('"text" holds a lone surrogate, which is no character; retype it', 422)
    return text


def create_play_app(session: PlaySession, *, token: str | None = None) -> Starlette:
    """The play server over ``session``; ``token`` (default: a fresh one) is what its page
    sends with every change."""
    lock = asyncio.Lock()
    secret = token or new_token()
    base = {"root": "/", "home": "/", "mode": "play"}

    async def page(request: Request) -> Response:
        return HTMLResponse(
            render(
                "play.html",
                **base,
                s=session,
                turns=session.views(),
                first=session.suggest(),
                token=secret,
            )
        )

    def _failed(exc: Exception, status: int = 400) -> Response:
        known = isinstance(exc, CogarchError | BadBody)
        text = str(exc) if known else f"{type(exc).__name__}: {exc}"
        return HTMLResponse(render("_play_error.html", message=text), status_code=status)

    async def send(request: Request) -> Response:
        try:
            text = await message_text(request)
        except BadBody as exc:
            return _failed(exc, exc.status)
        async with lock:
            try:
                t = await session.send(text)
            except Exception as exc:  # shown on the page; the game goes on
                return _failed(exc)
        return HTMLResponse(render("_turn.html", t=t))

    async def suggest(request: Request) -> Response:
        async with lock:
            return JSONResponse({"text": session.suggest()})

    async def fork(request: Request) -> Response:
        async with lock:
            try:
                v = await session.fork()
            except Exception as exc:  # shown on the page; the game goes on
                return _failed(exc)
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
        ],
        middleware=[Middleware(Guard, token=secret)],
    )
