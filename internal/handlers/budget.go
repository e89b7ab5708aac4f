package handlers

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
)

// section is one part of a page and the service calls behind it. A page
// lists its sections in its order of importance: with a small hourly
// budget, the first ones are loaded and the rest wait for the user.
type section struct {
	// name identifies the section in ?load= links.
	name string
	// calls each store their own result and error.
	calls []func(ctx context.Context, src Source)
	// always loads the section whatever the budget: the user asked for it
	// (a search they typed).
	always bool
}

// one is a section of a single call.
func one(name string, call func(ctx context.Context, src Source)) section {
	return section{name: name, calls: []func(context.Context, Source){call}}
}

// deferredError stands in for the results of a section left unloaded to
// save the hourly budget; sectionProblem turns it into a "Load" link.
type deferredError struct {
	section  string
	cost     int // requests a load would spend
	left     int // requests left this hour
	renewsAt time.Time
	loadURL  string // the page asking to load this section too
}

func (e *deferredError) Error() string {
	return "handlers: section " + e.section + " left unloaded to save requests"
}

// plan is what a page loads now and what it offers as "Load" links: per
// section left unloaded, what loading it would cost.
type plan = middleware.Plan[*deferredError]

// runSections runs every call of secs once (see middleware.RunSections)
// and returns the plan decide made and how many copies the calls fetched.
func (h *Handler) runSections(ctx context.Context, rd *cache.Reader, gate func(*cache.Reader) Source, secs []section, decide func(costs []int) plan) (plan, int) {
	calls := make([][]func(context.Context, Source), len(secs))
	for i, sec := range secs {
		calls[i] = sec.calls
	}
	return middleware.RunSections(ctx, rd, gate, calls, decide, h.calls, maxParallel)
}

// loaded is what a page's sections read: the reader, which knows when
// the data was fetched and which copies it came from, and the sections
// offered instead of loaded.
type loaded struct {
	rd     *cache.Reader
	offers []*deferredError
	// also fingerprints copies the page showed from the cache alone
	// (see reportNews): they are part of the page's key. alsoDeps are
	// those copies for the kept-first path (render.go), alsoLost set when too many to note.
	also     uint64
	alsoDeps []cache.Dep
	alsoLost bool
	// state is what the page shows of the workspace beyond the analyst's
	// last change here (the home page's changed marks): part of the page's
	// key too.
	state string
	// partial is set when a read of the team's or the analyst's data
	// failed while the page was built: it shows without that part and is
	// not kept.
	partial bool
	// counts are the header's counts, read once for the page's key and
	// its Base (workspace.go).
	counts *headerCounts
	// team is the team's version as the page read it (teamOf).
	team *teamState
}

// allOffered is every section the page left unloaded offered as one, for
// a page that is of no use until all of them are loaded: its Load link
// asks for all of them and names their total cost. ok is false when
// nothing was left unloaded.
func (ld *loaded) allOffered(c *echo.Context) (all deferredError, ok bool) {
	if ld == nil || len(ld.offers) == 0 {
		return deferredError{}, false
	}
	all = *ld.offers[0]
	all.cost = 0
	for _, o := range ld.offers {
		all.cost += o.cost
	}
	all.section, all.loadURL = "all", withLoad(pageURL(c), "all")
	return all, true
}

// load plans the sections within the user's hourly budget and runs what
// the plan loads. Sections left out hold a *deferredError in their results.
// It never writes the response: the handler renders what it returns.
func (h *Handler) load(c *echo.Context, secs ...section) *loaded {
	return h.loadWithin(c, 0, secs...)
}

// shortBudget is how many times a page's full cost an account must have
// left for its budget not to count as short (see loadWithin).
const shortBudget = 4

// loadWithin is load spending at most spend requests when the budget is
// short: fewer left than shortBudget times the page's full cost (an
// Ordinary account's ten an hour always are). The rest is offered with
// Load links. spend 0 is no cap. When the budget is not known yet (the
// first page after sign-in), the first section is loaded alone to learn
// it, so the cap holds from the first page on.
func (h *Handler) loadWithin(c *echo.Context, spend int, secs ...section) *loaded {
	ctx := c.Request().Context()
	s := session.Must(c)
	rd := h.cache.Reader(cache.Who{User: s.User, Key: s.Key})
	gate := h.features.gate(s.User)
	q, known := h.cache.Quota(s.User)
	spent, full := 0, countCalls(secs)
	if spend > 0 && !known && len(secs) > 1 {
		// The first section is read here; the plan is for the rest.
		_, spent = h.runSections(ctx, rd, gate, secs[:1], nil)
		secs = secs[1:]
		q, known = h.cache.Quota(s.User)
	}
	short := spend > 0 && known && q.Limit > 0 && q.Remaining < shortBudget*full
	if !known || (!short && q.Remaining >= countCalls(secs)) {
		h.runSections(ctx, rd, gate, secs, nil)
		return &loaded{rd: rd}
	}
	real := q.Remaining
	if short {
		q.Remaining = min(q.Remaining, max(spend-spent, 0))
	}
	asked := requestedSections(c)
	p, _ := h.runSections(ctx, rd, gate, secs, func(costs []int) plan { return planWithin(q, asked, secs, costs) })
	ld := &loaded{rd: rd}
	for i, o := range p.Offers {
		if o == nil {
			continue
		}
		// The cap is the page's choice, not the account's limit: an offer
		// names what is really left, and can be taken.
		o.left += real - q.Remaining
		o.loadURL = withLoad(pageURL(c), secs[i].name)
		ld.offers = append(ld.offers, o)
	}
	return ld
}

// planWithin decides which sections a budget of q.Remaining requests loads,
// given what each would fetch (costs): first those the user asked for
// (they were told the cost), then the others in order, each only if it
// still fits. An unloaded section keeps whatever the cache held for it and
// its offer for the rest.
func planWithin(q upstream.RateLimit, asked map[string]bool, secs []section, costs []int) plan {
	p := plan{Load: make([]bool, len(secs)), Offers: make([]*deferredError, len(secs))}
	left := q.Remaining
	take := func(i int, force bool) {
		if costs[i] <= left || force {
			p.Load[i], left = true, max(left-costs[i], 0)
		}
	}
	for i, sec := range secs {
		if asked[sec.name] || asked["all"] || sec.always {
			take(i, true)
		}
	}
	for i := range secs {
		if !p.Load[i] {
			take(i, false)
		}
	}
	for i, sec := range secs {
		if !p.Load[i] {
			p.Offers[i] = &deferredError{section: sec.name, cost: costs[i], left: left, renewsAt: q.RenewsAt()}
		}
	}
	return p
}

func countCalls(secs []section) int {
	n := 0
	for _, s := range secs {
		n += len(s.calls)
	}
	return n
}

// maxAsked bounds the section names read from ?load=.
const maxAsked = 16

// requestedSections reads ?load=a,b (or load=all): sections the user asked
// to load with the "Load" link.
func requestedSections(c *echo.Context) map[string]bool {
	asked := map[string]bool{}
	for _, v := range c.Request().URL.Query()["load"] {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" && len(asked) < maxAsked {
				asked[name] = true
			}
		}
	}
	return asked
}

// withLoad is the page's URL asking to load one more section.
func withLoad(u *url.URL, name string) string {
	q := u.Query()
	names := strings.Split(q.Get("load"), ",")
	if !slices.Contains(names, name) {
		names = append(names, name)
	}
	q.Set("load", strings.Trim(strings.Join(names, ","), ","))
	return u.Path + "?" + q.Encode()
}

// problem tells the user why the section is not shown and what loading it
// would cost.
func (e *deferredError) problem() *views.Problem {
	p := &views.Problem{Status: http.StatusOK, Title: "Not loaded, to save requests", Deferred: true, RenewsAt: e.renewsAt}
	uses := views.Plural(e.cost, "request")
	if e.left < e.cost {
		// A Load link would be refused: the page's one notice says when
		// the limit renews, and the box stays a line.
		p.Waiting = true
		p.Message = "Your account has " + views.Plural(e.left, "request") + " left this hour; loading this section uses " + uses +
			", so it can be loaded once the limit renews."
		return p
	}
	if e.left == 0 {
		p.Message = "Your account has no requests left this hour; loading this section uses " + uses +
			", so it is best loaded once the limit renews."
	} else {
		p.Message = "The requests your account has left this hour went to the sections above; " +
			views.Plural(e.left, "request") + " left, and loading this section uses " + uses + "."
	}
	p.ActionURL, p.ActionText = e.loadURL, "Load (uses "+uses+")"
	return p
}
