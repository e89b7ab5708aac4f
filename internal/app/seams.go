package app

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/handlers"
	"creditdash/internal/session"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

// Seams are the points where a test changes what Build makes: a clock,
// shorter waits, a layer around the client. Production passes none (New);
// zero values leave production's choice.
type Seams struct {
	// Now is the dashboard's clock (cache, store, handlers).
	Now func() time.Time
	// Cache changes the cache's options last (a test that keeps nothing).
	Cache func(*cache.Options)
	// WrapService puts a layer around the client where the handlers call
	// it directly (sign-in, trade-provider choice); a layer in front of
	// every other call belongs in front of the service itself.
	WrapService func(*upstream.Client) handlers.Service
	// BacktestHold is called by each back-test once it holds its slot.
	BacktestHold func()
	// TeamPageHold is called by each team page once it holds its turn.
	TeamPageHold func()
	// SMTPRoots are the certificate authorities the digest's SMTP client
	// trusts; nil means the system's.
	SMTPRoots *x509.CertPool
	// StoreTimeout bounds each workspace database call.
	StoreTimeout time.Duration
	// PageWriteTimeout, WorkspaceDeadline, ExportStall and PageTurnWait
	// shorten the handlers' waits.
	PageWriteTimeout, WorkspaceDeadline, ExportStall, PageTurnWait time.Duration
	// HealthEvery is how often the background checks run; OnPing is told
	// of every check of the service, Observe of every check's result.
	HealthEvery time.Duration
	OnPing      func()
	Observe     func(name string, err error, took time.Duration)
	// RedisPrefix keeps a test's shared keys apart; RedisTimeout and
	// RedisProbeEvery tune the shared store's calls.
	RedisPrefix                   string
	RedisTimeout, RedisProbeEvery time.Duration
	// WebhookPoll is how often the outbox is looked at; WebhookRetryBase
	// the wait before a delivery's first retry.
	WebhookPoll, WebhookRetryBase time.Duration
	// Routes adds test-only routes to the router.
	Routes func(*echo.Echo)
}

// SharedPrefix scopes the shared store's keys to one credit-risk service,
// named as the workspace names it: deployments on different services may
// share one Redis without sharing answers, budgets or sign-outs (a user
// name is another account at another service).
func SharedPrefix(service string) string {
	sum := sha256.Sum256([]byte(service))
	return "creditdash:" + hex.EncodeToString(sum[:6]) + ":"
}

// cacheTTLs are the copies' lifetimes by kind; zero settings leave the
// cache's defaults.
func cacheTTLs(cfg Config) map[cache.Kind]time.Duration {
	ttls := map[cache.Kind]time.Duration{}
	if cfg.CacheTTL > 0 {
		ttls[cache.KindReport], ttls[cache.KindPortfolio], ttls[cache.KindAccount] = cfg.CacheTTL, cfg.CacheTTL, cfg.CacheTTL
	}
	if cfg.NewsTTL > 0 {
		ttls[cache.KindNews], ttls[cache.KindSearch] = cfg.NewsTTL, cfg.NewsTTL
	}
	return ttls
}

// collectorBytes is the share of the heap's budget (CACHE_MB) left to the
// collector: what requests in flight allocate between two collections. A
// quarter, at least 20 MiB but never more than half. The soft memory limit
// is the whole budget, so the caches get what is left and the collector
// never has to find its room beyond them. Under make loadtest's 200
// analysts (2026-11-27) 20 MiB beyond 64 MiB of caches gave the same CPU
// per page view as 24 for 3.7 MiB less at the peak, and 16 a tenth more
// CPU.
func collectorBytes(total uint64) uint64 { return min(max(total/4, 20<<20), total/2) }

// cachesBytes is what the caches share: the budget less the collector's.
func cachesBytes(total uint64) uint64 { return total - collectorBytes(total) }

// cacheBytes is what the caches' share leaves the copies of the service's
// answers once the finished pages, the decoded sessions and the team's
// figures have theirs; zero keeps the cache's default.
func cacheBytes(total uint64) uint64 {
	if total == 0 {
		return 0
	}
	return cachesBytes(total) - pageBytes(total) - sessionBytes(total) - teamBytes(total)
}

// teamBytes is the share of the caches given to the team's kept figures
// (handlers' accounts_cache.go): half, at most 256 MiB, so the default
// 84 MiB keeps a 50,000-account team's figures (about 27 MB); zero keeps
// the handlers' default.
func teamBytes(total uint64) uint64 { return min(cachesBytes(total)/2, 256<<20) }

// pageBytes is the share of the caches given to finished pages: a
// sixteenth (about 4 MiB of the default's 63, some 600 gzipped pages), at
// most 32 MiB; zero keeps the handlers' default. Under make loadtest's 200
// analysts with gzip, as browsers ask, a quarter filled and left the
// collector no room under the soft limit: a sixteenth cost the dashboard
// a sixth less CPU per page (three runs each, 3.4/2.9/3.3 ms against
// 4.0/3.4/4.0).
func pageBytes(total uint64) uint64 { return min(cachesBytes(total)/16, 32<<20) }

// sessionBytes is the share of the caches given to decoded sessions (see
// handlers' session memo): a sixty-fourth, at most 1 MiB; zero keeps the
// handlers' default.
func sessionBytes(total uint64) uint64 {
	if total == 0 {
		return 0
	}
	return max(min(cachesBytes(total)/64, session.DefaultMemoBytes), 4<<10)
}
