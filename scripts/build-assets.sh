#!/usr/bin/env bash
# Installs the browser libraries from package-lock.json and builds what the
# pages load into static/vendor/ (git-ignored; the Go binary embeds it).
# Used by the Makefile and the Dockerfile alike.
set -euo pipefail
cd "$(dirname "$0")/.."

# esbuild is a devDependency: include it even where NODE_ENV=production
# would leave it out.
npm ci --include=dev --no-audit --no-fund --loglevel=error
mkdir -p static/vendor

# ECharts cut down to the parts the charts use (static/src/echarts.js says
# which and why), as one minified classic script defining the global
# `echarts`, which js/charts.js and the browser tests call. Defining
# NODE_ENV drops ECharts' development checks, as its own dist build does;
# es2017 keeps the minifier from writing syntax older browsers lack.
#
# The first line is V8's explicit compile hint: Chromium compiles every
# function of the bundle while it streams the file in, off the main thread,
# instead of each function on its first call: in Chromium's trace of a phone
# page, the first chart's render took a quarter to a third less CPU time
# (payments 63 -> 42 ms, score map 77 -> 63 ms). Other browsers read a
# comment.
echarts_version=$(node -p 'require("./node_modules/echarts/package.json").version')
banner="//# allFunctionsCalledOnLoad
/*! Apache ECharts ${echarts_version}, custom build (Apache-2.0; see its NOTICE). Includes zrender (BSD-3-Clause) and tslib (0BSD). */"
node_modules/.bin/esbuild static/src/echarts.js \
	--bundle --minify --format=iife --global-name=echarts \
	--target=es2017 --define:process.env.NODE_ENV='"production"' \
	--legal-comments=eof \
	--banner:js="$banner" \
	--log-level=warning \
	--outfile=static/vendor/echarts.min.js
