package middleware

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"strconv"
	"sync"
	"time"

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
// What a page's key holds is the caller's (KeyHash builds it); this file
// keeps, recodes and writes the pages.

// DefaultPageCacheBytes bounds the memory of the finished pages kept when
// the caller leaves it out.
const DefaultPageCacheBytes = 16 << 20

// PageLife bounds a kept page: pages say "fetched 3 minutes ago", so the
// minute is part of the key and older pages are of no use.
const PageLife = time.Minute

// PageKey names one finished page in one encoding.
type PageKey [sha256.Size]byte

// Page is a finished page: its status and its bytes, gzipped or not as
// its key says (see KeyHash.Keys).
type Page struct {
	Status int
	Body   []byte
	Gz     bool
}

// PageCache keeps finished pages, and for each page asked for the copies
// its kept page was read from (see kept_first.go).
type PageCache struct {
	pages  *otter.Cache[PageKey, *Page]
	firsts *otter.Cache[PageKey, keptFirst]
}

// NewPageCache keeps pages within maxBytes; zero means
// DefaultPageCacheBytes.
func NewPageCache(maxBytes uint64) (*PageCache, error) {
	if maxBytes == 0 {
		maxBytes = DefaultPageCacheBytes
	}
	// The notes of what kept pages were read from share the pages' bound:
	// a report's note (a dozen copies, about 1.6 kB) is about a fifth of
	// its gzipped page, so a sixth keeps a note for most kept pages.
	firstBytes := maxBytes / 6
	firsts, err := newFirsts(firstBytes)
	if err != nil {
		return nil, err
	}
	pages, err := otter.New(&otter.Options[PageKey, *Page]{
		MaximumWeight:    maxBytes - firstBytes,
		Weigher:          func(_ PageKey, p *Page) uint32 { return uint32(len(p.Body)) + 64 },
		ExpiryCalculator: otter.ExpiryWriting[PageKey, *Page](PageLife),
		// Hits, misses and evictions for the operators' metrics.
		StatsRecorder: stats.NewCounter(),
	})
	if err != nil {
		return nil, err
	}
	return &PageCache{pages: pages, firsts: firsts}, nil
}

// Lookup finds the page under key, or makes it from the same page kept in
// the other encoding (under other) and keeps it under key too.
//
// A page is kept in the encoding it was asked in, each under its own key
// and weighed by its own bytes within the one bound: browsers take gzip,
// and a client without gzip (a script, a proxy that decompresses) gets its
// own plain copy, made from the gzipped one when that is kept.
// Decompressing on every such request instead cost 120 µs for a 50 kB page
// (BenchmarkKeptPagePlain, on 2 shared cores), more than a whole warm hit,
// against 1 µs to write a plain copy; the plain copy's memory is spent only
// for pages asked for without gzip, and counts against the same bound.
func (pc *PageCache) Lookup(key, other PageKey, gz bool) (*Page, bool) {
	if p, ok := pc.pages.GetIfPresent(key); ok {
		return p, true
	}
	if p, ok := pc.pages.GetIfPresent(other); ok {
		if q, err := recode(p, gz); err == nil {
			pc.pages.Set(key, q)
			return q, true
		}
	}
	return nil, false
}

// Keep keeps the page html under key, gzipped when gz, and returns it.
func (pc *PageCache) Keep(key PageKey, status int, html []byte, gz bool) *Page {
	p := &Page{Status: status, Gz: gz}
	if gz {
		p.Body = GzipBytes(html)
	} else {
		p.Body = bytes.Clone(html)
	}
	pc.pages.Set(key, p)
	return p
}

// PageCacheStats are the page cache's figures for operators.
type PageCacheStats struct {
	// Hits and Misses are the reads that found a kept page or not,
	// Evictions the pages dropped for room, Bytes the pages' weight.
	Hits, Misses, Evictions, Bytes uint64
}

// Stats are the figures now.
func (pc *PageCache) Stats() PageCacheStats {
	s := pc.pages.Stats()
	return PageCacheStats{Hits: s.Hits, Misses: s.Misses, Evictions: s.Evictions, Bytes: pc.pages.WeightedSize()}
}

// CleanUp drops kept pages whose minute is over, for an idle process.
func (pc *PageCache) CleanUp() { pc.pages.CleanUp() }

// recode is the kept page p in the other encoding: gzipped when gz, plain
// otherwise.
func recode(p *Page, gz bool) (*Page, error) {
	if gz {
		return &Page{Status: p.Status, Body: GzipBytes(p.Body), Gz: true}, nil
	}
	plain, err := gunzipBytes(p.Body)
	if err != nil {
		return nil, err
	}
	return &Page{Status: p.Status, Body: plain}, nil
}

// KeyHash builds a page key field by field, each with its length, and
// hashes them at once: written to a hash.Hash, every field was a copy on
// the heap, a dozen on each kept page sent.
type KeyHash struct{ b []byte }

// NewKeyHash is an empty key, with room for a page's usual fields.
func NewKeyHash() KeyHash { return KeyHash{b: make([]byte, 0, 256)} }

// Field is a text as a field of its own.
func (k *KeyHash) Field(s string) {
	k.b = binary.LittleEndian.AppendUint64(k.b, uint64(len(s)))
	k.b = append(k.b, s...)
}

// Num is a number as a field of its own: eight bytes.
func (k *KeyHash) Num(v int64) {
	k.b = binary.LittleEndian.AppendUint64(k.b, 8)
	k.b = binary.LittleEndian.AppendUint64(k.b, uint64(v))
}

// Keys are the page's key in the encoding asked for and in the other.
func (k *KeyHash) Keys(gz bool) (key, other PageKey) {
	sum := sha256.Sum256(k.b)
	gzKey, plainKey := PageKey(sum), PageKey(sum)
	plainKey[0] ^= 1 // the plain copy's key: the same page, told apart by one bit
	if gz {
		return gzKey, plainKey
	}
	return plainKey, gzKey
}

// WritePage sends a finished page, kept or just rendered.
func WritePage(c *echo.Context, p *Page) error {
	w := c.Response()
	hd := w.Header()
	hd.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	hd.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if p.Gz {
		hd.Set(echo.HeaderContentEncoding, "gzip")
	}
	hd.Set(echo.HeaderContentLength, strconv.Itoa(len(p.Body)))
	w.WriteHeader(p.Status)
	if c.Request().Method == "HEAD" {
		return nil
	}
	_, err := w.Write(p.Body)
	return err
}

// WriteHTML sends a page rendered now, gzipped when the browser accepts it.
func WriteHTML(c *echo.Context, status int, html []byte) error {
	if static.AcceptsGzip(c.Request()) {
		gz := GetBuffer()
		defer PutBuffer(gz)
		gzipInto(gz, html)
		return WritePage(c, &Page{Status: status, Body: gz.Bytes(), Gz: true})
	}
	return WritePage(c, &Page{Status: status, Body: html})
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// GetBuffer is an empty buffer from the pool; PutBuffer hands it back.
func GetBuffer() *bytes.Buffer {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	return buf
}

// PutBuffer hands a buffer back to the pool.
func PutBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= 1<<20 { // keep the pool from holding huge buffers
		bufPool.Put(buf)
	}
}

// gzipWriters are reused: a compressor holds most of a megabyte.
// BestSpeed: a page is compressed on every miss, and at level 1 it costs a
// third of the default level's time for a few per cent more bytes.
// klauspost's gzip (already built in for the metrics page's zstd) took 51
// µs for the demo report's 40 kB where compress/gzip took 84, both to 7.2 kB.
var gzipWriters = sync.Pool{New: func() any { zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return zw }}

// GzipBytes compresses a page once, for every later request of it. The
// result is a copy of exactly its length: the page cache weighs a page by
// its length, and a buffer grown while compressing holds up to twice that.
func GzipBytes(b []byte) []byte {
	out := GetBuffer()
	defer PutBuffer(out)
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
	out := GetBuffer()
	defer PutBuffer(out)
	if _, err := out.ReadFrom(zr); err != nil {
		return nil, err
	}
	return bytes.Clone(out.Bytes()), nil
}
