package handlers

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/maypok86/otter/v2"

	"creditdash/internal/upstream/cache"
	"creditdash/static"
)

// The page cache keeps each rendered page for as long as what went into it
// stays the same: the same user, form token, address, minute, quota and the
// same cached copies of the service's data. A warm page is then the cost of
// reading the cache and splicing a fresh CSP nonce into compressed parts,
// instead of building views, charts and HTML and compressing them again.

// Ctx key of the page's cache key, set once its data is loaded.
const ctxPageKey = "pagekey"

// pageLife bounds a kept page: pages say "fetched 3 minutes ago", so the
// minute is part of the key and older pages are of no use.
const pageLife = time.Minute

type pageKey [sha256.Size]byte

func newPageCache(maxBytes uint64) (*otter.Cache[pageKey, *splicedPage], error) {
	return otter.New(&otter.Options[pageKey, *splicedPage]{
		MaximumWeight:    maxBytes,
		Weigher:          func(_ pageKey, p *splicedPage) uint32 { return p.weight() },
		ExpiryCalculator: otter.ExpiryWriting[pageKey, *splicedPage](pageLife),
	})
}

// servedFromPageCache is called by a page once its data is loaded. It works
// out the page's key from everything the page shows besides that data; when
// an identical page is kept, it sends it and reports true, and the handler
// is done. Otherwise render keeps the page it is about to render.
func (h *Handler) servedFromPageCache(c *echo.Context, deferred []*deferredError) bool {
	key, ok := h.pageKey(c, deferred)
	if !ok {
		return false
	}
	c.Set(ctxPageKey, key)
	page, hit := h.pages.GetIfPresent(key)
	if !hit {
		return false
	}
	// Logged before the write, so the line is there once the page is.
	h.log.Debug("page served from the page cache", "request_id", requestID(c.Request().Context()))
	if err := h.writePage(c, page); err != nil {
		h.log.Debug("writing a kept page failed", "request_id", requestID(c.Request().Context()), "err", err)
	}
	return true
}

// pageKey hashes what a page shows besides the service's data. ok is false
// for a page that must not be kept: not a GET, or a call failed.
func (h *Handler) pageKey(c *echo.Context, deferred []*deferredError) (pageKey, bool) {
	r := c.Request()
	s, signedIn := sessionOf(c)
	rec, recorded := c.Get(ctxRecorder).(*cache.Recorder)
	if r.Method != "GET" || !signedIn || !recorded {
		return pageKey{}, false
	}
	sum, clean := rec.Fingerprint()
	if !clean {
		return pageKey{}, false
	}
	csrf, _ := c.Get(ctxCSRF).(string)
	hs := sha256.New()
	field := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		hs.Write(n[:])
		hs.Write([]byte(s))
	}
	num := func(v int64) { field(strconv.FormatInt(v, 10)) }
	field(s.User)
	field(csrf)
	field(c.Scheme())
	field(r.Host)
	field(r.URL.RequestURI())
	num(h.now().Truncate(time.Minute).Unix())
	num(int64(sum))
	if h.searchMissing.Load() {
		field("no-search")
	}
	if q, ok := h.quota(r.Context(), s.Key); ok {
		num(int64(q.Limit))
		num(int64(q.Remaining))
		num(q.RenewsAt().Truncate(time.Minute).Unix())
	}
	for _, d := range deferred {
		if d != nil && d.cost > 0 {
			field(d.section)
			num(int64(d.cost))
			num(int64(d.left))
		}
	}
	var key pageKey
	hs.Sum(key[:0])
	return key, true
}

// writePage sends a rendered page with this request's nonce, gzipped when
// the browser accepts it.
func (h *Handler) writePage(c *echo.Context, page *splicedPage) error {
	nonce, _ := c.Get(ctxNonce).(string)
	gz := static.AcceptsGzip(c.Request()) && page.fits(nonce)
	w := c.Response()
	hd := w.Header()
	hd.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	hd.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if gz {
		hd.Set(echo.HeaderContentEncoding, "gzip")
	}
	hd.Set(echo.HeaderContentLength, strconv.Itoa(page.length(nonce, gz)))
	w.WriteHeader(page.status)
	if c.Request().Method == "HEAD" {
		return nil
	}
	return page.writeTo(w, nonce, gz)
}
