#!/bin/sh
# First start: a new cluster owned by `postgres` with the password from POSTGRES_PASSWORD (or the file
# POSTGRES_PASSWORD_FILE names), scram-sha-256 for every TCP client, and the databases POSTGRES_DATABASES
# lists (comma-separated). Every start: PostgreSQL in the foreground on PGPORT (its socket in /tmp: the
# root filesystem may be read-only).
set -eu
BIN=/usr/lib/postgresql/15/bin
if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then POSTGRES_PASSWORD=$(cat "$POSTGRES_PASSWORD_FILE"); fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then echo 'POSTGRES_PASSWORD (or POSTGRES_PASSWORD_FILE) is required for a new cluster' >&2; exit 1; fi
  mkdir -p "$PGDATA"
  chmod 0700 "$PGDATA"
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  "$BIN/initdb" -D "$PGDATA" -U postgres --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  printf "listen_addresses = '*'\nport = %s\nunix_socket_directories = '/tmp'\n" "$PGPORT" >> "$PGDATA/postgresql.conf"
  printf 'host all all 0.0.0.0/0 scram-sha-256\nhost all all ::/0 scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  "$BIN/pg_ctl" -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=/tmp -p $PGPORT" -w start >/dev/null
  for db in $(echo "${POSTGRES_DATABASES:-roots}" | tr ',' ' '); do
    "$BIN/psql" -v ON_ERROR_STOP=1 -h /tmp -p "$PGPORT" -U postgres -q -c "create database \"$db\""
  done
  "$BIN/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec "$BIN/postgres" -D "$PGDATA" -p "$PGPORT"
