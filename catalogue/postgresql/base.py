"""Django's PostgreSQL backend, each wait of a request bounded on the client's side.

A database that accepts connections and answers nothing (a stopped server, a frozen
network path) used to hold a worker until gunicorn killed it: `connect_timeout` covers
only connecting, and `statement_timeout` is enforced by the server, which is the part that
hangs. TCP keepalives and `tcp_user_timeout` (settings) cut a path that stops
acknowledging; for a server whose kernel still acknowledges, a watchdog thread shuts the
socket of any statement, commit or rollback of a request that has waited longer than
settings.DB_CLIENT_TIMEOUT_SECONDS. psycopg then raises OperationalError, which the site
answers with a 503 (catalogue.errors), and the next request opens a new connection.

Management commands (migrate, generate_catalogue) are not bounded this way: only the
server's statement timeout applies to them.
"""

import itertools
import os
import socket
import threading
import time
from contextlib import contextmanager

from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db.backends.postgresql import base

_in_request = threading.local()


def _request_started(**kwargs):
    _in_request.active = True


def _request_finished(**kwargs):
    _in_request.active = False


request_started.connect(_request_started, dispatch_uid="catalogue.postgresql.started")
request_finished.connect(_request_finished, dispatch_uid="catalogue.postgresql.finished")


class Watchdog:
    """One thread per process: shuts the socket of a wait past its deadline."""

    tick = 0.1

    def __init__(self):
        self._lock = threading.Lock()
        self._waits = {}  # token → (deadline, file descriptor)
        self._tokens = itertools.count()
        self._thread = None
        self.cut = 0  # connections shut, for tests and logs

    def _ensure_thread(self):
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="db-watchdog", daemon=True)
            self._thread.start()

    @contextmanager
    def bound(self, fileno: int, seconds: float):
        token = next(self._tokens)
        with self._lock:
            self._ensure_thread()
            self._waits[token] = (time.monotonic() + seconds, fileno)
        try:
            yield
        finally:
            with self._lock:
                self._waits.pop(token, None)

    def _run(self):
        while True:
            time.sleep(self.tick)
            now = time.monotonic()
            with self._lock:
                late = [token for token, (deadline, _) in self._waits.items() if deadline < now]
                for token in late:
                    _, fileno = self._waits.pop(token)
                    _shut(fileno)
                    self.cut += 1


def _shut(fileno: int) -> None:
    """Shut the connection's socket down for both directions: the blocked wait returns."""
    try:
        duplicate = socket.socket(fileno=os.dup(fileno))
    except OSError:
        return
    try:
        duplicate.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        duplicate.close()


watchdog = Watchdog()


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.execute_wrappers.append(self._bounded_execute)

    @contextmanager
    def bounded(self, seconds: float | None = None):
        """Within a request, this block's waits on the server end after `seconds`
        (settings.DB_CLIENT_TIMEOUT_SECONDS by default) with an OperationalError."""
        limit = settings.DB_CLIENT_TIMEOUT_SECONDS if seconds is None else seconds
        if not limit or not getattr(_in_request, "active", False) or self.connection is None:
            yield
            return
        try:
            fileno = self.connection.fileno()
        except base.Database.Error:  # closed: the operation itself will say so
            yield
            return
        with watchdog.bound(fileno, limit):
            yield

    def _bounded_execute(self, execute, sql, params, many, context):
        with self.bounded():
            return execute(sql, params, many, context)

    def _commit(self):
        with self.bounded():
            return super()._commit()

    def _rollback(self):
        with self.bounded():
            return super()._rollback()

    def is_usable(self):
        with self.bounded():
            return super().is_usable()
