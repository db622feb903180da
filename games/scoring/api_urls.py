from django.urls import path

from . import api
from .views import ALHAMBRA, PETIT_PRINCE

urlpatterns = [
    path(f"{PETIT_PRINCE}/", api.PetitPrinceScoreView.as_view(), name="score-petit-prince"),
    path(f"{ALHAMBRA}/", api.AlhambraScoreView.as_view(), name="score-alhambra"),
]
