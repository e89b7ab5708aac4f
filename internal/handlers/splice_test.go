package handlers

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// decode reads a spliced page back as a browser would.
func decode(t *testing.T, sp *splicedPage, nonce string, gz bool) string {
	t.Helper()
	var buf bytes.Buffer
	if err := sp.writeTo(&buf, nonce, gz); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != sp.length(nonce, gz) {
		t.Fatalf("wrote %d bytes, length says %d", buf.Len(), sp.length(nonce, gz))
	}
	if !gz {
		return buf.String()
	}
	zr, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false) // one member, as browsers expect
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gzip stream does not decode: %v", err)
	}
	return string(out)
}

func TestSplicedPageDecodesToThePageWithTheNonce(t *testing.T) {
	const marker = "@@MARK@@"
	pages := []string{
		"",
		"no nonce at all",
		"@@MARK@@",
		"<script nonce=\"@@MARK@@\"></script>",
		"a@@MARK@@@@MARK@@b" + strings.Repeat("<tr><td>1,234</td></tr>", 3000) + "@@MARK@@",
	}
	for _, page := range pages {
		{
			for _, nonce := range []string{"n1", "Zm9vYmFyYmF6cXV4cXV1eA", ""} {
				sp := newSplicedPage(200, []byte(page), []byte(marker), len(nonce))
				want := strings.ReplaceAll(page, marker, nonce)
				if got := decode(t, sp, nonce, false); got != want {
					t.Fatalf("plain: got %q, want %q", clipInput(got, 40), clipInput(want, 40))
				}
				if got := decode(t, sp, nonce, true); got != want {
					t.Fatalf("gzip: got %q, want %q", clipInput(got, 40), clipInput(want, 40))
				}
			}
		}
	}
}

func TestSplicedPageKeepsItsOwnCopy(t *testing.T) {
	html := []byte("before @@M@@ after")
	sp := newSplicedPage(200, html, []byte("@@M@@"), 1)
	copy(html, "XXXXXXXXXXXXXXXXXX") // the pooled buffer is reused
	if got := decode(t, sp, "n", true); got != "before n after" {
		t.Errorf("got %q after the buffer was reused", got)
	}
}

func FuzzSplicedPage(f *testing.F) {
	f.Add("a<script nonce=\"@@M@@\">x</script>", "abc")
	f.Add("@@M@@@@M@@", "")
	f.Add("abcabcabc@@M@@abcabcabc@@M@@abc", "xyzw")
	f.Fuzz(func(t *testing.T, page, nonce string) {
		if len(nonce) > 1000 {
			return
		}
		sp := newSplicedPage(200, []byte(page), []byte("@@M@@"), len(nonce))
		want := strings.ReplaceAll(page, "@@M@@", nonce)
		if got := decode(t, sp, nonce, true); got != want {
			t.Fatalf("gzip: got %q, want %q", got, want)
		}
	})
}

// Parts refer back into earlier parts, across the nonces, for any nonce of
// the length they were made for; other lengths go out uncompressed.
func TestSplicedPageRefersAcrossNonces(t *testing.T) {
	// A block that does not compress on its own but repeats across parts,
	// as the chart options of one page do.
	rng := rand.New(rand.NewPCG(1, 2))
	letters := make([]byte, 3000)
	for i := range letters {
		letters[i] = byte('a' + rng.IntN(26))
	}
	block := string(letters)
	page := block + "@@M@@" + block + "@@M@@" + block
	sp := newSplicedPage(200, []byte(page), []byte("@@M@@"), 4)
	if len(sp.deflated[2]) > len(sp.deflated[0])/4 {
		t.Errorf("the third part took %d bytes, the first %d: it does not refer back", len(sp.deflated[2]), len(sp.deflated[0]))
	}
	for _, nonce := range []string{"abcd", "\x00\x00\x00\x00"} {
		if got := decode(t, sp, nonce, true); got != strings.ReplaceAll(page, "@@M@@", nonce) {
			t.Fatalf("nonce %q: the page does not decode back", nonce)
		}
	}
	if sp.fits("abc") || !sp.fits("wxyz") {
		t.Error("fits: wrong answer for the nonce length")
	}
	every := make([]byte, 0, 300)
	for v := range 256 {
		every = append(every, byte(v))
	}
	every = append(every, "@@M@@c"...)
	apart := newSplicedPage(200, every, []byte("@@M@@"), 4)
	if apart.gapLen != 0 || !apart.fits("any length") {
		t.Error("a page holding every byte value must be compressed part by part")
	}
	if got := decode(t, apart, "any length", true); got != strings.ReplaceAll(string(every), "@@M@@", "any length") {
		t.Error("a page compressed part by part does not decode back")
	}
}
