from django.urls import path

from .views import score_sheet

app_name = "scoring"

urlpatterns = [
    path("games/<slug:slug>/score/", score_sheet, name="game-score"),
]
