"""The tournament's pages, under the language prefix: the staff's desk, the players'
phones (by personal code) and the room's pages (by the tournament's public code)."""

from django.urls import path

from . import live, views

app_name = "tournament"

urlpatterns = [
    path("desk/", views.tournament_list, name="list"),
    path("desk/new/", views.tournament_create, name="create"),
    path("desk/<int:pk>/", views.desk, name="desk"),
    path("desk/<int:pk>/players/", views.desk_register, name="desk-register"),
    path(
        "desk/<int:pk>/players/<int:player_pk>/presence/",
        views.player_presence,
        name="player-presence",
    ),
    path("desk/<int:pk>/registration/", views.registration, name="registration"),
    path("desk/<int:pk>/rounds/", views.round_start, name="round-start"),
    path("desk/<int:pk>/finish/", views.finish, name="finish"),
    path("desk/<int:pk>/cards/", views.cards, name="cards"),
    path("desk/<int:pk>/tables/<int:table_pk>/", views.table_correct, name="table-correct"),
    path("desk/<int:pk>/on-site/", views.play_on_site, name="play-on-site"),
    path("p/<str:token>/", views.player, name="player"),
    path("p/<str:token>/result/", views.player_result, name="player-result"),
    path("p/<str:token>/confirm/", views.player_confirm, name="player-confirm"),
    path("p/<str:token>/state.json", views.player_state, name="player-state"),
    path("<slug:code>/join/", views.join, name="join"),
    path("<slug:code>/screen/", views.screen, name="screen"),
    path("<slug:code>/screen.json", views.screen_data, name="screen-data"),
    path("<slug:code>/stream/", live.stream, name="stream"),
    path("<slug:code>/standings/", views.standings, name="standings"),
    path("<slug:code>/standings.csv", views.standings_csv, name="standings-csv"),
]
