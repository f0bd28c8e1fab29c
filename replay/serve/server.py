"""Running ``pdn serve``: the socket bound first (so the address printed is the one
listened on, also with ``--port 0``), then uvicorn on it until Ctrl-C or SIGTERM, then every
engine the server started stopped."""

from __future__ import annotations

import ipaddress
import secrets
import signal
import socket
from collections.abc import Callable

from replay.serve.app import Logged, Settings, create_app
from replay.serve.desk import Desk
from replay.serve.security import Guard

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
HEADER_SECONDS = 10.0  # a request whose headers have not all come by then is closed


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (no token is asked there)."""
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (0: a free port); raises OSError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def serve(desk: Desk, settings: Settings, host: str, port: int,
          announce: Callable[[str], None]) -> None:
    """Serve ``desk`` on ``host:port`` until stopped; ``announce`` is told the address to
    open first (with the token when ``host`` is not the loopback one)."""
    import uvicorn

    sock = bind(host, port)
    port = sock.getsockname()[1]
    token = None if is_loopback(host) else secrets.token_urlsafe(24)
    shown = f"[{host}]" if ":" in host else host
    names = ({f"{shown}:{port}", f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"}
             if token is None else None)
    app = Logged(Guard(create_app(desk, settings), hosts=names, token=token))
    server = uvicorn.Server(uvicorn_config(app))
    announce(f"http://{shown}:{port}/" + (f"?token={token}" if token else ""))
    # uvicorn stops on SIGINT and SIGTERM, then raises the signal again for the handler it
    # found: SIGTERM's then ends this process as Ctrl-C does, through the ``finally``.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        sock.close()
        if settings.engines is not None:
            settings.engines.close()


def uvicorn_config(app, header_seconds: float = HEADER_SECONDS):
    """uvicorn's settings for ``app``: quiet, and a request's headers bounded in time
    (``header_seconds``) as its body is in size (``replay.serve.security``)."""
    import uvicorn

    from replay.serve.protocol import bounded_headers

    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                          timeout_graceful_shutdown=5, timeout_keep_alive=5,
                          http=bounded_headers(header_seconds))


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


__all__ = ["HEADER_SECONDS", "bind", "is_loopback", "serve", "uvicorn_config"]
