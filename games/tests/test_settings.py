"""Production mode comes from the environment and refuses to start half-configured, or
with a value it cannot read."""

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from environs import EnvError

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
    assert f'Environment variable "{missing}" not set' in result.stderr


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


def settings_from(monkeypatch, **env):
    """The settings module run afresh under this environment (DJANGO_* and DATABASE_URL
    only from `env`), as the site reads it when it starts."""
    for name in list(os.environ):
        if name.startswith("DJANGO_") or name == "DATABASE_URL":
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "catalogue" / "settings.py"))


PRODUCTION = {
    "DJANGO_PRODUCTION": "1",
    "DJANGO_SECRET_KEY": "a-long-random-secret-for-tests-only-" + "k" * 40,
    "DJANGO_ALLOWED_HOSTS": "ludo.example",
}


@pytest.mark.parametrize(
    ("name", "value", "reason"),
    [
        ("DJANGO_PRODUCTION", "maybe", "Not a valid boolean"),
        ("DJANGO_HSTS_PRELOAD", "2", "Not a valid boolean"),
        ("DJANGO_HSTS_SECONDS", "a year", "Not a valid integer"),
        ("DJANGO_SECRET_KEY", "  ", "Required when DJANGO_PRODUCTION is on"),
        ("DJANGO_ALLOWED_HOSTS", " , ", "Required when DJANGO_PRODUCTION is on"),
        ("DJANGO_NUM_PROXIES", "-1", "greater than or equal to 0"),
        ("DJANGO_THROTTLE_MATCH_CREATION", "lots", "Not a rate"),
        ("DJANGO_ENGINE_CONCURRENT", "one", "Not a number"),
        ("DJANGO_HEALTHZ_DB_TIMEOUT_SECONDS", "0", "greater than 0"),
        ("DATABASE_URL", "not a url", "Not a valid database URL"),
    ],
)
def test_a_value_the_site_cannot_read_stops_it_naming_the_variable(
    monkeypatch, name, value, reason
):
    environment = {**PRODUCTION, name: value} if name != "DJANGO_PRODUCTION" else {name: value}
    with pytest.raises(EnvError) as refusal:
        settings_from(monkeypatch, **environment)
    assert f'Environment variable "{name}" invalid' in str(refusal.value)
    assert reason in str(refusal.value)


def test_each_variable_keeps_its_meaning(monkeypatch):
    local = settings_from(monkeypatch)
    assert local["DEBUG"] is True and local["PRODUCTION"] is False
    assert local["PALETTI_THROTTLE_RATES"] == {
        "match-creation": "120/hour",
        "match-actions": "600/min",
    }
    assert local["PALETTI_ENGINE_LIMITS"] == {
        "concurrent": 1.0,
        "concurrent_per_address": 2.0,
        "seconds_per_minute": 20.0,
    }
    assert local["NUM_PROXIES"] == 0
    deployed = settings_from(
        monkeypatch,
        **{
            **PRODUCTION,
            "DJANGO_PRODUCTION": "yes",
            "DJANGO_ALLOWED_HOSTS": "ludo.example, www.ludo.example,",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_HSTS_SECONDS": "300",
            "DJANGO_THROTTLE_MATCH_CREATION": "off",
            "DJANGO_ENGINE_SECONDS_PER_MINUTE": "off",
            "DJANGO_NUM_PROXIES": "1",
            "DATABASE_URL": "postgres://u@127.0.0.1:5432/ludo",
        },
    )
    assert deployed["DEBUG"] is False
    assert deployed["ALLOWED_HOSTS"] == ["ludo.example", "www.ludo.example"]
    assert deployed["SECURE_SSL_REDIRECT"] is False
    assert deployed["SECURE_HSTS_SECONDS"] == 300
    assert deployed["PALETTI_THROTTLE_RATES"]["match-creation"] is None
    assert deployed["PALETTI_ENGINE_LIMITS"] == {
        "concurrent": 1.0,
        "concurrent_per_address": 2.0,
        "seconds_per_minute": None,
    }
    assert deployed["NUM_PROXIES"] == 1
    database = deployed["DATABASES"]["default"]
    assert (database["NAME"], database["HOST"], database["CONN_MAX_AGE"]) == (
        "ludo",
        "127.0.0.1",
        600,
    )
