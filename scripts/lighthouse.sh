#!/usr/bin/env bash
# make lighthouse: installs the pinned Lighthouse into .lighthouse/
# (git-ignored; kept out of package.json, so npm ci for the pages' assets
# stays small) and runs cmd/lighthouse with it against bin/web. Arguments
# go to cmd/lighthouse (go run ./cmd/lighthouse -h lists them).
set -euo pipefail
cd "$(dirname "$0")/.."

# The version issue 14 was audited with: Lighthouse 12.
LIGHTHOUSE_VERSION=12.8.2
dir=.lighthouse

installed=$(node -p "require('./$dir/node_modules/lighthouse/package.json').version" 2>/dev/null || true)
if [[ "$installed" != "$LIGHTHOUSE_VERSION" ]]; then
	echo "Installing Lighthouse $LIGHTHOUSE_VERSION into $dir/ ..."
	rm -rf "$dir"
	mkdir -p "$dir"
	# --prefix makes $dir the project: the repository's package.json and
	# package-lock.json are left alone, and nothing is saved anywhere.
	npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund \
		--loglevel=error "lighthouse@$LIGHTHOUSE_VERSION"
fi

chrome=${CHROME_PATH:-${CHROMIUM_PATH:-}}
if [[ -z "$chrome" ]]; then
	for b in chromium chromium-browser google-chrome; do
		if command -v "$b" >/dev/null 2>&1; then
			chrome=$(command -v "$b")
			break
		fi
	done
fi
if [[ -z "$chrome" ]]; then
	echo "lighthouse: no Chromium found (make browser installs it, or set CHROME_PATH)" >&2
	exit 1
fi

exec go run ./cmd/lighthouse -lighthouse "$dir/node_modules/.bin/lighthouse" -chrome "$chrome" "$@"
