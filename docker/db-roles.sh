#!/bin/sh
# The production role layout of the database (issue 38, docs/deployment.md "Database roles"):
# the owner role (POSTGRES_USER, "pulka" in compose.yaml) owns every table and runs the
# migrations; the application's role (APP_ROLE, default "pulka_app") reads and writes the rows
# but does not own any table, so it cannot drop or disable the audit log's triggers, and on the
# audit log it may only read and append (no UPDATE, DELETE or TRUNCATE).
#
#   docker compose -f docker/compose.yaml cp docker/db-roles.sh db:/db-roles.sh
#   docker compose -f docker/compose.yaml exec -e APP_PASSWORD=… db sh /db-roles.sh
#
# Run it once after the first migration, and again after any upgrade (it is idempotent). Then
# give web, worker and beat DATABASE_URL=postgres://pulka_app:…@db:5432/pulka and the web
# container MIGRATE_DATABASE_URL with the owner (docker/entrypoint.sh migrates with it).
set -eu
APP_ROLE="${APP_ROLE:-pulka_app}"
: "${APP_PASSWORD:?set APP_PASSWORD for the application's role}"
OWNER="${POSTGRES_USER:-pulka}"
DB="${POSTGRES_DB:-pulka}"
psql -v ON_ERROR_STOP=1 -U "$OWNER" -d "$DB" \
     -v app_role="$APP_ROLE" -v app_password="$APP_PASSWORD" -v owner="$OWNER" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN PASSWORD %L NOSUPERUSER NOCREATEDB NOCREATEROLE',
              :'app_role', :'app_password')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'app_role') \gexec
SELECT format('ALTER ROLE %I PASSWORD %L', :'app_role', :'app_password') \gexec
GRANT CONNECT ON DATABASE :"DBNAME" TO :"app_role";
GRANT USAGE ON SCHEMA public TO :"app_role";
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app_role";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO :"app_role";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app_role";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
    GRANT USAGE, SELECT ON SEQUENCES TO :"app_role";
-- the audit logs (an event's, an organisation's): read and append only
REVOKE UPDATE, DELETE, TRUNCATE ON tournaments_auditlogentry FROM :"app_role";
REVOKE UPDATE, DELETE, TRUNCATE ON tournaments_organisationlogentry FROM :"app_role";
SQL
echo "role $APP_ROLE: rows read and written, no table owned, the audit log append-only"
