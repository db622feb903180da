"""Villa Paletti's pages, under the language prefix (the API lives in api_urls.py)."""

from django.urls import path
from django.views.i18n import JavaScriptCatalog

from . import lobby, replays, views

app_name = "paletti"

urlpatterns = [
    path("", views.setup, name="setup"),
    path("lobby/", lobby.page, name="lobby"),
    path("<uuid:match_id>/", views.match, name="match"),
    path("<uuid:match_id>/replay/", replays.page, name="replay"),
    path("<uuid:match_id>/links/", views.replace_link, name="replace-link"),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["paletti"]), name="jsi18n"),
]
