package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/api"
	"creditdash/internal/apply"
	"creditdash/internal/ledger"
	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Bounds on what a request may carry. The server itself admits headers up
// to a megabyte, so that these answers, not Go's bare ones, carry the
// security headers.
const (
	maxHeaderBytes = 64 << 10  // far more than any browser sends
	maxBodyBytes   = 256 << 10 // a form: the longest note is 40 kB
)

// limitRequests refuses a request whose headers or body are larger than any
// page's forms need: 431 and 413, as pages.
func (h *Handler) limitRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		size := len(r.RequestURI)
		for k, vs := range r.Header {
			for _, v := range vs {
				size += len(k) + len(v) + 4
			}
		}
		if size > maxHeaderBytes {
			return echo.NewHTTPError(http.StatusRequestHeaderFieldsTooLarge, "request headers too large")
		}
		limit := int64(maxBodyBytes)
		if r.Method == http.MethodPost && (r.URL.Path == importPath || r.URL.Path == api.LedgersPath) {
			limit = maxUploadBodyBytes // a ledger file (accounts_import.go)
		}
		if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/apply/") {
			limit = apply.MaxBody // an application with one document
		}
		if r.ContentLength > limit {
			if limit == maxUploadBodyBytes {
				return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "The file is over 10 MB; nothing was imported.")
			}
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		return next(c)
	}
}

// signInTime is the sign-in time a new session of user records (see
// session.SignInTime).
func (h *Handler) signInTime(ctx context.Context, user string) time.Time {
	return session.SignInTime(ctx, h.signOuts, h.now(), user)
}

// requireSignIn sends signed-out visitors to the sign-in page, remembering
// the page they asked for so they land on it afterwards.
func (h *Handler) requireSignIn(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if _, ok := session.Of(c); ok {
			return next(c)
		}
		return c.Redirect(http.StatusSeeOther, loginURL(returnPath(c.Request()), ""))
	}
}

// loginURL builds /login with a safe next and an optional reason.
func loginURL(next, reason string) string {
	q := url.Values{}
	if n := middleware.SafePath(next); n != "/" {
		q.Set("next", n)
	}
	if reason != "" {
		q.Set("reason", reason)
	}
	if len(q) == 0 {
		return "/login"
	}
	return "/login?" + q.Encode()
}

// Signed-in GETs asked for from another site answer with a page that
// offers the same request as a button (see session.SameSiteGETs); this
// file says what each such page says.

// crossSite says what a guarded GET would do, for its stand-in page.
type crossSite struct {
	title, why, button string
}

// sameSiteOnly guards one GET with its own message.
func (h *Handler) sameSiteOnly(what crossSite) echo.MiddlewareFunc {
	return session.SameSiteOnly(func(c *echo.Context) error { return h.offerButton(c, what) })
}

// sameSitePages guards every signed-in GET; the messages of crossSitePages
// say what the better-known ones would do.
func (h *Handler) sameSitePages() echo.MiddlewareFunc {
	return session.SameSiteGETs(func(c *echo.Context) error {
		what, ok := crossSitePages[c.Path()]
		if !ok {
			what = crossSitePage
		}
		return h.offerButton(c, what)
	})
}

// offerButton answers a guarded GET from another site with the stand-in
// page: the same path and query as a form whose button asks again.
func (h *Handler) offerButton(c *echo.Context, what crossSite) error {
	r := c.Request()
	v := views.CrossSitePage{Title: what.title, Why: what.why, Button: what.button, Path: middleware.SafePath(r.URL.Path)}
	q := r.URL.Query()
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, value := range q[name] {
			v.Fields = append(v.Fields, views.Field{Name: name, Value: value})
		}
	}
	return h.render(c, http.StatusForbidden, templates.CrossSite(h.base(c, nil, what.title, views.NavNone), v))
}

// The guarded GETs' messages.
var (
	crossSiteExport = crossSite{
		title:  "Download the export?",
		why:    "The export uses one request of your hourly budget.",
		button: "Download",
	}
	crossSiteReport = crossSite{
		title:  "Open the report?",
		why:    "A link from another site led here. Opening the report may use requests of your hourly budget and records the scores it shows for your team.",
		button: "Open the report",
	}
	crossSitePage = crossSite{
		title:  "Open the page?",
		why:    "A link from another site led here. Pages may use requests of your hourly budget or remember what you have seen, so the dashboard asks first.",
		button: "Open the page",
	}
	// crossSitePages are the messages of the pages linked to most, by
	// route; any other signed-in page gets crossSitePage.
	crossSitePages = map[string]crossSite{
		"/": {
			title:  "Open the home page?",
			why:    "The home page remembers the scores you have seen, to show what changed on your next visit.",
			button: "Open the home page",
		},
		"/businesses/:id":                   crossSiteReport,
		"/businesses/:id/payments":          crossSiteReport,
		"/businesses/:id/financials":        crossSiteReport,
		"/businesses/:id/officers":          crossSiteReport,
		"/customers/:customerId":            crossSiteReport,
		"/customers/:customerId/payments":   crossSiteReport,
		"/customers/:customerId/financials": crossSiteReport,
		"/customers/:customerId/officers":   crossSiteReport,
		"/suppliers/:supplierId":            crossSiteReport,
		"/suppliers/:supplierId/payments":   crossSiteReport,
		"/suppliers/:supplierId/financials": crossSiteReport,
		"/suppliers/:supplierId/officers":   crossSiteReport,
	}
)

// Health is the replica's state as background checks last saw it (see
// internal/health): /readyz answers from it at once and asks no one.
type Health interface {
	// Readiness tells whether the replica should get pages, and why in
	// one public line.
	Readiness() (ready bool, detail string)
}

// alwaysReady is the Health of a handler built without one.
type alwaysReady struct{}

// Readiness is always "ready".
func (alwaysReady) Readiness() (bool, string) { return true, "ready" }

// showHealth answers as long as the process serves requests: liveness only,
// it asks nothing of anyone.
func (h *Handler) showHealth(c *echo.Context) error {
	return c.String(http.StatusOK, "ok\n")
}

// showReady answers whether this replica should get pages: 503 while it
// drains for a shutdown or when its own workspace file is corrupt, 200
// otherwise, saying "degraded" when a dependency every replica shares is
// down (the workspace database, the shared store, the service): failing
// then would drop every replica together, although cached reports,
// portfolio and news still answer. Public and cheap: the last results of
// the background checks.
func (h *Handler) showReady(c *echo.Context) error {
	ready, detail := h.health.Readiness()
	if !ready {
		return c.String(http.StatusServiceUnavailable, detail+"\n")
	}
	return c.String(http.StatusOK, detail+"\n")
}

// Stats are the handlers' figures for operators: internal/metrics exposes
// them and cmd/web logs them when a shutdown cuts work.
type Stats struct {
	// InFlight are the requests being answered, downloads included.
	InFlight int64
	// PagesWaiting wait for a turn; PagesPreparing hold one (see
	// middleware.Turns); BusyRefusals are the pages that waited too long and
	// said the dashboard is busy.
	PagesWaiting   int64
	PagesPreparing int
	BusyRefusals   uint64
	// The page cache's reads that found a kept page or not, the pages it
	// dropped for room, and its bytes.
	PageCacheHits, PageCacheMisses, PageCacheEvictions uint64
	PageCacheBytes                                     uint64
	// ExportsInFlight are portfolio exports streaming now.
	ExportsInFlight int64
	// AuditWalks are the verifications of the audit trail that read it
	// through (the others answered from a kept verdict or shared one).
	AuditWalks uint64
	// Validations are the policy validations worked out; a page or
	// download at a team version already validated reads the kept one.
	Validations uint64
	// TeamFiguresWorkedOut are the team's figures worked out whole from
	// the ledger; a page at a team version already worked out reads the
	// kept ones. TeamFiguresUpdated are those brought forward by working
	// out only the accounts writes touched. TeamCacheBytes is what the team's kept results weigh, within
	// their own share of CACHE_MB.
	TeamFiguresWorkedOut uint64
	TeamFiguresUpdated   uint64
	TeamCacheBytes       uint64
}

// Stats returns the figures now.
func (h *Handler) Stats() Stats {
	pc := h.pages.Stats()
	return Stats{
		InFlight:             h.inFlight.Load(),
		PagesWaiting:         h.turns.Waiting(),
		PagesPreparing:       h.turns.Preparing(),
		BusyRefusals:         h.turns.Busy(),
		PageCacheHits:        pc.Hits,
		PageCacheMisses:      pc.Misses,
		PageCacheEvictions:   pc.Evictions,
		PageCacheBytes:       pc.Bytes,
		ExportsInFlight:      h.exportsRunning.Load(),
		AuditWalks:           h.verdict.walks.Load(),
		Validations:          h.validations.Load(),
		TeamFiguresWorkedOut: h.figuresWorked.Load(),
		TeamFiguresUpdated:   h.figuresUpdated.Load(),
		TeamCacheBytes:       h.teamData.WeightedSize(),
	}
}

// The team's downloads (/accounts.csv, .xlsx, /portfolio/exposure.csv)
// build every account's figures: at 50,000 accounts, twenty at once took
// close to a gigabyte and turned other people's pages into 503s. They run
// a bounded number at once, per analyst and for the team; one past the
// bound is told at once to wait for the one running (429 with
// Retry-After), so it holds no memory and no admission turn of anyone else.
const (
	// heavyPerUser is how many of one analyst's downloads run at once.
	heavyPerUser = 1
	// heavyPerTeam is how many of the team's run at once.
	heavyPerTeam = 2
	// heavyRetry is when to try again: a download takes seconds.
	heavyRetry = 5 * time.Second
)

// errHeavyBusy is a download refused while others run.
var errHeavyBusy = errors.New("handlers: team downloads busy")

// boundHeavy runs a team download within the gate's bounds.
func (h *Handler) boundHeavy(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		leave, full := h.heavy.Enter("", session.Must(c).User)
		if leave == nil {
			msg := "Your earlier download of the team's accounts is still being prepared: one runs at a time for each analyst. Wait for it to finish, then try again."
			if full == middleware.GroupFull {
				msg = "Two downloads of the team's accounts are being prepared for colleagues just now. Wait a few seconds, then try again."
			}
			return &shownProblem{err: errHeavyBusy, problem: views.Problem{Status: http.StatusTooManyRequests,
				Title: "Wait for the download being prepared", Message: msg, Retry: true, RenewsAt: h.now().Add(heavyRetry)}}
		}
		defer leave()
		return next(c)
	}
}

// Bounds of the imports read at once: a file costs up to its bound in
// memory while it is read, so a team's analysts share two reads and each
// has one (issue 47).
const (
	importsPerTeam    = 2
	importsPerAnalyst = 1
)

// importRetryAfter is the Retry-After of an import told to wait, in
// seconds: a 50,000-row file is read in a few.
const importRetryAfter = "5"

// importTurnKey is where takeImportTurn leaves an upload's turn for the
// handler (importTurn).
const importTurnKey = "handlers.importTurn"

// turn is an upload's place among the imports read at once: wait says
// why it has none; file is the file it sent, read by takeImportTurn.
type turn struct {
	wait string
	file *session.UploadFile
}

// takeImportTurn takes an upload's place among the imports read at once
// when it arrives, before its body is read, and keeps it to the answer: a
// file being received and parsed costs its memory as much as one being
// read. The body is then read in one pass (session.ReadUpload), the file
// into one buffer of its size. One sent while the place is taken (the
// same analyst's import runs, say) keeps no file at all: its fields are
// read for the CSRF check and the page (the date typed is kept), its file
// read through and dropped, and the handler answers 429 (issue 47.2: six
// 50,000-row previews sent at once cost six files' parsing, five of them
// only to be told to wait). Users whose role may not import take no place.
func (h *Handler) takeImportTurn(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		s, ok := session.Of(c)
		if c.Request().Method != http.MethodPost || c.Request().URL.Path != importPath || !ok ||
			!h.rolesNow(c).Of(s.User).Role.May(actionOf(c)) {
			return next(c)
		}
		leave, wait := h.enterImport(c, h.analyst(c))
		if leave != nil {
			defer leave()
		}
		field := "file"
		if wait != "" {
			field = ""
		}
		file, err := session.ReadUpload(c, field, ledger.MaxFileBytes)
		if err != nil {
			return err
		}
		c.Set(importTurnKey, turn{wait: wait, file: file})
		return next(c)
	}
}

// importTurn is the place takeImportTurn took for this upload, with the
// file it read (leave does nothing: the middleware gives the place back),
// or why there is none; for a request that came another way, a place taken
// now and no file read.
func (h *Handler) importTurn(c *echo.Context, a store.Analyst) (leave func(), file *session.UploadFile, wait string) {
	if t, ok := c.Get(importTurnKey).(turn); ok {
		return func() {}, t.file, t.wait
	}
	leave, wait = h.enterImport(c, a)
	return leave, nil, wait
}

// enterImport takes a place for a's import in the gate, or says why
// there is none, telling the analyst to wait (and the browser when to
// come back); leave gives the place back.
func (h *Handler) enterImport(c *echo.Context, a store.Analyst) (leave func(), wait string) {
	leave, full := h.imports.Enter(a.Service, a.User)
	switch full {
	case middleware.KeyFull:
		wait = "Another file of yours is being read; wait for it to finish, then send this one again."
	case middleware.GroupFull:
		wait = "Two files of the team are being read; wait a moment for one to finish, then send this one again."
	default:
		return leave, ""
	}
	c.Response().Header().Set("Retry-After", importRetryAfter)
	return nil, wait
}

// The team's pages at 50,000 accounts (/accounts, /portfolio/exposure,
// /reviews, /worklist, /audit/verify) each work through the whole team:
// one analyst asking for twenty at once took both cores and put another
// user's pages at 34-44 times their median (make loadtest, figure 7).
// An analyst's team pages run one at a time, the others waiting in that
// analyst's own queue, outside the pages' turns, so they hold nothing of
// anyone else's; one that waits the page's turn wait (PageTurnWait) is
// told to come back (429 with Retry-After). Another analyst's pages never
// wait in that queue.
const (
	// teamPagesPerAnalyst is how many of one analyst's team pages run at
	// once: a browser's user reads one at a time.
	teamPagesPerAnalyst = 1
	// teamPageRetry is when to try again.
	teamPageRetry = 5 * time.Second
)

// errTeamPageBusy is a team page that waited too long behind the same
// analyst's others.
var errTeamPageBusy = errors.New("handlers: the analyst's team pages are busy")

// oneTeamPage runs an analyst's team pages one at a time (see
// teamPagesPerAnalyst).
func (h *Handler) oneTeamPage(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		a := h.analyst(c)
		key := a.Service + "\x00" + a.User
		release, ok := h.teamPages.TryAcquire(key)
		if !ok {
			ctx, cancel := context.WithTimeout(c.Request().Context(), h.teamWait)
			var err error
			release, err = h.teamPages.Acquire(ctx, key)
			cancel()
			if err != nil {
				if cerr := c.Request().Context().Err(); cerr != nil {
					return cerr // the analyst left
				}
				return &shownProblem{err: errTeamPageBusy, problem: views.Problem{Status: http.StatusTooManyRequests,
					Title:    "Wait for your other page of the team",
					Message:  "Pages that go through all of the team's accounts are prepared one at a time for each analyst, and yours are still being prepared. Wait for them, then try again.",
					Retry:    true,
					RenewsAt: h.now().Add(teamPageRetry)}}
			}
		}
		defer release()
		if h.teamPageHold != nil {
			h.teamPageHold()
		}
		return next(c)
	}
}

// A page reads the workspace several times (unread alerts, the watch
// state, notes, rules, last-seen marks), and each read is bounded by the
// store. A database that stops answering would then cost each of them the
// whole bound in turn: 15–20 s for a report. Instead a page's workspace
// reads share one deadline, counted from the first: past it every further
// read fails at once, its section shows its problem, and the page renders
// with the service's data all the same. Form writes keep the store's own
// bound: a note being saved deserves its full chance.

// defaultWorkspaceDeadline is a page's time for all its workspace reads.
const defaultWorkspaceDeadline = 1500 * time.Millisecond

// wsCtx is the context a page's workspace reads share: the request's,
// with one deadline set at the first read. A page whose reads are all
// answered in process (the team's version, the counts it keeps) asks for
// the context but never starts its timer: that was a twentieth of a kept
// page's time.
func (h *Handler) wsCtx(c *echo.Context) context.Context {
	st := stateOf(c)
	if st.ws == nil {
		st.ws = middleware.FirstReadDeadline(c.Request().Context(), h.wsDeadline)
	}
	return st.ws
}
