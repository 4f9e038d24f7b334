"""Settings read from the environment (docs/configuration.md).

With nothing set, Pulka runs on embedded defaults: a SQLite file under ``var/``, Celery in eager
mode, DEBUG off, a secret key generated once into ``var/secret_key``. Setting ``DATABASE_URL``
and ``CELERY_BROKER_URL`` (or ``REDIS_URL``) switches to PostgreSQL and a Redis-backed worker.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(environ.Env().str("PULKA_VAR_DIR", default=str(BASE_DIR / "var")))

env = environ.Env()


#: the placeholders of docker/.env.example: a site started with one would sign its sessions
#: with a key anybody can read (issue 38)
PLACEHOLDER_SECRET_KEYS = {"change-me-to-a-long-random-string", "change-me"}


def _secret_key() -> str:
    """The SECRET_KEY variable, or a random key kept in var/ (never a literal in the code); the
    placeholder of ``docker/.env.example`` is refused."""
    if key := env.str("SECRET_KEY", default=""):
        if key.strip() in PLACEHOLDER_SECRET_KEYS:
            raise ImproperlyConfigured(
                "SECRET_KEY is the placeholder of docker/.env.example: set a long random "
                "string (python -c 'import secrets; print(secrets.token_urlsafe(50))')"
            )
        return key
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # the widgets' templates, for FORM_RENDERER below
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "tournaments.middleware.RequestBodyLimitMiddleware",
    "tournaments.middleware.ContentSecurityPolicyMiddleware",
    "tournaments.middleware.UntrustedProxyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "tournaments.middleware.NulCharacterMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "tournaments.middleware.LockoutMiddleware",
    "tournaments.jobs.outbox.JobsSweepMiddleware",
]

ROOT_URLCONF = "tournaments.urls"

# Request bodies: at most MAX_REQUEST_BODY bytes (API JSON, forms, a CSV of players), 413 above.
MAX_REQUEST_BODY = env.int("MAX_REQUEST_BODY", default=2 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY
# Seconds a client is asked to wait (Retry-After) when the database cannot be reached.
PULKA_RETRY_AFTER_SECONDS = env.int("PULKA_RETRY_AFTER_SECONDS", default=10)
WSGI_APPLICATION = "tournaments.wsgi.application"
ASGI_APPLICATION = "tournaments.asgi.application"

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

# Every form is laid out alike: label above the input, errors beside it (tournaments/forms/).
FORM_RENDERER = "tournaments.forms.rendering.PulkaFormRenderer"

# Database: DATABASE_URL (postgres://user:pass@host:5432/name), default a SQLite file.
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'pulka.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=0))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="en")
LANGUAGES = [
    ("en", "English"),
    ("ru", "Русский"),
    ("hr", "Hrvatski"),
    ("sr-latn", "Srpski (latinica)"),
    ("de", "Deutsch"),
    ("sv", "Svenska"),
]
LOCALE_PATHS = [BASE_DIR / "tournaments" / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(VAR_DIR / "static")))
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(VAR_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Celery: CELERY_BROKER_URL, else REDIS_URL, else eager mode (no services needed).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or env.str("REDIS_URL", default="")
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or CELERY_BROKER_URL or None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = (
    True  # a task is acknowledged after it ran: a crashed worker's job is redone
)
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # with acks_late, take one job at a time
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=300)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=360)
CELERY_TASK_TRACK_STARTED = True
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# Redis holds an unacknowledged job this long before handing it to another worker: longer
# than a job may run (its hard limit), so a slow job is never run twice at once, and short
# enough that a job of a worker that died comes back within minutes, not the default hour.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 60,
    "socket_connect_timeout": 3,
}
# Results (a draw's progress) are a convenience: when Redis is down, give up within about a
# second instead of Celery's 20 retries a second apart (which held a web request for 20 s);
# the jobs' state is on their rows (services/jobs.py), and jobs that need no result store none.
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 3,
    "retry_policy": {
        "max_retries": 2,
        "interval_start": 0,
        "interval_step": 0.5,
        "interval_max": 1,
    },
}
# Jobs nothing can lose (services/jobs.py): the sweep sends the jobs written while the broker
# was down, sends again what it lost, and ends jobs whose worker stopped renewing their lease.
PULKA_JOBS_SWEEP_EVERY = env.float("PULKA_JOBS_SWEEP_EVERY", default=15.0)
PULKA_JOB_HEARTBEAT = env.float("PULKA_JOB_HEARTBEAT", default=10.0)
PULKA_JOB_LEASE = env.float("PULKA_JOB_LEASE", default=60.0)
PULKA_JOB_RESEND_AFTER = env.float("PULKA_JOB_RESEND_AFTER", default=120.0)
# A web process sweeps at most this often when jobs wait to be sent (no beat running); 0: never.
PULKA_JOBS_SWEEP_ON_REQUEST = env.float("PULKA_JOBS_SWEEP_ON_REQUEST", default=60.0)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "jobs-sweep": {
        "task": "tournaments.jobs_sweep",
        "schedule": PULKA_JOBS_SWEEP_EVERY,
        # a sweep that waited out a broker outage is replaced by the next one
        "options": {"expires": PULKA_JOBS_SWEEP_EVERY},
    },
}
# The queue of the standings and PDF jobs (None: Celery's default queue).
PULKA_JOBS_QUEUE = env.str("PULKA_JOBS_QUEUE", default="") or None
# The site's public address, used in the QR codes of blank protocols (else the request's).
PULKA_BASE_URL = env.str("PULKA_BASE_URL", default="")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "tournaments.api.authentication.LockoutTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # DRF's three, with the JSON reader that refuses nesting its decoder cannot take (a 400).
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api.parsers.NestingJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "tournaments.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Pulka API",
    "DESCRIPTION": "Preference tournaments: events, rounds, tables, protocols, standings.",
    "VERSION": "1",
    # Separate request and response components, so that a field the server always returns
    # (one with a model default) is required in the response schema.
    "COMPONENT_SPLIT_REQUEST": True,
    # The reference page's script from our own static files (drf-spectacular-sidecar), not a
    # CDN: a club hall often has no internet (issue 29).
    "REDOC_DIST": "SIDECAR",
}

# Behind HTTPS (SECURE_COOKIES): secure cookies, HTTP redirected to HTTPS (except /healthz, which
# the container's health check asks over plain HTTP) and HSTS, so that `manage.py check --deploy`
# is clean (tests/test_deploy.py).
SECURE_COOKIES = env.bool("SECURE_COOKIES", default=False) and not DEBUG
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE_COOKIES
SECURE_SSL_REDIRECT = SECURE_COOKIES
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if SECURE_COOKIES else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
# Content-Security-Policy of every answer (tournaments/middleware.py, issue 38): the pages need
# no third-party origin (fonts, scripts and the API reference's Redoc are Pulka's own static
# files); inline style attributes stay allowed, inline scripts do not; Redoc runs a blob worker.
CONTENT_SECURITY_POLICY = env.str(
    "CONTENT_SECURITY_POLICY",
    default="default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self' data:; worker-src 'self' blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'",
)
# Reverse proxies in front of Pulka whose X-Forwarded-For / X-Forwarded-Proto are believed: the
# caller's address for the lockouts (tournaments/access/lockout.py) and whether the request was HTTPS.
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# The cache: CACHE_URL (redis://host:6379/2), else REDIS_URL, else in the process's memory. The
# lockouts count failures here, so several web processes need a shared (Redis) cache.
CACHES = {
    "default": env.cache_url(
        "CACHE_URL", default=env.str("REDIS_URL", default="") or "locmemcache://"
    )
}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHES["default"]["BACKEND"] = "tournaments.web_cache.backend.RedisCache"  # one client per pool
    # A Redis out of reach costs milliseconds, not seconds (issue 38): a short connect and read
    # timeout, and for CACHE_RETRY_SECONDS after a failure Redis is not tried at all; meanwhile
    # the cache answers as an empty one (tournaments/web_cache/backend.py).
    CACHES["default"].setdefault("OPTIONS", {}).update(
        {
            "socket_connect_timeout": env.float("CACHE_CONNECT_TIMEOUT", default=0.25),
            "socket_timeout": env.float("CACHE_SOCKET_TIMEOUT", default=1.0),
            "RETRY_SECONDS": env.float("CACHE_RETRY_SECONDS", default=5.0),
        }
    )
# Sessions live in the database (Django's default engine, named here so that nobody moves them
# to the cache): a Redis outage logs nobody out and keeps every login working (issue 38).
SESSION_ENGINE = "django.contrib.sessions.backends.db"
# Public pages served to anonymous viewers from the cache, without the database
# (tournaments/web_cache/versions.py, views/caching.py): every process that changes or serves pages must
# share the cache, so the default is on unless the cache is the process's memory (the embedded
# demo, one process, switches it on in .ci/demo).
PULKA_PAGE_CACHE = env.bool(
    "PULKA_PAGE_CACHE",
    default=not any(k in CACHES["default"]["BACKEND"].lower() for k in ("locmem", "dummy")),
)
# The pages a hall opens first rendered ahead after the standings or a round's publication
# changed (tournaments/web_cache/warm.py; only with PULKA_PAGE_CACHE), in these languages (codes,
# comma-separated; default: every language the site offers). Off by default in the embedded
# eager mode: with no worker the job would run inside the request that changed something.
PULKA_PAGE_WARM = env.bool("PULKA_PAGE_WARM", default=not CELERY_TASK_ALWAYS_EAGER)
PULKA_PAGE_WARM_LANGUAGES = env.list("PULKA_PAGE_WARM_LANGUAGES", default=[])
# Bytes of stored public pages each process keeps a copy of (views/caching.py; 0: none): served
# only under the versions read from the cache, they spare copying large pages out of Redis.
PULKA_PAGE_KEPT_BYTES = env.int("PULKA_PAGE_KEPT_BYTES", default=32 * 1024 * 1024)
# Failed logins and key guesses: locked this many seconds at the limit (tournaments/access/lockout.py).
LOCKOUT_SECONDS = env.int("LOCKOUT_SECONDS", default=900)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
