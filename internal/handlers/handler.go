// Package handlers is the dashboard's HTTP layer: routes, middleware, sign-in,
// and one handler per page. Handlers parse input, call the service through
// the Service interface, hand results to internal/views and render a
// template from templates/.
package handlers

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/maypok86/otter/v2"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
	"creditdash/static"
)

// Service is what the handlers need from the credit-risk service: the
// upstream client, or a cache in front of it.
type Service interface {
	Login(ctx context.Context, username, password string) (upstream.LoginResult, error)
	Search(ctx context.Context, key, text string, count int) ([]upstream.SearchResult, error)
	IdentificationGroup(ctx context.Context, key string, ref upstream.BusinessRef) (upstream.Identification, error)

	// Business report (issue 4).
	NAICSCodes(ctx context.Context, key string, ref upstream.BusinessRef) ([]upstream.NAICSCode, error)
	Summary(ctx context.Context, key string, ref upstream.BusinessRef) (upstream.BusinessSummary, error)
	CreditScoreHistory(ctx context.Context, key string, ref upstream.BusinessRef, from, to time.Time) ([]upstream.CreditScoreHistoryRow, error)
	RiskHistory(ctx context.Context, key string, ref upstream.BusinessRef, count int) ([]upstream.RiskHistoryRow, error)
	PaymentSummaryMonthly(ctx context.Context, key string, ref upstream.BusinessRef) ([]upstream.PaymentSummaryRow, error)
	PaymentSummarySIC(ctx context.Context, key string, ref upstream.BusinessRef) ([]upstream.PaymentSummaryRow, error)
	LatestAnnualStatements(ctx context.Context, key string, ref upstream.BusinessRef, sq upstream.StatementsQuery) ([]upstream.AnnualFinancials, error)
	WordFill(ctx context.Context, key string, ref upstream.BusinessRef) (upstream.WordFill, error)
	Officers(ctx context.Context, key string, ref upstream.BusinessRef) ([]upstream.Officer, error)

	// Portfolio, news, trade providers and export (issue 5).
	Folders(ctx context.Context, key string) ([]upstream.Folder, error)
	PortfolioBusinesses(ctx context.Context, key string, folderID int) ([]upstream.PortfolioBusiness, error)
	PayScoreHistory(ctx context.Context, key string, pq upstream.PortfolioQuery) (upstream.PortfolioScoreHistory, error)
	ZScoreHistory(ctx context.Context, key string, pq upstream.PortfolioQuery) (upstream.PortfolioScoreHistory, error)
	FolderNews(ctx context.Context, key string, folderID int) ([]upstream.NewsItem, error)
	IndustryNews(ctx context.Context, key string) ([]upstream.NewsItem, error)
	TradeProviders(ctx context.Context, key string) (upstream.TradeProviders, error)
	SetTradeProvider(ctx context.Context, key, providerID string) (string, error)
	Download(ctx context.Context, key string, dq upstream.DownloadQuery) (*upstream.Download, error)
}

// Config is what the handlers are built from; cmd/web wires it.
type Config struct {
	Service  Service
	Sessions *SessionStore
	Assets   *static.Assets
	Logger   *slog.Logger
	// Quotas reports each user's hourly budget (the cache); nil when the
	// service is used without one.
	Quotas QuotaSource
	// Ready checks that the service answers, for /readyz.
	Ready func(ctx context.Context) error
	// CookieSecure marks the CSRF cookie Secure, like the session cookie.
	CookieSecure bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Handler serves every page of the dashboard.
type Handler struct {
	svc       Service
	sessions  *SessionStore
	assets    *static.Assets
	log       *slog.Logger
	ready     func(ctx context.Context) error
	secure    bool
	now       func() time.Time
	urls      views.Assets
	quotas    QuotaSource
	refreshes refreshBook
	// cached is true when the service is the cache, which can answer
	// from memory without a request.
	cached bool
	// pages keeps rendered pages (see pagecache.go); marker stands in for
	// the CSP nonce while a page renders.
	pages  *otter.Cache[pageKey, *splicedPage]
	marker string
	// searchMissing is set once the service says it has no search operation.
	searchMissing atomic.Bool
}

// New checks the configuration and builds the handlers.
func New(cfg Config) (*Handler, error) {
	if cfg.Service == nil || cfg.Sessions == nil || cfg.Assets == nil {
		return nil, errors.New("handlers: service, sessions and assets are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Ready == nil {
		cfg.Ready = func(context.Context) error { return nil }
	}
	h := &Handler{
		svc:      cfg.Service,
		sessions: cfg.Sessions,
		assets:   cfg.Assets,
		log:      cfg.Logger,
		ready:    cfg.Ready,
		quotas:   cfg.Quotas,
		secure:   cfg.CookieSecure,
		now:      cfg.Now,
	}
	_, h.cached = cfg.Service.(*cache.Cache)
	var err error
	if h.pages, err = newPageCache(32 << 20); err != nil {
		return nil, err
	}
	// A marker no page can contain by chance: it is cut out of every page.
	h.marker = "nonce-" + rand.Text()
	h.urls = views.Assets{
		CSS:    cfg.Assets.URL("css/app.css"),
		Icon:   cfg.Assets.URL("img/favicon.svg"),
		Charts: cfg.Assets.URL("js/charts.js"),
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
