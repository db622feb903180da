"""Django's PostgreSQL backend, each wait of a request bounded on the client's side.

A database that accepts connections and answers nothing (a stopped server, a frozen
network path) used to hold a worker until gunicorn killed it: `connect_timeout` covers
only connecting, and `statement_timeout` is enforced by the server, which is the part that
hangs. TCP keepalives and `tcp_user_timeout` (settings) cut a path that stops
acknowledging; for a server whose kernel still acknowledges, a watchdog thread shuts the
socket of any statement, commit or rollback of a request that has waited longer than
settings.DB_CLIENT_TIMEOUT_SECONDS. psycopg then raises OperationalError, which the site
answers with a 503 (catalogue.errors), and the next request opens a new connection.

Within a request, a new connection and the health check of a kept one (`is_usable`, a
`SELECT 1`) are each given settings.DB_CONNECT_TIMEOUT_SECONDS; either going unanswered
makes the process take the database for down for a short pause, during which requests
fail at once instead of each waiting (catalogue.postgresql.availability).

Management commands (migrate, generate_catalogue) are not bounded this way: only the
server's statement timeout applies to them.
"""

import itertools
import os
import socket
import threading
import time
from contextlib import contextmanager

import psycopg
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import OperationalError
from django.db.backends.postgresql import base

from .availability import availability

_in_request = threading.local()


def _request_started(**kwargs):
    _in_request.active = True


def _request_finished(**kwargs):
    _in_request.active = False


def _in_a_request() -> bool:
    return getattr(_in_request, "active", False)


request_started.connect(_request_started, dispatch_uid="catalogue.postgresql.started")
request_finished.connect(_request_finished, dispatch_uid="catalogue.postgresql.finished")


class Wait:
    """One bounded wait; `cut` once the watchdog has shut its socket."""

    __slots__ = ("deadline", "fileno", "cut")

    def __init__(self, deadline: float, fileno: int):
        self.deadline, self.fileno, self.cut = deadline, fileno, False


class Watchdog:
    """One thread per process: shuts the socket of a wait past its deadline."""

    tick = 0.1

    def __init__(self):
        self._lock = threading.Lock()
        self._waits = {}  # token → Wait
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
        wait = Wait(time.monotonic() + seconds, fileno)
        with self._lock:
            self._ensure_thread()
            self._waits[token] = wait
        try:
            yield wait
        finally:
            with self._lock:
                self._waits.pop(token, None)

    def _run(self):
        while True:
            time.sleep(self.tick)
            now = time.monotonic()
            with self._lock:
                late = {wait.fileno for wait in self._waits.values() if wait.deadline < now}
                for token, wait in list(self._waits.items()):
                    if wait.fileno in late:  # every wait on a socket shut is cut with it
                        wait.cut = True
                        del self._waits[token]
                for fileno in late:
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


UNANSWERED = "The database did not answer; it is not asked again for a few seconds."


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.execute_wrappers.append(self._bounded_execute)

    @contextmanager
    def bounded(self, seconds: float | None = None):
        """Within a request, this block's waits on the server end after `seconds`
        (settings.DB_CLIENT_TIMEOUT_SECONDS by default) with an OperationalError. Gives
        the block its Wait (whose `cut` tells whether the bound was reached), or None
        when nothing is bounded."""
        limit = settings.DB_CLIENT_TIMEOUT_SECONDS if seconds is None else seconds
        if not limit or not _in_a_request() or self.connection is None:
            yield None
            return
        try:
            fileno = self.connection.fileno()
        except base.Database.Error:  # closed: the operation itself will say so
            yield None
            return
        with watchdog.bound(fileno, limit) as wait:
            yield wait

    def _refuse_while_down(self):
        if _in_a_request() and availability.down():
            raise OperationalError(UNANSWERED)

    def get_new_connection(self, conn_params):
        if not _in_a_request():
            return super().get_new_connection(conn_params)
        if not availability.admit():
            raise self.Database.OperationalError(UNANSWERED)
        try:
            new = super().get_new_connection(conn_params)
        except psycopg.errors.ConnectionTimeout:
            availability.unanswered()
            raise
        except BaseException:  # refused, or anything else: another request may ask
            availability.gave_up()
            raise
        availability.answered()
        return new

    def init_connection_state(self):
        with self.bounded():
            return super().init_connection_state()

    def _bounded_execute(self, execute, sql, params, many, context):
        self._refuse_while_down()
        with self.bounded():
            return execute(sql, params, many, context)

    def _commit(self):
        self._refuse_while_down()
        with self.bounded():
            return super()._commit()

    def _rollback(self):
        self._refuse_while_down()
        with self.bounded():
            return super()._rollback()

    def close_if_unusable_or_obsolete(self):
        """Run as each request starts and ends (close_old_connections), before this
        module's own signal receiver marks the request: its health check is the
        request's, bounded and counted the same way."""
        was = _in_a_request()
        _in_request.active = True
        try:
            super().close_if_unusable_or_obsolete()
        finally:
            _in_request.active = was

    def is_usable(self):
        """Django's health check of a kept connection (a `SELECT 1`), given the time a new
        connection has: unanswered, the database is taken for down for a pause."""
        if self.connection is None or not _in_a_request():
            return super().is_usable()
        if not availability.admit():
            return False
        try:
            with self.bounded(settings.DB_CONNECT_TIMEOUT_SECONDS) as wait:
                usable = super().is_usable()
        except BaseException:
            availability.gave_up()
            raise
        if usable:
            availability.answered()
        elif wait is not None and wait.cut:
            availability.unanswered()
        else:
            availability.gave_up()
        return usable
