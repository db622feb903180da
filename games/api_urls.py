"""The catalogue's API, mounted under /api/ in the "api" namespace by catalogue.urls."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView
from rest_framework.routers import DefaultRouter

from . import api

router = DefaultRouter()
router.register("games", api.GameViewSet, basename="game")
router.register("esar", api.EsarViewSet, basename="esar")

urlpatterns = [
    path("", include(router.urls)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularRedocView.as_view(url_name="api:schema"), name="docs"),
]
