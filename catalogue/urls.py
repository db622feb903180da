"""Root URLs: pages under a language prefix (/fr/, /da/, /pl/, /en/), the API without one."""

from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

from paletti.views import join as paletti_join

from .admin_login import StaffLoginForm
from .health import healthz

admin.site.login_form = StaffLoginForm

handler400 = "catalogue.errors.bad_request"
handler403 = "catalogue.errors.permission_denied"
handler404 = "catalogue.errors.page_not_found"
handler500 = "catalogue.errors.server_error"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # One API namespace, each app bringing its own URLs.
    path(
        "api/",
        include(
            (
                [
                    path("", include("games.api_urls")),
                    path("paletti/", include("paletti.api_urls")),
                    path("scores/", include("games.scoring.api_urls")),
                ],
                "api",
            )
        ),
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    # A Villa Paletti link, without a language: each device opens it in its own.
    path("paletti/join/<uuid:match_id>/", paletti_join, name="paletti-join"),
]

urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    path("paletti/", include("paletti.urls")),
    path("", include("games.scoring.urls")),
    path("tournament/", include("games.tournament.urls")),
    path("", include("games.lending.urls")),
    path("", include("games.urls")),
)

if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
