# The two commands a newcomer needs:  make run  (the site on SQLite with the seed data,
#                                                served with its event streams by uvicorn)
#                                     make test (every test, browser tests included)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-fast test-database e2e-browser lint check messages bench clean

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

messages: $(STAMP)
	$(PY) manage.py compiletranslations

run: $(STAMP) messages
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createcachetable
	$(PY) manage.py seed
	$(PY) manage.py db_worker --no-reload & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	  $(PY) manage.py serve --host 127.0.0.1 --port 8000; status=$$?; kill $$worker; exit $$status

# Browser tests drive Debian's Chromium; install it when missing (never `playwright install`).
e2e-browser:
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; fi; }

# Tests run in parallel, one process per CPU (pytest-xdist): each has its own test database
# and, for the browser tests, its own live server and Chromium; a worker that runs out of
# tests takes some of the other's (worksteal), so a long test at the end leaves no core idle.
# PYTEST_WORKERS=0: one process.
PYTEST_WORKERS ?= auto

test: $(STAMP) messages e2e-browser
	DJANGO_ALLOW_ASYNC_UNSAFE=true $(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal --durations=15

# Everything but the browser: quicker while editing.
test-fast: $(STAMP) messages
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal --durations=15 games paletti

# Only the tests that reach the database, browser tests aside: what CI runs again on
# PostgreSQL (the engine's tests and the other pure ones answer the same on any database).
test-database: $(STAMP) messages
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal --durations=15 --database-tests-only games paletti

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

bench: $(STAMP)
	$(PY) bench/engine_bench.py

clean:
	rm -rf $(VENV) staticfiles db.sqlite3
