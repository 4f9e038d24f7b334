#!/bin/sh
# pulka-entrypoint web|worker|beat|manage ARGS…
set -eu
role="${1:-web}"
[ "$#" -gt 0 ] && shift
case "$role" in
  web)
    # the owner migrates (MIGRATE_DATABASE_URL), the application's role serves (docker/db-roles.sh)
    DATABASE_URL="${MIGRATE_DATABASE_URL:-$DATABASE_URL}" python manage.py migrate --noinput
    exec gunicorn tournaments.wsgi:application --bind 0.0.0.0:8000 \
         --workers "${GUNICORN_WORKERS:-3}" --timeout "${GUNICORN_TIMEOUT:-60}" --access-logfile - "$@"
    ;;
  worker)
    exec celery -A tournaments worker --loglevel "${LOG_LEVEL:-INFO}" \
         --concurrency "${CELERY_CONCURRENCY:-2}" "$@"
    ;;
  beat)
    exec celery -A tournaments beat --loglevel "${LOG_LEVEL:-INFO}" \
         --schedule /var/lib/pulka/celerybeat-schedule "$@"
    ;;
  manage)
    exec python manage.py "$@"
    ;;
  *)
    exec "$role" "$@"
    ;;
esac
