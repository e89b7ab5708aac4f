package middleware

import (
	"log/slog"
	"net/http"
	"slices"

	"github.com/labstack/echo/v5"
	"github.com/maypok86/otter/v2"

	"creditdash/internal/upstream/cache"
	"creditdash/static"
)

// A kept page's key names the exact copies it was read from, so a warm page
// used to read all of them from the cache (a dozen lookups, each answer
// assigned and noted) before it could tell it was kept: most of a warm
// report's own work. The page cache therefore also remembers, for each page
// asked for, which copies its kept page was read from. While the cache
// holds those very copies, fresh, the page is sent before anything is read;
// otherwise it runs as before and remembers again.

// keptFirst is a kept page's key and the copies it was read from.
type keptFirst struct {
	key  PageKey
	deps []cache.Dep
}

// depWeight is about what one copy's note holds: its key and version.
const depWeight = 128

func newFirsts(maxBytes uint64) (*otter.Cache[PageKey, keptFirst], error) {
	return otter.New(&otter.Options[PageKey, keptFirst]{
		MaximumWeight:    maxBytes,
		Weigher:          func(_ PageKey, f keptFirst) uint32 { return uint32(64 + len(f.deps)*depWeight) },
		ExpiryCalculator: otter.ExpiryWriting[PageKey, keptFirst](PageLife),
	})
}

// FirstKey is the key a page's copies are remembered under, from what the
// page shows besides its data (a KeyHash without the copies read); ok is
// false for a request whose page is never kept (a visitor not signed in).
type FirstKey func(c *echo.Context, gz bool) (key PageKey, ok bool)

// SendKeptFirst sends a GET page's kept copy at once when the cache still
// holds the copies it was read from (holds asks the cache); any other
// request runs as usual.
func (pc *PageCache) SendKeptFirst(first FirstKey, holds func([]cache.Dep) bool, log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			if c.Request().Method != http.MethodGet {
				return next(c)
			}
			k, ok := first(c, static.AcceptsGzip(c.Request()))
			if !ok {
				return next(c)
			}
			f, ok := pc.firsts.GetIfPresent(k)
			if !ok || !holds(f.deps) {
				return next(c)
			}
			p, ok := pc.pages.GetIfPresent(f.key)
			if !ok {
				return next(c)
			}
			log.Debug("page served from the page cache", "request_id", RequestID(c), "read", false)
			return WritePage(c, p)
		}
	}
}

// RememberFirst notes that the page kept under key was read from deps and
// extra, so it is sent before them next time; first is its FirstKey.
func (pc *PageCache) RememberFirst(first, key PageKey, deps, extra []cache.Dep) {
	pc.firsts.Set(first, keptFirst{key: key, deps: append(slices.Clip(deps), extra...)})
}
