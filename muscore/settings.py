"""muscore settings: one file, read from the environment.

Every value that differs between a laptop, CI and production comes from an
environment variable, read through the small helpers below which fail loudly
on a value they cannot understand (as in healthchecks' hc/settings.py).
"""

from __future__ import annotations

import os
import re
import tempfile
import warnings
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# The generic classes mypy checks (ModelAdmin[Club]...) must be subscriptable at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    value = os.environ.get(name, default).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ValueError(f"{name} must be true or false, not {value!r}")


def envint(name: str, default: str) -> int:
    value = os.environ.get(name, default)
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {value!r}") from None


def envfloat(name: str, default: str) -> float:
    value = os.environ.get(name, default)
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {value!r}") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = envbool("DEBUG", "false")
# The production switch: the site is served over HTTPS, so cookies are secure, plain
# http is redirected and browsers are told (HSTS) to come back over HTTPS only. Off by
# default because the local run and the tests speak plain http on 127.0.0.1.
HTTPS = envbool("MUSCORE_HTTPS", "false") and not DEBUG

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if HTTPS or envbool("MUSCORE_REQUIRE_SECRET_KEY", "false"):
        raise ImproperlyConfigured("SECRET_KEY must be set (a long random string) in production")
    # A fixed key is fine for a laptop and for tests. Its django-insecure- prefix makes
    # `check --deploy` complain if it ever reaches production.
    SECRET_KEY = "django-insecure-muscore-development-key-set-SECRET_KEY-in-production"

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "django_htmx",
    "django_ratelimit",
    "template_partials",
    # The background work as tasks in the same database (muscore.leagues.tasks).
    "django_tasks",
    "django_tasks_db",
    "muscore.tables",
    "muscore.api",
    "muscore.disputes",
    "muscore.clubs",
    "muscore.leagues",
    "muscore.championships",
    "muscore.live",
]

MIDDLEWARE = [
    # A HEAD's answer without its body, as every middleware below left it (muscore.middleware).
    "muscore.middleware.HeadMiddleware",
    # Every response, a 304 included, carries its X-Request-ID (muscore.logs).
    "muscore.middleware.RequestIdMiddleware",
    # Every answer counted and timed for /metrics (muscore.metrics), the 304s below included.
    "muscore.metrics.MetricsMiddleware",
    # The API's answers say which release gave them (X-Muscore-Version, muscore.version).
    "muscore.version.VersionHeaderMiddleware",
    # First after it on purpose: an unchanged board poll is answered 304 before anything else runs.
    "muscore.tables.middleware.NotModifiedMiddleware",
    # HTML compressed (a leaders page: 21 KB to about 3 KB); inside the 304 above, which has
    # no body, and outside everything below that writes one. BREACH: see the class.
    "muscore.middleware.PageGZipMiddleware",
    # An ETag from the body of every GET's 200 that has none of its own, and the 304 to a
    # client holding it; inside the compression, so the tag is the body's, not the
    # gzipped bytes' (random padding against BREACH).
    "muscore.middleware.ConditionalGetMiddleware",
    "muscore.middleware.EditLinkNoIndexMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Club organisers log in (muscore.clubs); a table's edit link needs no account.
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: its address's prefix, else the visitor's (muscore.addresses).
    "muscore.addresses.LocaleMiddleware",
    # An old knockout game's address (a competition of its own before championships 0011)
    # sent on to the game now, in the address's language (muscore.championships.old_games).
    "muscore.championships.old_games.OldGameMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "muscore.middleware.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "muscore.urls"
WSGI_APPLICATION = "muscore.wsgi.application"

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
                "muscore.live.context.stream",
                # The running release, in the admin's footer (templates/admin/base_site.html).
                "muscore.version.context",
            ],
            # Formats Django's settings do not name, per language (percent, day_time).
            "builtins": ["muscore.formats.tags"],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / os.environ.get('SQLITE_FILE', 'db.sqlite3')}",
        conn_max_age=envint("CONN_MAX_AGE", "0"),
        # A kept connection is checked before a request reuses it: after a PostgreSQL
        # restart the request opens a new one instead of failing on the dead one (issue 40).
        conn_health_checks=True,
    )
}
if DATABASES["default"].get("ENGINE") == "django.db.backends.sqlite3":
    # Two phones saving at once: a writer waits for the lock (muscore.tables.services takes it
    # first thing in each write) instead of failing at once.
    sqlite_options = DATABASES["default"].setdefault("OPTIONS", {})
    sqlite_options.setdefault("timeout", 20)
    # Every transaction takes the write lock when it begins, so a writer that read first
    # never fails at once with "database is locked" (it waits, as above); WAL: reads go on
    # during a write instead of waiting for it; synchronous=NORMAL, safe with WAL (a killed
    # process loses nothing): a commit does not wait for the disk, so a write holds the
    # lock for its own work only (issue 10).
    sqlite_options.setdefault("transaction_mode", "IMMEDIATE")
    sqlite_options.setdefault("init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
    # Tests on a file, not in memory: the live server's threads then get a connection each, as
    # gunicorn's workers do, instead of sharing one (which breaks the concurrency tests).
    # One file per test process, so two test runs in one checkout never share a database.
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME",
        os.environ.get("SQLITE_TEST_FILE")
        or str(Path(tempfile.gettempdir()) / f"muscore-test-{os.getpid()}.sqlite3"),
    )
# The cache holds what requests share: replayed table states (keyed by table and revision),
# rate-limit counters (django-ratelimit), idempotent answers. One server: each process's
# own memory, bounded, is enough. Several servers (or workers that must agree on a rate
# limit): CACHE_URL=redis://host:6379/0 through Django's own Redis backend, one Redis for all.
CACHE_URL = os.environ.get("CACHE_URL", "").strip()
# How long the cache and the live bus wait for Redis (seconds): it answers in a millisecond,
# and one that hangs costs each process this once, then is left alone until it answers
# again (muscore/circuit.py).
REDIS_TIMEOUT = envfloat("REDIS_TIMEOUT", "0.25")
CACHE_SCHEMES = ("redis://", "rediss://", "unix://")
if CACHE_URL.startswith(CACHE_SCHEMES):
    CACHES = {
        "default": {
            # Django's RedisCache, failing open: a Redis that is down costs speed, never a
            # page (muscore/cache.py).
            "BACKEND": "muscore.cache.ResilientRedisCache",
            "LOCATION": CACHE_URL,
            # Several sites on one Redis keep apart by prefix.
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "muscore"),
            # A Redis that does not answer costs one short wait, not TCP's pace.
            "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT},
        }
    }
elif CACHE_URL in ("", "locmem://"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "muscore",
            # Bounded: a third of the entries go when it is full (CULL_FREQUENCY 3).
            "OPTIONS": {"MAX_ENTRIES": envint("CACHE_MAX_ENTRIES", "300")},
        }
    }
else:
    raise ImproperlyConfigured(
        f"CACHE_URL must be redis://host:port/db, rediss://..., unix://... or locmem://, "
        f"not {CACHE_URL!r}"
    )

# Abuse limits (muscore/ratelimits.py, django-ratelimit): per client address and group, one
# or more rates "count/period" (s, m, h, d; "20/10m" is 20 every 10 minutes), comma-separated;
# "off" for none. Generous: a club on one wifi shares one address. MUSCORE_RATELIMIT=false
# turns all of them off.
RATE_PATTERN = re.compile(r"[1-9][0-9]*/(?:[1-9][0-9]*)?[smhd]")


def envrates(name: str, default: str) -> list[str]:
    value = os.environ.get(name, default).strip().lower()
    if value in ("off", "none", "0"):
        return []
    rates = [rate.strip() for rate in value.split(",") if rate.strip()]
    for rate in rates:
        if not RATE_PATTERN.fullmatch(rate):
            raise ValueError(f"{name} must be rates such as 30/m,300/h or off, not {value!r}")
    return rates


RATELIMIT_ENABLE = envbool("MUSCORE_RATELIMIT", "true")
RATELIMIT_USE_CACHE = "default"
# A cache that does not answer turns the limits off (logged by muscore.cache) rather than
# refusing every request: a club's evening matters more than an abuse limit.
RATELIMIT_FAIL_OPEN = True
RATELIMIT_IP_META_KEY = "muscore.ratelimits.client_address"
MUSCORE_RATE_LIMITS = {
    # New tables: from the home page, /nueva and POST /api/v1/tables.
    "create": envrates("MUSCORE_RATE_CREATE", "30/m,300/h"),
    # Imports (/importar, POST /api/v1/tables/import): each may hold a whole long night.
    "import": envrates("MUSCORE_RATE_IMPORT", "10/m,60/h"),
    # Every write to a table (each tap of the hand entry is one): 10 a second for a club.
    "write": envrates("MUSCORE_RATE_WRITE", "600/m,10000/h"),
    # Organisers' password tries (muscore.clubs: login, new-password links, /admin/login/),
    # per address and per account tried from that address: no guessing.
    "login": envrates("MUSCORE_RATE_LOGIN", "10/m,60/h"),
    # An account's tries from every address together, but a browser that logged into it
    # before: a short window, so that a flood keeps a new address out for minutes and the
    # organiser's own phone never (muscore.ratelimits.login_wait).
    "login_account": envrates("MUSCORE_RATE_LOGIN_ACCOUNT", "20/10m"),
    # New accounts and clubs, invitations and new-password links, per address and per
    # organiser: a club is made once, not sixty times in twenty seconds.
    "account": envrates("MUSCORE_RATE_ACCOUNT", "5/m,20/h"),
    # Reads that cost seconds when their cache is cold: a league's export and CSV files, the
    # cards. A club shares one address, and a phone asks a card again only when it changed.
    "export": envrates("MUSCORE_RATE_EXPORT", "60/m,600/h"),
    # New accounts (a club made with its account, a password chosen through an invitation
    # or a new-password link) for the whole site, whatever the address: each is a password
    # hash, and a storm of them from many addresses slowed every other write (issue 28).
    "signup": envrates("MUSCORE_RATE_SIGNUP", "20/m,300/h"),
    # A championship's public entry form, per address: a bar's wifi enters its own pairs
    # (a few a minute at most), never a thousand in 24 seconds.
    "entry": envrates("MUSCORE_RATE_ENTRY", "10/10m,30/d"),
    # The same form for one championship, whatever the address: the ceiling of a form
    # posted on social media (the largest championship took 3,582 entries over weeks).
    # Ten minutes at most: a flood shuts the form for minutes, never for the day (the
    # venue's organiser enters his pairs past it).
    "entry_championship": envrates("MUSCORE_RATE_ENTRY_CHAMPIONSHIP", "60/10m"),
}
if str(CACHES["default"]["BACKEND"]).endswith("LocMemCache"):
    # django-ratelimit refuses a cache that is not shared. Local memory counts atomically
    # within one process; with several gunicorn workers each counts alone (so a limit is
    # up to workers x the rate): CACHE_URL with a Redis makes one count for all.
    # (W001 says the same: it is not on the library's list of shared caches.)
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]
else:
    # Django's own RedisCache (muscore.cache's is a subclass) is not on django-ratelimit's
    # list (only django-redis is), but it counts with Redis's INCR: shared and atomic, which
    # is all the library needs.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The background work (imports, ratings, documents) as tasks of Django's tasks API, kept in
# the same database (django-tasks-db) and run by `manage.py rating_worker` (any number of
# them, on any number of machines: muscore.leagues.tasks).
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["ratings", "documents", "imports"],
    }
}

# A league table's result is the table's while the players are seated, then the organiser's:
# an undo or a corrected hand at the table changes the result it stored for this many
# minutes (and only until anything is drawn or played from it), after that only an
# organiser changes it, with a reason (docs/league.md, "Who changes a result").
MUSCORE_TABLE_CORRECTION_MINUTES = envint("MUSCORE_TABLE_CORRECTION_MINUTES", "15")
if MUSCORE_TABLE_CORRECTION_MINUTES < 0:
    raise ValueError("MUSCORE_TABLE_CORRECTION_MINUTES must be 0 or more minutes")

# Club organisers' accounts (muscore.clubs): there is no email, so a forgotten password is
# reset by the organiser who invited them, with a link valid for PASSWORD_RESET_TIMEOUT.
LOGIN_URL = "clubs:login"
LOGIN_REDIRECT_URL = "clubs:index"
LOGOUT_REDIRECT_URL = "clubs:index"
PASSWORD_RESET_TIMEOUT = envint("PASSWORD_RESET_TIMEOUT", str(3 * 24 * 3600))
# Every password form (a new club's account, a new-password link, the admin) asks these:
# an organiser's account changes a federation's results, "a" is no password for it.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "es"
LANGUAGES = [("es", "Español"), ("en", "English"), ("eu", "Euskara"), ("fr", "Français")]
# English dates day before month (muscore/formats/en): Django's en is the US way.
FORMAT_MODULE_PATH = ["muscore.formats"]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Madrid")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / os.environ.get("STATIC_ROOT", "staticfiles")
# Production runs `collectstatic` and sets STATIC_MANIFEST=true: whitenoise then serves
# compressed files with content hashes in their names, cached by browsers for a year.
# Without it (local run, tests) whitenoise serves straight from static/ via the finders,
# so nothing needs collecting and runserver serves CSS even with DEBUG off.
STATIC_MANIFEST = envbool("STATIC_MANIFEST", "false")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
if WHITENOISE_USE_FINDERS:
    # STATIC_ROOT exists only after collectstatic, which this mode does not need.
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
WHITENOISE_AUTOREFRESH = DEBUG
# Files without a hash in their name (only in the finders mode) may change any time.
WHITENOISE_MAX_AGE = 0 if DEBUG else envint("WHITENOISE_MAX_AGE", "60")

# Security headers (SecurityMiddleware). Those that only make sense over HTTPS follow
# MUSCORE_HTTPS; each can still be set on its own, e.g. SECURE_HSTS_SECONDS=300 while
# trying HTTPS out, or SECURE_HSTS_PRELOAD=false for a domain not meant for the list.
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", str(HTTPS))
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "31536000" if HTTPS else "0")
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", str(HTTPS))
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", str(HTTPS))
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Behind a proxy (nginx, a PaaS router) that ends TLS and says so in X-Forwarded-Proto.
# Only set it when that proxy always sets or strips the header, or anyone could claim https.
MUSCORE_BEHIND_PROXY = envbool("MUSCORE_BEHIND_PROXY", "false")
if MUSCORE_BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Live screens by push (muscore.live, issue 32; docs/operations.md). The pages name the
# stream's path when MUSCORE_LIVE_STREAM is set: muscore.asgi (uvicorn) sets it to /events/
# for the pages it serves itself; behind nginx, set it on the gunicorn servers too when
# nginx sends /events/ to uvicorn. Empty: no stream, the pages poll as before.
LIVE_STREAM_URL = os.environ.get("MUSCORE_LIVE_STREAM", "").strip()
LIVE_STREAM_PATH = "/events/"
# The bus between servers: Redis pub/sub (muscore.bus), by default the cache's Redis.
LIVE_REDIS_URL = os.environ.get(
    "LIVE_REDIS_URL", CACHE_URL if CACHE_URL.startswith(CACHE_SCHEMES) else "").strip()
LIVE_CHANNEL_PREFIX = os.environ.get("CACHE_KEY_PREFIX", "muscore")
# Streams one server process takes in all, and from one address (a club's wifi is one).
LIVE_MAX_CONNECTIONS = envint("LIVE_MAX_CONNECTIONS", "20000")
LIVE_MAX_PER_ADDRESS = envint("LIVE_MAX_PER_ADDRESS", "2000")
# ...on one topic (a table's screens, a TV's, a championship's pages): a table's phones share
# one address at a club; past it the page polls. And the versions of one topic's pages a
# server draws (a championship's regions and pages, by language): each costs a drawing on
# every change.
LIVE_MAX_PER_ADDRESS_TOPIC = envint("LIVE_MAX_PER_ADDRESS_TOPIC", "50")
LIVE_MAX_SCREENS_PER_TOPIC = envint("LIVE_MAX_SCREENS_PER_TOPIC", "64")
# A comment this often on an idle stream: proxies close a silent connection (nginx: 60 s).
LIVE_HEARTBEAT_SECONDS = envint("LIVE_HEARTBEAT_SECONDS", "20")
# How soon a phone tries again after a dropped stream (the EventSource's retry).
LIVE_RETRY_MS = envint("LIVE_RETRY_MS", "2000")
# The stream server reads the watched revisions this often without Redis (or with Redis
# down), and every LIVE_SAFETY_SECONDS with it (a publish lost in between: one IN query of
# the watched ids, a few milliseconds for 2,500 tables).
LIVE_CHECK_SECONDS = envfloat("LIVE_CHECK_SECONDS", "0.5")
LIVE_SAFETY_SECONDS = envfloat("LIVE_SAFETY_SECONDS", "2")
# Threads that draw changed screens, and threads that serve the pages under muscore.asgi.
LIVE_RENDER_THREADS = envint("LIVE_RENDER_THREADS", "4")
LIVE_PAGE_THREADS = envint("LIVE_PAGE_THREADS", "8")

# muscore.middleware.ContentSecurityPolicyMiddleware: no outside origin, no inline
# script or style. Templates keep scripts and styles in static files; htmx is told not
# to inject its indicator <style> (base.html's htmx-config meta tag).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",
        "style-src 'self'",
        "script-src 'self'",
        "connect-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

# --- logging -----------------------------------------------------------------------------------
# Everything goes to standard error, which gunicorn (or runserver) writes to its log: errors
# with their tracebacks (Django's default would mail them to ADMINS, and there are none),
# 4xx warnings, and the runserver's request lines. Each line carries the request id
# (muscore.middleware.RequestIdMiddleware) and never an edit key (muscore.logs).
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").strip().upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    raise ValueError(
        f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {LOG_LEVEL!r}"
    )
# One line format for every line (the app's, the workers', uvicorn's and gunicorn's,
# muscore.logs): text (the default) or JSON, every time in UTC with its offset.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
if LOG_FORMAT not in ("text", "json"):
    raise ValueError(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "muscore.logs.RequestIdFilter"}},
    "formatters": {
        "muscore": {
            "()": "muscore.logs.JsonFormatter" if LOG_FORMAT == "json"
            else "muscore.logs.TextFormatter",
        },
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "filters": ["request_id"],
            "formatter": "muscore",
        },
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    # No handlers of their own (this replaces Django's console and mail_admins ones):
    # they reach the root's, and pytest's log capture too.
    "loggers": {
        "django": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        "django.server": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        "muscore": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        # The stream server's (uvicorn configures its own handlers before it imports the
        # app, in a format without a time): written like every other line.
        "uvicorn": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        "uvicorn.error": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        "uvicorn.access": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
    },
}
