package middleware

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"testing"
)

// A kept page holds exactly its compressed bytes: the page cache weighs a
// page by its length, so spare capacity would be memory no bound counts.
func TestKeptPageHoldsExactlyItsBytes(t *testing.T) {
	var page []byte
	for i := range 3000 {
		page = fmt.Appendf(page, "<tr><td>Business %d</td><td class=\"num\">%d</td></tr>\n", i*7919%10007, i*i%997)
	}
	gz := GzipBytes(page)
	// At most the allocator's rounding to its size classes.
	if cap(gz) > len(gz)+len(gz)/8 {
		t.Errorf("kept page: %d bytes in a buffer of %d", len(gz), cap(gz))
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(back, page) {
		t.Fatalf("the kept page does not decompress to the page (%v)", err)
	}
}

// BenchmarkKeptPagePlain compares the two ways to serve a kept page to a
// client without gzip: decompressing the kept gzipped bytes on every
// request, against writing a kept plain copy (see respond).
func BenchmarkKeptPagePlain(b *testing.B) {
	var page []byte
	for i := range 900 {
		page = fmt.Appendf(page, "<tr><td>Business %d</td><td class=\"num\">%d</td></tr>\n", i*7919%10007, i*i%997)
	}
	gz := GzipBytes(page)
	b.Run("gunzip", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			if _, err := gunzipBytes(gz); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		var w bytes.Buffer
		for b.Loop() {
			w.Reset()
			w.Write(page)
		}
	})
}
