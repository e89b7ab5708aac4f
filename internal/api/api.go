// Package api is /api/v1: the team's accounts, limits, decisions, ledgers,
// credit applications and alerts as JSON for the team's other systems (an ERP, a collections
// tool). It authenticates with personal access tokens (bearer, never a
// cookie, so it has no session and no CSRF token), answers every failure
// as an RFC 9457 problem (application/problem+json), and documents itself
// in openapi.json, which the tests hold every answer to.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// Prefix is where the API lives; every path under it is the API's, its
// errors included (see Owns).
const Prefix = "/api/v1"

// LedgersPath takes a ledger file: its body may be as large as the
// import page's file.
const LedgersPath = Prefix + "/ledgers"

// Config is what the API is built from; the handlers' routes pass it.
type Config struct {
	Store *store.Store
	// Service names the team (store.Analyst.Service).
	Service string
	// Member is a member's role and authority as they are now: a token
	// acts with them, whatever they were when it was made.
	Member func(ctx context.Context, user string) roles.Assignment
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	Log *slog.Logger
}

// API serves /api/v1.
type API struct {
	store   *store.Store
	service string
	member  func(ctx context.Context, user string) roles.Assignment
	now     func() time.Time
	log     *slog.Logger
	// rates bounds each token's requests (rate.go).
	rates *rateBook
	// imports bounds the ledger files read at once across the API: each
	// may hold 10 MB and its lines.
	imports chan struct{}
}

// maxImports is how many ledger pushes are read at once.
const maxImports = 2

// Register adds the API's routes to e: the document without a token,
// everything else behind one. Every route is written out here.
func Register(e *echo.Echo, cfg Config) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	a := &API{store: cfg.Store, service: cfg.Service, member: cfg.Member, now: cfg.Now, log: cfg.Log,
		rates: newRateBook(), imports: make(chan struct{}, maxImports)}
	e.GET(Prefix+"/openapi.json", showDocument)
	// Each route names its middleware: a group's would run before the
	// group's unknown paths too.
	auth := a.authenticate
	e.GET(Prefix+"/accounts", a.listAccounts, auth)
	e.GET(Prefix+"/accounts/:account", a.showAccount, auth)
	e.GET(Prefix+"/decisions", a.listDecisions, auth)
	e.GET(Prefix+"/decisions/:id", a.showDecision, auth)
	e.POST(Prefix+"/limit-requests", a.submitLimitRequest, auth)
	e.POST(LedgersPath, a.submitLedger, auth)
	e.GET(Prefix+"/alerts", a.listAlerts, auth)
	e.GET(Prefix+"/applications", a.listApplications, auth)
	e.GET(Prefix+"/applications/:id", a.showApplication, auth)
	// Without its own, an unknown path of the API would fall to the
	// pages' (a redirect to sign in). It also answers a known path's
	// other methods: 405 with Allow (methods.go).
	e.RouteNotFound(Prefix+"/*", routeMissing)
}

// Owns says the path is the API's, so its errors are problems, not pages.
func Owns(path string) bool {
	return path == Prefix || len(path) > len(Prefix) && path[:len(Prefix)+1] == Prefix+"/"
}

// analyst is the token holder as the store keys them.
func (a *API) analyst(c *echo.Context) store.Analyst {
	return store.Analyst{Service: a.service, User: tokenOf(c).User}
}

// may checks the token holder's role for act; a refusal of a change is
// logged in the team's audit trail as the pages log theirs.
func (a *API) may(c *echo.Context, act roles.Action) error {
	t := tokenOf(c)
	m := a.member(c.Request().Context(), t.User)
	if m.Role.May(act) {
		return nil
	}
	if act != roles.Read {
		if _, err := a.store.AppendRefusal(c.Request().Context(), a.service, store.AuditChange{Actor: t.User,
			NewValue: string(act) + " " + c.Request().Method + " " + c.Request().URL.Path, Reason: m.Role.Rule(act)}); err != nil {
			return err
		}
	}
	return problem(http.StatusForbidden, "%s is %s of this team: %s Nothing was changed.", t.User, m.Role, m.Role.Rule(act))
}
