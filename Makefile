# CreditDash: every build step from a fresh clone. `make run` and `make test`
# are the two commands a new machine needs.
SHELL := /bin/bash
.DEFAULT_GOAL := build

GO      ?= go
BIN     := bin
ECHARTS := static/vendor/echarts.min.js
# Browser tests fail instead of skipping when Chromium is missing.
BROWSER_TESTS ?= require
# The OpenAPI linter (@redocly/cli, a pinned dev dependency): offline, without
# its telemetry or update check; .redocly.lint-ignore.yaml lists what it may
# not flag (openapi.json's own GET has no 4xx answer to document).
REDOCLY := REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true node_modules/.bin/redocly

.PHONY: build run test lint generate assets tools bench clean simulator loadtest lighthouse

## build: browser assets, templ code, bin/web and bin/simulator
build: assets generate
	@$(GO) build -trimpath -o $(BIN)/web ./cmd/web
	@$(GO) build -trimpath -o $(BIN)/simulator ./cmd/simulator

## assets: a custom ECharts build (static/src/echarts.js) from npm into static/vendor (git-ignored)
assets: $(ECHARTS)

$(ECHARTS): package.json package-lock.json scripts/build-assets.sh static/src/echarts.js
	scripts/build-assets.sh

## generate: templ components into Go (committed; CI checks they are fresh); warnings only, so make run prints the dashboard's own lines (templ's "needsRestart=true" is its watch mode's news, not an error)
generate:
	@$(GO) tool templ generate -log-level warn

## run: start the dashboard with the built-in stand-in service and demo data
run: build
	@COOKIE_SECURE=$${COOKIE_SECURE:-false} ./$(BIN)/web

## simulator: run the stand-in service on its own (127.0.0.1:8081)
simulator: build
	./$(BIN)/simulator

## test: first the programs the tests start (installed as root on Debian, else the one command to run), then vet, templ freshness, the API document's lint, every Go test with the race detector (fuzz seeds, browser tests, the store on a throwaway PostgreSQL, the replicas on a throwaway Redis and deploy/nginx.conf on Debian's nginx included)
# The race detector also turns on checkptr, which checks every unsafe.Pointer
# conversion: in modernc.org's SQLite (C translated to Go) that doubled the CPU
# of the store-heavy tests. TEST_GCFLAGS turns it off there only; our own code
# keeps it, and every package keeps the race detector.
TEST_GCFLAGS ?= modernc.org/...=-d=checkptr=0
test: tools
	@$(MAKE) --no-print-directory assets
	$(GO) tool templ generate -check
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	$(REDOCLY) lint internal/api/openapi.json
	BROWSER_TESTS=$(BROWSER_TESTS) NGINX_TESTS=require POSTGRES_TESTS=require REDIS_TESTS=require scripts/test-redis.sh scripts/test-postgres.sh $(GO) test -race -gcflags='$(TEST_GCFLAGS)' -count=1 -timeout 20m ./...

## tools: make sure Chromium, PostgreSQL, redis-server, gcc, nginx and npm are there for make test
tools:
	@scripts/ensure-tools.sh

# The 200-analyst mix of make loadtest (figure 1 only, shorter) that make bench runs for
# the dashboard's CPU and heap per page view beside the stand-in's CPU per call.
BENCH_LOADTEST_FLAGS ?= -figures 1 -duration 30s -idle 55s -bulk 1000

## bench: the speed table (stand-in and dashboard as their own processes), the 200-analyst figure of make loadtest (BENCH_LOADTEST_FLAGS), what each hostile import file costs the preview (cmd/importbench), then the alert back-test over 500 businesses x 36 months, the view benchmarks, the warm report with the workspace shown, the team's accounts at 50,000 (import seconds and peak heap growth, /accounts and /portfolio/exposure p50), the worklist's p50 at 50,000 accounts, GET /api/v1/accounts' p50 walking 50,000 accounts 100 a page, the credit policy's validation over 24 months x 50,000 accounts, a webhook's delivery after its change (p50/p95, SQLite and PostgreSQL), the public application form's p95 with 50 applicants at once and an application's decision to the applicant's inbox, the workspace store's write latency and the time to verify a 100,000-entry audit trail (SQLite, and PostgreSQL when Debian's postgresql is installed), the report on a second replica (with redis-server); BENCH_FLAGS="-rows 20000 -samples 2" for a quick run
bench: build
	$(GO) run ./cmd/bench $(BENCH_FLAGS)
	$(GO) run ./cmd/loadtest $(BENCH_LOADTEST_FLAGS)
	$(GO) run ./cmd/importbench # issue 47.1: each hostile file shape and two valid 50,000-row ledgers posted to the import preview of a bin/web of its own: status, message, wall time and resident memory growth, target <= 100 MB and <= 10 s
	$(GO) test -run '^$$' -bench Backtest -benchtime 20x ./internal/views/ # issue 28: a back-test over 500 businesses x 36 months, target <= 300 ms
	$(GO) test -run '^$$' -bench . -benchtime 200x ./internal/views/
	$(GO) test -run '^$$' -bench 'WarmReport|StaticFile' -benchtime 5000x ./internal/handlers/
	$(GO) test -run '^$$' -bench 'AccountsImport50k$$|AccountsPage50k|Exposure50k|AfterOneWrite50k' -benchtime 1x ./internal/handlers/ # issue 47.2: the first /accounts and /portfolio/exposure after one account's write, figures brought forward against worked out whole (x-exposure-whole/updated)
	$(GO) test -run '^$$' -bench 'AccountsPreview50k|ReviewsPage50k' -benchtime 3x -benchmem ./internal/handlers/ # issue 47.2: what an import preview of 50,000 rows and a paged /reviews at 50,000 accounts allocate (B/op), the floods of make loadtest figure 7
	$(GO) test -run '^$$' -bench 'Import50kCSV|OpenItems200kXLSX' -benchtime 1x ./internal/ledger/ # issue 43.6: a 50,000-row CSV read for preview and import <= 5 s and <= 100 MB; 200,000 open items in XLSX <= 15 s and <= 200 MB (peak-MB: the live heap's peak)
	$(GO) test -run '^$$' -bench 'Worklist50k' -benchtime 1x ./internal/handlers/ # issue 27: /worklist with 50,000 accounts, unreviewed and reviewed, target <= 150 ms
	$(GO) test -run '^$$' -bench 'APIAccounts50k$$' -benchtime 1x ./internal/api/ # issue 46.6: GET /api/v1/accounts, 100 a page, walked by cursor through 50,000 accounts: p50 target <= 30 ms (p95 and the whole walk beside it)
	$(GO) test -run '^$$' -bench 'Validate24x50k' -benchtime 1x ./internal/policy/ # issue 45: three models validated over 24 months x 50,000 accounts, target <= 3 s and <= 300 MB
	$(GO) test -run '^$$' -bench 'ApplyForm50|DecidedToInbox' -benchtime 1x ./internal/apply/ # issue 44.7: the public form with 50 applicants at once, p95 <= 200 ms; an application decided by hand in the applicant's inbox (real SMTP on loopback, production's job polling) within 10 s
	$(GO) test -run '^$$' -bench 'WebhookDelivery$$' -benchtime 1x ./internal/handlers/ # issue 46: a change's webhook at a receiver on loopback, 100 changes with production's polling, target p95 <= 5 s
	if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then run=scripts/test-postgres.sh; else echo "PostgreSQL is not installed: the store's write latency on SQLite only"; run=; fi; \
	$$run $(GO) test -run '^$$' -bench Write -benchtime 3000x ./internal/store/; \
	$$run $(GO) test -run '^$$' -bench 'AccountsImport50kPostgres|WebhookDeliveryPostgres' -benchtime 1x ./internal/handlers/; \
	$$run $(GO) test -run '^$$' -bench 'APIAccounts50kPostgres' -benchtime 1x ./internal/api/; \
	$$run $(GO) test -run '^$$' -bench VerifyAudit -benchtime 3x ./internal/store/
	if command -v redis-server >/dev/null; then \
	  scripts/test-redis.sh $(GO) test -run '^$$' -bench SecondReplica -benchtime 200x ./internal/shared/; \
	else echo "redis-server is not installed: no two-replica figures"; fi

## loadtest: the load table (200 analysts, direct calls, the Ordinary storm, unread exports, the log flood, the bulk home page with 20 broad rules, one analyst flooding the team's heavy pages at 50,000 accounts beside another user; stand-in and dashboard as their own processes, about 6 minutes); LOADTEST_FLAGS="-duration 10s -storm 10s -idle 25s" for a quick run
loadtest: build
	$(GO) run ./cmd/loadtest $(LOADTEST_FLAGS)

## lighthouse: Lighthouse 12 (installed into .lighthouse/, not package.json), mobile preset, performance only, on every kind of page of bin/web with the stand-in, signed in as demo; prints the medians against issue 14's targets (TBT <= 200 ms, performance >= 95), never fails on them; about 20 minutes; LIGHTHOUSE_FLAGS="-runs 1 -pages report,payments" for a quick run
lighthouse: tools build
	scripts/lighthouse.sh $(LIGHTHOUSE_FLAGS)

## lint: formatting, vet, staticcheck, templ freshness and the API's OpenAPI document (redocly, installed by make assets)
lint: assets
	$(REDOCLY) lint internal/api/openapi.json
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt would change the files above"; exit 1; }
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	$(GO) tool templ generate -check

clean:
	rm -rf $(BIN) node_modules .lighthouse static/vendor/*.js
