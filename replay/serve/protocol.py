"""uvicorn's HTTP/1.1 protocol (h11) with the time a request's headers take bounded: a
client that starts a request and does not finish its headers in time is answered 408 and
its connection closed; one that opens a connection and sends nothing is closed, as a
browser's idle connection may be (it opens another). Half-sent requests cannot hold the
server's connections open (uvicorn bounds the idle time between requests, not this).
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

TIMEOUT_ANSWER = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain\r\n"
                  b"connection: close\r\ncontent-length: 42\r\n\r\n"
                  b"the request's headers did not come in time")


class BoundedHeaders(H11Protocol):
    """h11 with a deadline on each request's headers: ``header_seconds`` from the
    connection's opening, or from the first byte of the next request on it."""

    header_seconds = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self.header_timer: asyncio.TimerHandle | None = None
        self.request_begun = False  # some bytes of the request whose headers are awaited
        super().connection_made(transport)
        self._start_header_timer()

    def data_received(self, data: bytes) -> None:
        if self._awaiting_headers():
            self._start_header_timer()
            self.request_begun = True
        super().data_received(data)
        if not self._awaiting_headers():
            self._stop_header_timer()
            self.request_begun = False

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def _awaiting_headers(self) -> bool:
        return self.conn.their_state is h11.IDLE

    def _start_header_timer(self) -> None:
        if self.header_timer is None:
            self.header_timer = self.loop.call_later(self.header_seconds, self._headers_late)

    def _stop_header_timer(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def _headers_late(self) -> None:
        self.header_timer = None
        if self._awaiting_headers() and not self.transport.is_closing():
            if self.request_begun:
                self.transport.write(TIMEOUT_ANSWER)
            self.transport.close()


def bounded_headers(seconds: float) -> type[BoundedHeaders]:
    """The protocol class with a deadline of ``seconds`` on a request's headers."""
    return type("BoundedHeaders", (BoundedHeaders,), {"header_seconds": seconds})


__all__ = ["BoundedHeaders", "bounded_headers"]
