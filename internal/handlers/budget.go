package handlers

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

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
	calls []func(ctx context.Context)
	// always loads the section whatever the budget: the user asked for it
	// (a search they typed).
	always bool
}

// one is a section of a single call.
func one(name string, call func(ctx context.Context)) section {
	return section{name: name, calls: []func(context.Context){call}}
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

// loadSections runs the sections' calls at once. When the user's hourly
// budget is known and too small for every call the cache cannot answer, it
// spends what is left on the sections the user asked for (?load=), then on
// the others in order, and leaves the rest unloaded: their calls then hold
// a *deferredError. Unlimited accounts and accounts whose budget is not
// known yet load everything. It reports true when the whole page was then
// sent from the page cache, and the handler has nothing left to do.
func (h *Handler) loadSections(c *echo.Context, key string, secs ...section) (served bool) {
	ctx := c.Request().Context()
	q, known := h.quota(ctx, key)
	if !known || q.Remaining >= countCalls(secs) {
		h.runSections(ctx, secs)
		return h.servedFromPageCache(c, nil)
	}
	// Probe the cache only: each section's calls store a deferredError of
	// their own where a copy is missing, and its recorder counts them.
	deferred := make([]*deferredError, len(secs))
	recs := make([]*cache.Recorder, len(secs))
	var probes []func()
	for i, s := range secs {
		deferred[i] = &deferredError{section: s.name}
		pctx, rec := cache.Record(cache.ProbeWith(ctx, deferred[i]))
		recs[i] = rec
		for _, call := range s.calls {
			probes = append(probes, func() { call(pctx) })
		}
	}
	fanOut(probes...)

	asked := requestedSections(c)
	left := q.Remaining
	load := make([]bool, len(secs))
	take := func(i int, force bool) {
		if cost := recs[i].Misses(); cost <= left || force {
			load[i], left = true, max(left-cost, 0)
		}
	}
	// First what the user asked for, whatever it costs: they were told.
	for i, s := range secs {
		if asked[s.name] || asked["all"] || s.always {
			take(i, true)
		}
	}
	for i := range secs {
		if !load[i] {
			take(i, false)
		}
	}
	var run []section
	for i, s := range secs {
		if load[i] {
			run = append(run, s)
			continue
		}
		d := deferred[i]
		d.cost, d.left, d.renewsAt = recs[i].Misses(), left, q.RenewsAt()
		d.loadURL = withLoad(c.Request().URL, s.name)
	}
	h.runSections(ctx, run)
	return h.servedFromPageCache(c, deferred)
}

// runSections runs the sections' calls. When the cache holds every answer,
// they are read one after another on this goroutine: starting goroutines
// would cost more than the reads.
func (h *Handler) runSections(ctx context.Context, secs []section) {
	if h.cached {
		pctx, probe := cache.Record(cache.Probe(ctx))
		for _, s := range secs {
			for _, call := range s.calls {
				call(pctx)
			}
		}
		if probe.Misses() == 0 {
			cache.RecorderOf(ctx).Absorb(probe)
			return
		}
	}
	var calls []func()
	for _, s := range secs {
		for _, call := range s.calls {
			calls = append(calls, func() { call(ctx) })
		}
	}
	fanOut(calls...)
}

func countCalls(secs []section) int {
	n := 0
	for _, s := range secs {
		n += len(s.calls)
	}
	return n
}

// requestedSections reads ?load=a,b (or load=all): sections the user asked
// to load with the "Load" link.
func requestedSections(c *echo.Context) map[string]bool {
	asked := map[string]bool{}
	for _, v := range c.Request().URL.Query()["load"] {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" && len(asked) < 16 {
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
	q.Del("refresh")
	return u.Path + "?" + q.Encode()
}

// problem tells the user why the section is not shown and what loading it
// would cost.
func (e *deferredError) problem() *views.Problem {
	p := &views.Problem{Status: http.StatusOK, Title: "Not loaded, to save requests", Deferred: true, RenewsAt: e.renewsAt}
	uses := views.Plural(e.cost, "request")
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
