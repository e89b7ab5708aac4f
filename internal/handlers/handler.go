// Package handlers is the dashboard's HTTP layer: routes, middleware, sign-in,
// and one handler per page. Handlers parse input, read the service's data
// through the cache, hand results to internal/views and render a template
// from templates/.
package handlers

import (
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/maypok86/otter/v2"
	"golang.org/x/sync/singleflight"

	"creditdash/internal/alerts"
	"creditdash/internal/digest"
	"creditdash/internal/middleware"
	"creditdash/internal/roles"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
	"creditdash/internal/webhooks"
	"creditdash/static"
)

// Service is what the handlers ask the credit-risk service directly: the
// calls that change something or must never come from a copy.
type Service interface {
	// SignIn signs in; for an account with two-factor sign-in it may
	// answer a pending key that TwoFactorKey completes.
	SignIn(ctx context.Context, cr upstream.Credentials) (upstream.LoginResult, error)
	// TwoFactorKey finishes a two-factor sign-in with the code.
	TwoFactorKey(ctx context.Context, pendingKey, code string) (upstream.LoginResult, error)
	SetTradeProvider(ctx context.Context, key, providerID string) (string, error)
}

// Cache is the handlers' way to the service's data: reads for one user and
// one page (the reader has every operation, the export too, paid for from
// the user's hourly budget), the budget itself, and forgetting copies.
type Cache interface {
	Reader(who cache.Who) *cache.Reader
	Quota(user string) (upstream.RateLimit, bool)
	Forget(user string, copies []string)
	ForgetUser(user string)
	Holds(deps []cache.Dep) bool
}

// Source is what a page's sections read: every operation of the service
// for the signed-in user, declared once in internal/upstream and read
// through the page's cache.Reader.
type Source = *upstream.User

// Meter is told what operators count (see internal/metrics).
type Meter interface {
	// Pages times every page by its route template.
	Pages() echo.MiddlewareFunc
	SignIn(result string)
	BudgetRefused()
	StoreError()
}

// Config is what the handlers are built from; cmd/web wires it.
type Config struct {
	Service Service
	Cache   Cache
	// Store keeps each analyst's watch list, notes, alerts and snapshots,
	// and the team's accounts, decisions, worklist and audit trail.
	Store *store.Store
	// ServiceURL is the service's base URL: with the user name, it names
	// the analyst whose workspace a request uses.
	ServiceURL string
	Sessions   *session.Store
	Assets     *static.Assets
	Logger     *slog.Logger
	// Health answers /readyz from the background checks' last results
	// (internal/health); nil answers "ready" always.
	Health Health
	// CookieSecure marks the CSRF cookie Secure, like the session cookie,
	// and turns on Strict-Transport-Security.
	CookieSecure bool
	// SignOuts keeps the users' sign-out marks; nil keeps them in memory
	// for SessionLifetime.
	SignOuts session.SignOuts
	// Attempts counts sign-in attempts for the sign-in throttle; nil
	// counts them in memory.
	Attempts session.Attempts
	// SessionLifetime is the longest a session cookie lasts; zero means
	// 12 hours.
	SessionLifetime time.Duration
	// PageCacheBytes bounds the finished pages kept; zero means 16 MiB.
	PageCacheBytes uint64
	// TeamCacheBytes bounds the team's kept figures; zero means
	// DefaultTeamCacheBytes.
	TeamCacheBytes uint64
	// SessionMemoBytes bounds the decoded sessions kept (session.Memo);
	// zero means DefaultSessionMemoBytes.
	SessionMemoBytes uint64
	// Meter counts for operators; nil counts nothing.
	Meter Meter
	// ExportStall is how long an export waits for the browser to take the
	// next chunk before it is cut; zero means 30 seconds.
	ExportStall time.Duration
	// PageWriteTimeout bounds writing a page; zero means a minute.
	PageWriteTimeout time.Duration
	// WorkspaceDeadline bounds all the workspace reads of one page
	// together (see wsdeadline.go); zero means 1.5 seconds.
	WorkspaceDeadline time.Duration
	// PageTurnWait is how long a page waits for its turn (see
	// middleware.Turns) before it says the dashboard is busy; zero means 20
	// seconds.
	PageTurnWait time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SampleLedgers makes the import page offer the demo portfolio's sample
	// ledgers (demo mode).
	SampleLedgers bool
	// TrustedProxies are the reverse proxies in front of the dashboard:
	// from a connection of theirs, the client's address is the nearest one
	// in X-Forwarded-For that is not theirs. Empty believes no header.
	TrustedProxies []netip.Prefix
	// Roles are the team's roles in force (TEAM_ROLES); nil makes
	// everyone an analyst without authority.
	Roles *roles.Table
	// PublicURL is the site's address as browsers reach it (scheme, host
	// and port, no trailing slash), for every absolute link handed out;
	// empty builds them from each request's scheme and Host.
	PublicURL string
	// Demo, set only in demo mode, lists the stand-in's accounts on the
	// sign-in page and shows its two-factor code; nil shows neither.
	Demo *Demo
	// BacktestHold, when set, is called by each back-test once it holds
	// one of its analyst's slots and before it reads the service: a
	// test's handshake, which may block until the test releases it. nil
	// in production.
	BacktestHold func()
	// Digests are the e-mail digest's settings and sending (issue 28).
	Digests *digest.Service
	// Webhooks registers the team's endpoints and replays deliveries
	// (issue 46); nil leaves /settings/webhooks out.
	Webhooks *webhooks.Service
}

// Handler serves every page of the dashboard.
type Handler struct {
	// heavy bounds the team's downloads running at once (heavy.go).
	heavy heavyGate
	// verifying runs one verification of the audit trail at a time.
	verifying    singleflight.Group
	svc          Service
	cache        Cache
	sessions     *session.Store
	sessionMemo  *session.Memo
	assets       *static.Assets
	log          *slog.Logger
	health       Health
	secure       bool
	writeTimeout time.Duration
	now          func() time.Time
	urls         views.Assets
	// pages keeps finished pages and the copies each was read from (see
	// pagecache.go).
	pages *middleware.PageCache
	// features remembers the optional operations the service lacks.
	features *featureBook
	// providers remembers the accounts' trade providers (trade_book.go).
	providers *providerBook
	// reportMarks remembers the reports whose scores were noted, arrivals
	// records what fresh scores say (arrived.go).
	reportMarks *reportMarks
	arrivals    *alerts.Arrivals
	signOuts    session.SignOuts
	// throttle bounds sign-in attempts and codes.
	throttle *session.Throttle
	// calls and exports bound what each user runs against the service.
	calls, exports *middleware.UserSlots
	// backtests bounds the back-tests each analyst runs at once.
	backtests *middleware.UserSlots
	// backtestHold is Config.BacktestHold.
	backtestHold func()
	// turns bound the pages prepared at once.
	turns       *middleware.Turns
	exportStall time.Duration
	meter       Meter
	// store keeps each analyst's workspace and the team's record;
	// wsBook remembers the workspace's last changes here.
	store *store.Store
	// wsDeadline bounds a page's workspace reads together.
	wsDeadline time.Duration
	wsBook     *workspaceBook
	service    string
	// clientAddr is the address a request came from (see TrustedProxies).
	clientAddr echo.IPExtractor
	// roles are the team's roles.
	roles *roles.Table
	// inFlight are the requests being answered, exportsRunning the
	// portfolio exports (see Stats).
	inFlight, exportsRunning atomic.Int64
	// trusted are TrustedProxies; publicURL is PublicURL.
	trusted   []netip.Prefix
	publicURL string
	// digests are the e-mail digest's settings and sending (digest.go).
	digests *digest.Service
	// webhooks registers the team's endpoints and replays deliveries.
	webhooks *webhooks.Service
	// teamMarks are the score copies recorded for the team; teamData
	// keeps the team's figures per version.
	teamMarks     *otter.Cache[teamMark, struct{}]
	teamData      *otter.Cache[teamKey, teamEntry]
	sampleLedgers bool
	// demo is the stand-in's first-run help (see demo.go); nil outside
	// demo mode.
	demo *Demo
	// imports bounds the files read at once (accounts_import_gate.go).
	imports importGate
}

// New checks the configuration and builds the handlers.
func New(cfg Config) (*Handler, error) {
	if cfg.Service == nil || cfg.Cache == nil || cfg.Sessions == nil || cfg.Assets == nil || cfg.Store == nil || cfg.Digests == nil {
		return nil, errors.New("handlers: service, cache, sessions, assets, store and digests are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Health == nil {
		cfg.Health = alwaysReady{}
	}
	if cfg.PageWriteTimeout <= 0 {
		cfg.PageWriteTimeout = time.Minute
	}
	if cfg.Meter == nil {
		cfg.Meter = noMeter{}
	}
	if cfg.ExportStall <= 0 {
		cfg.ExportStall = 30 * time.Second
	}
	if cfg.PageTurnWait <= 0 {
		cfg.PageTurnWait = middleware.PageTurnWait
	}
	if cfg.SessionLifetime <= 0 {
		cfg.SessionLifetime = 12 * time.Hour
	}
	if cfg.SignOuts == nil {
		cfg.SignOuts = session.NewMemorySignOuts(cfg.SessionLifetime)
	}
	if cfg.WorkspaceDeadline <= 0 {
		cfg.WorkspaceDeadline = defaultWorkspaceDeadline
	}
	if cfg.Attempts == nil {
		cfg.Attempts = session.NewMemoryAttempts(cfg.Now, session.ThrottleWindow)
	}
	clientAddr := middleware.ClientAddress(cfg.TrustedProxies)
	// Cookies are bound to the service they were made for.
	cfg.Sessions.BindService(cfg.ServiceURL)
	h := &Handler{
		store:         cfg.Store,
		svc:           cfg.Service,
		cache:         cfg.Cache,
		sessions:      cfg.Sessions,
		assets:        cfg.Assets,
		log:           slog.New(middleware.ClipLogs(cfg.Logger.Handler())),
		health:        cfg.Health,
		secure:        cfg.CookieSecure,
		writeTimeout:  cfg.PageWriteTimeout,
		now:           cfg.Now,
		features:      newFeatureBook(),
		providers:     newProviderBook(),
		reportMarks:   newReportMarks(),
		signOuts:      cfg.SignOuts,
		throttle:      session.NewThrottle(cfg.Attempts, clientAddr),
		calls:         middleware.NewUserSlots(callsPerUser),
		exports:       middleware.NewUserSlots(exportsPerUser),
		backtests:     middleware.NewUserSlots(backtestsPerAnalyst),
		backtestHold:  cfg.BacktestHold,
		turns:         middleware.NewTurns(middleware.PageTurns, middleware.PageTurnsPerUser, cfg.PageTurnWait),
		exportStall:   cfg.ExportStall,
		meter:         cfg.Meter,
		wsDeadline:    cfg.WorkspaceDeadline,
		service:       cfg.ServiceURL,
		clientAddr:    clientAddr,
		roles:         cfg.Roles,
		digests:       cfg.Digests,
		webhooks:      cfg.Webhooks,
		trusted:       cfg.TrustedProxies,
		publicURL:     strings.TrimSuffix(cfg.PublicURL, "/"),
		sampleLedgers: cfg.SampleLedgers,
		demo:          cfg.Demo,
	}
	h.arrivals = alerts.NewArrivals(cfg.Store, cfg.Store, cfg.Store, cfg.Store)
	var err error
	if h.wsBook, err = newWorkspaceBook(); err != nil {
		return nil, err
	}
	if cfg.SessionMemoBytes == 0 {
		cfg.SessionMemoBytes = session.DefaultMemoBytes
	}
	if h.sessionMemo, err = session.NewMemo(cfg.Sessions, cfg.SessionMemoBytes); err != nil {
		return nil, err
	}
	if h.teamMarks, err = newTeamMarks(); err != nil {
		return nil, err
	}
	if cfg.TeamCacheBytes == 0 {
		cfg.TeamCacheBytes = DefaultTeamCacheBytes
	}
	if h.teamData, err = newTeamCache(cfg.TeamCacheBytes); err != nil {
		return nil, err
	}
	if h.pages, err = middleware.NewPageCache(cfg.PageCacheBytes); err != nil {
		return nil, err
	}
	h.urls = views.Assets{
		CSS:      cfg.Assets.URL("css/app.css"),
		Icon:     cfg.Assets.URL("img/favicon.svg"),
		Charts:   cfg.Assets.URL("js/charts.js"),
		TZ:       cfg.Assets.URL("js/tz.js"),
		Print:    cfg.Assets.URL("js/print.js"),
		Worklist: cfg.Assets.URL("js/worklist.js"),
		// Read off the main thread: ICU's first load blocked phones.
		TZWorker: cfg.Assets.URL("js/tz-worker.js"),
	}
	if cfg.Assets.Has(echartsAsset) {
		h.urls.ECharts = cfg.Assets.URL(echartsAsset)
	} else {
		cfg.Logger.Warn("echarts is not embedded; charts will not be drawn (run make build)")
	}
	return h, nil
}

// echartsAsset is where the build puts ECharts inside static/.
const echartsAsset = "vendor/echarts.min.js"

// noMeter counts nothing.
type noMeter struct{}

func (noMeter) Pages() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc { return next }
}
func (noMeter) SignIn(string)  {}
func (noMeter) BudgetRefused() {}
func (noMeter) StoreError()    {}
