#!/usr/bin/env bash
# Runs a command (e.g. go test ./...) beside a throwaway Redis from
# Debian's redis-server package: listening on a free loopback port,
# nothing saved to disk, stopped when the command ends. The command sees
# the server as CREDITDASH_TEST_REDIS=redis://127.0.0.1:<port>/0 (Valkey
# speaks the same protocol; set it yourself to test against one).
#
#   scripts/test-redis.sh go test ./internal/shared/
set -euo pipefail

if (($# == 0)); then
  echo "usage: $0 command [args...]" >&2
  exit 2
fi

server=$(command -v redis-server || command -v valkey-server || true)
if [[ -z "$server" ]]; then
  echo "Redis is not installed; install it with: apt-get install -y --no-install-recommends redis-server" >&2
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/creditdash-redis.XXXXXX")
pid=
cleanup() {
  if [[ -n "$pid" ]]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A random port that nothing listens on; if another process takes it
# before the server binds, the server exits and the next port is tried.
started=
for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 40000))
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    continue
  fi
  "$server" --bind 127.0.0.1 --port "$port" --dir "$tmp" --save '' --appendonly no \
    --daemonize no --logfile "$tmp/server.log" &
  pid=$!
  for _ in $(seq 50); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      started=1
      break 2
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=
done
if [[ -z "$started" ]]; then
  echo "Redis did not start; its log:" >&2
  cat "$tmp/server.log" >&2 || true
  exit 1
fi

export CREDITDASH_TEST_REDIS="redis://127.0.0.1:$port/0"
status=0
"$@" || status=$?
exit "$status"
