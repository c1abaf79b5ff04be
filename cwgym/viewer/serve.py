"""Serving a built site on this machine only (``127.0.0.1``), for a quick look in a browser."""

from __future__ import annotations

import functools
import http.server
from collections.abc import Callable
from pathlib import Path

__all__ = ["HOST", "serve", "server"]

HOST = "127.0.0.1"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


def server(folder: str | Path, port: int = 8000) -> http.server.ThreadingHTTPServer:
    """An HTTP server of ``folder`` bound to ``127.0.0.1:port`` (``0``: any free port), not yet serving."""
    handler = functools.partial(_Quiet, directory=str(folder))
    return http.server.ThreadingHTTPServer((HOST, port), handler)


def serve(folder: str | Path, port: int = 8000, announce: Callable[[str], None] = print) -> None:
    """Serve ``folder`` until interrupted, announcing the overview's URL first."""
    with server(folder, port) as httpd:
        announce(f"http://{HOST}:{httpd.server_address[1]}/index.html")
        httpd.serve_forever()
