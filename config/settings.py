"""Settings from environment variables, with embedded defaults that run on a bare machine:
SQLite in ./var and Celery tasks executed in process.

DATABASE_URL        e.g. postgres://postgres@127.0.0.1:5432/arena   (default: sqlite:///var/arena.sqlite3)
CELERY_BROKER_URL   e.g. redis://127.0.0.1:6379/0                   (default: none -> tasks run in process)
CACHE_URL           e.g. redis://127.0.0.1:6379/1  (default: none -> a per-process memory cache);
                    the throttles count in it, so every deployment with more than one server
                    process sets it (check --deploy warns otherwise)
DB_CONN_MAX_AGE     seconds a connection is kept (default 0 with DEBUG on, 60 with it off)
SECRET_KEY, DEBUG, ALLOWED_HOSTS, REPLAY_SNAPSHOT_EVERY
SIGNING_KEY_DIR     the private keys that sign match ends (default: var/signing-keys)
ARENA_PLAIN_HTTP    1: with DEBUG off, serve plain http (a local run behind no proxy; see the end)
DEBUG is on by default for local development (the demo, runserver, manage.py); a server started
by gunicorn (config/wsgi.py, deploy/gunicorn.conf.py) has it off unless DEBUG=1 is set, and every
deployment sets DEBUG=0 for its workers too (docker-compose.yml, the README's path without
Docker); then the production settings at the end apply.
"""
import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("ARENA_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = os.environ.get("DEBUG", "1") == "1"
SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-change-me" if DEBUG else "")
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files served by the project, pinned: no CDN
    "replays",
    "bots",
    "tournaments",
    "ladder",
    "api",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files (the viewer, the admin, Swagger UI) from the application server, DEBUG or not:
    # compressed, with far-future cache headers for the hashed names collectstatic writes.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Innermost: a read that is the same bytes for everyone (a finished match's, standings,
    # brackets, leaderboards) that a view answered before is answered again from memory
    # (api/caching.py, docs/caching.md), with every middleware above still around it.
    "api.caching.FinishedReadsMiddleware",
]

ROOT_URLCONF = "config.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]
WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'arena.sqlite3'}",
        # Persistent connections in production: one per server thread, so the number of
        # connections is bounded by the server's workers x threads (docker-compose: 4 x 4), never
        # by the number of clients; checked before reuse after a database restart.
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0" if DEBUG else "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads (the dev server, in-process tasks) share the file; wait instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
else:
    # The event append (replays/services.py) runs one statement per event on a server-binding
    # cursor, prepared once per connection (threshold 0: at its first use). Django's own cursors
    # bind on the client and never prepare, so nothing else changes. Behind a transaction-mode
    # pooler (PgBouncer), enable its max_prepared_statements.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
if not DEBUG:  # hashed, compressed copies made by collectstatic (the Dockerfile runs it)
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

# --- Cache -----------------------------------------------------------------------------------
# The throttles count requests in the cache: it must be shared by every server process, or each
# process would allow the whole rate on its own. Redis when CACHE_URL names it; a process's memory
# only on the embedded defaults (one process: the demo, the tests). Give the cache a Redis
# database of its own, not the broker's: clearing a Django cache empties its whole database.
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL:
    # Django's Redis backend, its client made once per connection pool (config/cache.py)
    CACHES = {"default": {"BACKEND": "config.cache.RedisCache",
                          "LOCATION": CACHE_URL,
                          "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "arena")}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Replays ---------------------------------------------------------------------------------
# A snapshot every K events: state_at(n) costs one decode plus fewer than K applies.
REPLAY_SNAPSHOT_EVERY = int(os.environ.get("REPLAY_SNAPSHOT_EVERY", "50"))

# --- Celery ----------------------------------------------------------------------------------
# No broker configured: run tasks in process (kombu's in-memory transport is never used for
# delivery then), so the demo works on a bare machine.
CELERY_TASK_ALWAYS_EAGER = not os.environ.get("CELERY_BROKER_URL")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or "memory://localhost/"
CELERY_RESULT_BACKEND = None
CELERY_TASK_EAGER_PROPAGATES = True
# At-least-once delivery: acknowledge after the task ran, requeue if the worker died mid-task,
# and take one message at a time so a dying worker holds no backlog. Tasks are idempotent.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "arena")
# Control tasks (sweeps, tournament advances, validations, ratings) have a queue of their own, so
# they never wait behind minute-long matches: run a worker for it (`-Q <queue>-control`,
# docker-compose's "control" service) besides the match workers (`-Q <queue>`).
CELERY_CONTROL_QUEUE = os.environ.get("CELERY_CONTROL_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-control")
CELERY_TASK_ROUTES = {"bots.play_match": {"queue": CELERY_TASK_DEFAULT_QUEUE},
                      "*": {"queue": CELERY_CONTROL_QUEUE}}
# What a match's end is announced to (bots.play_match queues each with the match id): the
# layers above the driver, named here so the driver imports none of them.
MATCH_END_TASKS = ["tournaments.tasks.match_finished", "ladder.tasks.match_ended"]
# The ladder's matches (this stage: the check match of every upload, docs/ladder.md) have a
# queue of their own, so they never take the workers tournaments need: run workers for it
# (`-Q <queue>-ladder`, docker-compose's "ladder" service) beside the match workers.
CELERY_LADDER_QUEUE = os.environ.get("CELERY_LADDER_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-ladder")
# Every new uploaded version plays a check match (ARENA_CHECK_MATCHES=0 turns that off);
# what an upload is announced to, inside the transaction that stores it (dotted paths of
# functions taking ``version=``).
ARENA_CHECK_MATCHES = os.environ.get("ARENA_CHECK_MATCHES", "1") == "1"
VERSION_UPLOADED_HOOKS = ["ladder.services.version_check_create"]
# The ladders (docs/ladder.md): matches each keeps in flight (topped up every LADDER_SECONDS by
# the beat's matchmaker), and the faulted matches in a row that take a bot off its ladder.
LADDER_MATCHES_IN_FLIGHT = int(os.environ.get("LADDER_MATCHES_IN_FLIGHT", "2"))
LADDER_MAX_FAULTS = int(os.environ.get("LADDER_MAX_FAULTS", "3"))
LADDER_SECONDS = float(os.environ.get("LADDER_SECONDS", "10"))
# Scrimmages (docs/ladder.md): games a request may ask for, and each user's limits.
SCRIMMAGE_MAX_GAMES = int(os.environ.get("SCRIMMAGE_MAX_GAMES", "20"))
SCRIMMAGE_MAX_OPEN = int(os.environ.get("SCRIMMAGE_MAX_OPEN", "3"))
SCRIMMAGE_GAMES_PER_DAY = int(os.environ.get("SCRIMMAGE_GAMES_PER_DAY", "100"))
# Sweeps: every SWEEP_SECONDS, `celery -A config beat` queues each (docker-compose: "beat").
SWEEP_SECONDS = float(os.environ.get("SWEEP_SECONDS", "10"))
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-matches": {"task": "bots.sweep_stuck_matches", "schedule": SWEEP_SECONDS},
    "sweep-tournaments": {"task": "tournaments.sweep_tournaments", "schedule": SWEEP_SECONDS},
    "sweep-validations": {"task": "replays.sweep_validations", "schedule": SWEEP_SECONDS},
    "sweep-version-checks": {"task": "ladder.sweep_version_checks", "schedule": SWEEP_SECONDS},
    "ladder-matchmake": {"task": "ladder.matchmake", "schedule": LADDER_SECONDS},
}
# An ended match with no verdict this long after its end lost its validation: queued again.
VALIDATION_GRACE_SECONDS = int(os.environ.get("VALIDATION_GRACE_SECONDS", "60"))
# manage.py archive moves the logs of matches that ended this long ago out of the event table
# into compressed archives (replays/archives.py, docs/scaling.md).
ARCHIVE_AFTER_DAYS = float(os.environ.get("ARCHIVE_AFTER_DAYS", "30"))

# --- Bots ------------------------------------------------------------------------------------
# A match driver holds a lease this long and renews it as it plays; an expired lease marks a
# match whose worker died, and the sweep queues it again.
MATCH_LEASE_SECONDS = int(os.environ.get("MATCH_LEASE_SECONDS", "30"))
# A message a worker took and never acknowledged (the worker died before its driver claimed the
# lease) goes back to its queue after the visibility timeout: the lease plus a sweep, the same
# bound as a match whose driver died. A match running longer is delivered again meanwhile, and
# that delivery finds the lease held and returns at once ("busy").
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": MATCH_LEASE_SECONDS + int(SWEEP_SECONDS),
    "unacked_restore_interval": max(1, int(SWEEP_SECONDS) // 2),
    "unacked_restore_throttle": 1,
}
# A match no driver has claimed this long after it was queued lost its message (a worker killed
# between the commit that made it and the publish after it, a broker restarted without its
# data): the sweep queues it again. A match that waits longer behind a long queue only gets a
# second message, which finds it ended or driven and returns.
MATCH_QUEUE_WAIT_SECONDS = int(os.environ.get("MATCH_QUEUE_WAIT_SECONDS", "120"))
# A match whose drivers fail this many times in a row (no sandbox, a missing built-in bot) is
# aborted with the last error as its reason, so its tournament goes on.
MATCH_DRIVE_ATTEMPTS = int(os.environ.get("MATCH_DRIVE_ATTEMPTS", "5"))
# Uploaded bot code is unpacked here (per content sha256) before it runs in the sandbox.
BOT_CODE_DIR = Path(os.environ.get("BOT_CODE_DIR", VAR_DIR / "bot-code"))
# The private keys that sign the ends of matches (replays/signing.py), one file per key, made on
# first use; their public halves are in the database. Every process that ends matches (web and
# workers) needs this directory: docker-compose.yml keeps it on a volume of its own.
SIGNING_KEY_DIR = Path(os.environ.get("SIGNING_KEY_DIR", VAR_DIR / "signing-keys"))
# Local development only: run uploaded bots without bubblewrap (never in production).
ARENA_ALLOW_UNSANDBOXED_BOTS = os.environ.get("ARENA_ALLOW_UNSANDBOXED_BOTS", "0") == "1"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # Bodies are JSON (a form cannot carry the object fields, e.g. format_settings): anything
    # else is a 415, as the schema says. The bot upload takes multipart itself. The parser
    # refuses too deeply nested documents with a 400.
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser"],
    # orjson writes the JSON (api/renderers.py: the same document, several times faster)
    "DEFAULT_RENDERER_CLASSES": ["api.renderers.FastJSONRenderer",
                                 "rest_framework.renderers.BrowsableAPIRenderer"],
    # DRF's throttles with their count made atomic (api/throttles.py): DRF's own read and rewrite
    # a client's history without a lock, and parallel requests overshoot the rate.
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttles.AnonRateThrottle",
        "api.throttles.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "600/minute"),
        "user": os.environ.get("API_THROTTLE_USER", "3000/minute"),
        # POST /api/matches/{id}/validate/ re-folds a whole log: per user, on top of "user".
        "validate": os.environ.get("API_THROTTLE_VALIDATE", "6/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Spellbound Arena API",
    "DESCRIPTION": "Games, bots, tournaments, standings, ratings and step-through replays.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # /api/docs/ works offline and never changes under us: Swagger UI from the pinned sidecar
    # package's static files, not from a CDN at @latest.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Request bodies get their own components, where DRF's input rules (no blank text) apply.
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "api.schema.add_error_responses", "api.schema.describe_tournament_bodies"],
    # Two fields are named "format" (a tournament's, a bot version's): each enum gets a name.
    "ENUM_NAME_OVERRIDES": {"TournamentFormatEnum": "api.serializers_tournaments.FORMAT_CHOICES",
                            "BotVersionFormatEnum": "bots.models.BotVersion.Format"},
}
# Request size limits: JSON bodies and form fields; bot uploads have their own limit (bots.uploads).
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DATA_UPLOAD_MAX_MEMORY_SIZE", 2_621_440))
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The site's login and logout (django.contrib.auth's views, web.site): every user, not only staff.
LOGIN_URL = "site-login"
LOGIN_REDIRECT_URL = "site-me"
LOGOUT_REDIRECT_URL = "site-home"
# Registration and token creation by password are throttled per client address.
API_THROTTLE_CREDENTIALS = os.environ.get("API_THROTTLE_CREDENTIALS", "20/hour")
# API tokens: hashed at rest, expiring.
API_TOKEN_DAYS = int(os.environ.get("API_TOKEN_DAYS", "30"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# --- Production (DEBUG off) --------------------------------------------------------------------
# HTTPS only, cookies over HTTPS only, HSTS, no sniffing, no framing: what `manage.py check
# --deploy` asks for. Each can be overridden by the environment (e.g. SECURE_SSL_REDIRECT=0 behind
# a proxy that already redirects; then set SECURE_PROXY_SSL_HEADER_NAME too).
# ARENA_PLAIN_HTTP=1 is the plain-HTTP mode of a local run behind no proxy (the README's path
# without Docker, on http://127.0.0.1:8000/): no redirect to https, cookies sent over http, no
# HSTS. Never on a server others reach: passwords and tokens would cross the network in clear.
def _env_flag(name: str, default: bool) -> bool:
    return os.environ.get(name, "1" if default else "0") == "1"


PLAIN_HTTP = _env_flag("ARENA_PLAIN_HTTP", False)
if not DEBUG:
    SECURE_SSL_REDIRECT = _env_flag("SECURE_SSL_REDIRECT", not PLAIN_HTTP)
    SESSION_COOKIE_SECURE = _env_flag("SESSION_COOKIE_SECURE", not PLAIN_HTTP)
    CSRF_COOKIE_SECURE = _env_flag("CSRF_COOKIE_SECURE", not PLAIN_HTTP)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if PLAIN_HTTP else str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", not PLAIN_HTTP)
    SECURE_HSTS_PRELOAD = _env_flag("SECURE_HSTS_PRELOAD", not PLAIN_HTTP)
    SECURE_CONTENT_TYPE_NOSNIFF = _env_flag("SECURE_CONTENT_TYPE_NOSNIFF", True)
    SECURE_REFERRER_POLICY = os.environ.get("SECURE_REFERRER_POLICY", "same-origin")
    SECURE_CROSS_ORIGIN_OPENER_POLICY = os.environ.get("SECURE_CROSS_ORIGIN_OPENER_POLICY", "same-origin")
    X_FRAME_OPTIONS = os.environ.get("X_FRAME_OPTIONS", "DENY")
    if os.environ.get("SECURE_PROXY_SSL_HEADER_NAME"):  # e.g. HTTP_X_FORWARDED_PROTO behind a proxy
        SECURE_PROXY_SSL_HEADER = (os.environ["SECURE_PROXY_SSL_HEADER_NAME"],
                                   os.environ.get("SECURE_PROXY_SSL_HEADER_VALUE", "https"))
    CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
