package handlers

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
	"sync"
)

// splicedPage is a rendered page cut wherever the CSP nonce goes, and
// compressed once. Serving it again only splices the request's nonce
// between the compressed parts: each part's DEFLATE blocks end byte-aligned
// (a sync flush), so they chain with the nonce as a stored block into one
// valid gzip stream, as parallel gzip tools build theirs.
//
// The parts are compressed by one compressor, in order, so a part refers
// back into the parts before it as a compressor over the whole page would
// (the chart options repeat each other). Where a nonce goes, the compressor
// is fed gapLen bytes of a value the page never contains, and what it makes
// of them is thrown away: the stored nonce takes their place, of the same
// length, so every distance still holds, and no match can reach into a
// nonce, since no match copies a byte the page lacks.
type splicedPage struct {
	status   int
	parts    [][]byte // the page's bytes between nonces
	deflated [][]byte // each part as raw DEFLATE blocks, none final
	size     int      // bytes of all parts
	// gapLen is the nonce length the parts were compressed for; 0 when
	// they were compressed apart and any nonce fits.
	gapLen int
}

// gzipHeader is a gzip member header: no name, no time, unknown OS.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// finalBlock ends the DEFLATE stream: an empty stored block marked final.
var finalBlock = []byte{0x01, 0x00, 0x00, 0xff, 0xff}

// compressors are reused: a DEFLATE compressor holds most of a megabyte.
var compressors = sync.Pool{New: func() any {
	fw, _ := flate.NewWriter(io.Discard, flate.DefaultCompression)
	return fw
}}

// newSplicedPage cuts html at each marker and compresses the parts for
// nonces of gapLen bytes. It copies what it keeps: html may be a pooled
// buffer.
func newSplicedPage(status int, html, marker []byte, gapLen int) *splicedPage {
	sp := &splicedPage{status: status, parts: bytes.Split(bytes.Clone(html), marker)}
	fw := compressors.Get().(*flate.Writer)
	defer compressors.Put(fw)
	var buf bytes.Buffer
	fw.Reset(&buf)
	fill, chained := absentByte(html)
	if chained {
		sp.gapLen = gapLen
	}
	gap := bytes.Repeat([]byte{fill}, sp.gapLen)
	for i, part := range sp.parts {
		switch {
		case chained && i > 0:
			fw.Write(gap)
			fw.Flush()
			buf.Reset() // the nonce's stored block replaces these blocks
		case !chained:
			fw.Reset(&buf) // parts apart: no part refers to another
		}
		fw.Write(part)
		fw.Flush() // byte-aligned, not final: the next block may follow
		sp.deflated = append(sp.deflated, bytes.Clone(buf.Bytes()))
		buf.Reset()
		sp.size += len(part)
	}
	return sp
}

// absentByte finds a byte value html does not contain; ok is false when it
// has every one.
func absentByte(html []byte) (b byte, ok bool) {
	var seen [256]bool
	for _, c := range html {
		seen[c] = true
	}
	for v, in := range seen {
		if !in {
			return byte(v), true
		}
	}
	return 0, false
}

// fits reports whether nonce can be spliced into the compressed parts.
func (sp *splicedPage) fits(nonce string) bool {
	return sp.gapLen == 0 || len(nonce) == sp.gapLen
}

// weight is the memory the page takes, for the cache's bound.
func (sp *splicedPage) weight() uint32 {
	n := 0
	for i := range sp.parts {
		n += len(sp.parts[i]) + len(sp.deflated[i])
	}
	return uint32(min(n, 1<<31))
}

// length is the body's size for the given nonce and encoding.
func (sp *splicedPage) length(nonce string, gzipped bool) int {
	gaps := len(sp.parts) - 1
	if !gzipped {
		return sp.size + gaps*len(nonce)
	}
	n := len(gzipHeader) + len(finalBlock) + 8
	for _, d := range sp.deflated {
		n += len(d)
	}
	return n + gaps*(5+len(nonce))
}

// writeTo writes the page with nonce in every gap, gzipped or not.
func (sp *splicedPage) writeTo(w io.Writer, nonce string, gzipped bool) error {
	if !gzipped {
		buf := bufPool.Get().(*bytes.Buffer)
		defer bufPool.Put(buf)
		buf.Reset()
		for i, part := range sp.parts {
			if i > 0 {
				buf.WriteString(nonce)
			}
			buf.Write(part)
		}
		_, err := w.Write(buf.Bytes())
		return err
	}
	// One buffer, one write: the page goes out in a single piece instead
	// of a write per part.
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	buf.Grow(sp.length(nonce, true))
	buf.Write(gzipHeader)
	crc := crc32.NewIEEE()
	var stored [5]byte
	stored[0] = 0x00 // a stored block, not final; the stream is byte-aligned here
	binary.LittleEndian.PutUint16(stored[1:], uint16(len(nonce)))
	binary.LittleEndian.PutUint16(stored[3:], ^uint16(len(nonce)))
	for i, d := range sp.deflated {
		if i > 0 {
			buf.Write(stored[:])
			buf.WriteString(nonce)
			io.WriteString(crc, nonce)
		}
		buf.Write(d)
		crc.Write(sp.parts[i])
	}
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], crc.Sum32())
	binary.LittleEndian.PutUint32(trailer[4:], uint32(sp.length(nonce, false)))
	buf.Write(finalBlock)
	buf.Write(trailer[:])
	_, err := w.Write(buf.Bytes())
	return err
}
