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
	"creditdash/internal/applications"
	"creditdash/internal/apply"
	"creditdash/internal/digest"
	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/team"
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
	// together (see wsCtx); zero means 1.5 seconds.
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
	// Team is the team's membership, the roles every check reads; nil
	// makes everyone an analyst without authority.
	Team *team.Directory
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
	// TeamPageHold, when set, is called by each team page (/accounts,
	// /reviews, ...) once it holds its analyst's turn: a test's
	// handshake, like BacktestHold. nil in production.
	TeamPageHold func()
	// Digests are the e-mail digest's settings and sending (issue 28).
	Digests *digest.Service
	// Webhooks registers the team's endpoints and replays deliveries
	// (issue 46); nil leaves /settings/webhooks out.
	Webhooks *webhooks.Service
	// Applications are the credit applications (issue 44): the team's
	// inbox here, the public pages in internal/apply; nil leaves both out.
	Applications *applications.Service
}

// Handler serves every page of the dashboard. Beside its collaborators it
// holds four parts, embedded so their fields read as the handler's own.
type Handler struct {
	// store keeps each analyst's workspace and the team's record.
	store *store.Store
	// digests are the e-mail digest's settings and sending (digest.go).
	digests *digest.Service
	// webhooks registers the team's endpoints and replays deliveries;
	// nil leaves /settings/webhooks out.
	webhooks *webhooks.Service
	// apps are the credit applications; apply their public pages.
	apps  *applications.Service
	apply *apply.Pages
	svc   Service
	cache Cache
	log   *slog.Logger
	now   func() time.Time
	site
	gates
	books
	ops
}

// site is how the dashboard meets its users: sessions, sign-in, the
// addresses it hands out and the team's settings.
type site struct {
	sessions    *session.Store
	sessionMemo *session.Memo
	signOuts    session.SignOuts
	// throttle bounds sign-in attempts and codes.
	throttle *session.Throttle
	// secure marks cookies Secure and turns on Strict-Transport-Security.
	secure bool
	// service is the service's base URL: with the user name, it names the
	// analyst whose workspace a request uses.
	service string
	// clientAddr is the address a request came from; trusted are the
	// proxies it believes (Config.TrustedProxies).
	clientAddr echo.IPExtractor
	trusted    []netip.Prefix
	// publicURL is Config.PublicURL without its trailing slash.
	publicURL string
	assets    *static.Assets
	urls      views.Assets
	// members are the team's roles now (see team.go).
	members *team.Directory
	// demo is the stand-in's first-run help (see auth.go); nil outside
	// demo mode. sampleLedgers offers the demo's ledgers on import.
	demo          *Demo
	sampleLedgers bool
}

// gates bound what runs at once and for how long, per user and in all.
type gates struct {
	// calls and exports bound what each user runs against the service.
	calls, exports *middleware.UserSlots
	// backtests bounds the back-tests each analyst runs at once;
	// backtestHold is Config.BacktestHold.
	backtests    *middleware.UserSlots
	backtestHold func()
	// turns bound the pages prepared at once.
	turns *middleware.Turns
	// heavy bounds the team's downloads running at once.
	heavy *middleware.Gate
	// imports bounds the files read at once.
	imports *middleware.Gate
	// teamPages runs each analyst's team pages one at a time, waiting at
	// most teamWait; teamPageHold is Config.TeamPageHold.
	teamPages    *middleware.UserSlots
	teamWait     time.Duration
	teamPageHold func()
	// verifying runs one verification of the audit trail at a time;
	// verdict keeps its verdict for the log's head.
	verifying singleflight.Group
	verdict   keptVerdict
	// writeTimeout bounds writing a page, exportStall an export waiting
	// on the browser, wsDeadline a page's workspace reads together.
	writeTimeout, exportStall, wsDeadline time.Duration
}

// books are what this process remembers between requests, each bounded.
type books struct {
	// pages keeps finished pages and the copies each was read from (see
	// render.go).
	pages *middleware.PageCache
	// features remembers the optional operations the service lacks.
	features *featureBook
	// providers remembers the accounts' trade providers (trade.go).
	providers *providerBook
	// reportMarks remembers the reports whose scores were noted, arrivals
	// records what fresh scores say (arrived.go).
	reportMarks *reportMarks
	arrivals    *alerts.Arrivals
	// wsBook remembers the workspace's last changes here.
	wsBook *workspaceBook
	// teamMarks are the score copies recorded for the team; teamData
	// keeps the team's figures per version.
	teamMarks *otter.Cache[teamMark, struct{}]
	teamData  *otter.Cache[teamKey, teamEntry]
	// figuring brings one team's figures forward at a time
	// (accounts_figures.go).
	figuring *singleflight.Group
}

// ops is what operators see: readiness, counts and what runs now.
type ops struct {
	health Health
	meter  Meter
	// inFlight are the requests being answered, exportsRunning the
	// portfolio exports (see Stats).
	inFlight, exportsRunning atomic.Int64
	// validations counts the policy's validations worked out (the rest
	// were kept for the team's version).
	validations atomic.Uint64
	// figuresWorked counts the team figures worked out (the rest were
	// found kept).
	figuresWorked atomic.Uint64
	// figuresUpdated counts the team figures brought forward by working
	// out only the accounts writes touched.
	figuresUpdated atomic.Uint64
}

// New checks the configuration and builds the handlers.
func New(cfg Config) (*Handler, error) {
	if cfg.Service == nil || cfg.Cache == nil || cfg.Sessions == nil || cfg.Assets == nil || cfg.Store == nil || cfg.Digests == nil {
		return nil, errors.New("handlers: service, cache, sessions, assets, store and digests are required")
	}
	defaults(&cfg)
	// Cookies are bound to the service they were made for.
	cfg.Sessions.BindService(cfg.ServiceURL)
	memo, err := session.NewMemo(cfg.Sessions, cfg.SessionMemoBytes)
	if err != nil {
		return nil, err
	}
	clientAddr := middleware.ClientAddress(cfg.TrustedProxies)
	h := &Handler{
		store:    cfg.Store,
		digests:  cfg.Digests,
		webhooks: cfg.Webhooks,
		svc:      cfg.Service,
		cache:    cfg.Cache,
		log:      slog.New(middleware.ClipLogs(cfg.Logger.Handler())),
		now:      cfg.Now,
		site: site{
			sessions:      cfg.Sessions,
			sessionMemo:   memo,
			signOuts:      cfg.SignOuts,
			throttle:      session.NewThrottle(cfg.Attempts, clientAddr),
			secure:        cfg.CookieSecure,
			service:       cfg.ServiceURL,
			clientAddr:    clientAddr,
			trusted:       cfg.TrustedProxies,
			publicURL:     strings.TrimSuffix(cfg.PublicURL, "/"),
			assets:        cfg.Assets,
			urls:          assetURLs(cfg.Assets, cfg.Logger),
			members:       cfg.Team,
			demo:          cfg.Demo,
			sampleLedgers: cfg.SampleLedgers,
		},
		gates: gates{
			calls:        middleware.NewUserSlots(callsPerUser),
			exports:      middleware.NewUserSlots(exportsPerUser),
			backtests:    middleware.NewUserSlots(backtestsPerAnalyst),
			backtestHold: cfg.BacktestHold,
			turns:        middleware.NewTurns(middleware.PageTurns, middleware.PageTurnsPerUser, cfg.PageTurnWait),
			heavy:        &middleware.Gate{PerKey: heavyPerUser, PerGroup: heavyPerTeam},
			imports:      &middleware.Gate{PerKey: importsPerAnalyst, PerGroup: importsPerTeam},
			teamPages:    middleware.NewUserSlots(teamPagesPerAnalyst),
			teamWait:     cfg.PageTurnWait,
			teamPageHold: cfg.TeamPageHold,
			writeTimeout: cfg.PageWriteTimeout,
			exportStall:  cfg.ExportStall,
			wsDeadline:   cfg.WorkspaceDeadline,
		},
		ops: ops{health: cfg.Health, meter: cfg.Meter},
	}
	if h.books, err = newBooks(cfg); err != nil {
		return nil, err
	}
	if cfg.Applications != nil {
		h.apps = cfg.Applications
		h.apply = apply.New(apply.Config{Service: cfg.Applications, Attempts: cfg.Attempts, Secure: cfg.CookieSecure,
			Log: h.log, Assets: views.Assets{CSS: cfg.Assets.URL("css/app.css"), Icon: cfg.Assets.URL("img/favicon.svg")}})
	}
	return h, nil
}

// defaults fills what the configuration leaves out.
func defaults(cfg *Config) {
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
	if cfg.SessionMemoBytes == 0 {
		cfg.SessionMemoBytes = session.DefaultMemoBytes
	}
	if cfg.TeamCacheBytes == 0 {
		cfg.TeamCacheBytes = DefaultTeamCacheBytes
	}
}

// newBooks makes the process's bounded memories.
func newBooks(cfg Config) (books, error) {
	b := books{
		features:    newFeatureBook(),
		providers:   newProviderBook(),
		reportMarks: newReportMarks(),
		arrivals:    alerts.NewArrivals(cfg.Store),
		figuring:    new(singleflight.Group),
	}
	var err error
	if b.wsBook, err = newWorkspaceBook(); err != nil {
		return books{}, err
	}
	if b.teamMarks, err = newTeamMarks(); err != nil {
		return books{}, err
	}
	if b.teamData, err = newTeamCache(cfg.TeamCacheBytes); err != nil {
		return books{}, err
	}
	if b.pages, err = middleware.NewPageCache(cfg.PageCacheBytes); err != nil {
		return books{}, err
	}
	return b, nil
}

// assetURLs are the pages' links to the embedded assets.
func assetURLs(assets *static.Assets, log *slog.Logger) views.Assets {
	u := views.Assets{
		CSS:      assets.URL("css/app.css"),
		Icon:     assets.URL("img/favicon.svg"),
		Charts:   assets.URL("js/charts.js"),
		TZ:       assets.URL("js/tz.js"),
		Print:    assets.URL("js/print.js"),
		Worklist: assets.URL("js/worklist.js"),
		// Read off the main thread: ICU's first load blocked phones.
		TZWorker: assets.URL("js/tz-worker.js"),
		Menu:     assets.URL("js/menu.js"),
	}
	if assets.Has(echartsAsset) {
		u.ECharts = assets.URL(echartsAsset)
	} else {
		log.Warn("echarts is not embedded; charts will not be drawn (run make build)")
	}
	return u
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
