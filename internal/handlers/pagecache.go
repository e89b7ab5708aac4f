package handlers

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"strconv"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v5"
	"github.com/maypok86/otter/v2"
	"github.com/maypok86/otter/v2/stats"

	"creditdash/static"
)

// The page cache keeps each finished, compressed page for as long as
// everything it shows stays the same: the same user, form token, address,
// minute, quota, offers and the same cached copies of the service's data.
// A warm page is then the cost of reading the cache and writing bytes,
// instead of building views, charts and HTML and compressing them again.

// defaultPageCacheBytes bounds the memory of the finished pages kept when
// Config leaves it out.
const defaultPageCacheBytes = 16 << 20

// pageLife bounds a kept page: pages say "fetched 3 minutes ago", so the
// minute is part of the key and older pages are of no use.
const pageLife = time.Minute

type pageKey [sha256.Size]byte

// keptPage is a finished page: its status and its bytes, gzipped or not
// as its key says (see pageKey's encoding).
type keptPage struct {
	status int
	body   []byte
	gz     bool
}

func newPageCache(maxBytes uint64) (*otter.Cache[pageKey, *keptPage], error) {
	return otter.New(&otter.Options[pageKey, *keptPage]{
		MaximumWeight:    maxBytes,
		Weigher:          func(_ pageKey, p *keptPage) uint32 { return uint32(len(p.body)) + 64 },
		ExpiryCalculator: otter.ExpiryWriting[pageKey, *keptPage](pageLife),
		// Hits, misses and evictions for the operators' metrics.
		StatsRecorder: stats.NewCounter(),
	})
}

// respond is a data page's last step: it sends the kept copy of the page
// when one matches, and otherwise builds the page, renders it and keeps it.
// build runs only on a miss, so a warm page builds no views.
//
// A page is kept in the encoding it was asked in, each under its own key
// and weighed by its own bytes within the one bound: browsers take gzip,
// and a client without gzip (a script, a proxy that decompresses) gets its
// own plain copy, made from the gzipped one when that is kept.
// Decompressing on every such request instead cost 120 µs for a 50 kB page
// (BenchmarkKeptPagePlain, on 2 shared cores), more than a whole warm hit,
// against 1 µs to write a plain copy; the plain copy's memory is spent only
// for pages asked for without gzip, and counts against the same bound.
func (h *Handler) respond(c *echo.Context, ld *loaded, build func() (int, templ.Component, error)) error {
	gz := static.AcceptsGzip(c.Request())
	key, other, keep := h.pageKey(c, ld, gz)
	if keep {
		if p, ok := h.pages.GetIfPresent(key); ok {
			// Logged before the write, so the line is there once the page is.
			h.log.Debug("page served from the page cache", "request_id", requestID(c))
			h.rememberFirst(c, ld, gz, key)
			return writeKept(c, p)
		}
		if p, ok := h.pages.GetIfPresent(other); ok {
			if q, err := recode(p, gz); err == nil {
				h.pages.Set(key, q)
				h.log.Debug("page served from the page cache", "request_id", requestID(c))
				h.rememberFirst(c, ld, gz, key)
				return writeKept(c, q)
			}
		}
	}
	status, page, err := build()
	if err != nil {
		return err
	}
	if keep && !ld.partial {
		// Keyed again: building may have moved what the key reads (a rule
		// that fired, scores recorded for the team), and the page shows
		// the state after.
		key, _, keep = h.pageKey(c, ld, gz)
	}
	if !keep || ld.partial {
		return h.render(c, status, page)
	}
	html, err := renderHTML(c, page)
	if err != nil {
		return err
	}
	defer putBuffer(html)
	p := &keptPage{status: status, gz: gz}
	if gz {
		p.body = gzipBytes(html.Bytes())
	} else {
		p.body = bytes.Clone(html.Bytes())
	}
	h.pages.Set(key, p)
	h.rememberFirst(c, ld, gz, key)
	return writeKept(c, p)
}

// recode is the kept page p in the other encoding: gzipped when gz, plain
// otherwise.
func recode(p *keptPage, gz bool) (*keptPage, error) {
	if gz {
		return &keptPage{status: p.status, body: gzipBytes(p.body), gz: true}, nil
	}
	plain, err := gunzipBytes(p.body)
	if err != nil {
		return nil, err
	}
	return &keptPage{status: p.status, body: plain}, nil
}

// pageKey hashes everything a page shows besides the service's data, and
// the exact copies of that data; key is the page's key in the encoding
// asked for (gzip or not), other the same page's in the other encoding.
// keep is false for a page that must not be kept: not a GET, or a call
// failed (a failure is never kept).
func (h *Handler) pageKey(c *echo.Context, ld *loaded, gz bool) (key, other pageKey, keep bool) {
	rep := ld.rd.Report()
	if c.Request().Method != "GET" || rep.Failed > 0 || rep.FetchedAt.IsZero() {
		return pageKey{}, pageKey{}, false
	}
	hs, ok := h.pageFields(c, ld)
	if !ok {
		return pageKey{}, pageKey{}, false
	}
	hs.num(int64(rep.Fingerprint))
	hs.num(int64(ld.also))
	hs.field(ld.state)
	for _, o := range ld.offers {
		hs.field(o.section)
		hs.num(int64(o.cost))
		hs.num(int64(o.left))
	}
	return hs.keys(gz)
}

// keyHash builds a page key field by field, each with its length, and
// hashes them at once: written to a hash.Hash, every field was a copy on
// the heap, a dozen on each kept page sent.
type keyHash struct{ b []byte }

// newKeyHash is an empty key, with room for a page's usual fields.
func newKeyHash() keyHash { return keyHash{b: make([]byte, 0, 256)} }

func (k *keyHash) field(s string) {
	k.b = binary.LittleEndian.AppendUint64(k.b, uint64(len(s)))
	k.b = append(k.b, s...)
}

// num is a number as a field of its own: eight bytes.
func (k *keyHash) num(v int64) {
	k.b = binary.LittleEndian.AppendUint64(k.b, 8)
	k.b = binary.LittleEndian.AppendUint64(k.b, uint64(v))
}

// keys are the page's key in the encoding asked for and in the other.
func (k *keyHash) keys(gz bool) (key, other pageKey, keep bool) {
	sum := sha256.Sum256(k.b)
	gzKey, plainKey := pageKey(sum), pageKey(sum)
	plainKey[0] ^= 1 // the plain copy's key: the same page, told apart by one bit
	if gz {
		return gzKey, plainKey, true
	}
	return plainKey, gzKey, true
}

// pageFields hashes what a page shows besides the service's data and the
// workspace state the page itself worked out (ld.state): the user, the
// address, the minute, the header's counts, the team's version, the
// quota. ok is false for a visitor not signed in.
func (h *Handler) pageFields(c *echo.Context, ld *loaded) (keyHash, bool) {
	s, signedIn := sessionOf(c)
	if !signedIn {
		return keyHash{}, false
	}
	r := c.Request()
	hs := newKeyHash()
	hs.field(s.User)
	hs.field(csrfToken(c))
	hs.field(c.Scheme())
	hs.field(r.Host)
	hs.field(r.URL.RequestURI())
	hs.num(h.now().Truncate(time.Minute).Unix())
	g := h.counts(c, ld).glance // notes, watch state and unread alerts are shown too
	hs.num(g.Changed)
	hs.num(int64(g.Unread))
	hs.num(int64(h.awaiting(c, ld))) // the header's decisions waiting
	hs.num(h.teamOf(c, ld).version)  // the account tile, the team's known scores
	if !h.features.offered(s.User, featureSearch) {
		hs.field("no-search")
	}
	if ck, err := c.Cookie(tzCookie); err == nil {
		hs.field("tz") // renewal times are shown in it
		hs.field(ck.Value)
	}
	if m, _ := h.providers.mark(s.User); m.has {
		hs.field("trade-providers") // the navigation shows their page
	}
	if q, ok := h.cache.Quota(s.User); ok {
		hs.num(int64(q.Limit))
		hs.num(int64(q.Remaining))
		hs.num(q.RenewsAt().Truncate(time.Minute).Unix())
	}
	return hs, true
}

// writeKept sends a finished page, kept or just rendered.
func writeKept(c *echo.Context, p *keptPage) error {
	w := c.Response()
	hd := w.Header()
	hd.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	hd.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if p.gz {
		hd.Set(echo.HeaderContentEncoding, "gzip")
	}
	hd.Set(echo.HeaderContentLength, strconv.Itoa(len(p.body)))
	w.WriteHeader(p.status)
	if c.Request().Method == "HEAD" {
		return nil
	}
	_, err := w.Write(p.body)
	return err
}

// gzipWriters are reused: a compressor holds most of a megabyte.
// BestSpeed: a page is compressed on every miss, and at level 1 it costs a
// third of the default level's time for a few per cent more bytes.
// klauspost's gzip (already built in for the metrics page's zstd) took 51
// µs for the demo report's 40 kB where compress/gzip took 84, both to 7.2 kB.
var gzipWriters = sync.Pool{New: func() any { zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return zw }}

// gzipBytes compresses a page once, for every later request of it. The
// result is a copy of exactly its length: the page cache weighs a page by
// its length, and a buffer grown while compressing holds up to twice that.
func gzipBytes(b []byte) []byte {
	out := getBuffer()
	defer putBuffer(out)
	gzipInto(out, b)
	return bytes.Clone(out.Bytes())
}

// gzipInto compresses b into out with a pooled compressor.
func gzipInto(out *bytes.Buffer, b []byte) {
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(out)
	_, _ = zw.Write(b)
	_ = zw.Close()
}

// gunzipBytes decompresses a kept page into a copy of exactly its length.
func gunzipBytes(gz []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	out := getBuffer()
	defer putBuffer(out)
	if _, err := out.ReadFrom(zr); err != nil {
		return nil, err
	}
	return bytes.Clone(out.Bytes()), nil
}

// CleanUp drops kept pages whose minute is over, for an idle process.
func (h *Handler) CleanUp() { h.pages.CleanUp() }
