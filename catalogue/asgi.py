"""ASGI entry point: `uvicorn catalogue.asgi:application`.

In production it serves the matches' event streams (paletti.stream), beside gunicorn for
everything else (README, "Deploying"); `make run` serves the whole site from it. An open
stream is a coroutine, not a thread. Its requests' threads end with them, so their
database connections are not kept (DJANGO_DB_CONN_MAX_AGE=0 unless set): the streams'
reads keep theirs, in a pool of their own.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catalogue.settings")
os.environ.setdefault("DJANGO_DB_CONN_MAX_AGE", "0")
application = get_asgi_application()
