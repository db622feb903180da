from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.game_list, name="game-list"),
    path("games/<slug:slug>/", views.game_detail, name="game-detail"),
]
urlpatterns += [
    path("games/<slug:slug>/rules/compare/", views.game_rules_compare, name="game-rules-compare"),
    path("games/<slug:slug>/rules/<str:language>/", views.game_rules, name="game-rules"),
]
