"""gunicorn's threaded worker, its own error answers in the API's JSON shape.

A request gunicorn cannot parse (a broken request line, a header name with a space, a
header section too large) never reaches Django: gunicorn answers it itself, with an HTML
page. API clients read JSON, so this worker sends the same status as
`{"code": ..., "detail": ...}` with `Content-Type: application/json`, on every path:
the path may be the part that could not be read. gunicorn still decides the status and
logs the request; only the answer's body and headers change.

Threaded (gunicorn's `gthread`): a request waiting on the database holds one thread, not
the whole worker, so static files, pages that need no database and /healthz keep being
answered (gunicorn.conf.py sets the number of threads).
"""

import json

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker

# gunicorn's statuses for what it refuses, and the API's codes for them.
CODES = {
    400: "bad_request",
    403: "permission_denied",
    431: "headers_too_large",
    500: "server_error",
    501: "not_implemented",
}


class _Captured:
    """Stands for the client's socket while gunicorn writes its own answer."""

    def __init__(self):
        self.data = b""

    def gettimeout(self):
        return 0.0

    def setblocking(self, flag):
        pass

    def sendall(self, data):
        self.data += data


def _status(answer: bytes) -> tuple[int, str]:
    """(400, "Bad Request") from gunicorn's "HTTP/1.1 400 Bad Request" first line."""
    _, code, reason = answer.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
    return int(code), reason


def _detail(status: int) -> str:
    """The API's own words for it, in the site's language for visitors who asked for none
    (the request's headers may be what could not be read)."""
    from django.conf import settings
    from django.utils import translation

    from catalogue import errors

    text = {403: errors.FORBIDDEN, 500: errors.SERVER_ERROR}.get(status, errors.BAD_REQUEST)
    with translation.override(settings.VISITOR_LANGUAGE):
        return str(text)


def json_error(status: int, reason: str) -> bytes:
    from csp.utils import build_policy
    from django.conf import settings

    body = json.dumps(
        {"code": CODES.get(status, "bad_request"), "detail": _detail(status)},
        ensure_ascii=False,
    ).encode()
    headers = {
        "Connection": "close",
        "Content-Type": "application/json",
        "Content-Length": str(len(body)),
        # What the site's middleware adds to every answer it makes.
        "Content-Security-Policy": build_policy(),
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": settings.SECURE_REFERRER_POLICY,
        "Cross-Origin-Opener-Policy": settings.SECURE_CROSS_ORIGIN_OPENER_POLICY,
    }
    lines = [f"HTTP/1.1 {status} {reason}"]
    lines += [f"{name}: {value}" for name, value in headers.items() if value]
    return "\r\n".join(lines).encode("latin-1") + b"\r\n\r\n" + body


class JSONErrorThreadWorker(ThreadWorker):
    def handle_error(self, req, client, addr, exc):
        captured = _Captured()
        super().handle_error(req, captured, addr, exc)  # gunicorn's status, its logs
        try:
            answer = json_error(*_status(captured.data))
        except Exception:  # noqa: BLE001 (never worse than gunicorn's own page)
            answer = captured.data
        try:
            util.write_nonblock(client, answer)
        except Exception:  # noqa: BLE001 (the client is gone: as gunicorn does)
            self.log.debug("Failed to send error message.")
