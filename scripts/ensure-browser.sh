#!/usr/bin/env bash
# Makes sure Chromium is installed for the browser tests. As root on a Debian
# machine it installs Debian's package; otherwise it says what to run.
set -euo pipefail

for b in "${CHROMIUM_PATH:-}" chromium chromium-browser google-chrome; do
  if [[ -n "$b" ]] && command -v "$b" >/dev/null 2>&1; then
    exit 0
  fi
done

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Chromium for the browser tests (Debian packages chromium and fonts-liberation)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
  exit 0
fi

echo "The browser tests need Chromium. Install it, e.g.: sudo apt-get install chromium fonts-liberation" >&2
exit 1
