"""Settings for the ludothèque catalogue.

Everything that differs between a laptop and a server comes from the environment (README,
'Deploying', lists every variable), read through environs: a value it cannot read (a flag
that is neither on nor off, a number that is not one) stops the site at start-up with the
variable's name and what is wrong with it.
- DATABASE_URL: unset means SQLite in the checkout; ``postgres://…`` means PostgreSQL.
- DJANGO_PRODUCTION=1: DEBUG off; DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS are required.
"""

import os
import re
import tempfile
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _
from environs import Env, ValidationError, validate

BASE_DIR = Path(__file__).resolve().parent.parent

env = Env()
# What a limit may be switched off with.
off_words = {"", "0", "off", "none"}
required_in_production = "Required when DJANGO_PRODUCTION is on (see README, 'Deploying')."


@env.parser_for("names")
def _names(value: str, *, required: bool = False) -> list[str]:
    """Comma-separated names (hosts, origins), spaces around them ignored."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    if required and not names:
        raise ValidationError(required_in_production)
    return names


@env.parser_for("rate")
def _rate(value: str) -> str | None:
    """A throttle's rate as DRF writes it ("120/hour"), or None for no limit."""
    if value.strip().lower() in off_words:
        return None
    if not re.fullmatch(r"\d+/(s|m|h|d)[a-z]*", value.strip()):
        raise ValidationError(
            "Not a rate: write it as 120/hour, 600/min, 10/s or 1000/day, or off."
        )
    return value.strip()


@env.parser_for("limit")
def _limit(value: str) -> float | None:
    """A positive number, or None for no limit."""
    if value.strip().lower() in off_words:
        return None
    try:
        number = float(value)
    except ValueError:
        raise ValidationError("Not a number: write a positive number, or off.") from None
    if not 0 < number < float("inf"):
        raise ValidationError("Not a positive number: write one, or off.")
    return number


not_blank = validate.Regexp(r"\s*\S", error=required_in_production)
at_least_0 = validate.Range(min=0)

PRODUCTION = env.bool("DJANGO_PRODUCTION", False)

if PRODUCTION:
    DEBUG = False
    SECRET_KEY = env.str("DJANGO_SECRET_KEY", validate=not_blank)
    ALLOWED_HOSTS = env.names("DJANGO_ALLOWED_HOSTS", required=True)
    CSRF_TRUSTED_ORIGINS = env.names("DJANGO_CSRF_TRUSTED_ORIGINS", "")
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # The language chosen in the page's switcher: sent over HTTPS only, not on other
    # sites' cross-site requests.
    LANGUAGE_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SAMESITE = "Lax"
    # A year, once HTTPS works; lower it (e.g. 300) while trying HTTPS out. Preloading into
    # browsers is hard to undo, so it is sent only when asked (DJANGO_HSTS_PRELOAD=1).
    SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", 31536000, validate=at_least_0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env.bool("DJANGO_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]  # "not preloaded": on purpose, see above
    SECURE_CONTENT_TYPE_NOSNIFF = True
else:
    DEBUG = env.bool("DJANGO_DEBUG", True)
    # Only ever used on a developer's machine: production refuses to start without its own.
    SECRET_KEY = env.str("DJANGO_SECRET_KEY", "dev-only-not-secret-ludotheque")
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    # Its search and trigram lookups (games.search.postgresql); nothing on SQLite.
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "import_export",
    "axes",
    "reversion",
    # Its system checks refuse a policy written in the settings format it no longer reads.
    "csp",
    # Background tasks (the admin's UNIMARC imports, the member's link e-mails), queued in
    # the database and run by ``manage.py db_worker``.
    "django_tasks",
    "catalogue.apps.TasksConfig",  # django_tasks_db, its words translated
    "games",
    "games.scoring",
    "games.lending",
    "games.tournament",
    "games.unimarc",
    "paletti",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The policy and the frame options outside everything that may answer early (the
    # request guard's 400 and 413, cached pages, static files): every answer carries them.
    "csp.middleware.CSPMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "catalogue.middleware.RequestGuardMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The catalogue's version for each request, and anonymous visitors' catalogue pages
    # and API answers, compressed as they were sent, before any session, locale or
    # authentication work (games.caching).
    "games.caching.CatalogueCacheMiddleware",
    # Compresses pages and JSON (HTML to about 0.3 of its size). BREACH: Django pads
    # compressed responses with random bytes ("Heal The Breach") and the catalogue pages
    # carry no secret; the admin's CSRF tokens are masked anew on every response.
    "django.middleware.gzip.GZipMiddleware",
    # ETag from the content and 304 for any page without its own validators.
    "django.middleware.http.ConditionalGetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Django's, with French for a visitor who asks for no language the site offers.
    "catalogue.language.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its 429 answer.
    "axes.middleware.AxesMiddleware",
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
# so connections persist (and are health-checked) between requests. The ASGI server sets
# DJANGO_DB_CONN_MAX_AGE=0 (catalogue.asgi): its requests' threads do not outlive them.
DATABASES = {
    "default": env.dj_db_url(
        "DATABASE_URL",
        f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env.int("DJANGO_DB_CONN_MAX_AGE", 600, validate=at_least_0),
        conn_health_checks=True,
    )
}
# How long a request waits on PostgreSQL before it gives up on its own side; 0: unbounded.
DB_CLIENT_TIMEOUT_SECONDS = 0
# How long a request waits for PostgreSQL to accept a new connection, or to answer the
# health check of a kept one (psycopg waits at least 2 s to connect); and how long, after
# either went unanswered, a process takes the database for down and answers 503 at once
# (catalogue.postgresql.availability; 0: no such pause).
DB_CONNECT_TIMEOUT_SECONDS = max(2, env.int("DJANGO_DB_CONNECT_TIMEOUT", 2, validate=at_least_0))
DB_UNAVAILABLE_SECONDS = env.float("DJANGO_DB_UNAVAILABLE_SECONDS", 5.0, validate=at_least_0)
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
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that refuses or hangs must not tie a worker up until gunicorn kills it.
    # Every wait is bounded: connecting (connect_timeout), waiting for a lock
    # (lock_timeout: a locked table answered 503 only after 20 s), a statement on the
    # server (statement_timeout), a network path that stops acknowledging (TCP keepalives
    # and tcp_user_timeout), and, for a server that accepts and answers nothing, each wait
    # of a request on the client's own side (catalogue.postgresql: the backend's watchdog).
    # The request then gets a 503 (catalogue.errors) and a later one reconnects. A
    # connection or health check left unanswered makes the process answer 503 at once for
    # a few seconds (DB_UNAVAILABLE_SECONDS), instead of each request waiting its bound
    # while it holds a thread that static files and the health check need.
    DATABASES["default"]["ENGINE"] = "catalogue.postgresql"
    # The server's limit on one statement applies to management commands too (creating
    # a test database, a migration on a large catalogue): 10 s. A request gives up on
    # its own side sooner, after 5 s of waiting for any one answer.
    statement_ms = env.int("DJANGO_DB_STATEMENT_TIMEOUT_MS", 10000, validate=at_least_0)
    lock_ms = env.int("DJANGO_DB_LOCK_TIMEOUT_MS", 2000, validate=at_least_0)
    DB_CLIENT_TIMEOUT_SECONDS = (
        env.int("DJANGO_DB_CLIENT_TIMEOUT_MS", 5000, validate=at_least_0) / 1000
    )
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "connect_timeout": DB_CONNECT_TIMEOUT_SECONDS,
            "options": f"-c statement_timeout={statement_ms} -c lock_timeout={lock_ms}",
            # Probe an idle connection after 10 s, every 3 s, give up after 3 probes;
            # give up on data not acknowledged within the client timeout.
            "keepalives": 1,
            "keepalives_idle": 10,
            "keepalives_interval": 3,
            "keepalives_count": 3,
            "tcp_user_timeout": int(DB_CLIENT_TIMEOUT_SECONDS * 1000),
        }
    )
# /healthz gives the database this long to answer (a load balancer's probe is short).
HEALTHZ_DB_TIMEOUT_SECONDS = env.float(
    "DJANGO_HEALTHZ_DB_TIMEOUT_SECONDS", 2.0, validate=validate.Range(min=0, min_inclusive=False)
)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# French first: the ludothèque's own language and the catalogue's reference reading. A
# visitor who asks for no language the site offers is served French (VISITOR_LANGUAGE,
# catalogue.language), the records' own texts (titles, principles, rules, contents) are
# French on every page, and a string a Danish or Polish catalogue lacked would read in
# French, gettext's fallback (a test keeps every catalogue complete, so none does).
LANGUAGE_CODE = "fr"
VISITOR_LANGUAGE = "fr"
RECORD_LANGUAGE = "fr"
LANGUAGES = [
    ("fr", _("French")),
    ("da", _("Danish")),
    ("pl", _("Polish")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# British English dates ("29 November 2026"); the other languages keep Django's formats.
FORMAT_MODULE_PATH = ["catalogue.formats"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles")
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("DJANGO_MEDIA_ROOT", BASE_DIR / "media")
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

# Behind a load balancer or a reverse proxy, how many of them append to X-Forwarded-For:
# without it every client would seem to be the proxy (one throttle for everybody). Unset
# (0), the socket's address is the client's and X-Forwarded-For is ignored: a client could
# write any address there (catalogue.clients).
NUM_PROXIES = env.int("DJANGO_NUM_PROXIES", 0, validate=at_least_0)

REST_FRAMEWORK = {
    # No Basic authentication: a forged password header cost a password hash (~0.4 s of
    # CPU) per request. Browsers use their session; API clients a token made by staff.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    # JSON only: form bodies of PUT and PATCH reached the database unchecked.
    "DEFAULT_PARSER_CLASSES": ["catalogue.parsers.StrictJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "catalogue.schema.ErrorDocumentingAutoSchema",
    # 404s and unreadable JSON said in the reader's language (catalogue.api_errors).
    "EXCEPTION_HANDLER": "catalogue.api_errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "games.pagination.GamePagination",
    # Throttles count per catalogue.clients.client_address (paletti.throttles); this is
    # for any other DRF throttle: 0 means the socket's address, never X-Forwarded-For.
    "NUM_PROXIES": NUM_PROXIES,
    "DEFAULT_PERMISSION_CLASSES": ["games.permissions.ReadOnlyOrStaffWithModelPermission"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "PAGE_SIZE": 20,
}

# API request bodies longer than this are refused (413) before they are read. The longest
# real one is a game record with its rules text, a few kilobytes; an action is ~100 bytes.
API_MAX_BODY_BYTES = env.int("DJANGO_API_MAX_BODY_BYTES", 256 * 1024, validate=at_least_0)

# Only the site's own scripts, styles, images and fonts; no inline script or style, no
# plugin, no framing (django-csp's middleware sends it on every answer). JSON-LD blocks are
# data, not scripts, and need no exception. The API's documentation page adds what Redoc
# needs to its own answers (games.api_urls).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# The API's throttles count in a log every app server sees (paletti.throttles): a Redis
# sorted set when the default cache is Redis, through Django's own RedisCache
# (DJANGO_REDIS_URL, e.g. redis://127.0.0.1:6379/0), else a table of the database. Without
# Redis the default cache is a table in the database they share (made by `manage.py
# createcachetable`): nothing else to run. Catalogue pages for anonymous visitors
# (games.caching) go in a cache of each process's own: the key carries the catalogue's
# version, read from the database, so an edit is seen by every process at once.
REDIS_URL = env.str("DJANGO_REDIS_URL", "").strip()
if REDIS_URL:
    SHARED_CACHE = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env.str("DJANGO_CACHE_KEY_PREFIX", "ludotheque"),
        # A Redis that hangs must not hold a worker: give up within a second.
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
else:
    SHARED_CACHE = {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "django_cache",
        "OPTIONS": {"MAX_ENTRIES": 20000},
    }
# The deployed release (a tag, a commit): part of the catalogue pages' ETags and cache keys
# (games.caching); without it, a digest of the templates' and translations' contents.
RELEASE_ID = env.str("DJANGO_RELEASE_ID", "").strip()
CACHES = {
    "default": SHARED_CACHE,
    "pages": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": 2000},
    },
}


# Per client address. Generous enough for a class of 30 children behind one school
# address: 15 matches started at once, and about one request every 2 s in each match.
PALETTI_THROTTLE_RATES = {
    "match-creation": env.rate("DJANGO_THROTTLE_MATCH_CREATION", "120/hour"),
    "match-actions": env.rate("DJANGO_THROTTLE_MATCH_ACTIONS", "600/min"),
}

# The tournaments' public join page (games.tournament.throttles), per client address: a
# venue's players register on their phones behind one Wi-Fi address, at most 64 to a
# tournament; more registrations than that in an hour come from a script.
TOURNAMENT_THROTTLE_RATES = {
    "tournament-join": env.rate("DJANGO_THROTTLE_TOURNAMENT_JOIN", "300/hour"),
    "tournament-registration": env.rate("DJANGO_THROTTLE_TOURNAMENT_REGISTRATION", "80/hour"),
}

# The engine work one client address may cause (paletti.throttles.engine_time): at most
# `concurrent` requests running the engine at once in one match, `concurrent_per_address`
# in all its matches (two tables behind one library's address play at once), and
# `seconds_per_minute` seconds of the engine's CPU time per minute. A request with careful
# bots costs up to ~2.2 s of CPU: unbounded, one address kept both workers busy and the
# catalogue went from 8 ms to 2.9 s.
PALETTI_ENGINE_LIMITS = {
    "concurrent": env.limit("DJANGO_ENGINE_CONCURRENT", "1"),
    "concurrent_per_address": env.limit("DJANGO_ENGINE_CONCURRENT_PER_ADDRESS", "2"),
    "seconds_per_minute": env.limit("DJANGO_ENGINE_SECONDS_PER_MINUTE", "20"),
}

# The turn clock's test-only preset "tiny" (a 3 s bank: paletti.clock), refused unless set:
# browser tests switch it on to see a seat run out of time.
PALETTI_TINY_CLOCK = env.bool("DJANGO_PALETTI_TINY_CLOCK", False)

# Following a match or a tournament live (catalogue.live and catalogue.streams, the event
# streams of paletti.api and games.tournament.live): served by the ASGI server
# (catalogue.asgi, uvicorn), woken through Redis pub/sub on DJANGO_REDIS_URL (without it,
# each stream reads the database every `poll_seconds`). A process serves at most
# `max_open` streams at once, of every kind (then 503); a stream ends after `lifetime_seconds` (the
# browser reconnects at once, resuming where it was) and sends a comment every
# `keepalive_seconds` so that proxies keep it open.
LIVE_REDIS_URL = env.str("DJANGO_LIVE_REDIS_URL", REDIS_URL).strip()
LIVE_STREAMS = {
    # Another Redis for the notifications alone, if wanted; "off": none (the streams poll).
    "redis_url": "" if LIVE_REDIS_URL == "off" else LIVE_REDIS_URL,
    "key_prefix": env.str("DJANGO_CACHE_KEY_PREFIX", "ludotheque"),
    "max_open": env.int("DJANGO_STREAMS_MAX_OPEN", 500, validate=at_least_0),
    "lifetime_seconds": env.int("DJANGO_STREAM_LIFETIME_SECONDS", 600, validate=at_least_0),
    "keepalive_seconds": env.float("DJANGO_STREAM_KEEPALIVE_SECONDS", 15.0),
    "poll_seconds": env.float("DJANGO_STREAM_POLL_SECONDS", 1.0),
}

# Admin logins: after 5 failures for one user name from one address, that pair is locked
# out for 15 minutes (django-axes); other addresses and other users are not affected.
# The failures are counted in the database (axes' own handler: one row per user name and
# address under a unique constraint, incremented with F() under a row lock), atomic on
# PostgreSQL with or without Redis, and `axes_reset` and the admin's list keep working.
AXES_FAILURE_LIMIT = env.int("DJANGO_LOGIN_FAILURE_LIMIT", 5, validate=at_least_0)
AXES_COOLOFF_TIME = timedelta(
    minutes=env.int("DJANGO_LOGIN_LOCKOUT_MINUTES", 15, validate=at_least_0)
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "catalogue.clients.client_address"

SPECTACULAR_SETTINGS = {
    "TITLE": "Ludothèque API",
    "DESCRIPTION": "The ludothèque's game catalogue, rule summaries and ESAR vocabulary.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs page's scripts come from our own static files: the site works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Villa Paletti's `protest` and `abort` options share one set of readings.
    "ENUM_NAME_OVERRIDES": {"ReadingEnum": ["french", "polish"]},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "paletti.schema.add_match_links",
        "catalogue.schema.refuse_unknown_keys_in_schema",
    ],
}

# CSV import takes the permission to change games; each row then needs what the admin's
# forms would need (games/resources.py).
IMPORT_EXPORT_IMPORT_PERMISSION_CODE = "change"

TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# The PMB site the UNIMARC export writes for and the import reads from: its names for the
# custom fields (900 $n $l $t), its item statuses (label, import code, loanable), sections,
# locations and lender, key by key over games.unimarc.pmb.DEFAULT_SITE (docs/unimarc.md).
# Empty: this project's defaults.
UNIMARC_PMB_SITE = {}

# Games with a playable module: catalogue slug → the URL name of its start page.
PLAYABLE_GAMES = {"villa-paletti": "paletti:setup"}
# Games with a score sheet (games.scoring): catalogue slug → the URL name of the sheet,
# which takes the slug.
SCORE_SHEETS = {
    "alhambra": "scoring:game-score",
    "le-petit-prince-fabrique-moi-une-planete": "scoring:game-score",
}

# The days the ludothèque's desk is open (Monday 0 … Sunday 6): a loan's due date moves on to
# the next of them, as PMB's opening calendar does. Our default is Wednesday and Saturday, the
# days many French ludothèques open (children have no school on Wednesday afternoons); an
# empty value means any day.
LENDING_OPENING_WEEKDAYS = env.list("DJANGO_LENDING_OPENING_WEEKDAYS", [2, 5], subcast=int)
if not all(0 <= day <= 6 for day in LENDING_OPENING_WEEKDAYS):
    raise ValidationError("DJANGO_LENDING_OPENING_WEEKDAYS: weekday numbers, Monday 0 to Sunday 6")
# How many days a copy set aside for a hold waits for its household (then it passes to the
# next in the queue). Our choice: a week, so that every opening day of it can be the one.
LENDING_HOLD_DAYS = env.int("DJANGO_LENDING_HOLD_DAYS", 7, validate=validate.Range(min=1))
# Reminders (python manage.py send_reminders, from cron): "due soon" this many days before a
# loan is due (our choice, 3: from a Saturday due date back to the Wednesday before, an
# opening day to come in or renew), "overdue again" this many days after the first "overdue"
# (our choice, 7: a week, every opening day once).
LENDING_REMINDER_DAYS_BEFORE = env.int(
    "DJANGO_LENDING_REMINDER_DAYS_BEFORE", 3, validate=validate.Range(min=0)
)
LENDING_REMINDER_AGAIN_DAYS = env.int(
    "DJANGO_LENDING_REMINDER_AGAIN_DAYS", 7, validate=validate.Range(min=1)
)
# How long a member's personal link (their own page) works: our choice, 30 days.
LENDING_MEMBER_LINK_DAYS = env.int(
    "DJANGO_LENDING_MEMBER_LINK_DAYS", 30, validate=validate.Range(min=1)
)
# The library's name in e-mails (empty: "Ludothèque" in the member's language), and the
# site's address the links in e-mails start with.
LIBRARY_NAME = env.str("DJANGO_LIBRARY_NAME", "").strip()
SITE_URL = env.str("DJANGO_SITE_URL", "http://localhost:8000").strip().rstrip("/")

# E-mail: printed to the console unless an SMTP server is named (DJANGO_EMAIL_HOST).
EMAIL_HOST = env.str("DJANGO_EMAIL_HOST", "").strip()
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env.int("DJANGO_EMAIL_PORT", 587, validate=validate.Range(min=1, max=65535))
    EMAIL_HOST_USER = env.str("DJANGO_EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = env.str("DJANGO_EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env.bool("DJANGO_EMAIL_USE_TLS", True)
    EMAIL_USE_SSL = env.bool("DJANGO_EMAIL_USE_SSL", False)
    EMAIL_TIMEOUT = env.int("DJANGO_EMAIL_TIMEOUT", 20, validate=validate.Range(min=1))
else:
    EMAIL_BACKEND = env.str(
        "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
    )
DEFAULT_FROM_EMAIL = env.str("DJANGO_DEFAULT_FROM_EMAIL", "ludotheque@localhost")

# Money at the desk, in the site's currency (an ISO code, shown beside each amount).
LENDING_CURRENCY = env.str("DJANGO_LENDING_CURRENCY", "EUR")
# The membership fee charged when a membership is recorded or renewed (0: none charged).
# Our choice, to be set by each ludothèque: French ludothèques ask a household some 10 to
# 40 € a year; 20 sits in the middle.
LENDING_MEMBERSHIP_FEE = env.decimal(
    "DJANGO_LENDING_MEMBERSHIP_FEE", Decimal("20.00"), validate=validate.Range(min=0, max=9999)
)
# The bond charged for a piece missing at a return, refunded when it is found: MiBase (an
# Australian toy library system) charges 2 dollars; ours is 2 in the site's currency.
LENDING_MISSING_PIECE_BOND = env.decimal(
    "DJANGO_LENDING_MISSING_PIECE_BOND", Decimal("2.00"), validate=validate.Range(min=0, max=9999)
)
# A late fee per week begun late, charged at the return. Libraries that charge one ask
# 0.50 to 1 € a week; many charge none, and so do we by default (0: off).
LENDING_LATE_FEE_PER_WEEK = env.decimal(
    "DJANGO_LENDING_LATE_FEE_PER_WEEK", Decimal("0.00"), validate=validate.Range(min=0, max=9999)
)
# Past loans and ended memberships are anonymised this many days after the return or the
# membership's end (manage.py anonymise_loans, from cron). Our choice: two years, long
# enough to settle a missing piece or a cashed deposit and to answer a household's question
# about last season, short enough to keep no more than the lending needs.
LENDING_RETENTION_DAYS = env.int(
    "DJANGO_LENDING_RETENTION_DAYS", 730, validate=validate.Range(min=30)
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
