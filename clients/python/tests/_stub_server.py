"""A small HTTP server on 127.0.0.1 that answers what a test says: for what the real server never does (a version
that refuses a parameter, an answer of the wrong shape)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Union

Answer = Union[tuple[int, Any], tuple[int, Any, dict[str, str]]]


class StubServer:
    """Answers each request with ``answer(method, path)``: (status, JSON body[, headers]); records the paths asked."""

    def __init__(self, answer: Callable[[str, str], Answer]) -> None:
        self.requests: list[str] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def reply(self) -> None:
                stub.requests.append(self.path)
                status, body, *more = answer(self.command, self.path)
                data = json.dumps(body).encode()
                self.send_response(status)
                for name, value in (more[0] if more else {}).items():
                    self.send_header(name, value)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = reply  # noqa: N815 (http.server's names)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
