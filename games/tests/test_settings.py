"""Production mode comes from the environment and refuses to start half-configured."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_check(**env):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("env", "missing"),
    [
        ({"DJANGO_ALLOWED_HOSTS": "ludo.example"}, "DJANGO_SECRET_KEY"),
        ({"DJANGO_SECRET_KEY": "x" * 60}, "DJANGO_ALLOWED_HOSTS"),
    ],
)
def test_production_refuses_to_start_without_its_secrets(env, missing):
    result = run_check(DJANGO_PRODUCTION="1", **env)
    assert result.returncode != 0
    assert f"{missing} must be set" in result.stderr


def test_production_settings_pass_the_deploy_check():
    result = run_check(
        DJANGO_PRODUCTION="1",
        DJANGO_SECRET_KEY="a-long-random-secret-for-tests-only-" + "k" * 40,
        DJANGO_ALLOWED_HOSTS="ludo.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_database_comes_from_database_url():
    code = "from django.conf import settings as s; print(s.DATABASES['default']['ENGINE'])"
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    environment["DJANGO_SETTINGS_MODULE"] = "catalogue.settings"
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.stdout.strip() == "django.db.backends.sqlite3"
    environment["DATABASE_URL"] = "postgres://u@127.0.0.1:5432/ludo"
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # Django's PostgreSQL backend, its waits bounded on the client side.
    assert out.stdout.strip() == "catalogue.postgresql"
