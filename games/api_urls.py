"""The catalogue's API, mounted under /api/ in the "api" namespace by catalogue.urls."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView
from rest_framework.routers import DefaultRouter

from . import api

router = DefaultRouter()
router.register("games", api.GameViewSet, basename="game")
router.register("esar", api.EsarViewSet, basename="esar")

# Redoc injects its own styles and runs a worker from a blob; it still runs no inline script.
redoc = csp_update({"style-src": [UNSAFE_INLINE], "worker-src": ["blob:"]})(
    SpectacularRedocView.as_view(url_name="api:schema")
)

urlpatterns = [
    path("", include(router.urls)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", redoc, name="docs"),
]
