"""ASGI entry point: `uvicorn catalogue.asgi:application`.

In production it serves the event streams (catalogue.streams: a match's, a tournament's
big screen), beside gunicorn for everything else (README, "Deploying"); `make run`
serves the whole site from it.

An open stream is a coroutine, not a thread. Django runs each ASGI request's sync parts
(the middleware) in a thread of that request's own, kept until its answer ends: for a
stream, ten minutes. So a stream's request runs without that per-request thread: its
middleware runs in asgiref's one shared thread, a few milliseconds at the start and the
end, and its reads in catalogue.streams' pool. The requests' threads end with them, so
their database connections are not kept (DJANGO_DB_CONN_MAX_AGE=0 unless set).
"""

import os
import re

import django
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catalogue.settings")
os.environ.setdefault("DJANGO_DB_CONN_MAX_AGE", "0")

# A match's stream; a tournament's, under a language prefix.
STREAM_PATH = re.compile(
    r"^/api/paletti/matches/[^/]+/stream/$|^/[a-z]{2}(?:-[a-z]+)?/tournament/[^/]+/stream/$"
)


class Handler(ASGIHandler):
    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and STREAM_PATH.match(scope.get("path", "")):
            await self.handle(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


django.setup(set_prefix=False)
application = Handler()
