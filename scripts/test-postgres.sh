#!/usr/bin/env bash
# Runs a command (e.g. go test ./...) beside a throwaway PostgreSQL from
# Debian's postgresql package: a new cluster in a temporary directory,
# listening on a free loopback port, fsync off (nothing in it is worth
# keeping), stopped and deleted when the command ends. The command sees
# the server as CREDITDASH_TEST_POSTGRES=postgres://...
#
#   scripts/test-postgres.sh go test ./internal/store/
set -euo pipefail

if (($# == 0)); then
  echo "usage: $0 command [args...]" >&2
  exit 2
fi

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [[ -z "$bindir" || ! -x "$bindir/initdb" ]]; then
  echo "PostgreSQL is not installed; install it with: apt-get install -y --no-install-recommends postgresql" >&2
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/creditdash-pg.XXXXXX")
# initdb refuses to run as root, so as root the cluster belongs to the
# postgres user the package creates; anyone else runs it as themselves.
as_owner=()
if [[ $(id -u) -eq 0 ]]; then
  chown postgres: "$tmp"
  as_owner=(runuser -u postgres --)
fi

started=
cleanup() {
  if [[ -n "$started" ]]; then
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$tmp/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"${as_owner[@]}" "$bindir/initdb" -D "$tmp/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$tmp/initdb.log" 2>&1 ||
  { cat "$tmp/initdb.log" >&2; exit 1; }

# A random port that nothing listens on; if another process takes it
# before the server binds, the start fails and the next port is tried.
for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 40000))
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    continue
  fi
  if "${as_owner[@]}" "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w -t 60 start -o \
    "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$tmp -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    >/dev/null; then
    started=1
    break
  fi
done
if [[ -z "$started" ]]; then
  echo "PostgreSQL did not start; its log:" >&2
  cat "$tmp/server.log" >&2 || true
  exit 1
fi

# pg_ctl -w returns once the server accepts connections; pg_isready makes
# sure of it over TCP, which is what the tests use.
for _ in $(seq 50); do
  "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" && break
  sleep 0.1
done

export CREDITDASH_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
status=0
"$@" || status=$?
exit "$status"
