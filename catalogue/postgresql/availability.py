"""This process's short memory of a database that stopped answering (a circuit breaker).

Bounding each wait (catalogue.postgresql.base) is not enough on its own: every request
would still wait the whole bound, one after another, and while they wait they hold the
server's threads, so pages, static files and health checks that need no database queue
behind them. Once a trivial question went unanswered within its bound (a new connection,
or the health check of a kept one, each given settings.DB_CONNECT_TIMEOUT_SECONDS), the
database is taken for down: for settings.DB_UNAVAILABLE_SECONDS requests of this process
get their OperationalError (a 503) at once, without asking. Then one request asks again;
the others keep failing at once until it has its answer: an answer closes the breaker, a
wait past the bound opens it for another pause.

Only a trivial question's silence opens it: a statement that runs long (a heavy search, a
lock held by another session) says nothing about the database as a whole, and letting it
open the breaker would let one slow request take every page of the process down.
"""

import logging
import threading
import time

from django.conf import settings

logger = logging.getLogger(__name__)


class Availability:
    def __init__(self):
        self._lock = threading.Lock()
        self._down_until = 0.0  # time.monotonic(); 0: up
        self._asking = None  # the thread allowed to ask once the pause is over

    def down(self) -> bool:
        """Within the pause: nobody asks."""
        return time.monotonic() < self._down_until

    def admit(self) -> bool:
        """May this thread wait on the database now? Yes while it is up; during the pause
        no; after it, yes for one thread at a time until one has its answer."""
        with self._lock:
            if not self._down_until:
                return True
            if time.monotonic() < self._down_until:
                return False
            me = threading.get_ident()
            if self._asking in (None, me):
                self._asking = me
                return True
            return False

    def answered(self) -> None:
        if not self._down_until:  # up, as nearly always: no lock taken
            return
        with self._lock:
            if self._down_until:
                logger.warning("The database answers again.")
            self._down_until = 0.0
            self._asking = None

    def unanswered(self) -> None:
        """A trivial question went unanswered within its bound: pause (unless the pause is
        set to 0: then every request waits its own bound)."""
        if settings.DB_UNAVAILABLE_SECONDS <= 0:
            return
        with self._lock:
            if not self._down_until:
                logger.warning(
                    "The database did not answer within %s s: requests get a 503 at once "
                    "for %s s, then one asks again.",
                    settings.DB_CONNECT_TIMEOUT_SECONDS,
                    settings.DB_UNAVAILABLE_SECONDS,
                )
            self._down_until = time.monotonic() + settings.DB_UNAVAILABLE_SECONDS
            self._asking = None

    def gave_up(self) -> None:
        """This thread's question ended in neither way (refused, cut for another reason)."""
        with self._lock:
            if self._asking == threading.get_ident():
                self._asking = None

    def reset(self) -> None:
        """Forget everything (tests, after bringing a database back)."""
        with self._lock:
            self._down_until = 0.0
            self._asking = None


availability = Availability()
