"""API errors answer JSON, and the OpenAPI schema describes what the API really sends."""

from unittest import mock

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from django.urls import reverse
from werkzeug.test import Client as WSGIClient

from games.api import GameViewSet

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client):
    body = client.get(reverse("api:schema"), {"format": "json"}).json()
    return schemathesis.openapi.from_dict(body)


@pytest.fixture
def wsgi():
    """A WSGI client schemathesis can read; like Django's test client, it keeps the test's
    database connection open between requests."""
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield WSGIClient(get_wsgi_application())
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


def test_an_unknown_api_path_is_a_json_404(client):
    for path in ("/api/nothing-here/", "/api/games/villa-paletti/nope/", "/api/paletti/x/"):
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 404
        assert response.json() == {"code": "not_found", "detail": "Not found."}
    page = client.get("/fr/nothing-here/")
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")


def test_a_server_error_under_api_is_json_and_leaks_nothing(seed):
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    with mock.patch.object(GameViewSet, "list", side_effect=RuntimeError("secret detail")):
        response = client.get(reverse("api:game-list"))
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"
    assert b"secret" not in response.content


@pytest.mark.parametrize(
    ("path", "method", "url"),
    [
        ("/api/esar/", "GET", "/api/esar/"),
        ("/api/esar/{code}/", "GET", "/api/esar/A%20400/"),
        ("/api/games/", "GET", "/api/games/?players=3"),
        ("/api/games/{slug}/", "GET", "/api/games/alhambra/"),
        ("/api/games/{slug}/", "GET", "/api/games/nope/"),
        ("/api/games/", "GET", "/api/games/?players=x"),
        ("/api/games/{slug}/rules/", "GET", "/api/games/villa-paletti/rules/"),
        ("/api/games/{slug}/rules/{language}/", "GET", "/api/games/villa-paletti/rules/xx/"),
        ("/api/games/{slug}/", "DELETE", "/api/games/alhambra/"),
        ("/api/games/{slug}/", "GET", "/api/games/a%00b/"),
        ("/api/games/", "GET", "/api/games/?page=781942499641310&page_size=-120"),
    ],
)
def test_what_the_api_sends_matches_its_schema(schema, wsgi, seed, path, method, url):
    response = wsgi.open(url, method=method)
    assert response.status_code < 500
    schema[path][method].validate_response(response)


def test_the_schema_documents_errors_and_nullable_fields(schema):
    raw = schema.raw_schema
    assert raw["components"]["schemas"]["Esar"]["properties"]["parent"]["nullable"] is True
    rules = raw["paths"]["/api/games/{slug}/rules/"]["get"]["responses"]["200"]
    assert rules["content"]["application/json"]["schema"]["type"] == "array"
    for path, operations in raw["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            assert "400" in codes, (method, path)
            if "{" in path:
                assert "404" in codes, (method, path)
            if method in ("post", "put", "patch", "delete") and path.startswith("/api/games/"):
                assert "403" in codes, (method, path)


def test_a_malformed_ean_is_a_400_with_the_reason(seed):
    from django.contrib.auth.models import User
    from rest_framework.test import APIClient

    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(User.objects.create_superuser("admin"))
    url = reverse("api:game-detail", kwargs={"slug": "alhambra"})
    for ean in ("\u0084", "12345", "1234567890123456", 4010349602106, "4010349 602106"):
        response = api.patch(url, {"ean": ean}, format="json")
        assert response.status_code == 400, ean
        assert response.json()["ean"]
    assert api.patch(url, {"ean": ""}, format="json").status_code == 200
    # Alhambra's EAN with its last digit mistyped: the right shape, the wrong check digit.
    response = api.patch(url, {"ean": "4010349602107"}, format="json")
    assert response.status_code == 400
    assert "check digit" in response.json()["ean"][0]
    assert api.patch(url, {"ean": "4010349602106"}, format="json").status_code == 200
