#!/usr/bin/env bash
# The first step of make test: makes sure this machine has every program the
# tests start, before minutes go into vet and staticcheck. They are Chromium
# and its fonts (browser tests), PostgreSQL's server (scripts/test-postgres.sh),
# redis-server or valkey-server (scripts/test-redis.sh), gcc and the C headers
# (go test -race needs cgo), nginx (the balancer layout test of deploy/) and
# npm (the ECharts build). As root on Debian it installs what is missing with
# one apt-get update and one apt-get install; otherwise it prints the one
# command to run and exits 1.
#
# For this script's own test (internal/deploytest), absence can be faked:
#   ENSURE_TOOLS_PATH     the PATH programs are looked up in (default: PATH)
#   ENSURE_TOOLS_ROOT     a folder put in front of every file checked (default: /)
#   ENSURE_TOOLS_UID      the user id assumed (default: id -u)
#   ENSURE_TOOLS_DRY_RUN  1: print the apt-get commands instead of running them
set -euo pipefail

lookup=${ENSURE_TOOLS_PATH:-$PATH:/usr/sbin:/sbin}
root=${ENSURE_TOOLS_ROOT:-}
uid=${ENSURE_TOOLS_UID:-$(id -u)}

has() { PATH=$lookup command -v "$1" >/dev/null 2>&1; }
exists() { compgen -G "$root$1" >/dev/null; }

missing() {
  local need=()
  if ! { [[ -n "${CHROMIUM_PATH:-}" && -x "$CHROMIUM_PATH" ]] || has chromium || has chromium-browser || has google-chrome; }; then
    need+=(chromium)
  fi
  # The browser tests measure text: without these metric-compatible fonts
  # layouts differ from machine to machine.
  exists '/usr/share/fonts/truetype/liberation*/LiberationSans-Regular.ttf' || need+=(fonts-liberation)
  exists '/usr/lib/postgresql/*/bin/initdb' || need+=(postgresql)
  has redis-server || has valkey-server || need+=(redis-server)
  # Without them Go says only "-race requires cgo".
  has gcc || need+=(gcc)
  exists /usr/include/stdio.h || need+=(libc6-dev)
  has nginx || exists /usr/sbin/nginx || need+=(nginx)
  has npm || need+=(nodejs npm)
  echo "${need[@]}"
}

read -r -a need <<<"$(missing)"
if ((${#need[@]} == 0)); then
  exit 0
fi

install="apt-get update && apt-get install -y --no-install-recommends ${need[*]}"
if [[ $uid -ne 0 ]] || ! has apt-get; then
  echo "make test needs programs this machine lacks: ${need[*]}." >&2
  if has apt-get; then
    echo "Install them with this one command, then run make test again:" >&2
    echo "  sudo sh -c '$install'" >&2
  else
    echo "This is not a Debian machine: install the equivalents of these Debian packages, then run make test again." >&2
  fi
  exit 1
fi

echo "Installing what make test needs: ${need[*]}"
if [[ ${ENSURE_TOOLS_DRY_RUN:-} == 1 ]]; then
  echo "$install"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# The tests start their own throwaway servers: Debian's packages must not
# leave PostgreSQL, Redis and nginx running as services (a policy that
# refuses every start, only for this install, unless one is in place).
policy=/usr/sbin/policy-rc.d
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  trap 'rm -f "$policy"' EXIT
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null

read -r -a still <<<"$(missing)"
if ((${#still[@]})); then
  echo "Still missing after apt-get install: ${still[*]}" >&2
  exit 1
fi
