"""gunicorn's settings for this site: read by `gunicorn catalogue.wsgi` started in this
directory (command-line options override them, e.g. `--threads 4`).

Threads: a request waiting on a database that does not answer holds one thread, not a
whole worker, so static files, pages that need no database and /healthz keep answering.
Each thread that reads the database keeps its own connection (CONN_MAX_AGE): a server
holds up to workers × threads connections, which PostgreSQL's max_connections (100 by
default) must allow for every server together, plus the commands run beside them.
"""

worker_class = "catalogue.workers.JSONErrorThreadWorker"
threads = 8
# Above every bound a request waits on the database (README, "The database away").
timeout = 30
