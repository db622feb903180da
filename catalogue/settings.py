"""Settings for the ludothèque catalogue.

Everything that differs between a laptop and a server comes from the environment:
- DATABASE_URL: unset means SQLite in the checkout; ``postgres://…`` means PostgreSQL.
- DJANGO_PRODUCTION=1: DEBUG off; DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS are required.
"""

import os
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

PRODUCTION = os.environ.get("DJANGO_PRODUCTION", "") in {"1", "true", "yes"}


def _required(name):
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(
            f"{name} must be set when DJANGO_PRODUCTION is on (see README, 'Deploying')."
        )
    return value


if PRODUCTION:
    DEBUG = False
    SECRET_KEY = _required("DJANGO_SECRET_KEY")
    ALLOWED_HOSTS = [h.strip() for h in _required("DJANGO_ALLOWED_HOSTS").split(",") if h.strip()]
    CSRF_TRUSTED_ORIGINS = [
        o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
    ]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = os.environ.get("DJANGO_SECURE_SSL_REDIRECT", "1") == "1"
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "3600"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
else:
    DEBUG = os.environ.get("DJANGO_DEBUG", "1") == "1"
    # Only ever used on a developer's machine: production refuses to start without its own.
    SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-not-secret-ludotheque")
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "import_export",
    "games",
    "paletti",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Compresses pages and JSON (HTML to about 0.3 of its size). BREACH: Django pads
    # compressed responses with random bytes ("Heal The Breach") and the catalogue pages
    # carry no secret; the admin's CSRF tokens are masked anew on every response.
    "django.middleware.gzip.GZipMiddleware",
    # ETag from the content and 304 for any page without its own validators.
    "django.middleware.http.ConditionalGetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "catalogue.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "catalogue.wsgi.application"

# A new PostgreSQL connection per request cut throughput about six times when measured,
# so connections persist (and are health-checked) between requests.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=600,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets pages be read while a move is written; NORMAL syncs at checkpoints, not at
    # every commit (the database stays consistent; a power cut may lose the last moves).
    # IMMEDIATE takes the write lock up front, so concurrent writers wait, not fail.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
    # Tests use a file too: an in-memory database locks whole tables and cannot show how
    # concurrent moves are serialised.
    # One file per test run, so that two runs side by side do not share it.
    DATABASES["default"].setdefault("TEST", {})["NAME"] = str(
        Path(tempfile.gettempdir()) / f"ludotheque-test-{os.getpid()}.sqlite3"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Catalogue pages for anonymous visitors (games.caching). Per process: the key carries the
# catalogue's version, read from the database, so an edit is seen by every process at once.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": 2000},
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# French first: the ludothèque's own language and the catalogue's reference reading.
LANGUAGE_CODE = "fr"
LANGUAGES = [
    ("fr", _("French")),
    ("da", _("Danish")),
    ("pl", _("Polish")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("DJANGO_MEDIA_ROOT", BASE_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "games.pagination.GamePagination",
    "DEFAULT_PERMISSION_CLASSES": ["games.permissions.ReadOnlyOrStaffWithModelPermission"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "PAGE_SIZE": 20,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Ludothèque API",
    "DESCRIPTION": "The ludothèque's game catalogue, rule summaries and ESAR vocabulary.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs page's scripts come from our own static files: the site works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Games with a playable module: catalogue slug → the URL name of its start page.
PLAYABLE_GAMES = {"villa-paletti": "paletti:setup"}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
