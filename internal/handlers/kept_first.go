package handlers

import (
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
	key  pageKey
	deps []cache.Dep
}

// depWeight is about what one copy's note holds: its key and version.
const depWeight = 128

func newFirsts(maxBytes uint64) (*otter.Cache[pageKey, keptFirst], error) {
	return otter.New(&otter.Options[pageKey, keptFirst]{
		MaximumWeight:    maxBytes,
		Weigher:          func(_ pageKey, f keptFirst) uint32 { return uint32(64 + len(f.deps)*depWeight) },
		ExpiryCalculator: otter.ExpiryWriting[pageKey, keptFirst](pageLife),
	})
}

// sendKeptFirst sends a GET page's kept copy at once when the cache still
// holds the copies it was read from; any other request runs as usual.
func (h *Handler) sendKeptFirst(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if c.Request().Method != http.MethodGet {
			return next(c)
		}
		k, ok := h.firstKey(c, &loaded{}, static.AcceptsGzip(c.Request()))
		if !ok {
			return next(c)
		}
		f, ok := h.firsts.GetIfPresent(k)
		if !ok || !h.cache.Holds(f.deps) {
			return next(c)
		}
		p, ok := h.pages.GetIfPresent(f.key)
		if !ok {
			return next(c)
		}
		h.log.Debug("page served from the page cache", "request_id", requestID(c), "read", false)
		return writeKept(c, p)
	}
}

// firstKey is the key a page's copies are remembered under: everything
// its page key holds but what was read (pageFields).
func (h *Handler) firstKey(c *echo.Context, ld *loaded, gz bool) (pageKey, bool) {
	hs, ok := h.pageFields(c, ld)
	if !ok {
		return pageKey{}, false
	}
	key, _, _ := hs.keys(gz)
	return key, true
}

// rememberFirst notes the copies the page ld read, so its kept page under
// key is sent before them next time. A page that cannot be told kept from
// its copies alone is not noted: one that worked out workspace state of its
// own (ld.state), offered sections, showed an expired copy, or read more
// copies than a note holds.
func (h *Handler) rememberFirst(c *echo.Context, ld *loaded, gz bool, key pageKey) {
	rep := ld.rd.Report()
	if ld.state != "" || len(ld.offers) > 0 || !rep.StaleSince.IsZero() || len(rep.Deps) == 0 || ld.alsoLost {
		return
	}
	fk, ok := h.firstKey(c, ld, gz)
	if !ok {
		return
	}
	h.firsts.Set(fk, keptFirst{key: key, deps: append(slices.Clip(rep.Deps), ld.alsoDeps...)})
}
