"""What every request to ``pdn serve`` passes before it reaches the desk: a plain ASGI
middleware (no framework needed) that

- on the loopback address, answers only to the names of the loopback (a page elsewhere
  that rebinds its DNS name to 127.0.0.1 gets 403);
- asks for the token when the server listens on another address than the loopback one
  (in the address as ``?token=...``, then kept in a cookie, as Jupyter does);
- refuses a state-changing request (POST) whose ``Origin`` is not the server itself;
- caps the size of every body (an upload, a posted text) and the time between two of its
  pieces (a client that stops sending in the middle gets 408);
- adds a Content-Security-Policy (scripts and styles from the server only, nothing framed)
  and the headers that keep browsers from guessing types or sending referrers.

>>> guard = Guard(None, hosts={"127.0.0.1:8000"})
>>> here = {"host": "127.0.0.1:8000"}
>>> guard.origin_allowed({**here, "origin": "http://127.0.0.1:8000"}), guard.origin_allowed(
...     {**here, "origin": "http://evil.example"})
(True, False)
"""

from __future__ import annotations

import asyncio
import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

TOKEN_COOKIE = "pdn_serve_token"
MAX_BODY = 1 << 20  # a posted text or JSON request: 1 MiB
MAX_UPLOAD = 8 << 20  # an uploaded file: 8 MiB
UPLOAD_PATHS = ("/api/upload",)
BODY_IDLE_SECONDS = 30.0  # a body that stops coming for this long is refused
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; "
       "font-src data:; frame-ancestors 'none'; base-uri 'none'")
HEADERS = [(b"content-security-policy", CSP.encode()),
           (b"x-content-type-options", b"nosniff"),
           (b"x-frame-options", b"DENY"),
           (b"referrer-policy", b"no-referrer"),
           (b"cache-control", b"no-store")]
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


class Guard:
    """The middleware around the app (see the module doc); ``hosts``: the ``Host`` headers
    answered (``127.0.0.1:8000``...; None: any, where the token guards), ``token``: the
    one asked for, or None."""

    def __init__(self, app: App | None, *, hosts: set[str] | None,
                 token: str | None = None) -> None:
        self.app = app
        self.hosts = None if hosts is None else {host.lower() for host in hosts}
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if self.app is not None:
                await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1"): value.decode("latin-1")
                   for key, value in scope["headers"]}
        set_cookie = None
        if self.hosts is not None and headers.get("host", "").lower() not in self.hosts:
            await _refuse(send, 403, "this server answers only to the address it printed")
            return
        if self.token is not None:
            given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
            cookie = SimpleCookie(headers.get("cookie", ""))
            kept = cookie[TOKEN_COOKIE].value if TOKEN_COOKIE in cookie else None
            if given and hmac.compare_digest(given[0], self.token):
                set_cookie = (f"{TOKEN_COOKIE}={self.token}; HttpOnly; SameSite=Strict; "
                              f"Path=/").encode()
            elif not (kept and hmac.compare_digest(kept, self.token)):
                await _refuse(send, 403, "open the address pdn serve printed, with its token")
                return
        if scope["method"] not in SAFE_METHODS and not self.origin_allowed(headers):
            await _refuse(send, 403, "a request from another site is refused")
            return
        limit = MAX_UPLOAD if scope["path"] in UPLOAD_PATHS else MAX_BODY
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _refuse(send, 413, f"the body is larger than {limit >> 20} MiB")
            return
        assert self.app is not None
        await self.app(scope, _capped(receive, limit), _headed(send, set_cookie))

    def origin_allowed(self, headers: dict[str, str]) -> bool:
        """A browser's POST says where its page came from: it must be this server. A
        request without ``Origin`` comes from no browser page (a script, curl)."""
        origin = headers.get("origin")
        if origin is None:
            return True
        scheme, _, host = origin.partition("://")
        return scheme == "http" and host.lower() == headers.get("host", "").lower()


class BodyTooLarge(ValueError):
    """A body sent without its length that grew past the cap (the app answers 413)."""


class BodyTooSlow(ValueError):
    """A body that stopped coming in the middle (the app answers 408)."""


def _capped(receive: Receive, limit: int) -> Receive:
    seen = 0

    async def capped() -> Message:
        nonlocal seen
        try:
            message = await asyncio.wait_for(receive(), BODY_IDLE_SECONDS)
        except TimeoutError:
            raise BodyTooSlow(f"the body stopped coming for {BODY_IDLE_SECONDS:g} s") from None
        seen += len(message.get("body", b""))
        if seen > limit:
            raise BodyTooLarge(f"the body is larger than {limit >> 20} MiB")
        return message

    return capped


def _headed(send: Send, cookie: bytes | None) -> Send:
    async def headed(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *HEADERS,
                                  *([(b"set-cookie", cookie)] if cookie else [])]
        await send(message)

    return headed


async def _refuse(send: Send, status: int, reason: str) -> None:
    body = json.dumps({"error": reason}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *HEADERS]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["BODY_IDLE_SECONDS", "CSP", "MAX_BODY", "MAX_UPLOAD", "TOKEN_COOKIE", "BodyTooLarge",
           "BodyTooSlow", "Guard"]
