from django.urls import path

from . import api, lobby, replays

urlpatterns = [
    path("lobby/", lobby.LobbyView.as_view(), name="paletti-lobby"),
    path("matches/", api.MatchListView.as_view(), name="paletti-match-list"),
    path("matches/<uuid:match_id>/", api.MatchDetailView.as_view(), name="paletti-match-detail"),
    path(
        "matches/<uuid:match_id>/actions/",
        api.MatchActionView.as_view(),
        name="paletti-match-actions",
    ),
    path(
        "matches/<uuid:match_id>/updates/",
        api.MatchUpdatesView.as_view(),
        name="paletti-match-updates",
    ),
    path(
        "matches/<uuid:match_id>/replay/",
        replays.MatchReplayView.as_view(),
        name="paletti-match-replay",
    ),
    path(
        "matches/<uuid:match_id>/clock/", api.MatchClockView.as_view(), name="paletti-match-clock"
    ),
    path(
        "matches/<uuid:match_id>/stream/",
        api.MatchStreamView.as_view(),
        name="paletti-match-stream",
    ),
    path("matches/<uuid:match_id>/join/", api.MatchJoinView.as_view(), name="paletti-match-join"),
    path(
        "matches/<uuid:match_id>/links/<str:which>/",
        api.MatchLinkView.as_view(),
        name="paletti-match-link",
    ),
]
