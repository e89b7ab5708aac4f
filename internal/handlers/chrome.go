package handlers

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
)

// QuotaSource reports a user's hourly request budget as the service last
// reported it; the cache keeps it.
type QuotaSource interface {
	Quota(ctx context.Context, sessionKey string) (upstream.RateLimit, bool)
}

// Keys of the per-request page state on the echo context.
const (
	ctxRecorder = "recorder"
	ctxChrome   = "chrome"
)

// chrome is the part of the layout known only once a page's calls are done:
// when its data was fetched and the quota left. base hands out pointers to
// it; render fills them in.
type chrome struct {
	fresh *views.Freshness
	quota *views.Quota
}

// trackPage prepares a signed-in request for the cache: whose copies it may
// use, a recorder of how its calls were answered, and a one-time bypass
// when the user asked to refresh the page.
func (h *Handler) trackPage(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		s := mustSession(c)
		r := c.Request()
		if r.Method == http.MethodGet && r.URL.Query().Get("refresh") == "1" {
			// Refresh once: remember it and go to the plain URL, so that
			// reloading that page later uses the cache again.
			clean := withoutParam(r.URL, "refresh")
			h.refreshes.arm(s.User, clean, h.now())
			return redirect(c, clean)
		}
		ctx := cache.WithUser(r.Context(), s.User)
		if r.Method == http.MethodGet && h.refreshes.take(s.User, r.URL.RequestURI(), h.now()) {
			ctx = cache.Bypass(ctx)
		}
		ctx, rec := cache.Record(ctx)
		c.Set(ctxRecorder, rec)
		c.SetRequest(r.WithContext(ctx))
		return next(c)
	}
}

// quota returns the user's budget, when known and limited.
func (h *Handler) quota(ctx context.Context, key string) (upstream.RateLimit, bool) {
	if h.quotas == nil {
		return upstream.RateLimit{}, false
	}
	return h.quotas.Quota(ctx, key)
}

// finishChrome fills the layout's freshness line and quota meter for the
// page about to be rendered.
func (h *Handler) finishChrome(c *echo.Context) {
	ch, ok := c.Get(ctxChrome).(*chrome)
	if !ok {
		return
	}
	now := h.now()
	if rec, ok := c.Get(ctxRecorder).(*cache.Recorder); ok {
		if at := rec.FetchedAt(); !at.IsZero() {
			since, why := rec.Stale()
			*ch.fresh = views.Freshness{FetchedAt: at, StaleSince: since, StaleReason: why, Now: now,
				RefreshURL: withParam(c.Request().URL, "refresh", "1")}
		}
	}
	if s, ok := sessionOf(c); ok {
		if q, ok := h.quota(c.Request().Context(), s.Key); ok {
			*ch.quota = views.Quota{Limit: q.Limit, Remaining: q.Remaining, RenewsAt: q.RenewsAt(), Now: now}
		}
	}
}

func withParam(u *url.URL, name, value string) string {
	q := u.Query()
	q.Set(name, value)
	return u.Path + "?" + q.Encode()
}

func withoutParam(u *url.URL, name string) string {
	q := u.Query()
	q.Del(name)
	if len(q) == 0 {
		return u.Path
	}
	return u.Path + "?" + q.Encode()
}

// refreshBook remembers, per user, the pages to load once without the
// cache; an entry lives a minute, time enough to follow the redirect.
type refreshBook struct {
	mu sync.Mutex
	m  map[string]time.Time
}

const refreshLife = time.Minute

func (b *refreshBook) arm(user, uri string, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string]time.Time{}
	}
	for k, exp := range b.m { // keep the book small: drop what has lapsed
		if now.After(exp) {
			delete(b.m, k)
		}
	}
	b.m[user+"\x00"+uri] = now.Add(refreshLife)
}

// take reports whether uri was armed for user, and disarms it.
func (b *refreshBook) take(user, uri string, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := user + "\x00" + uri
	exp, ok := b.m[k]
	if ok {
		delete(b.m, k)
	}
	return ok && !now.After(exp)
}
