from django.urls import path

from . import api

urlpatterns = [
    path("matches/", api.MatchListView.as_view(), name="paletti-match-list"),
    path("matches/<uuid:match_id>/", api.MatchDetailView.as_view(), name="paletti-match-detail"),
    path(
        "matches/<uuid:match_id>/actions/",
        api.MatchActionView.as_view(),
        name="paletti-match-actions",
    ),
]
