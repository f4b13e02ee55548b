#!/bin/sh
# The official image's start, in short: a new data folder is initialised with POSTGRES_USER (a superuser)
# and POSTGRES_DB, password authentication for every host; then the server runs in the foreground.
set -eu
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" > /tmp/pw
  initdb --username="$user" --pwfile=/tmp/pw --auth-host=scram-sha-256 --auth-local=trust -D "$PGDATA" >/dev/null
  rm -f /tmp/pw
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    createdb --username="$user" "$db"
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
