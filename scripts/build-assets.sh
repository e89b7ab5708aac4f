#!/usr/bin/env bash
# Installs the browser libraries from package-lock.json and copies what the
# pages load into static/vendor/ (git-ignored; the Go binary embeds it).
# Used by the Makefile and the Dockerfile alike.
set -euo pipefail
cd "$(dirname "$0")/.."

npm ci --no-audit --no-fund --loglevel=error
mkdir -p static/vendor
cp node_modules/echarts/dist/echarts.min.js static/vendor/echarts.min.js
