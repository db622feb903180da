"""Security headers: a Content-Security-Policy no inline script gets past, and HSTS whose
length is configurable and whose preload is sent only when asked."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/(?:ld\+)?json)[^>]*>")
INLINE_STYLE = re.compile(r"<style\b|\sstyle=\"|\son[a-z]+=\"")


# The whole policy a browser receives, directive by directive (their order means nothing).
POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def directives(policy):
    return dict(d.strip().split(" ", 1) for d in policy.split(";"))


def pages(client):
    match = client.post(
        reverse("api:paletti-match-list"),
        {"players": [{"name": "Ada"}, {"name": "Robot", "kind": "bot"}], "seed": 1},
        content_type="application/json",
    )
    assert match.status_code == 201
    return [
        reverse("games:home"),
        reverse("games:game-list"),
        reverse("games:game-detail", kwargs={"slug": "villa-paletti"}),
        reverse("paletti:setup"),
        reverse("paletti:match", kwargs={"match_id": match.json()["id"]}),
        reverse("admin:login"),
    ]


def test_every_page_has_the_whole_policy_without_inline_scripts_and_obeys_it(client, seed):
    for url in pages(client):
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        assert directives(response["Content-Security-Policy"]) == POLICY, url
        html = response.content.decode()
        if not url.startswith("/fr/admin/"):  # Django's own templates are not ours to move
            assert not INLINE_SCRIPT.search(html), url
            assert not INLINE_STYLE.search(html), url


def test_a_match_page_and_the_api_have_the_policy_too(client, seed):
    admin = User.objects.create_superuser("admin")
    client.force_login(admin)
    api = client.get(reverse("api:game-list"))
    assert directives(api["Content-Security-Policy"]) == POLICY
    docs = directives(client.get(reverse("api:docs"))["Content-Security-Policy"])
    # Redoc injects styles and runs a worker from a blob, never an inline script.
    assert docs == {**POLICY, "style-src": "'self' 'unsafe-inline'", "worker-src": "blob:"}


def hsts_settings(**env):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    environment.update(
        DJANGO_PRODUCTION="1",
        DJANGO_SECRET_KEY="a-long-random-secret-for-tests-only-" + "k" * 40,
        DJANGO_ALLOWED_HOSTS="ludo.example",
        DJANGO_SETTINGS_MODULE="catalogue.settings",
        **env,
    )
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_PRELOAD)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    return out.stdout.split()


def test_hsts_is_a_year_by_default_configurable_and_preloads_only_when_asked():
    assert hsts_settings() == ["31536000", "False"]
    assert hsts_settings(DJANGO_HSTS_SECONDS="300") == ["300", "False"]
    assert hsts_settings(DJANGO_HSTS_PRELOAD="1") == ["31536000", "True"]


def test_answers_refused_before_any_view_carry_the_policy_and_frame_options(client, settings):
    settings.API_MAX_BODY_BYTES = 100
    too_large = client.post(
        reverse("api:paletti-match-list"), "x" * 200, content_type="application/json"
    )
    assert too_large.status_code == 413
    nul = client.get(reverse("games:game-list"), {"q": "a\x00"})
    assert nul.status_code == 400
    for response in (too_large, nul):
        assert directives(response["Content-Security-Policy"])["frame-ancestors"] == "'none'"
        assert response["X-Frame-Options"] == "DENY"


def test_the_language_cookie_is_secure_and_same_site_in_production():
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    environment.update(
        DJANGO_PRODUCTION="1",
        DJANGO_SECRET_KEY="a-long-random-secret-for-tests-only-" + "k" * 40,
        DJANGO_ALLOWED_HOSTS="ludo.example",
        DJANGO_SETTINGS_MODULE="catalogue.settings",
    )
    code = (
        "import django; django.setup(); from django.test import Client; "
        "r = Client(HTTP_HOST='ludo.example').post('/i18n/setlang/', {'language': 'da'}, "
        "secure=True); print(r.status_code, r.cookies['django_language'].output())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    status, cookie = out.stdout.strip().split(" ", 1)
    assert status == "302", out.stderr
    assert "django_language=da" in cookie
    assert "Secure" in cookie
    assert "SameSite=Lax" in cookie
