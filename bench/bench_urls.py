"""The project's URLs plus /bench/bare/, a JsonResponse with no database and no template."""

from django.http import JsonResponse
from django.urls import path

from catalogue.urls import urlpatterns as project_urlpatterns


def bare(request):
    return JsonResponse({"ok": True})


urlpatterns = [path("bench/bare/", bare), *project_urlpatterns]
