"""PostgreSQL statements run on nearly every catalogue request are prepared once per
connection, planned afresh each time, and not at all when a pooler cannot carry them."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's statements"),
]

ROOT = Path(__file__).resolve().parents[2]
VERSION_READ = "SELECT version, changed_at FROM games_catalogueversion WHERE id = 1"


def prepared_statements():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements"
            " WHERE NOT from_sql"
        )
        return cursor.fetchall()


def test_a_list_page_statement_is_prepared_once_and_planned_for_its_own_filters(client, seed):
    client.cookies["sessionid"] = "a-visitor-with-a-session"  # past the page cache
    url = reverse("games:game-list")
    pages = [client.get(url, {"players": 2}).content for _ in range(6)]
    assert len(set(pages)) == 1
    assert "Villa Paletti" in pages[0].decode()
    counting = [row for row in prepared_statements() if "COUNT(*)" in row[0]]
    # One statement for the six pages, planned each time for its parameters: a plan made
    # once for every filter value could walk the whole title index for a rare one.
    assert [(generic, custom) for _, generic, custom in counting] == [(0, 6)]
    # The version's read, which a cached page is made of, is prepared too.
    client.cookies.clear()
    client.get(url, {"players": 3})
    client.get(url, {"players": 3})
    statements = [statement for statement, _, _ in prepared_statements()]
    assert statements.count(VERSION_READ) == 1


def test_nothing_is_prepared_when_turned_off():
    code = (
        "import django; django.setup()\n"
        "from django.db import connection\n"
        "from games.db import first_statement_of_the_request as read\n"
        "assert read('SELECT 1') == (1,) and read('SELECT 1') == (1,)\n"
        "with connection.cursor() as c:\n"
        "    c.execute('SELECT count(*) FROM pg_prepared_statements')\n"
        "    print(c.fetchone()[0])\n"
    )
    db = connection.settings_dict  # the test database: the one in DATABASE_URL may not exist
    host, port = db["HOST"] or "localhost", db["PORT"] or 5432
    url = f"postgres://{db['USER']}:{db['PASSWORD']}@{host}:{port}/{db['NAME']}"
    counts = {}
    for setting in ("1", "0"):
        environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "catalogue.settings"}
        environment.update(DATABASE_URL=url, DJANGO_DB_PREPARED_STATEMENTS=setting)
        out = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 0, out.stderr
        counts[setting] = int(out.stdout.strip())
    assert counts == {"1": 1, "0": 0}
